"""Whether an API process on another host still runs, seen through PostgreSQL.

An Idempotency-Key claim names the process that holds it (:func:`handfoot.server.claim_holders.process_marker`).
On the claim's own host, /proc answers whether that process runs. Across hosts (several API hosts on
one PostgreSQL) the database answers: before a process claims its first key it takes a session-level
advisory lock named after its marker, on a connection it keeps for its lifetime. When the process
dies, the kernel closes that connection, PostgreSQL ends the session and the lock is gone; another
host that finds the lock free knows the claim's request died with its transactions, and takes the key
over at once instead of after the takeover timeout.

Advisory locks belong to a database, and a process holds one per database, however many engines it
makes (:func:`for_engine` keys them by server and database): a second session of the same process asking
for its own lock would wait on itself. Taking the lock never waits (``pg_try_advisory_lock``); when it
is held elsewhere, the next claim tries again.

A host that vanishes without closing its sockets (a power cut) leaves the session until PostgreSQL's
TCP keepalive ends it; until then the claim looks alive, and the timeout still frees it. A lost liveness
connection (the database restarted) makes this process's claims look dead to other hosts: a key may then
be taken over while its request still runs, which is safe, because a request can complete only the
claim whose token it holds (:class:`handfoot.server.idempotency.Claim`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

log = logging.getLogger(__name__)

#: How often (seconds) a process checks that its own liveness connection still stands before a claim.
RECHECK_SECONDS = 30.0


def lock_key(marker: str) -> int:
    """The advisory lock (a signed 64-bit integer) that process ``marker`` holds while it runs."""
    return int.from_bytes(hashlib.sha256(b"handfoot-liveness\n" + marker.encode()).digest()[:8], "big", signed=True)


class Liveness:
    """One process's liveness lock on one PostgreSQL engine, and the check of another's."""

    def __init__(self, engine: Engine) -> None:
        # Connections of its own, outside the app's pool: the lock's lives as long as the process,
        # and a check must not take a request's second pooled connection.
        self._engine = create_engine(engine.url, poolclass=NullPool)
        self._guard = threading.Lock()
        self._connection: Any = None
        self._inherited: list[Any] = []  # a forked child's copies of its parent's connection: never closed
        self._pid: int | None = None
        self._checked = 0.0

    def hold(self, marker: str) -> None:
        """Make sure this process holds ``marker``'s lock (taken once per process, re-taken when its
        connection was lost). Raises SQLAlchemy's errors when the database cannot be reached."""
        with self._guard:
            now = time.monotonic()
            if self._pid == os.getpid() and now - self._checked < RECHECK_SECONDS:
                return
            if self._pid == os.getpid() and self._standing():
                self._checked = now
                return
            if self._connection is not None and self._pid != os.getpid():
                self._inherited.append(self._connection)  # closing it would end the parent's session
            connection = self._engine.connect()  # kept for the process's lifetime
            held = connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": lock_key(marker)}).scalar()
            connection.commit()  # a session-level lock outlives the transaction
            if not held:
                log.warning("liveness lock of %s is held by another session; trying again at the next claim", marker)
                connection.close()
                return
            self._connection, self._pid, self._checked = connection, os.getpid(), now

    def _standing(self) -> bool:
        try:
            self._connection.execute(text("SELECT 1")).scalar()
            self._connection.commit()
            return True
        except Exception:  # noqa: BLE001 - a broken connection raises the driver's own errors
            return False

    def alive(self, marker: str) -> bool:
        """Whether the process named ``marker`` still holds its lock (so still runs)."""
        key = lock_key(marker)
        with self._engine.connect() as connection:
            free = connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": key}).scalar()
            if free:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
            connection.commit()
        return not free


_BY_DATABASE: dict[tuple[str | None, int | None, str | None], Liveness] = {}
_BY_DATABASE_GUARD = threading.Lock()


def for_engine(engine: Engine) -> Liveness:
    """The :class:`Liveness` of ``engine``'s database (one per server and database per process,
    made with the first engine that asks)."""
    url = engine.url
    with _BY_DATABASE_GUARD:
        found = _BY_DATABASE.get((url.host, url.port, url.database))
        if found is None:
            found = _BY_DATABASE[(url.host, url.port, url.database)] = Liveness(engine)
        return found
