"""The request's shared read connection (``Database.reader``): one checkout per request, returned
at the end of it, dropped after a failed statement, and a connection of its own outside a request."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from games_util import SEED_ROUND_1, append, create_game, tally
from sqlalchemy import event, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from handfoot.server.db import Database, get_db
from handfoot.server.models import ApiKey

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


def test_a_write_takes_or_returns_the_idle_reader(app: Flask, db_backend: str) -> None:
    """A write ends the request's hold on its idle reader: on SQLite it writes on that connection,
    on PostgreSQL (the reader is in autocommit) it returns it and takes another; either way the
    connection is closed after the write. A write inside a ``reader()`` block leaves the connection
    in use alone."""
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


@pytest.mark.parametrize("kind", ["connection", "session"])
def test_the_writers_turn_is_held_from_begin_to_commit_only(app: Flask, db_backend: str, kind: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Whoever holds the writers' turn never waits for the pool: the write's connection is in hand
    before the turn is taken and goes back to the pool after the turn is given back (threads holding
    connections while waiting for the turn would otherwise starve the one holding it)."""
    db = get_db(app)
    events: list[str] = []
    original = Database._writers_queue

    @contextmanager
    def turn(self: Database, timeout: float | None = None) -> Iterator[None]:
        with original(self, timeout):
            events.append("turn")
            yield
            events.append("turn back")

    monkeypatch.setattr(Database, "_writers_queue", turn)
    listeners = [(db.engine.pool, "checkout", lambda *a: events.append("checkout")),
                 (db.engine.pool, "checkin", lambda *a: events.append("checkin")),
                 (db.engine, "commit", lambda *a: events.append("commit"))]
    for target, name, fn in listeners:
        event.listen(target, name, fn)
    try:
        with app.app_context():
            with db.reader() as reader:
                reader.execute(text("SELECT 1"))
            if kind == "connection":
                with db.write_connection() as writer:
                    writer.execute(text("UPDATE games SET version = version WHERE id = 0"))
            else:
                with db.write_session() as session:
                    session.execute(text("UPDATE games SET version = version WHERE id = 0"))
    finally:
        for target, name, fn in listeners:
            event.remove(target, name, fn)
    held = events[events.index("turn"):events.index("turn back") + 1]
    assert held == ["turn", "commit", "turn back"], events
    assert events[-1] == "checkin" and events.count("checkout") == events.count("checkin"), events
    assert events.count("checkout") == (1 if db_backend == "sqlite" else 2), events  # SQLite: the reader writes


@pytest.mark.parametrize("flush_in_body", [True, False])
def test_a_failed_write_session_rolls_back_and_returns_its_connection(app: Flask, db_backend: str,
                                                                      flush_in_body: bool) -> None:
    """The database's error reaches the caller whether the session flushes inside the block or at
    its end; nothing of the transaction is kept, and the connection goes back to the pool."""
    db = get_db(app)
    with app.app_context():
        with db.write_session() as session:
            session.add(ApiKey(name="first", key_hash="same"))
        with pytest.raises(IntegrityError), db.write_session() as session:
            session.add(ApiKey(name="kept?", key_hash="other"))
            session.add(ApiKey(name="second", key_hash="same"))
            if flush_in_body:
                session.flush()
        with db.reader() as reader:
            names = reader.execute(select(ApiKey.name).order_by(ApiKey.id)).scalars().all()
    assert names == ["first"]
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
