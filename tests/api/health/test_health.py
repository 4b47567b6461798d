"""GET /health/live, /health/ready and /health: live whenever the process answers; ready (and
/health) only when the database answers, is migrated and takes a write, else 503 problem+json with
Retry-After and the reason."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, make_url, text

from handfoot.server import create_app, migrate
from handfoot.server.db import get_db
from tests.conftest import TEST_DATABASE_URL

READY = ("/health", "/health/ready")
DOWN = "postgresql+psycopg://nobody@127.0.0.1:1/none"  # nothing listens on port 1: refused at once


def not_ready(client: FlaskClient, path: str, reason: str) -> dict[str, Any]:
    r = client.get(path)
    assert (r.status_code, r.mimetype, r.headers["Retry-After"]) == (503, "application/problem+json", "5")
    body: dict[str, Any] = r.get_json(force=True)
    assert (body["database"], body["instance"], body["status"]) == (reason, path, 503), body
    return body


@pytest.mark.db
@pytest.mark.parametrize("path", READY)
def test_ready_when_the_database_answers_and_takes_writes(
    flask_client: FlaskClient, db_backend: str, path: str
) -> None:
    r = flask_client.get(path)
    assert (r.status_code, r.mimetype) == (200, "application/json")
    assert r.get_json() == {"status": "ok", "database": "ok"}


@pytest.mark.parametrize("path", READY)
def test_a_database_down_is_not_ready_but_live(path: str) -> None:
    client = create_app({"TESTING": True, "DATABASE_URL": DOWN}).test_client()
    body = not_ready(client, path, "unreachable")
    assert body["type"] == "https://handfoot.dev/problems/service-unavailable"
    assert "nobody" not in str(body)  # no connection details leak
    live = client.get("/health/live")
    assert (live.status_code, live.get_json()) == (200, {"status": "ok"})


@pytest.mark.db
@pytest.mark.parametrize("path", READY)
def test_a_database_behind_the_schema_is_not_ready(
    make_app: Callable[..., Flask], db_url: str, db_backend: str, path: str
) -> None:
    migrate.downgrade(db_url, "-1")
    body = not_ready(make_app().test_client(), path, "not_migrated")
    assert "run `handfoot-server migrate`" in body["detail"]


@pytest.mark.parametrize("path", READY)
def test_a_read_only_sqlite_file_is_not_writable(db_url: str, path: str) -> None:
    file = make_url(db_url).database
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///file:{file}?mode=ro&uri=true"})
    body = not_ready(app.test_client(), path, "not_writable")
    assert "readonly database" in body["detail"]
    get_db(app).dispose()


@pytest.mark.parametrize("path", READY)
def test_a_write_lock_held_too_long_is_locked(db_url: str, app: Flask, path: str) -> None:
    holder = sqlite3.connect(str(make_url(db_url).database), timeout=0)
    holder.execute("BEGIN IMMEDIATE")  # another writer keeps the lock past the check's second
    try:
        body = not_ready(app.test_client(), path, "locked")
    finally:
        holder.rollback()
        holder.close()
    assert "held for over 1 s" in body["detail"]


@pytest.mark.db
@pytest.mark.parametrize("path", READY)
def test_a_full_disk_is_not_writable(app: Flask, db_backend: str, path: str) -> None:
    """The storage refuses the check's write as a full disk does (the driver's own error, raised
    where the write is executed)."""
    engine = get_db(app).engine

    def full(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE HEALTH_PROBE"):
            if db_backend == "sqlite":
                raise sqlite3.OperationalError("database or disk is full")
            import psycopg

            raise psycopg.errors.DiskFull("could not extend file: No space left on device")

    event.listen(engine, "before_cursor_execute", full)
    try:
        body = not_ready(app.test_client(), path, "not_writable")
    finally:
        event.remove(engine, "before_cursor_execute", full)
    assert "disk is full" in body["detail"] or "No space left on device" in body["detail"]


@pytest.mark.skipif(TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL not set: PostgreSQL not tested")
@pytest.mark.parametrize("db_backend", ["postgresql"], indirect=True)
def test_a_read_only_postgresql_database_is_not_writable(
    db_url: str, db_backend: str, make_app: Callable[..., Flask]
) -> None:
    """The SQLite half is the read-only file above."""
    engine = get_db(make_app()).engine
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        name = make_url(db_url).database
        connection.execute(text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on'))
    body = not_ready(make_app().test_client(), "/health/ready", "not_writable")
    assert "read-only transaction" in body["detail"]
