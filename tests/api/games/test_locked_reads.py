"""Writes that read a game ``FOR UPDATE`` on PostgreSQL: the read waits for the writer holding the
game's row, then reads what that writer committed, and the write goes through.

The writes of this kind: a correction, a deletion of the last round, a game's deletion, a table
dealt for a stored game (each locks the game before it reads), and an append run again after it lost
a race (its first run scores with no lock held and loses to another append, as in
test_games_appends.py; run again, it locks first: ``store.write``). Here another writer holds
the game's row at each such read, committing a moment later. In ``REPEATABLE READ`` the wait ended
in a serialization failure (the row changed after the transaction's snapshot), so under a steady
stream of writers to one game every run lost again until a 409 (docs/performance.md, "The one 4xx").
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from handfoot.server.auth import ANONYMOUS
from handfoot.server.db import get_db
from handfoot.server.services import games as games_svc
from handfoot.server.services import rounds as rounds_svc
from tests.conftest import TEST_DATABASE_URL
from tests.helpers.games import SEED_ROUND_1, append, create_game, out_round

#: PostgreSQL alone (SQLite's write lock is taken before the read); it runs wherever TEST_DATABASE_URL is set, as on CI.
pytestmark = [
    pytest.mark.skipif(TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL not set: PostgreSQL not tested"),
    pytest.mark.parametrize("db_backend", ["postgresql"], indirect=True),
]

#: A game that no number of rounds ends.
ENDLESS = {"rounds": None, "target_score": 1_000_000}


def _in_thread(app: Flask, fn: Callable[[], None], failed: list[BaseException]) -> None:
    def run() -> None:
        try:
            with app.app_context():
                fn()
        except BaseException as err:  # noqa: BLE001 - reported by the test
            failed.append(err)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(30)


@contextmanager
def a_writer_holds_the_game_at_each_locked_read(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """While the request's thread reads a game ``FOR UPDATE`` (``rounds._game_row`` or
    ``games.find_game`` with ``lock``), another connection holds the game's row, having changed
    it, and commits 0.3 s later. Yields the isolation level of each such read's transaction, the
    runs that then failed included."""
    db, request_thread = get_db(app), threading.get_ident()
    isolation: list[str] = []

    def holding(read: Callable[..., Any]) -> Callable[..., Any]:
        def locked_read(session: Any, actor: Any, game_id: int, *args: Any, lock: bool = False, **kwargs: Any) -> Any:
            if threading.get_ident() != request_thread or not lock:
                return read(session, actor, game_id, *args, lock=lock, **kwargs)
            held = threading.Event()

            def hold_the_row() -> None:
                with db.engine.connect() as writer:
                    writer.execute(text("UPDATE games SET updated_at = now() WHERE id = :g"), {"g": game_id})
                    held.set()
                    time.sleep(0.3)  # the request's FOR UPDATE waits on the row meanwhile
                    writer.commit()

            holder = threading.Thread(target=hold_the_row)
            holder.start()
            assert held.wait(10)
            try:
                isolation.append(session.connection().execute(text("SHOW transaction_isolation")).scalar())
                return read(session, actor, game_id, *args, lock=lock, **kwargs)
            finally:
                holder.join(10)

        return locked_read

    monkeypatch.setattr(rounds_svc, "_game_row", holding(rounds_svc._game_row))
    monkeypatch.setattr(games_svc, "find_game", holding(games_svc.find_game))
    yield isolation
    with app.app_context(), get_db().session() as session:  # the next transaction is as every other
        assert session.execute(text("SHOW transaction_isolation")).scalar() == "repeatable read"


@pytest.mark.parametrize("keyed", [False, True], ids=["no key", "Idempotency-Key"])
def test_an_append_run_again_waits_for_the_writer_holding_the_game_and_stores_its_round(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, keyed: bool
) -> None:
    """With an Idempotency-Key the whole request (the key's claim and the append) is what runs again."""
    game_id = create_game(flask_client, rules=ENDLESS)["id"]
    request_thread, prepare, game_row = threading.get_ident(), rounds_svc._prepare, rounds_svc._game_row
    reads: list[bool] = []  # each read of the game by the request's append: locked or not
    failed: list[BaseException] = []

    def other_append() -> None:
        rounds_svc.append_round(get_db(), ANONYMOUS, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})

    def read_game(session: Any, actor: Any, gid: int, *, lock: bool = False) -> Any:
        if threading.get_ident() == request_thread:
            reads.append(lock)
        return game_row(session, actor, gid, lock=lock)

    def prepared(session: Any, *args: Any, **kwargs: Any) -> Any:
        plan = prepare(session, *args, **kwargs)
        if threading.get_ident() == request_thread and not reads[-1]:
            _in_thread(app, other_append, failed)  # between this unlocked read and the write: the race is lost
        return plan

    monkeypatch.setattr(rounds_svc, "_prepare", prepared)
    monkeypatch.setattr(rounds_svc, "_game_row", read_game)
    headers = {"Idempotency-Key": str(uuid.uuid4())} if keyed else {}
    with a_writer_holds_the_game_at_each_locked_read(app, monkeypatch) as isolation:
        response = flask_client.post(
            f"/v1/games/{game_id}/rounds", json={"teams": out_round("Team 1", "Team 2")}, headers=headers
        )
    assert not failed, failed
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["number"] == 2
    assert reads == [False, True]  # run twice: unlocked (lost), then locked (stored)
    assert isolation == ["read committed"]
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 2


@pytest.mark.parametrize("write", ["correct the round", "delete the round", "delete the game", "deal a table"])
def test_a_write_that_locks_the_game_first_waits_for_the_writer_holding_it(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, write: str
) -> None:
    game_id = create_game(flask_client, rules=ENDLESS)["id"]
    append(flask_client, game_id, SEED_ROUND_1)
    game_etag = flask_client.get(f"/v1/games/{game_id}").headers["ETag"]
    round_etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    with a_writer_holds_the_game_at_each_locked_read(app, monkeypatch) as isolation:
        if write == "correct the round":
            response = flask_client.put(
                f"/v1/games/{game_id}/rounds/1",
                json={"teams": out_round("Team 1", "Team 2")},
                headers={"If-Match": round_etag},
            )
        elif write == "delete the round":
            response = flask_client.delete(f"/v1/games/{game_id}/rounds/1", headers={"If-Match": game_etag})
        elif write == "delete the game":
            response = flask_client.delete(f"/v1/games/{game_id}", headers={"If-Match": game_etag})
        else:
            response = flask_client.post("/v1/tables", json={"game": game_id, "seed": 7})
    assert response.status_code in (200, 201, 204), response.get_json()
    # one run, whatever the request read before (the key check): its FOR UPDATE waited, then read the
    # row as committed (a first run in REPEATABLE READ failed to serialize and ran again)
    assert isolation == ["read committed"]
    game = flask_client.get(f"/v1/games/{game_id}")
    if write == "delete the game":
        assert game.status_code == 404
    else:
        assert game.get_json()["rounds_played"] == (0 if write == "delete the round" else 1)
