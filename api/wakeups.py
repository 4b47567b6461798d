"""Wake-ups: a seat waiting for a table's change is woken by the write that changes it, never by
polling its row (docs/deploy.md, "Waiting seats").

In a process, a :class:`Hub` keeps a condition per watched table; a waiter takes its
:meth:`Hub.watch` before it reads the table, so no change committed meanwhile is missed. The write
calls :func:`announce` in its transaction; the hub is notified on commit. Across processes the
database's channel (``db.channels``: PostgreSQL's ``LISTEN``/``NOTIFY``, datagrams beside a SQLite
file, none for an in-memory database) carries the change, heard by one listener thread a process,
started by the first wait. A waiter re-reads at least every :data:`SAFETY_SECONDS`, so a lost
notification delays a hand-over, never hangs it.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.orm import Session

from handfoot.server.db import SESSION_DATABASE, Database

#: Seconds a waiter waits at most between two reads of its table, whatever it hears.
SAFETY_SECONDS = 10.0


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
    """A database's hub and its channel (``Database.channel``), listened to from the first :meth:`watch`."""

    def __init__(self, db: Database) -> None:
        self.hub = Hub()
        self.pid = os.getpid()
        self.channel = db.channel()
        self._started = False
        self._start_lock = threading.Lock()

    @contextmanager
    def watch(self, table_id: int) -> Iterator[Waiter]:
        if not self._started:
            with self._start_lock:
                if not self._started:
                    self.channel.listen(self.hub)
                    self._started = True
        with self.hub.watch(table_id) as waiter:
            yield waiter


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
    on a rollback, in this process and through the database's channel in the others."""
    wakeups, ids = of(session.info[SESSION_DATABASE]), list(table_ids)
    wakeups.channel.send(session.connection(), ids)  # PostgreSQL's NOTIFY, delivered on commit
    session.info.setdefault(_PENDING, {}).setdefault(wakeups, set()).update(ids)


_PENDING = "handfoot_wakeups"


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    for wakeups, ids in session.info.pop(_PENDING, {}).items():
        changed = sorted(ids)
        wakeups.hub.notify(changed)  # this process's waiters
        wakeups.channel.committed(changed)  # a SQLite file's other processes


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(_PENDING, None)


def close(db: Database) -> None:
    """Stop ``db``'s listener, if it has one (:meth:`Database.dispose`)."""
    wakeups: Wakeups | None = db.__dict__.pop(_ATTRIBUTE, None)
    if wakeups is not None and wakeups.pid == os.getpid():
        wakeups.channel.close()
