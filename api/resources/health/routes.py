"""``GET /health``: liveness plus database reachability."""

from __future__ import annotations

import logging
from typing import Any

from flask.views import MethodView
from sqlalchemy.exc import SQLAlchemyError

from handfoot.server.blueprint import Blueprint
from handfoot.server.db import get_db
from handfoot.server.problems import PROBLEM_CONTENT_TYPE, ProblemSchema, abort_problem

from .schemas import HealthSchema

log = logging.getLogger(__name__)

#: Seconds a client should wait before asking again when the database is down.
RETRY_AFTER_SECONDS = 5
#: SQLite: how long the health check waits for the write lock before it reports the database locked.
LOCK_PROBE_SECONDS = 1.0

blp = Blueprint(
    "Health",
    __name__,
    url_prefix="/health",
    description="Liveness and database reachability, for load balancers and monitors.",
)


@blp.route("")
class Health(MethodView):
    @blp.response(200, HealthSchema, example={"status": "ok", "database": "ok"})
    @blp.alt_response(
        503,
        schema=ProblemSchema,
        content_type=PROBLEM_CONTENT_TYPE,
        description="The database is unreachable (`database`: `unreachable`) or, on SQLite, its write lock has been "
        "held for over a second (`database`: `locked`); retry after the Retry-After header's seconds.",
        headers={"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}},
    )
    def get(self) -> dict[str, Any]:
        """Check liveness and the database

        200 when the server is up and the database answers ``SELECT 1`` (and, on SQLite, its write
        lock can be taken within a second); 503 (with Retry-After, and `database` `unreachable` or
        `locked`) otherwise. For load balancers and monitors.
        """
        db = get_db()
        try:
            db.ping()
        except SQLAlchemyError as exc:
            log.warning("health check: database unreachable: %s", exc)
            abort_problem(
                503,
                "Database unreachable",
                "The database did not answer; retry later.",
                retry_after=RETRY_AFTER_SECONDS,
                database="unreachable",
            )
        try:
            db.probe_write_lock(LOCK_PROBE_SECONDS)
        except SQLAlchemyError as exc:
            log.warning("health check: database locked: %s", exc)
            abort_problem(
                503,
                "Database locked",
                f"The database's write lock has been held for over {LOCK_PROBE_SECONDS:g} s: writes would "
                "wait or fail; retry later.",
                retry_after=RETRY_AFTER_SECONDS,
                database="locked",
            )
        return {"status": "ok", "database": "ok"}
