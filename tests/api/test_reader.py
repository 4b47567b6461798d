"""The request's shared read connection (``Database.reader``): one checkout per request, returned
at the end of it, dropped after a failed statement, and a connection of its own outside a request."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from games_util import SEED_ROUND_1, append, create_game, tally
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from api.db import get_db

pytestmark = pytest.mark.db


def test_requests_return_their_connections(app: Flask, client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(client)["id"]
    for _ in range(3):
        append(client, game_id, SEED_ROUND_1 if _ == 0 else [tally("Team 1", clean=1, table=100),
                                                             tally("Team 2", clean=1, table=90)])
        assert client.get(f"/v1/games/{game_id}").status_code == 200
    assert client.post(f"/v1/games/{game_id + 1000}/rounds", json={"teams": SEED_ROUND_1}).status_code == 404
    assert get_db(app).engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_one_connection_a_request_until_a_statement_fails(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with app.app_context():
        with db.reader() as first:
            first.execute(text("SELECT 1"))
        with db.reader() as again:
            assert again is first
        with pytest.raises(DBAPIError), db.reader() as failing:
            failing.execute(text("SELECT * FROM no_such_table"))
        assert first.closed
        with db.reader() as fresh:
            assert fresh is not first and fresh.execute(text("SELECT 1")).scalar() == 1
    assert fresh.closed  # returned when the app context ended
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_outside_a_request_each_read_has_its_own_connection(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with db.reader() as one:
        assert one.execute(text("SELECT 1")).scalar() == 1
    assert one.closed
    with db.reader() as two:
        assert two is not one


def test_a_write_returns_the_idle_reader_first(app: Flask, db_backend: str) -> None:
    """A request must not hold its reader while it waits for the writers' turn or the pool (threads
    holding readers and waiting for the turn would starve the one holding the turn); a write inside
    a ``reader()`` block leaves the connection in use alone."""
    db = get_db(app)
    with app.app_context():
        with db.reader() as reader:
            with db.write_connection() as writer:
                writer.execute(text("SELECT 1"))
            assert not reader.closed and reader.execute(text("SELECT 1")).scalar() == 1
        with db.write_session() as session:
            session.execute(text("SELECT 1"))
        assert reader.closed
        assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
