"""One session per request (``Database.session`` and ``Database.write_session``): every read and
write of an app context on its one ``Session``, connections returned when it ends, a failed
statement rolled back (the next read works), a write transaction committed or rolled back whole,
and outside an app context a session of its own per block (one connection at a time per request:
tests/api/test_connections.py). Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from handfoot.server.db import get_db
from handfoot.server.models import ApiKey
from tests.helpers.games import SEED_ROUND_1, append, create_game, recorded_statements, tally

pytestmark = pytest.mark.db


def test_requests_return_their_connections(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    for i in range(3):
        append(flask_client, game_id, SEED_ROUND_1 if i == 0 else [tally("Team 1", clean=1, table=100),
                                                             tally("Team 2", clean=1, table=90)])
        assert flask_client.get(f"/v1/games/{game_id}").status_code == 200
    assert flask_client.post(f"/v1/games/{game_id + 1000}/rounds", json={"teams": SEED_ROUND_1}).status_code == 404
    assert get_db(app).engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_one_session_an_app_context(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with app.app_context():
        with db.session() as first:
            first.execute(text("SELECT 1"))
        with db.write_session() as writer:
            assert writer is first
        with db.session() as again:
            assert again is first
    with app.app_context(), db.session() as other:
        assert other is not first
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_a_failed_statement_rolls_back_and_the_next_read_works(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with app.app_context():
        with pytest.raises(DBAPIError), db.session() as session:
            session.execute(text("SELECT * FROM no_such_table"))
        with db.session() as session:
            assert session.execute(text("SELECT 1")).scalar() == 1
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_outside_an_app_context_each_block_has_its_own_session(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with db.write_session() as one:
        one.add(ApiKey(name="cli", key_hash="h-cli"))
    with db.session() as two:
        assert two is not one
        assert two.scalars(select(ApiKey.name)).all() == ["cli"]  # committed by its block
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_a_write_after_reads_in_one_request(app: Flask, db_backend: str) -> None:
    """SQLite: the reads' transaction ends, and the write begins with BEGIN IMMEDIATE (the write lock
    before its first statement). PostgreSQL: the write continues the request's transaction."""
    db = get_db(app)
    with app.app_context(), recorded_statements(app) as statements:
        with db.session() as session:
            session.execute(select(ApiKey.id)).all()
        with db.write_session() as session:
            session.add(ApiKey(name="w", key_hash="h-w"))
    begins = [s for s in statements if s.startswith("BEGIN")]
    assert begins == (["BEGIN", "BEGIN IMMEDIATE"] if db_backend == "sqlite" else []), statements
    with db.session() as session:
        assert session.scalars(select(ApiKey.name)).all() == ["w"]


def test_a_write_inside_a_write_is_part_of_it(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with app.app_context(), pytest.raises(RuntimeError), db.write_session() as outer:
        outer.add(ApiKey(name="outer", key_hash="h-outer"))
        with db.write_session() as inner:
            assert inner is outer
            inner.add(ApiKey(name="inner", key_hash="h-inner"))
        raise RuntimeError("the enclosing write fails after the inner block ended")
    with db.session() as session:
        assert session.scalars(select(ApiKey)).all() == []  # nothing committed by the inner block


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
        with db.session() as session:
            names = session.execute(select(ApiKey.name).order_by(ApiKey.id)).scalars().all()
    assert names == ["first"]
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_each_request_has_its_own_session_inside_one_app_context(app: Flask, flask_client: FlaskClient,
                                                                 db_backend: str) -> None:
    """Flask reuses an app context pushed around a request; the request's session (and its
    snapshot) still ends with the request, so the next request reads what was committed meanwhile."""
    game_id = create_game(flask_client)["id"]

    def other_request() -> None:
        append(app.test_client(), game_id, SEED_ROUND_1)

    with app.app_context():
        assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 0
        worker = threading.Thread(target=other_request)  # its own app context
        worker.start()
        worker.join(30)
        assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1
    assert get_db(app).engine.pool.checkedout() == 0  # type: ignore[attr-defined]
