"""Wake-ups: a seat waiting for a table's change is woken by the write that changes it, never by
polling its row (docs/deploy.md, "Waiting seats").

In a process, a :class:`Hub` keeps a condition per watched table; a waiter takes its
:meth:`Hub.watch` before it reads the table, so no change committed meanwhile is missed. The write
calls :func:`announce` in its transaction; the hub is notified on commit. Across processes one
listener thread a process, started by the first wait: on PostgreSQL a ``LISTEN`` connection fed by
each write's ``NOTIFY handfoot_tables, '<id>'`` (delivered on commit, to every host); on a SQLite
file a Unix datagram to each listening process's socket in a folder named after the database; an
in-memory database has the hub alone. A waiter re-reads at least every :data:`SAFETY_SECONDS`, so a
lost notification delays a hand-over, never hangs it.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import socket
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from handfoot.server.db import Database

#: Seconds a waiter waits at most between two reads of its table, whatever it hears.
SAFETY_SECONDS = 10.0
#: The PostgreSQL channel; a notification's payload is the table's id.
CHANNEL = "handfoot_tables"
#: Seconds a listener blocks at most before it looks whether it was closed.
_LISTEN_TICK = 1.0

log = logging.getLogger(__name__)


class _Table:
    """The waiters of one table: their count and the table's changes heard since the first came."""

    __slots__ = ("changes", "condition", "waiters")

    def __init__(self, lock: threading.Lock) -> None:
        self.condition = threading.Condition(lock)
        self.changes = 0
        self.waiters = 0


class Waiter:
    """One waiter of a table (from :meth:`Hub.watch`)."""

    def __init__(self, lock: threading.Lock, entry: _Table) -> None:
        self._lock, self._entry, self._seen = lock, entry, entry.changes

    def wait(self, timeout: float) -> bool:
        """Wait until the table changes (a change since the watch began, or the last wait, counts) or
        ``timeout`` seconds pass; whether it changed."""
        with self._lock:
            if self._entry.changes == self._seen and timeout > 0:
                self._entry.condition.wait(timeout)
            changed = self._entry.changes != self._seen
            self._seen = self._entry.changes
            return changed


class Hub:
    """Conditions of the tables that have waiters in this process; one lock for all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[int, _Table] = {}

    @contextmanager
    def watch(self, table_id: int) -> Iterator[Waiter]:
        """A waiter of table ``table_id`` for the block: take it before reading the table."""
        with self._lock:
            entry = self._tables.get(table_id)
            if entry is None:
                entry = self._tables[table_id] = _Table(self._lock)
            entry.waiters += 1
        try:
            yield Waiter(self._lock, entry)
        finally:
            with self._lock:
                entry.waiters -= 1
                if entry.waiters == 0:
                    del self._tables[table_id]

    def notify(self, table_ids: Iterable[int]) -> None:
        """Wake the waiters of each table of ``table_ids`` (a table without waiters: nothing)."""
        with self._lock:
            for table_id in table_ids:
                entry = self._tables.get(table_id)
                if entry is not None:
                    entry.changes += 1
                    entry.condition.notify_all()

    def notify_all(self) -> None:
        """Wake every waiter (a listener that may have missed notifications: each reads again)."""
        with self._lock:
            tables = list(self._tables)
        self.notify(tables)

    def waiting(self) -> int:
        """How many waiters this hub has (all tables)."""
        with self._lock:
            return sum(entry.waiters for entry in self._tables.values())


class Wakeups:
    """A database's hub and its listener (started by the first :meth:`watch`)."""

    def __init__(self, db: Database) -> None:
        self.hub = Hub()
        self.pid = os.getpid()
        self._db = db
        self._started = False
        self._start_lock = threading.Lock()
        self._closed = threading.Event()
        self._socket: socket.socket | None = None
        self._folder = _socket_folder(db.url) if db.is_sqlite else None

    @contextmanager
    def watch(self, table_id: int) -> Iterator[Waiter]:
        self._listen()
        with self.hub.watch(table_id) as waiter:
            yield waiter

    def changed(self, table_ids: list[int]) -> None:
        """After a commit that changed ``table_ids``: wake this process's waiters and, on SQLite, the
        other processes' (on PostgreSQL the transaction's NOTIFY reaches them)."""
        self.hub.notify(table_ids)
        if self._folder is not None and table_ids:
            _broadcast(self._folder, self._socket, table_ids)

    def _listen(self) -> None:
        """Start the listener once (synchronously subscribed: a change committed after this is heard)."""
        if self._started or (self._folder is None and self._db.is_sqlite):
            return
        with self._start_lock:
            if self._started:
                return
            if self._folder is not None:
                self._socket = _bind(self._folder)
                thread = threading.Thread(target=self._receive, args=(self._socket,))
            else:
                thread = threading.Thread(target=self._listen_postgresql, args=(self._connect(),))
            thread.name, thread.daemon = "handfoot-wakeups", True
            thread.start()
            self._started = True

    def _receive(self, sock: socket.socket) -> None:
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
                self.hub.notify([int(payload)])

    def _connect(self) -> Any:
        """A psycopg connection of its own (out of the pool) listening on :data:`CHANNEL`."""
        raw = self._db.engine.raw_connection()
        connection = raw.driver_connection
        assert connection is not None
        raw.detach()  # the pool forgets it: it is the listener's for good
        connection.autocommit = True
        connection.execute(f"LISTEN {CHANNEL}")
        return connection

    def _listen_postgresql(self, connection: Any) -> None:
        while not self._closed.is_set():
            try:
                for note in connection.notifies(timeout=_LISTEN_TICK):
                    with contextlib.suppress(ValueError):
                        self.hub.notify([int(note.payload)])
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
                self.hub.notify_all()  # notifications sent while it was away are lost: read again
        with contextlib.suppress(Exception):
            connection.close()

    def close(self) -> None:
        """Stop the listener (it ends within :data:`_LISTEN_TICK`) and remove its socket."""
        self._closed.set()
        if self._socket is not None:
            name = self._socket.getsockname()
            self._socket.close()
            with contextlib.suppress(OSError):
                os.unlink(name)
            with contextlib.suppress(OSError):  # the last listener of this database here
                Path(name).parent.rmdir()


