"""The database layer: lazy engine, SQLite pragmas, sessions on both backends."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select, text

from handfoot.server import create_app
from handfoot.server.db import get_db
from handfoot.server.models import ApiKey


def test_create_app_touches_no_database() -> None:
    app = create_app({"DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none"})
    assert app.test_client().get("/openapi.json").status_code == 200
    assert get_db(app)._engine is None


def test_sqlite_pragmas(app: Flask) -> None:
    with get_db(app).engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL, the durable default


def test_postgres_urls_use_psycopg() -> None:
    app = create_app({"DATABASE_URL": "postgresql://u@h/db"})
    assert get_db(app).url == "postgresql+psycopg://u@h/db"


@pytest.mark.db
def test_session_round_trip(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with db.session() as session:
        session.add(ApiKey(name="ci", key_hash="h1"))
    with db.session() as session:
        key = session.scalars(select(ApiKey)).one()
        assert (key.name, key.key_hash) == ("ci", "h1")
        assert key.created_at is not None
