"""The tables resource's errors as problems."""

from __future__ import annotations

import flask
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from handfoot.engine.errors import HandFootError
from handfoot.server import security
from handfoot.server.blueprint import Blueprint
from handfoot.server.problems import ENGINE_ERROR_SLUGS, json_pointer, make_problem, problem_response
from handfoot.server.resources.games import problems as games_problems
from handfoot.server.services import errors as svc

SEAT_HEADER = security.SEAT_HEADER


def not_found(table_id: int) -> dict[str, object]:
    """The one answer for an unknown table, another key's, and a missing or wrong Seat-Token."""
    return make_problem(
        404,
        "Table not found",
        f"There is no table {table_id} for this request.",
        errors=[
            {
                "parameter": "table_id",
                "code": "table_not_found",
                "detail": f"no table {table_id} for this API key or Seat-Token",
            }
        ],
    )


def refused(error: HandFootError) -> dict[str, object]:
    """The engine's refusal of an action: its codes, pointers into the body's ``action`` (a turn
    that is not the seat's names the Seat-Token, which says the seat)."""
    items = [
        {"parameter": SEAT_HEADER, "code": p.code, "detail": p.detail}
        if p.code == "not_your_turn"
        else {"pointer": json_pointer(("action", *p.path)), "code": p.code, "detail": p.detail}
        for p in error.problems
    ]
    return make_problem(
        422,
        type(error).title,
        "; ".join(p.detail for p in error.problems),
        errors=items,
        type_slug=ENGINE_ERROR_SLUGS.get(type(error), "rules-broken"),
    )


def table_problem(error: svc.GameServiceError) -> flask.Response:
    if isinstance(error, svc.TableNotFoundError):
        problem = not_found(error.table_id)
    elif isinstance(error, svc.TableVersionError):
        problem = make_problem(
            409,
            "Version moved",
            str(error).capitalize() + ".",
            type_slug="version-moved",
            version=error.current,
            errors=[
                {"pointer": "/version", "code": "version_moved", "detail": f"the table is at version {error.current}"}
            ],
        )
    elif isinstance(error, svc.TableFinishedError):
        problem = make_problem(
            409,
            "Table finished",
            str(error).capitalize() + ".",
            type_slug="table-finished",
            errors=[{"pointer": "", "code": "table_finished", "detail": str(error)}],
        )
    elif isinstance(error, svc.TableOpenError):
        problem = games_problems.table_open(error, {"pointer": "/game"})
    elif isinstance(error, svc.TableRoundError) and error.in_play:
        problem = make_problem(
            409,
            "Round in play",
            str(error).capitalize() + ": its log is shown once it ends.",
            type_slug="round-in-play",
            errors=[{"parameter": "number", "code": "round_in_play", "detail": str(error)}],
        )
    elif isinstance(error, svc.TableRoundError):
        problem = make_problem(404, "Round not found", str(error).capitalize() + ".")
    elif isinstance(error, svc.ActionRefusedError) and isinstance(error.error, HandFootError):
        problem = refused(error.error)
    else:
        return games_problems.service_problem(error)
    return problem_response(problem)


def _no_store(response: flask.Response) -> flask.Response:
    """A seat's answers hold its hand, a creation's the tokens: no cache keeps them."""
    response.headers["Cache-Control"] = "no-store"
    return response


def guard(blp: Blueprint) -> None:
    """Answer the services' errors, and a database that is down, as problems; ``Cache-Control:
    no-store`` on every answer."""
    blp.after_request(_no_store)
    blp.errorhandler(svc.GameServiceError)(table_problem)
    for error in (OperationalError, InterfaceError, PoolTimeoutError):
        blp.errorhandler(error)(games_problems.database_down)