def _socket_folder(url: str) -> Path | None:
    """Where a SQLite file's listeners bind (the temp directory: a Unix socket's path is short);
    ``None`` for an in-memory database."""
    from handfoot.server.db import sqlite_file  # db.py imports this module

    file = sqlite_file(url)
    if file is None:
        return None
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


def _broadcast(folder: Path, own: socket.socket | None, table_ids: list[int]) -> None:
    """Send each id to every listener of ``folder`` but ``own``; a dead one's socket is removed."""
    try:
        names = [entry.path for entry in os.scandir(folder)]
    except OSError:
        return  # no process listens yet
    skip = own.getsockname() if own is not None else None
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


_ATTRIBUTE = "_handfoot_wakeups"  # a Database's own, in the process that made it
_registry_lock = threading.Lock()


def of(db: Database) -> Wakeups:
    """The wake-ups of ``db`` in this process (made on first use; a forked child, which has none of
    its parent's threads, makes its own)."""
    wakeups: Wakeups | None = db.__dict__.get(_ATTRIBUTE)
    if wakeups is None or wakeups.pid != os.getpid():
        with _registry_lock:
            wakeups = db.__dict__.get(_ATTRIBUTE)
            if wakeups is None or wakeups.pid != os.getpid():
                wakeups = Wakeups(db)
                setattr(db, _ATTRIBUTE, wakeups)
    return wakeups


def watch(db: Database, table_id: int) -> contextlib.AbstractContextManager[Waiter]:
    """A waiter of table ``table_id`` on ``db`` (:meth:`Hub.watch`); take it before reading the table."""
    return of(db).watch(table_id)


def announce(session: Session, table_ids: Iterable[int]) -> None:
    """In the write transaction that changes ``table_ids``: their waiters wake when it commits, never
    on a rollback (PostgreSQL: a ``NOTIFY`` for each, to every host)."""
    from handfoot.server.db import Database  # db.py imports this module

    ids, db = list(table_ids), Database.of(session)
    for table_id in ids:
        db.notify(session.connection(), CHANNEL, str(table_id))
    pending = session.info.setdefault(_PENDING, {})
    pending.setdefault(of(db), set()).update(ids)


_PENDING = "handfoot_wakeups"


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    for wakeups, ids in session.info.pop(_PENDING, {}).items():
        wakeups.changed(sorted(ids))


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(_PENDING, None)


def close(db: Database) -> None:
    """Stop ``db``'s listener, if it has one (:meth:`Database.dispose`)."""
    wakeups: Wakeups | None = db.__dict__.pop(_ATTRIBUTE, None)
    if wakeups is not None and wakeups.pid == os.getpid():
        wakeups.close()
