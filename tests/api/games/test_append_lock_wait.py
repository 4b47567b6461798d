"""An append run again after a lost race, on PostgreSQL: its read of the game ``FOR UPDATE`` waits for
the writer holding the row, then reads what that writer committed and stores its round.

Its first run scores with no lock held and loses to another append (as in test_games_appends.py).
Run again, it locks the game before it reads (``store.run_again``), and here another writer holds the
game's row then, committing a moment later. In ``REPEATABLE READ`` that wait ends in a serialization
failure (the row changed after the transaction's snapshot), so under a steady stream of writers to one
game every run lost again until a 409 (seen with 2 games at a time and 8 connections through gunicorn:
4 and 5 write conflicts in two 5 s windows).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from handfoot.server.auth import ANONYMOUS
from handfoot.server.db import get_db
from handfoot.server.services import rounds as rounds_svc
from tests.conftest import TEST_DATABASE_URL
from tests.helpers.games import SEED_ROUND_1, create_game, out_round

#: PostgreSQL alone (SQLite's write lock is taken before the read); it runs wherever TEST_DATABASE_URL is set, as on CI.
pytestmark = [
    pytest.mark.skipif(TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL not set: PostgreSQL not tested"),
    pytest.mark.parametrize("db_backend", ["postgresql"], indirect=True),
]


def test_an_append_run_again_waits_for_the_writer_holding_the_game_and_stores_its_round(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = create_game(flask_client, rules={"rounds": None, "target_score": 1_000_000})["id"]
    db = get_db(app)
    request_thread = threading.get_ident()
    prepare, game_row = rounds_svc._prepare, rounds_svc._game_row
    locked_reads: list[bool] = []
    failed: list[BaseException] = []

    def in_thread(fn: Any) -> None:
        def run() -> None:
            try:
                with app.app_context():
                    fn()
            except BaseException as err:  # noqa: BLE001 - reported below
                failed.append(err)

        worker = threading.Thread(target=run)
        worker.start()
        worker.join(30)

    def other_append() -> None:
        rounds_svc.append_round(get_db(), ANONYMOUS, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})

    def prepared(session: Any, *args: Any, **kwargs: Any) -> Any:
        plan = prepare(session, *args, **kwargs)
        if threading.get_ident() == request_thread and not session.info.get("writing"):
            in_thread(other_append)  # between this unlocked read and the write: the race is lost
        return plan

    def read_game(session: Any, actor: Any, gid: int, *, lock: bool = False) -> Any:
        if threading.get_ident() == request_thread and lock:
            locked_reads.append(True)
            holding = threading.Event()

            def hold_the_row() -> None:
                with db.engine.connect() as writer:
                    writer.execute(text("UPDATE games SET updated_at = now() WHERE id = :g"), {"g": gid})
                    holding.set()
                    time.sleep(0.3)  # the append's FOR UPDATE waits on the row meanwhile
                    writer.commit()

            holder = threading.Thread(target=hold_the_row)
            holder.start()
            assert holding.wait(10)
            try:
                return game_row(session, actor, gid, lock=lock)
            finally:
                holder.join(10)
        return game_row(session, actor, gid, lock=lock)

    monkeypatch.setattr(rounds_svc, "_prepare", prepared)
    monkeypatch.setattr(rounds_svc, "_game_row", read_game)
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round("Team 1", "Team 2")})
    assert not failed, failed
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["number"] == 2
    assert locked_reads == [True]  # run twice: once unlocked (lost), once locked (stored)
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["rounds_played"] == 2
