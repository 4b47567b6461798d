"""How an append stores its round (api/services/games.py ``append_round``), on every backend.

The round is scored against the game row read without a lock, then the game row is updated only
if its version is still the one read. These tests put a write between the read and the update
(a concurrent append, a deletion, a change of owner) and check the append then behaves as if it
had run after that write: the next round number, the recomputed state, a 404. They also check the
answer, built without marshmallow, against RoundSchema's dump, and which statements run under
the write lock.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask, jsonify
from flask.testing import FlaskClient
from games_util import SEED_ROUND_1, TEAMS, append, create_game, out_round, recorded_statements, tally
from sqlalchemy import event, select, update

from bench import rounds as bench_rounds
from handfoot.server.auth import ANONYMOUS, Actor, create_key
from handfoot.server.db import get_db
from handfoot.server.models import Game, Round
from handfoot.server.resources.games import routes
from handfoot.server.resources.games.schemas import RoundSchema
from handfoot.server.services import games as svc

pytestmark = pytest.mark.db


@contextmanager
def between_read_and_write(monkeypatch: pytest.MonkeyPatch, write: Callable[[], None]) -> Iterator[None]:
    """Run ``write`` once, after an append has read and scored against the game row and before it
    updates the row."""
    original = svc._planned_append
    done: list[bool] = []

    def planned(*args: Any, **kwargs: Any) -> Any:
        plan = original(*args, **kwargs)
        if not done:
            done.append(True)
            write()
        return plan

    monkeypatch.setattr(svc, "_planned_append", planned)
    yield
    assert done, "the append did not plan"


def _stored_state(app: Flask, game_id: int) -> tuple[dict[str, Any], dict[str, Any], list[int]]:
    with app.app_context():
        game = svc.get_game(get_db(), ANONYMOUS, game_id)
        return game.state, svc.state_mapping(svc.current_state(game)), [r.number for r in game.rounds]


def test_an_append_between_read_and_write_moves_the_round_on(app: Flask, client: FlaskClient,
                                                             monkeypatch: pytest.MonkeyPatch, db_backend: str) -> None:
    game_id = create_game(client)["id"]
    append(client, game_id, SEED_ROUND_1)

    def other_append() -> None:
        svc.append_round(get_db(app), ANONYMOUS, game_id, {"teams": out_round("Team 2", "Team 1")},
                         {"teams": out_round("Team 2", "Team 1")})

    with between_read_and_write(monkeypatch, other_append):
        rnd = append(client, game_id, out_round("Team 1", "Team 2"))
    assert rnd["number"] == 3
    assert [t["total"] for t in rnd["totals_after"]] == [3740 + 650 + 3700, 1075 + 3700 + 650]
    stored, recomputed, numbers = _stored_state(app, game_id)
    assert stored == recomputed and numbers == [1, 2, 3]
    game = client.get(f"/v1/games/{game_id}").get_json()
    assert game["version"] == 4 and game["rounds_played"] == 3


def test_a_round_number_read_stale_is_a_409(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch,
                                            db_backend: str) -> None:
    game_id = create_game(client)["id"]

    def other_append() -> None:
        svc.append_round(get_db(app), ANONYMOUS, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})

    with between_read_and_write(monkeypatch, other_append):
        response = client.post(f"/v1/games/{game_id}/rounds", json={"round": 1, "teams": SEED_ROUND_1})
    assert response.status_code == 409 and response.get_json()["next_round"] == 2
    assert _stored_state(app, game_id)[2] == [1]


def test_a_game_deleted_between_read_and_write_is_a_404(app: Flask, client: FlaskClient,
                                                        monkeypatch: pytest.MonkeyPatch, db_backend: str) -> None:
    game_id = create_game(client)["id"]
    with between_read_and_write(monkeypatch, lambda: svc.delete_game(get_db(app), ANONYMOUS, game_id)):
        response = client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1})
    assert response.status_code == 404
    with app.app_context(), get_db().session() as session:
        assert session.scalars(select(Round).where(Round.game_id == game_id)).all() == []


def test_a_game_given_away_between_read_and_write_is_not_found(app: Flask, client: FlaskClient,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               db_backend: str) -> None:
    """``keys create --adopt-anonymous`` changes a game's owner without moving its version."""
    game_id = create_game(client)["id"]
    with app.app_context():
        key, _token = create_key(get_db(), "keeper")

    def adopt() -> None:
        with get_db(app).write_session() as session:
            session.execute(update(Game).where(Game.owner_id.is_(None)).values(owner_id=key.id))

    with app.app_context(), between_read_and_write(monkeypatch, adopt), pytest.raises(svc.GameNotFoundError):
        svc.append_round(get_db(), ANONYMOUS, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})
    with app.app_context():
        owner = Actor(key.id, key.name)
        game, rnd = svc.append_round(get_db(), owner, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})
        assert rnd.number == 1 and rnd.author == "keeper" and game.state["rounds_played"] == 1


