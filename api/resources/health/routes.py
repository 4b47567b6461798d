"""``GET /health/live``, ``GET /health/ready`` and ``GET /health``: for load balancers, orchestrators
and monitors.

live: the process answers (no database). ready (and ``/health``): the database answers, is at the
migrations' head, and takes a write (one row of ``health_probe`` committed).
"""

from __future__ import annotations

import functools
import logging
from datetime import UTC, datetime
from typing import Any

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask.views import MethodView
from sqlalchemy import update
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from handfoot.server.blueprint import Blueprint
from handfoot.server.db import failure_reason, get_db
from handfoot.server.models import HealthProbe
from handfoot.server.problems import PROBLEM_CONTENT_TYPE, abort_problem
from handfoot.server.schemas import ProblemSchema

from .schemas import HealthSchema, LiveSchema

log = logging.getLogger(__name__)

#: Seconds a client should wait before asking again when the database is not ready.
RETRY_AFTER_SECONDS = 5
#: SQLite: how long the health check waits for the write lock before it reports the database locked.
LOCK_PROBE_SECONDS = 1.0

blp = Blueprint(
    "Health",
    __name__,
    url_prefix="/health",
    description="Liveness and readiness (the database reachable, migrated and writable), for load balancers "
    "and monitors.",
)

NOT_READY = {
    "schema": ProblemSchema,
    "content_type": PROBLEM_CONTENT_TYPE,
    "description": "The database is not ready, its reason in `database`: `unreachable` (it did not answer), "
    "`not_migrated` (it is not at the server's schema: run `handfoot-server migrate`), `locked` (SQLite: its "
    "write lock held for over a second) or `not_writable` (a write failed: disk full, read-only); the detail "
    "names the cause. Retry after the Retry-After header's seconds.",
    "headers": {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}},
}


@functools.cache
def schema_head() -> str | None:
    """The newest revision of the migrations this server ships."""
    from handfoot.server.migrate import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def not_ready(title: str, detail: str, database: str, exc: BaseException | None = None) -> None:
    """Log once and answer 503 with ``database``: the reason."""
    log.warning("not ready: %s: %s", database, exc if exc is not None else detail)
    abort_problem(503, title, detail, retry_after=RETRY_AFTER_SECONDS, database=database)


def check_ready() -> dict[str, Any]:
    """The readiness checks in order; the first that fails answers 503 (:func:`not_ready`)."""
    db = get_db()
    try:
        db.ping()
        with db.engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
    except SQLAlchemyError as exc:
        not_ready("Database unreachable", "The database did not answer; retry later.", "unreachable", exc)
    if current != schema_head():
        not_ready(
            "Database not migrated",
            f"The database is at schema revision {current}; this server needs {schema_head()}: run "
            "`handfoot-server migrate`.",
            "not_migrated",
        )
    try:
        db.probe_write_lock(LOCK_PROBE_SECONDS)
    except OperationalError as exc:
        if "locked" in failure_reason(exc):
            not_ready(
                "Database locked",
                f"The database's write lock has been held for over {LOCK_PROBE_SECONDS:g} s: writes would "
                "wait or fail; retry later.",
                "locked",
                exc,
            )
        not_ready("Database not writable", f"The database refused a write: {failure_reason(exc)}.", "not_writable", exc)
    try:
        with db.engine.begin() as connection:
            connection.execute(update(HealthProbe).where(HealthProbe.id == 1).values(checked_at=datetime.now(UTC)))
    except SQLAlchemyError as exc:
        not_ready("Database not writable", f"The database refused a write: {failure_reason(exc)}.", "not_writable", exc)
    return {"status": "ok", "database": "ok"}


@blp.route("")
class Health(MethodView):
    @blp.response(200, HealthSchema, example={"status": "ok", "database": "ok"})
    @blp.alt_response(503, **NOT_READY)
    def get(self) -> dict[str, Any]:
        """Check the server and its database

        The readiness checks of `/health/ready`, under the name monitors already use: 200 when the
        database answers, is migrated and takes a write; 503 (with Retry-After and the reason in
        `database`) otherwise.
        """
        return check_ready()


@blp.route("/ready")
class Ready(MethodView):
    @blp.response(200, HealthSchema, example={"status": "ok", "database": "ok"})
    @blp.alt_response(503, **NOT_READY)
    def get(self) -> dict[str, Any]:
        """Is the server ready for traffic

        200 when the database answers `SELECT 1`, is at the schema this server needs, its write lock
        can be had within a second (SQLite), and it commits a write (one row of `health_probe`); 503
        (with Retry-After, and `database`: `unreachable`, `not_migrated`, `locked` or `not_writable`)
        otherwise. For load balancers and orchestrators' readiness probes.
        """
        return check_ready()


@blp.route("/live")
class Live(MethodView):
    @blp.response(200, LiveSchema, example={"status": "ok"})
    def get(self) -> dict[str, Any]:
        """Is the process alive

        200 whenever the server answers; it asks no database (a database down makes the server not
        ready, not dead). For orchestrators' liveness probes: restart the process when this fails.
        """
        return {"status": "ok"}
