"""The database dies in the middle of a request: at its transaction's begin, at a statement, at
the commit, at the rollback, or at the end of the request (its session closed, a read's snapshot
rolled back). Whichever, on every games operation, reads and writes, on both databases: a 503
problem+json with Retry-After (never a 500, never gunicorn's HTML page), the failure logged once.

Two ways to kill it: a SQLAlchemy event raising the driver's ``OperationalError`` from the chosen
point on (both databases), and, on PostgreSQL, ``pg_terminate_backend`` of the request's own
backend from another connection, after its first statement or after its view has answered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import flask
import pytest
from flask import Flask
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from handfoot.server.db import get_db
from tests.api.store.test_faults import IDS, OPERATIONS, assert_503
from tests.helpers.game_routes import call
from tests.helpers.games import SEED_ROUND_1, append, create_game

#: Where the database dies: the connection events a request's transaction goes through.
POINTS = ("begin", "statement", "commit", "rollback")


class Dies:
    """From :meth:`arm` on, the ``point`` of every connection of ``app``'s engine raises the driver's
    ``OperationalError``, as a database gone away does; ``fired`` counts the raises."""

    def __init__(self, app: Flask, point: str) -> None:
        self.armed, self.fired = False, 0
        engine = get_db(app).engine
        if point == "statement":
            event.listen(engine, "before_cursor_execute", self._raise)
        else:
            event.listen(engine, point, self._raise)

    def arm(self) -> None:
        self.armed = True

    def _raise(self, *args: Any) -> None:
        if self.armed:
            self.fired += 1
            raise OperationalError("SELECT 1", None, ConnectionError("server closed the connection unexpectedly"))


def _failures(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The warnings and errors logged, the request lines aside."""
    return [r for r in caplog.records if r.levelno >= logging.WARNING and r.name != "handfoot.server.requests"]


def _setup(app: Flask, op: tuple[str, str]) -> Callable[[], Any]:
    """A game with a round, and ``op``'s request on it, ready to send: every read it needs (the
    ETag its If-Match names) done now, so the fault meets the operation itself."""
    flask_client = app.test_client()
    game_id = create_game(flask_client)["id"]
    append(flask_client, game_id, SEED_ROUND_1)
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    if op == ("delete", "/v1/games/{game_id}/rounds/{number}"):
        headers = {"If-Match": flask_client.get(f"/v1/games/{game_id}").headers["ETag"]}
        return lambda: flask_client.delete(f"/v1/games/{game_id}/rounds/1", headers=headers)
    return lambda: call(flask_client, op, game_id=game_id, etag=etag)


@pytest.mark.db
@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_the_database_dying_at_any_point_is_a_503(
    make_app: Callable[..., Flask], op: tuple[str, str], point: str, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    send = _setup(app, op)
    dies = Dies(app, point)
    dies.arm()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        response = send()
        response.get_data()  # a streamed answer (the export) runs to its end
    if not dies.fired:
        # this operation never reaches this point (a read commits nothing; a write that commits
        # rolls nothing back): its answer is its own
        assert response.status_code < 400, response.get_data(as_text=True)
        assert not _failures(caplog)
        return
    assert_503(response)
    failures = _failures(caplog)
    assert len(failures) == 1, [r.getMessage() for r in failures]
    assert failures[0].name == "handfoot.server.database"


@pytest.mark.db
@pytest.mark.parametrize("point", POINTS)
def test_every_kind_of_operation_meets_the_fault(make_app: Callable[..., Flask], point: str) -> None:
    """The test above is not vacuous: a read meets every point a read has (begin, statement, the
    rollback of its snapshot at the request's end), a write every point a write has."""
    reads = {"begin", "statement", "rollback"}
    writes = {"begin", "statement", "commit"}
    for op, meets in ((("get", "/v1/games/{game_id}"), reads), (("post", "/v1/games/{game_id}/rounds"), writes)):
        app = make_app(PROPAGATE_EXCEPTIONS=False)
        send = _setup(app, op)
        dies = Dies(app, point)
        dies.arm()
        response = send()
        assert bool(dies.fired) == (point in meets), (op, point, response.status_code)
        if dies.fired:
            assert_503(response)


# --- PostgreSQL: the request's backend terminated --------------------------------------------------


def _backend_pid(connection: Any) -> int:
    pid: int = connection.connection.dbapi_connection.info.backend_pid
    return pid


@pytest.mark.db
@pytest.mark.postgresql
@pytest.mark.parametrize("when", ["after its first statement", "after its view answered"])
@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_a_terminated_backend_is_a_503(
    make_app: Callable[..., Flask], db_url: str, op: tuple[str, str], when: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``pg_terminate_backend`` of the backend serving the request, from an admin connection: a
    statement, commit or rollback after it meets a closed connection. Killed after the view
    answered, the rollback of a read's snapshot at the request's end is what fails."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    engine = get_db(app).engine
    admin = engine.connect()
    killed: list[int] = []
    armed = [False]

    def kill(pid: int) -> None:
        if armed[0] and not killed:
            killed.append(pid)
            admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            admin.commit()

    if when == "after its first statement":
        event.listen(engine, "after_cursor_execute", lambda conn, *args: kill(_backend_pid(conn)))
    else:
        current: list[int] = []
        event.listen(engine, "after_cursor_execute", lambda conn, *args: current.append(_backend_pid(conn)))

        # registered last, it runs first (before the session ends): after_request hooks run in reverse
        @app.after_request
        def after(response: flask.Response) -> flask.Response:
            if current and armed[0]:
                kill(current[-1])
            return response

    send = _setup(app, op)

    try:
        armed[0] = True
        caplog.clear()
        with caplog.at_level(logging.INFO):
            response = send()
            response.get_data()
        armed[0] = False
    finally:
        admin.close()
    if response.status_code == 503:
        assert_503(response)
        failures = _failures(caplog)
        assert len(failures) == 1, [r.getMessage() for r in failures]
    else:
        # the connection was killed once the request's work was done (a write committed): its
        # answer stands, and the next request gets a live connection
        assert response.status_code < 400, response.get_data(as_text=True)
    # the pool drops the dead connection: the next request is answered
    assert app.test_client().get("/v1/games").status_code == 200
