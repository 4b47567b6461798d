"""The games resource's errors as problems: the services' errors, a lost Idempotency-Key, a database down."""

from __future__ import annotations

import flask
from flask_smorest import Blueprint
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from handfoot.server.problems import json_pointer, make_problem, problem_response
from handfoot.server.services import errors as svc

#: Seconds a client should wait after a 503 (database unreachable or locked too long).
RETRY_AFTER_SECONDS = 2


def service_problem(error: svc.GameServiceError) -> flask.Response:
    """The problem of a service error (``api/services/errors.py``)."""
    headers: dict[str, str] = {}
    if isinstance(error, svc.GameNotFoundError):
        problem = make_problem(404, "Game not found", f"There is no game {error.game_id}.")
    elif isinstance(error, svc.RoundNotFoundError):
        problem = make_problem(404, "Round not found", f"Game {error.game_id} has no round {error.number}.")
    elif isinstance(error, svc.GameFinishedError):
        problem = make_problem(
            409,
            "Game finished",
            f"The game is over ({error.reason}): no more rounds.",
            type_slug="game-finished",
            end_reason=error.reason,
            errors=[{"pointer": "", "code": "game_finished", "detail": error.reason}],
        )
    elif isinstance(error, svc.RoundNumberError):
        problem = make_problem(
            409,
            "Not the next round",
            f"The next round is {error.expected}, not {error.given}.",
            type_slug="round-number",
            next_round=error.expected,
            errors=[{"pointer": "/round", "code": "round_number", "detail": f"the next round is {error.expected}"}],
        )
    elif isinstance(error, svc.RoundLimitError):
        problem = make_problem(
            409,
            "Too many rounds",
            str(error),
            errors=[{"pointer": error.pointer, "code": error.code, "detail": str(error)}],
        )
    elif isinstance(error, svc.NotLastRoundError):
        problem = make_problem(
            409,
            "Not the last round",
            f"{str(error)[0].upper()}{str(error)[1:]}.",
            type_slug="not-last-round",
            last_round=error.last,
            errors=[{"pointer": "", "code": "not_last_round", "detail": str(error)}],
        )
    elif isinstance(error, svc.TableOpenError):
        problem = table_open(error, {"parameter": "game_id"})
    elif isinstance(error, svc.InvalidRequestError):
        problem = make_problem(
            422,
            "Request does not fit the game",
            str(error),
            type_slug="validation-error",
            errors=[{"pointer": json_pointer(p.path), "code": p.code, "detail": p.detail} for p in error.problems],
        )
    elif isinstance(error, svc.WriteConflictError):
        problem = make_problem(409, "Write conflict", str(error))
    elif isinstance(error, svc.StoreUnavailableError):
        return database_down(error)
    else:  # pragma: no cover - every subclass is listed above
        problem = make_problem(500)
    return problem_response(problem, headers)


def table_open(error: svc.TableOpenError, where: dict[str, str]) -> dict[str, object]:
    """409 table-open: the game is being played at a table, named by its id (``table``) and URL
    (``href``); ``where`` is the error item's pointer or parameter."""
    href = flask.url_for("Tables.TableItem", table_id=error.table_id)
    return make_problem(
        409,
        "Table open",
        f"Game {error.game_id} is being played at table {error.table_id} ({href}): its rounds are stored by the table.",
        type_slug="table-open",
        table=error.table_id,
        href=href,
        errors=[{**where, "code": "table_open", "detail": f"{error} ({href})"}],
    )


def idempotency_lost(_error: Exception) -> flask.Response:
    return problem_response(
        make_problem(
            409,
            "Request in flight",
            "Another request took over this Idempotency-Key; retry.",
            type_slug="idempotency-in-flight",
        ),
        {"Retry-After": "1"},
    )


def database_down(_error: Exception) -> flask.Response:
    """503 with Retry-After: unreachable, locked past the busy timeout, or the pool exhausted."""
    problem = make_problem(503, "Database unavailable", "The database is unreachable or busy; retry later.")
    return problem_response(problem, {"Retry-After": str(RETRY_AFTER_SECONDS)})


def guard(blp: Blueprint) -> None:
    """Answer the games services' errors, and a database that is down or whose pool stayed in use,
    as problems."""
    blp.errorhandler(svc.GameServiceError)(service_problem)
    for error in (OperationalError, InterfaceError, PoolTimeoutError):
        blp.errorhandler(error)(database_down)
