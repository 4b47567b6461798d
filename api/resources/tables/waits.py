"""Who may wait, per worker process (docs/deploy.md, "Waiting seats"): one wait (a long-poll, an
event stream) per seat at a time, a seat's new wait replacing its old one (answered at once); and
caps on the waits of a client address, of an owner's tables (an API key's; the keyless tables are
one owner) and of the process (``HANDFOOT_WAITS_PER_ADDRESS``, ``..._PER_OWNER``,
``..._PER_PROCESS``; defaults below, larger under gevent). Past a cap, a 503 ``waits-full`` with
``Retry-After`` (seconds: :data:`RETRY_AFTER`, longer while the worker refuses many seats). An
owner's cap stays below the process's, so one key holder never takes every wait.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field

import flask

from handfoot.server.auth import SeatActor
from handfoot.server.metrics import SEATS_WAITING
from handfoot.server.problems import abort_problem

#: Waits at once in one worker process of a client address (four bots of one local game), of one
#: owner's seats (the four of one table) and in all (gunicorn_conf's 8 threads less two for other
#: requests). Under gevent a wait is a sleeping greenlet: the process takes half of its 1,000
#: connections, an address or an owner half of that, so one always leaves room for the others.
DEFAULT_PER_ADDRESS = 4
DEFAULT_PER_OWNER = 4
DEFAULT_PER_PROCESS = 6
DEFAULT_PER_ADDRESS_GREEN = 250
DEFAULT_PER_OWNER_GREEN = 250
DEFAULT_PER_PROCESS_GREEN = 500
#: Seconds a refused client is told to wait while few seats are refused; past that each is told a
#: later time, so a crowd costs about :data:`REFUSALS_PER_SECOND` requests a second, from
#: :data:`RETRY_AFTER_CROWDED` (past gunicorn's 5 s ``keepalive``) to :data:`RETRY_AFTER_MAX`.
RETRY_AFTER = 2
REFUSALS_PER_SECOND = 10
RETRY_AFTER_CROWDED = 10
RETRY_AFTER_MAX = 60

EXTENSION_KEY = "handfoot.waits"


@dataclass(eq=False)
class Ticket:
    """A wait admitted; ``superseded`` is set when the seat's next wait replaces it; ``replaced``:
    whether this one replaced a wait in progress (whose owner must be woken to see it)."""

    superseded: threading.Event = field(default_factory=threading.Event)
    replaced: bool = False


#: The owner of the tables made without an API key (a table's ``owner_id`` is ``None``).
KEYLESS = None


class Waits:
    """The waits in progress in this process, by seat, by client address and by owner (a table's API
    key's id, :data:`KEYLESS` for none); ``per_owner`` is held below ``per_process``."""

    def __init__(
        self,
        per_address: int,
        per_process: int,
        per_owner: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address, self.per_process = per_address, per_process
        self.per_owner = max(1, min(per_owner or per_process, per_process - 1))
        self._lock = threading.Lock()
        self._seats: dict[tuple[int, int], Ticket] = {}
        self._addresses: Counter[str] = Counter()
        self._owners: Counter[int | None] = Counter()
        self._count = 0
        self._clock = clock
        #: The seats refused in the last RETRY_AFTER_MAX seconds, by their last refusal's time
        #: (oldest first); each admitted seat leaves it.
        self._refused: dict[tuple[int, int], float] = {}

    def _retry_after(self, seat: tuple[int, int]) -> int:
        """Seconds ``seat``, refused now, should wait: :data:`RETRY_AFTER` for a few refused seats,
        else enough for all of them to come back at :data:`REFUSALS_PER_SECOND` (at least
        :data:`RETRY_AFTER_CROWDED`, at most :data:`RETRY_AFTER_MAX`). Called under the lock."""
        now = self._clock()
        self._refused.pop(seat, None)
        while self._refused:  # oldest first: drop the seats that stayed away
            oldest = next(iter(self._refused))
            if now - self._refused[oldest] <= RETRY_AFTER_MAX:
                break
            del self._refused[oldest]
        self._refused[seat] = now
        refused = len(self._refused)
        if refused <= REFUSALS_PER_SECOND * RETRY_AFTER:
            return RETRY_AFTER
        return min(RETRY_AFTER_MAX, max(RETRY_AFTER_CROWDED, -(-refused // REFUSALS_PER_SECOND)))

    def _full(self, address: str, owner: int | None) -> str | None:
        """Whose waits are at their cap (``"this server's"``, ...), or ``None``."""
        if self._count >= self.per_process:
            return "this server's"
        if self._owners[owner] >= self.per_owner:
            return "this table owner's"
        if self._addresses[address] >= self.per_address:
            return "this address's"
        return None

    @contextmanager
    def admit(self, table_id: int, seat: int, address: str, owner: int | None = KEYLESS) -> Iterator[Ticket]:
        """The wait of seat ``seat`` of table ``table_id`` (whose owner is ``owner``) for the block;
        its previous wait here is superseded (returned at once by its owner, who wakes it). A 503
        ``waits-full`` past a cap."""
        with self._lock:
            full = self._full(address, owner)
            if full is not None:
                abort_problem(
                    503,
                    "Too many waiting requests",
                    f"{full} waiting requests are at their limit; wait again after Retry-After seconds",
                    type_slug="waits-full",
                    retry_after=self._retry_after((table_id, seat)),
                )
            self._refused.pop((table_id, seat), None)
            previous = self._seats.get((table_id, seat))
            ticket = Ticket(replaced=previous is not None)
            if previous is not None:
                previous.superseded.set()
            self._seats[(table_id, seat)] = ticket
            self._addresses[address] += 1
            self._owners[owner] += 1
            self._count += 1
        SEATS_WAITING.inc()
        try:
            yield ticket
        finally:
            SEATS_WAITING.dec()
            with self._lock:
                if self._seats.get((table_id, seat)) is ticket:
                    del self._seats[(table_id, seat)]
                self._addresses -= Counter({address: 1})  # a count at 0 leaves the Counter
                self._owners -= Counter({owner: 1})
                self._count -= 1


def green() -> bool:
    """Whether this process runs on gevent (its threads are greenlets: gunicorn's gevent worker)."""
    monkey = sys.modules.get("gevent.monkey")  # imported by gevent's worker before it patches
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def of_app(app: flask.Flask | None = None) -> Waits:
    """The app's :class:`Waits` (made on first use from its ``WAITS_PER_ADDRESS``,
    ``WAITS_PER_PROCESS`` and ``WAITS_PER_OWNER``)."""
    target = app if app is not None else flask.current_app
    waits: Waits | None = target.extensions.get(EXTENSION_KEY)
    if waits is None:
        gevent = green()
        defaults = {
            "ADDRESS": DEFAULT_PER_ADDRESS_GREEN if gevent else DEFAULT_PER_ADDRESS,
            "PROCESS": DEFAULT_PER_PROCESS_GREEN if gevent else DEFAULT_PER_PROCESS,
            "OWNER": DEFAULT_PER_OWNER_GREEN if gevent else DEFAULT_PER_OWNER,
        }
        caps = [int(target.config.get(f"WAITS_PER_{who}") or default) for who, default in defaults.items()]
        waits = target.extensions.setdefault(EXTENSION_KEY, Waits(*caps))
    return waits


def admit(actor: SeatActor) -> AbstractContextManager[Ticket]:
    """:meth:`Waits.admit` for the seat ``actor`` (its table's owner) and this request's client
    address."""
    return of_app().admit(actor.table_id, actor.seat, flask.request.remote_addr or "unknown", actor.table_owner)