@pytest.mark.parametrize("form", ["tallies", "cards"])
def test_answer_is_the_documented_schema_dump(app: Flask, client: FlaskClient, form: str, db_backend: str) -> None:
    """The append's answer is built without marshmallow; it must be byte for byte what dumping the
    same round through RoundSchema (the documented response) and jsonify gives."""
    if form == "cards":
        body, teams, rules = bench_rounds.append_body(), bench_rounds.game_teams(), {"clean_book_bonus": 450}
    else:
        body, teams, rules = {"round": 1, "teams": SEED_ROUND_1}, TEAMS, None
    game_id = create_game(client, teams=teams, rules=rules)["id"]
    captured: list[tuple[svc.AppendedGame, svc.AppendedRound]] = []
    original = svc.append_round

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        captured.append(result)
        return result

    for _ in range(2):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(svc, "append_round", spy)
            response = client.post(f"/v1/games/{game_id}/rounds", json={**body, "round": len(captured) + 1})
        assert response.status_code == 201, response.get_json()
        game, rnd = captured[-1]
        expected = RoundSchema().dump(routes._round_members(game.sides, game.state["running"], rnd))
        with app.app_context():
            assert response.data == jsonify(expected).get_data()
        # and what a GET of the round answers (timestamps compared as instants)
        got = client.get(f"/v1/games/{game_id}/rounds/{rnd.number}").get_json()
        answer = response.get_json()
        for member in ("created_at", "updated_at"):
            assert _instant(got.pop(member)) == _instant(answer.pop(member))
        assert got == answer


def _instant(value: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(value)


def test_a_replayed_append_answers_the_first_answer(client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(client)["id"]
    headers = {"Idempotency-Key": '"append-answer"'}
    first = client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers=headers)
    again = client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert again.get_json() == first.get_json()
    assert again.headers["ETag"] == first.headers["ETag"] and again.headers["Location"] == first.headers["Location"]


def test_only_the_update_and_the_insert_run_under_the_write_lock(app: Flask, client: FlaskClient,
                                                                db_backend: str) -> None:
    """The round is scored before the lock. On SQLite the write transaction (``BEGIN IMMEDIATE``)
    holds the UPDATE of the game and the INSERT of the round, nothing else. Before it, an anonymous
    append reads once: the API-key check and the read of the game are one statement. On PostgreSQL
    an append without an Idempotency-Key is then one checkout (one ping), that read, and the UPDATE
    and the INSERT as one statement, all in autocommit (no BEGIN, no COMMIT); no row is read
    ``FOR UPDATE``."""
    game_id = create_game(client)["id"]
    append(client, game_id, SEED_ROUND_1)
    statements: list[str] = []
    autocommit: list[bool] = []
    checkouts: list[int] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()))
        autocommit.append(bool(conn.connection.dbapi_connection.autocommit) if db_backend != "sqlite" else True)

    def checkout(*args: Any) -> None:
        checkouts.append(1)

    engine = get_db(app).engine
    event.listen(engine, "before_cursor_execute", record)
    event.listen(engine.pool, "checkout", checkout)
    try:
        append(client, game_id, [tally("Team 1", clean=1, table=100), tally("Team 2", clean=1, table=90)])
    finally:
        event.remove(engine, "before_cursor_execute", record)
        event.remove(engine.pool, "checkout", checkout)
    assert not any("FOR UPDATE" in s for s in statements), statements
    read = statements[0]
    assert read.startswith("SELECT games.id, games.teams, CAST(games.rules_snapshot"), statements
    assert "EXISTS (SELECT api_keys.id FROM api_keys WHERE api_keys.revoked_at IS NULL" in read, statements
    if db_backend == "sqlite":
        assert statements[1:] == ["BEGIN IMMEDIATE", *statements[2:]], statements
        assert [s.split()[0] for s in statements[2:]] == ["UPDATE", "INSERT"], statements
        assert len(checkouts) == 1  # the reads' connection, then the write's
    else:
        assert [" ".join(s.split()[:4]) for s in statements[1:]] == ["WITH moved AS (UPDATE"], statements
        assert "INSERT INTO rounds" in statements[-1], statements
        assert all(autocommit) and len(checkouts) == 1, (autocommit, checkouts)


def test_an_append_with_an_idempotency_key_stores_its_answer_in_the_rounds_transaction(
        app: Flask, client: FlaskClient, db_backend: str) -> None:
    """With a key the answer is stored with the round, in one transaction: not the one-statement
    path, on any backend."""
    game_id = create_game(client)["id"]
    with recorded_statements(app) as statements:
        response = client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1},
                               headers={"Idempotency-Key": "one-transaction"})
    assert response.status_code == 201, response.get_json()
    assert not any(s.startswith("WITH moved") for s in statements), statements
    assert [s.split()[0] for s in statements if s.split()[0] in ("UPDATE", "INSERT")][-3:] == [
        "UPDATE", "INSERT", "UPDATE"], statements  # the game, the round, the key's stored answer
    again = client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1},
                        headers={"Idempotency-Key": "one-transaction"})
    assert again.status_code == 201 and again.data == response.data
    assert client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1


def test_the_stored_round_is_the_request_as_sent(app: Flask, client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(client)["id"]
    sent = {"teams": SEED_ROUND_1}
    response = client.post(f"/v1/games/{game_id}/rounds", data=json.dumps(sent), content_type="application/json")
    assert response.status_code == 201
    with app.app_context(), get_db().session() as session:
        rnd = session.scalars(select(Round).where(Round.game_id == game_id)).one()
        assert rnd.request == {**sent, "round": 1} and rnd.revision == 1 and rnd.author is None
        assert [b["total"] for b in rnd.teams] == [3740, 1075]
        game = session.get(Game, game_id)
        assert game is not None and game.version == 2 and game.status == "in_progress" and game.rounds_played == 1
