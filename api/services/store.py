"""The units of work of the services: every read and every write of a request goes through here.

A write is one unit (:func:`write`, a decorator on the service): one write transaction
(``Database.write_session``, begun before the service's first read), the request's Idempotency-Key
claimed first and its answer stored last when it has one (:class:`~handfoot.server.idempotency.Key`),
committed once when the service returns (a refused write, which raises, commits nothing). A race it
loses (a unique violation on a round number, a game or table row whose version moved since it was
read, a PostgreSQL serialization failure or deadlock) runs the whole unit again, a few times, and
every run again locks what it writes before it reads it (``locked``), then gives up with
:class:`WriteConflictError` (409). A database that is unreachable or locked past the busy timeout
raises one of ``db.DATABASE_DOWN`` (a 503). A read is :func:`read`: the request's read transaction
(one snapshot).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Concatenate, Generic, ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from handfoot.server.db import Database
from handfoot.server.services.errors import WriteConflictError

if TYPE_CHECKING:
    from handfoot.server.idempotency import Key

#: Runs of a unit of work that lost a race before a 409.
WRITE_ATTEMPTS = 5

#: The unique constraints a lost race violates (named by the naming convention: STYLE P3).
RACE_CONSTRAINTS = (
    "uq_rounds_game_id_number",
    "uq_round_revisions_round_id_revision",
    "uq_table_actions_table_id_version",
)

T = TypeVar("T")
P = ParamSpec("P")


class VersionMovedError(StaleDataError):
    """The row's version is no longer the one the write was computed from: run it again."""


def _lost_race(err: DBAPIError) -> bool:
    """Our unique constraints, or a PostgreSQL serialization failure (40001) or deadlock (40P01)."""
    orig = err.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if sqlstate in ("40001", "40P01"):
        return True
    if isinstance(err, IntegrityError):
        constraint = getattr(getattr(orig, "diag", None), "constraint_name", None)
        # SQLite names the columns, not the constraint: "UNIQUE constraint failed: rounds.game_id, rounds.number"
        text = str(orig)
        return constraint in RACE_CONSTRAINTS or (
            "rounds.game_id, rounds.number" in text
            or "round_revisions.round_id, round_revisions.revision" in text
            or "table_actions.table_id, table_actions.version" in text
        )
    return False


class Unit(Generic[P, T]):
    """A service ``service(session, locked, ...)`` as a unit of work, called as ``unit(db, ...)``, or
    ``unit.run(db, key, ...)`` with the request's Idempotency-Key (claimed before the service runs,
    answered with its result; ``None``: no key). ``locked``: every run reads ``FOR UPDATE``; else only
    a run after a lost race, which the service is told by its second argument."""

    def __init__(self, service: Callable[Concatenate[Session, bool, P], T], locked: bool) -> None:
        functools.update_wrapper(self, service)
        self.service, self.locked = service, locked

    def __call__(self, db: Database, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.run(db, None, *args, **kwargs)

    def run(self, db: Database, key: Key[T] | None, /, *args: P.args, **kwargs: P.kwargs) -> T:
        for attempt in range(WRITE_ATTEMPTS):
            locked = self.locked or attempt > 0
            try:
                with db.write_session(locked=locked) as session:
                    claim = None if key is None else key.claim(session)
                    result = self.service(session, locked, *args, **kwargs)
                    if key is not None and claim is not None:
                        key.answer(session, claim, result)
                    return result
            except StaleDataError:
                pass  # a version moved under us (an ORM flush, or VersionMovedError)
            except DBAPIError as err:
                if not _lost_race(err):
                    raise  # a database down (db.DATABASE_DOWN) is answered 503 by its handler
            time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))
        raise WriteConflictError("the game changed under this request too often; try again")


def write(*, locked: bool = False) -> Callable[[Callable[Concatenate[Session, bool, P], T]], Unit[P, T]]:
    """Decorate a service ``service(session, locked, ...)`` into a :class:`Unit`."""
    return lambda service: Unit(service, locked)


def read(db: Database, fn: Callable[[Session], T]) -> T:
    """``fn`` on the request's read transaction."""
    with db.session() as session:
        return fn(session)
