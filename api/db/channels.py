"""The channels of table wake-ups between processes, one per database (``Database.channel``); the
waiters and their hub are ``handfoot.server.wakeups``'.

PostgreSQL (:class:`PostgresChannel`): each write sends ``NOTIFY handfoot_tables, '<id>'`` in its
transaction (delivered on commit, to every host), heard by one ``LISTEN`` connection a process. A
SQLite file (:class:`SocketChannel`): after each commit, a Unix datagram to each listening process's
socket in a folder named after the database. An in-memory SQLite database (:class:`Channel`): none,
one process's hub alone. A listener runs on a thread of its own, started by the process's first wait.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import socket
import tempfile
import threading
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, text

#: The PostgreSQL channel; a notification's payload is the table's id.
CHANNEL = "handfoot_tables"
#: Seconds a listener blocks at most before it looks whether it was closed.
_LISTEN_TICK = 1.0

log = logging.getLogger("handfoot.server.wakeups")


class Hearer(Protocol):
    """What a listener tells (``wakeups.Hub``): the tables changed, or that it may have missed some."""

    def notify(self, table_ids: list[int]) -> None: ...

    def notify_all(self) -> None: ...


class Channel:
    """No channel: an in-memory database, one process (its hub hears its own writes)."""

    def send(self, connection: Connection, table_ids: list[int]) -> None:
        """In the write transaction that changes ``table_ids``, before its commit."""

    def committed(self, table_ids: list[int]) -> None:
        """After the transaction that changed ``table_ids`` committed."""

    def listen(self, hearer: Hearer) -> None:
        """Tell ``hearer`` the other processes' changes from now on (synchronously subscribed: a change
        committed after this returns is heard)."""

    def close(self) -> None:
        """Stop listening (the listener ends within :data:`_LISTEN_TICK`)."""


_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class PostgresChannel(Channel):
    """``NOTIFY`` in the write's transaction; one ``LISTEN`` connection of its own (out of the pool)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._closed = threading.Event()

    def send(self, connection: Connection, table_ids: list[int]) -> None:
        for table_id in table_ids:
            connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": str(table_id)})

    def listen(self, hearer: Hearer) -> None:
        _start(self._listen, self._connect(), hearer)

    def _connect(self) -> Any:
        """A psycopg connection of its own (out of the pool) listening on :data:`CHANNEL`."""
        raw = self._engine.raw_connection()
        connection = raw.driver_connection
        assert connection is not None
        raw.detach()  # the pool forgets it: it is the listener's for good
        connection.autocommit = True
        connection.execute(f"LISTEN {CHANNEL}")
        return connection

    def _listen(self, connection: Any, hearer: Hearer) -> None:
        while not self._closed.is_set():
            try:
                for note in connection.notifies(timeout=_LISTEN_TICK):
                    with contextlib.suppress(ValueError):
                        hearer.notify([int(note.payload)])
            except Exception as error:  # noqa: BLE001 - any driver or network error: connect again
                with contextlib.suppress(Exception):
                    connection.close()
                if self._closed.wait(_LISTEN_TICK):
                    return
                log.warning("table wake-ups: listening again after %s", error)
                try:
                    connection = self._connect()
                except Exception:  # noqa: BLE001 - still unreachable: the next turn tries again
                    continue
                hearer.notify_all()  # notifications sent while it was away are lost: read again
        with contextlib.suppress(Exception):
            connection.close()

    def close(self) -> None:
        self._closed.set()


class SocketChannel(Channel):
    """A datagram to every listener's socket in ``folder`` after each commit (:func:`socket_folder`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._socket: socket.socket | None = None
        self._closed = threading.Event()

    def committed(self, table_ids: list[int]) -> None:
        """Send each id to every listener of the folder but this process's; a dead one's socket is removed."""
        if not table_ids:
            return
        try:
            names = [entry.path for entry in os.scandir(self.folder)]
        except OSError:
            return  # no process listens yet
        skip = self._socket.getsockname() if self._socket is not None else None
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            for name in names:
                if name == skip:
                    continue
                for table_id in table_ids:
                    try:
                        sender.sendto(b"%d" % table_id, name)
                    except ConnectionRefusedError:  # nobody bound: a process that died
                        with contextlib.suppress(OSError):
                            os.unlink(name)
                        break
                    except OSError:  # a full queue, a socket just removed: its waiters re-read later
                        break

    def listen(self, hearer: Hearer) -> None:
        self._socket = _bind(self.folder)
        _start(self.receive, self._socket, hearer)

    def receive(self, sock: socket.socket, hearer: Hearer) -> None:
        """The listener: each datagram's table id told to ``hearer`` until closed."""
        try:
            sock.settimeout(_LISTEN_TICK)
        except OSError:  # closed before this thread ran (the database disposed at once)
            return
        while not self._closed.is_set():
            try:
                payload = sock.recv(64)
            except TimeoutError:
                continue
            except OSError:
                return
            with contextlib.suppress(ValueError):
                hearer.notify([int(payload)])

    def close(self) -> None:
        """Stop the listener and remove its socket (and the folder, when it was the last)."""
        self._closed.set()
        if self._socket is not None:
            name = self._socket.getsockname()
            self._socket.close()
            with contextlib.suppress(OSError):
                os.unlink(name)
            with contextlib.suppress(OSError):  # the last listener of this database here
                Path(name).parent.rmdir()


def socket_folder(file: Path) -> Path:
    """Where the listeners of the SQLite file ``file`` bind (the temp directory: a Unix socket's path
    is short)."""
    digest = hashlib.sha256(str(file.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"handfoot-wake-{digest}"


_names = iter(range(1 << 62))


def _bind(folder: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = str(folder / f"{os.getpid()}.{next(_names)}")
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        sock.bind(name)
    except FileNotFoundError:  # the last listener of another process removed the folder meanwhile
        folder.mkdir(mode=0o700, exist_ok=True)
        sock.bind(name)
    return sock


def _start(target: Any, *args: Any) -> None:
    thread = threading.Thread(target=target, args=args, name="handfoot-wakeups", daemon=True)
    thread.start()
