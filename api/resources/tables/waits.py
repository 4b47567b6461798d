"""Who may wait, per worker process: one wait per seat at a time, and caps on the waits of a client
address and of the process (docs/deploy.md, "Waiting seats").

A waiting request (a long-poll, an event stream) holds one of the worker's threads. So:

- a seat's new wait replaces its wait in progress in this process: the old one answers at once
  (a long-poll with the current view, a stream ends), as a client that reconnects would want;
- past ``HANDFOOT_WAITS_PER_ADDRESS`` waits of one client address (default
  :data:`DEFAULT_PER_ADDRESS`), or ``HANDFOOT_WAITS_PER_PROCESS`` waits in all (default
  :data:`DEFAULT_PER_PROCESS`: of gunicorn's 8 threads a worker, two stay free for the other
  requests; :data:`DEFAULT_PER_PROCESS_GREEN` under gevent), a new wait is a 503 ``waits-full``
  with ``Retry-After``.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field

import flask

from handfoot.server.metrics import SEATS_WAITING
from handfoot.server.problems import abort_problem

#: A client address's waits at once in one worker process (four bots of one local game fit).
DEFAULT_PER_ADDRESS = 4
#: Waits at once in one worker process (gunicorn_conf's 8 threads, less two for other requests).
DEFAULT_PER_PROCESS = 6
#: The same under gevent (``HANDFOOT_WORKER_CLASS=gevent``), where a wait holds a greenlet, not a
#: thread: half of gunicorn_conf's 1,000 connections a worker.
DEFAULT_PER_PROCESS_GREEN = 500
#: Seconds a client refused a wait is told to wait before it asks again.
RETRY_AFTER = 2

EXTENSION_KEY = "handfoot.waits"


@dataclass(eq=False)
class Ticket:
    """A wait admitted; ``superseded`` is set when the seat's next wait replaces it; ``replaced``:
    whether this one replaced a wait in progress (whose owner must be woken to see it)."""

    superseded: threading.Event = field(default_factory=threading.Event)
    replaced: bool = False


class Waits:
    """The waits in progress in this process, by seat and by client address."""

    def __init__(self, per_address: int, per_process: int) -> None:
        self.per_address, self.per_process = per_address, per_process
        self._lock = threading.Lock()
        self._seats: dict[tuple[int, int], Ticket] = {}
        self._addresses: dict[str, int] = {}
        self._count = 0

    @contextmanager
    def admit(self, table_id: int, seat: int, address: str) -> Iterator[Ticket]:
        """The seat's wait for the block; its previous wait here is superseded (returned at once by
        its owner, who wakes it). A 503 ``waits-full`` past a cap."""
        with self._lock:
            if self._count >= self.per_process or self._addresses.get(address, 0) >= self.per_address:
                full = "this server's" if self._count >= self.per_process else "this address's"
                abort_problem(
                    503,
                    "Too many waiting requests",
                    f"{full} waiting requests are at their limit; wait again after Retry-After seconds",
                    type_slug="waits-full",
                    retry_after=RETRY_AFTER,
                )
            previous = self._seats.get((table_id, seat))
            ticket = Ticket(replaced=previous is not None)
            if previous is not None:
                previous.superseded.set()
            self._seats[(table_id, seat)] = ticket
            self._addresses[address] = self._addresses.get(address, 0) + 1
            self._count += 1
        SEATS_WAITING.inc()
        try:
            yield ticket
        finally:
            SEATS_WAITING.dec()
            with self._lock:
                if self._seats.get((table_id, seat)) is ticket:
                    del self._seats[(table_id, seat)]
                left = self._addresses[address] - 1
                if left:
                    self._addresses[address] = left
                else:
                    del self._addresses[address]
                self._count -= 1


def green() -> bool:
    """Whether this process runs on gevent (its threads are greenlets: gunicorn's gevent worker)."""
    monkey = sys.modules.get("gevent.monkey")  # imported by gevent's worker before it patches
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def of_app(app: flask.Flask | None = None) -> Waits:
    """The app's :class:`Waits` (made on first use from its ``WAITS_PER_ADDRESS`` and
    ``WAITS_PER_PROCESS``)."""
    target = app if app is not None else flask.current_app
    waits: Waits | None = target.extensions.get(EXTENSION_KEY)
    if waits is None:
        waits = target.extensions.setdefault(
            EXTENSION_KEY,
            Waits(
                int(target.config.get("WAITS_PER_ADDRESS") or DEFAULT_PER_ADDRESS),
                int(
                    target.config.get("WAITS_PER_PROCESS")
                    or (DEFAULT_PER_PROCESS_GREEN if green() else DEFAULT_PER_PROCESS)
                ),
            ),
        )
    return waits


def admit(table_id: int, seat: int) -> AbstractContextManager[Ticket]:
    """:meth:`Waits.admit` for this request's client address."""
    return of_app().admit(table_id, seat, flask.request.remote_addr or "unknown")
