"""Rate-limit counters every process on one host shares: a ``limits`` storage on a SQLite file
(stdlib ``sqlite3``, WAL), and :class:`Leases`, which takes a busy key's requests from a storage in
batches.

``limits``' in-memory storage counts per process: ``N`` gunicorn workers would grant ``N`` times
the limit. Here one ``INSERT ... ON CONFLICT ... RETURNING`` counts a hit atomically whatever the
process (URI ``handfoot+sqlite://`` and an absolute path); across hosts, use Redis. The counters
need no durability (``synchronous=NORMAL``). Errors: ``sqlite3.Error``, raised to the request.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from limits.storage import Storage

SCHEME = "handfoot+sqlite"

#: Expired windows are deleted once every this many hits (keeps the file as small as the live keys).
PURGE_EVERY = 1000

#: Seconds for which this process's own last hit answers ``get``/``get_expiry`` of its key without a
#: query: a lease (:meth:`Leases.take`) reads the expiry right after its hit, for the
#: ``X-RateLimit-*`` headers of the same answer, which then describe the window as that hit left it.
OWN_HIT_FRESH_SECONDS = 0.5

_SCHEMA = "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL, expires_at REAL NOT NULL)"
# A window that has expired starts again at ``amount`` with a new expiry (fixed-window semantics of
# limits' own MemoryStorage.incr).
_INCR = """
INSERT INTO counters (key, value, expires_at) VALUES (:key, :amount, :expires_at)
ON CONFLICT (key) DO UPDATE SET
    value = CASE WHEN counters.expires_at <= :now THEN excluded.value ELSE counters.value + excluded.value END,
    expires_at = CASE WHEN counters.expires_at <= :now THEN excluded.expires_at ELSE counters.expires_at END
RETURNING value, expires_at
"""


def default_uri(database_url: str) -> str:
    """The default storage of a server on ``database_url``: a file named after the URL in ``/dev/shm``
    (no disk I/O) or else the temp directory, shared by that server's workers on this host."""
    digest = hashlib.sha256(database_url.encode()).hexdigest()[:16]
    folder = (
        Path("/dev/shm")
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK)
        else Path(tempfile.gettempdir())
    )
    return f"{SCHEME}://{folder / f'handfoot-limits-{digest}.sqlite3'}"


class SQLiteStorage(Storage):
    """Fixed-window counters in a SQLite file shared by processes (one connection per process)."""

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 - limits types it an instance variable

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = uri.split("://", 1)[1]
        if not os.path.isabs(self.path):
            raise ValueError(f"{SCHEME} storage needs an absolute path, got {uri!r}")
        self._lock = threading.Lock()
        self._pid = -1
        self._connection: sqlite3.Connection | None = None
        self._hits = 0
        self._last: tuple[str, int, float, float] | None = None  # key, value, expires_at, when (monotonic)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        # One connection per process: a connection opened before gunicorn forks is not reused.
        if self._connection is None or self._pid != os.getpid():
            connection = sqlite3.connect(self.path, timeout=5, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute(_SCHEMA)
            self._connection, self._pid = connection, os.getpid()
        return self._connection

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add ``amount`` to ``key``'s window (``expiry`` seconds long) and return its count."""
        now = time.time()
        with self._lock:
            db = self._db()
            row = db.execute(_INCR, {"key": key, "amount": amount, "expires_at": now + expiry, "now": now}).fetchone()
            self._last = (key, int(row[0]), float(row[1]), time.monotonic())
            self._hits += 1
            if self._hits % PURGE_EVERY == 0:
                db.execute("DELETE FROM counters WHERE expires_at <= ?", (now,))
        return int(row[0])

    def _read(self, key: str) -> tuple[int, float] | None:
        """``(value, expires_at)`` of ``key``'s live window: this process's own last hit while it is
        fresh, else the file's row (``None``: no live window)."""
        last = self._last
        if last is not None and last[0] == key and time.monotonic() - last[3] < OWN_HIT_FRESH_SECONDS:
            return last[1], last[2]
        with self._lock:
            row = (
                self._db()
                .execute("SELECT value, expires_at FROM counters WHERE key = ? AND expires_at > ?", (key, time.time()))
                .fetchone()
            )
        return None if row is None else (int(row[0]), float(row[1]))

    def get(self, key: str) -> int:
        found = self._read(key)
        return 0 if found is None else found[0]

    def get_expiry(self, key: str) -> float:
        found = self._read(key)
        return time.time() if found is None else found[1]

    def check(self) -> bool:
        try:
            with self._lock:
                self._db().execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        with self._lock:
            self._last = None
            return self._db().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        with self._lock:
            self._last = None
            self._db().execute("DELETE FROM counters WHERE key = ?", (key,))


#: A worker takes at most this many requests of a key's allowance from the shared counters at once.
LEASE_MAX = 16
#: ... and at most this share of what the window had left when it last looked (so near the limit it
#: takes one at a time, and the limit is counted exactly there).
LEASE_FRACTION = 64


class Leases:
    """A key's requests taken from the shared counters in batches ("leases"), one storage hit each. A
    lease counts when taken, so no key gets more than the limit; one leased and unused is lost until
    the window ends (a key is refused at most ``(W - 1) * min(LEASE_MAX, limit // LEASE_FRACTION)``
    requests early, ``W`` the workers). Per process, under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = os.getpid()
        # counter -> [tokens left, next count, expires_at, remaining seen at the last storage hit]
        self._leases: dict[str, list[float]] = {}

    def take(self, storage: Storage, counter: str, limit: int, expiry: int) -> tuple[int, float]:
        now = time.time()
        with self._lock:
            if self._pid != os.getpid():
                self._leases, self._pid = {}, os.getpid()
            lease = self._leases.get(counter)
            if lease is not None and lease[2] > now:
                if lease[0] > 0:
                    lease[0] -= 1
                    lease[1] += 1
                    return int(lease[1]), lease[2]
                if lease[3] <= 0:  # the window was spent when last seen; counts only grow in a window
                    return limit + 1, lease[2]
                seen = int(lease[3])
            else:
                seen = 0  # a new window (or a new key): take one and look
            size = max(1, min(LEASE_MAX, seen // LEASE_FRACTION))
            total = storage.incr(counter, expiry, size)
            expires_at = storage.get_expiry(counter)
            first = total - size + 1  # this request's count; the lease holds first+1 .. total
            usable = max(0, min(total, limit) - first)  # the lease's requests within the limit
            if len(self._leases) > 10_000:  # drop ended windows of keys gone quiet
                self._leases = {k: v for k, v in self._leases.items() if v[2] > now}
            self._leases[counter] = [usable, first, expires_at, limit - total]
            return first, expires_at
