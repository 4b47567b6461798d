"""Transactions of the services: every read and every write of a request goes through here.

A write is one unit of work, one transaction (:func:`transaction`, a decorator on the service): the
service gets the request's session, reads on it, calls :func:`begin_write` where its writes begin,
and what it wrote is committed once when it returns (a refused write, which raises, commits
nothing). On SQLite the write begins with ``BEGIN IMMEDIATE`` (the reads before it, with no lock
held, end first: ``Database.begin_write``); on PostgreSQL it continues the request's ``REPEATABLE
READ`` transaction. A race it loses (a unique violation on a round number, a game row whose version
moved since it was read, a PostgreSQL serialization failure or deadlock) runs the whole unit again,
reads included (a service that read with no lock held locks first then: :func:`run_again`), a few
times, then gives up with :class:`WriteConflictError` (409). A database that
is unreachable or locked past the busy timeout raises :class:`StoreUnavailableError` (503).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from handfoot.server.db import DATABASE_KEY, Database
from handfoot.server.services.errors import StoreUnavailableError, WriteConflictError

#: Attempts of a unit of work that lost a race before a 409.
WRITE_ATTEMPTS = 5

#: Whether the unit of work :func:`retrying` runs now is a run after a lost race (:func:`run_again`).
_RUNNING_AGAIN: ContextVar[bool] = ContextVar("handfoot_running_again", default=False)

#: The unique constraints a lost race violates (named by the naming convention: STYLE P3).
RACE_CONSTRAINTS = (
    "uq_rounds_game_id_number",
    "uq_round_revisions_round_id_revision",
    "uq_table_actions_table_id_version",
)

T = TypeVar("T")
P = ParamSpec("P")


class VersionMovedError(StaleDataError):
    """The game row's version is no longer the one the write was computed from: run it again."""


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


def retrying(unit: Callable[[], T], db: Database | None = None) -> T:
    """Run ``unit`` (its reads and its one write transaction), again after a lost race. Inside a
    write transaction of ``db``'s that is already open (a request whose Idempotency-Key is claimed
    in it), ``unit`` runs once: a lost race rolls that whole transaction back, and the retry is the
    outer one's."""
    if db is not None and db.writing():
        return unit()
    for attempt in range(WRITE_ATTEMPTS):
        again = _RUNNING_AGAIN.set(attempt > 0)
        try:
            return unit()
        except StaleDataError:
            pass  # the game's version moved under us (an ORM flush, or VersionMovedError)
        except DBAPIError as err:
            if not _lost_race(err):
                if isinstance(err, OperationalError | InterfaceError):
                    raise StoreUnavailableError(str(err.orig)) from err
                raise
        finally:
            _RUNNING_AGAIN.reset(again)
        time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))
    raise WriteConflictError("the game changed under this request too often; try again")


def transaction(service: Callable[Concatenate[Session, P], T]) -> Callable[Concatenate[Database, P], T]:
    """Decorate a service ``service(session, ...)`` into ``service(db, ...)``: one unit of work on
    ``db``'s request session (``Database.unit``), committed once if it wrote (module docstring),
    run again after a lost race (:func:`retrying`)."""

    @functools.wraps(service)
    def run(db: Database, /, *args: P.args, **kwargs: P.kwargs) -> T:
        def unit() -> T:
            with db.unit() as session:
                return service(session, *args, **kwargs)

        return retrying(unit, db)

    return run


def run_again() -> bool:
    """Whether the unit of work running now runs again after it lost a race (set by :func:`retrying`
    for the unit it retries, an Idempotency-Key's whole request included). A service that first reads
    with no lock held (so that writers of other games, and its own checks, run side by side) begins
    its write before it reads this time (:func:`begin_locked_write`): nobody can come between its read
    and its write, so it loses at most once, however busy its game is."""
    return _RUNNING_AGAIN.get()


def database_of(session: Session) -> Database:
    """The :class:`Database` whose session ``session`` is (``TypeError`` for another session)."""
    database = session.info.get(DATABASE_KEY)
    if not isinstance(database, Database):
        raise TypeError("not a session of a handfoot Database")
    return database


def begin_write(session: Session) -> None:
    """The unit's writes begin here (``Database.begin_write``: on SQLite the write lock is taken)."""
    database_of(session).begin_write(session)


def begin_locked_write(session: Session) -> None:
    """The unit's writes begin here, before a read that locks the game they write (``FOR UPDATE``):
    ``Database.begin_locked_write``."""
    database_of(session).begin_locked_write(session)


def write(db: Database, fn: Callable[[Session], T]) -> T:
    """``fn`` in one write transaction from its first statement, retried after a lost race."""

    @transaction
    def whole(session: Session) -> T:
        begin_write(session)
        return fn(session)

    return whole(db)


def read(db: Database, fn: Callable[[Session], T]) -> T:
    """``fn`` on the request's read transaction; an unreachable database raises
    :class:`StoreUnavailableError`."""
    try:
        with db.session() as session:
            return fn(session)
    except (OperationalError, InterfaceError) as err:
        raise StoreUnavailableError(str(err.orig)) from err
