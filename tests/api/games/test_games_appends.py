"""Round appends under concurrent writes: how an append stores its round against another request's write,
and many writers at once on a real threaded server.

How an append stores its round (api/services/rounds.py ``append_round``), on every backend.

The round is scored against the game row read without a lock, then the game row is updated only
if its version is still the one read. These tests put a write, from another request (a thread of
its own), between the read and the update (a concurrent append, a deletion, a change of owner) and
check the append then behaves as if it had run after that write: the next round number, the
recomputed state, a 404. They also check the answer, built without marshmallow, against
RoundSchema's dump, and which statements run in the write transaction.

Many writers at once on a real threaded server: nothing lost, nothing doubled.

16 threads: 8 append rounds to one game (with Idempotency-Keys, retrying on 409 and 503), 8 correct
rounds of two other games (GET for the ETag, PUT with If-Match, retrying on 412). Afterwards every
round number appears exactly once, the totals equal a recomputation from the stored rounds, and
every successful correction left exactly one revision.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import requests
from flask import Flask, jsonify
from flask.testing import FlaskClient
from sqlalchemy import event, select, update

from bench import rounds as bench_rounds
from handfoot.server.auth import ANONYMOUS, Actor, create_key
from handfoot.server.db import get_db
from handfoot.server.models import Game, Round, RoundRevision
from handfoot.server.resources.games import serializers
from handfoot.server.resources.games.schemas import RoundSchema
from handfoot.server.services import games as svc
from handfoot.server.services import rounds as rounds_svc
from tests.helpers.games import (
    SEED_ROUND_1,
    TEAMS,
    append,
    create_game,
    out_round,
    recorded_statements,
    replayed_state,
    tally,
)

pytestmark = pytest.mark.db


@contextmanager
def between_read_and_write(app: Flask, monkeypatch: pytest.MonkeyPatch, write: Callable[[], None]) -> Iterator[None]:
    """Run ``write`` once, as another request would (a thread with its own app context), after an
    append has read and scored against the game row and before its write transaction."""
    original = rounds_svc._prepare
    done: list[bool] = []
    failed: list[BaseException] = []

    def other() -> None:
        try:
            with app.app_context():
                write()
        except BaseException as err:  # noqa: BLE001 - reported below
            failed.append(err)

    def prepared(*args: Any, **kwargs: Any) -> Any:
        plan = original(*args, **kwargs)
        if not done:
            done.append(True)
            worker = threading.Thread(target=other)
            worker.start()
            worker.join(30)
        return plan

    monkeypatch.setattr(rounds_svc, "_prepare", prepared)
    yield
    assert done, "the append did not read the game"
    assert not failed, failed


def _stored_state(app: Flask, game_id: int) -> tuple[dict[str, Any], dict[str, Any], list[int]]:
    with app.app_context():
        game = svc.get_game(get_db(), ANONYMOUS, game_id)
        return game.state, svc.state_mapping(replayed_state(game)), [r.number for r in game.rounds]


@pytest.mark.postgresql  # SQLite: the append holds the write lock from its read
def test_an_append_between_read_and_write_moves_the_round_on(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, db_backend: str
) -> None:
    game_id = create_game(flask_client)["id"]
    append(flask_client, game_id, SEED_ROUND_1)

    def other_append() -> None:
        rounds_svc.append_round(
            get_db(app),
            ANONYMOUS,
            game_id,
            {"teams": out_round("Team 2", "Team 1")},
            {"teams": out_round("Team 2", "Team 1")},
        )

    with between_read_and_write(app, monkeypatch, other_append):
        rnd = append(flask_client, game_id, out_round("Team 1", "Team 2"))
    assert rnd["number"] == 3
    assert [t["total"] for t in rnd["totals_after"]] == [3740 + 650 + 3700, 1075 + 3700 + 650]
    stored, recomputed, numbers = _stored_state(app, game_id)
    assert stored == recomputed and numbers == [1, 2, 3]
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["version"] == 4 and game["rounds_played"] == 3


@pytest.mark.postgresql  # SQLite: the append holds the write lock from its read
def test_an_append_that_lost_its_race_locks_the_game_before_it_reads_again(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, db_backend: str
) -> None:
    """A race is lost once, not until the tries run out: every run of the append that reads the game
    with no lock held gets another writer's append between its read and its write; run again, it
    takes the write lock before it reads, so no writer comes between and its round is stored (where
    it used to lose every try and answer 409)."""
    game_id = create_game(flask_client, rules={"rounds": None, "target_score": 1_000_000})["id"]  # never over
    original, request_thread = rounds_svc._game_row, threading.get_ident()
    locked_as_read: list[bool] = []  # a run of the request's append: did it lock the game as it read?
    failed: list[BaseException] = []

    def other_append() -> None:
        try:
            with app.app_context():
                rounds_svc.append_round(get_db(), ANONYMOUS, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})
        except BaseException as err:  # noqa: BLE001 - reported below
            failed.append(err)

    def prepared(session: Any, *args: Any, lock: bool = False) -> Any:
        plan = original(session, *args, lock=lock)
        if threading.get_ident() == request_thread:
            locked_as_read.append(lock)
            if not locked_as_read[-1]:  # another writer can come between this read and the write
                worker = threading.Thread(target=other_append)
                worker.start()
                worker.join(30)
        return plan

    monkeypatch.setattr(rounds_svc, "_game_row", prepared)
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round("Team 1", "Team 2")})
    assert not failed, failed
    assert response.status_code == 201, response.get_json()
    assert locked_as_read == [False, True]
    assert response.get_json()["number"] == 2
    stored, recomputed, numbers = _stored_state(app, game_id)
    assert stored == recomputed and numbers == [1, 2]


@pytest.mark.postgresql  # SQLite: the append holds the write lock from its read
def test_a_round_number_read_stale_is_a_409(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, db_backend: str
) -> None:
    game_id = create_game(flask_client)["id"]

    def other_append() -> None:
        rounds_svc.append_round(get_db(app), ANONYMOUS, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})

    with between_read_and_write(app, monkeypatch, other_append):
        response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"round": 1, "teams": SEED_ROUND_1})
    assert response.status_code == 409 and response.get_json()["next_round"] == 2
    assert _stored_state(app, game_id)[2] == [1]


@pytest.mark.postgresql  # SQLite: the append holds the write lock from its read
def test_a_game_deleted_between_read_and_write_is_a_404(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, db_backend: str
) -> None:
    game_id = create_game(flask_client)["id"]
    with between_read_and_write(app, monkeypatch, lambda: svc.delete_game(get_db(app), ANONYMOUS, game_id)):
        response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1})
    assert response.status_code == 404
    with app.app_context(), get_db().session() as session:
        assert session.scalars(select(Round).where(Round.game_id == game_id)).all() == []


@pytest.mark.postgresql  # SQLite: the append holds the write lock from its read
def test_a_table_dealt_between_read_and_write_refuses_the_append(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, db_backend: str
) -> None:
    """A table dealt for the game while an append scores makes the game the table's: the append is a
    409 ``table_open`` and stores nothing (on PostgreSQL it was stored, the table left dealing a round
    the game already held, refusing every write to the game)."""
    game_id = create_game(flask_client)["id"]

    def deal() -> None:
        created = app.test_client().post("/v1/tables", json={"game": game_id, "seed": 3})
        assert created.status_code == 201, created.get_json()

    with between_read_and_write(app, monkeypatch, deal):
        response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1})
    assert response.status_code == 409 and response.get_json()["errors"][0]["code"] == "table_open"
    assert _stored_state(app, game_id)[2] == []


@pytest.mark.postgresql  # SQLite: the append holds the write lock from its read
def test_a_game_given_away_between_read_and_write_is_not_found(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, db_backend: str
) -> None:
    """``keys create --adopt-anonymous`` changes a game's owner without moving its version."""
    game_id = create_game(flask_client)["id"]
    with app.app_context():
        key, _token = create_key(get_db(), "keeper")

    def adopt() -> None:
        with get_db(app).write_session() as session:
            session.execute(update(Game).where(Game.owner_id.is_(None)).values(owner_id=key.id))

    with app.app_context(), between_read_and_write(app, monkeypatch, adopt), pytest.raises(svc.GameNotFoundError):
        rounds_svc.append_round(get_db(), ANONYMOUS, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})
    with app.app_context():
        owner = Actor(key.id, key.name)
        game, rnd = rounds_svc.append_round(get_db(), owner, game_id, {"teams": SEED_ROUND_1}, {"teams": SEED_ROUND_1})
        assert rnd.number == 1 and rnd.author == "keeper" and game.state["rounds_played"] == 1


@pytest.mark.parametrize("form", ["tallies", "cards"])
def test_answer_is_the_documented_schema_dump(
    app: Flask, flask_client: FlaskClient, form: str, db_backend: str
) -> None:
    """The append's answer is built without marshmallow; it must be byte for byte what dumping the
    same round through RoundSchema (the documented response) and jsonify gives."""
    if form == "cards":
        body, teams, rules = bench_rounds.append_body(), bench_rounds.game_teams(), {"clean_book_bonus": 450}
    else:
        body, teams, rules = {"round": 1, "teams": SEED_ROUND_1}, TEAMS, None
    game_id = create_game(flask_client, teams=teams, rules=rules)["id"]
    captured: list[rounds_svc.Appended] = []
    original = rounds_svc._store_append

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        captured.append(result)
        return result

    for _ in range(2):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(rounds_svc, "_store_append", spy)
            response = flask_client.post(f"/v1/games/{game_id}/rounds", json={**body, "round": len(captured) + 1})
        assert response.status_code == 201, response.get_json()
        game, rnd = captured[-1]
        expected = RoundSchema().dump(serializers.round_members(game.sides, game.state["running"], rnd))
        with app.app_context():
            assert response.data == jsonify(expected).get_data()
        # and what a GET of the round answers (timestamps compared as instants)
        got = flask_client.get(f"/v1/games/{game_id}/rounds/{rnd.number}").get_json()
        answer = response.get_json()
        for member in ("created_at", "updated_at"):
            assert _instant(got.pop(member)) == _instant(answer.pop(member))
        assert got == answer


def _instant(value: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(value)


def test_a_replayed_append_answers_the_first_answer(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    headers = {"Idempotency-Key": '"append-answer"'}
    first = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers=headers)
    again = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert again.get_json() == first.get_json()
    assert again.headers["ETag"] == first.headers["ETag"] and again.headers["Location"] == first.headers["Location"]


def test_only_the_update_and_the_insert_run_in_the_write_transaction(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    """The round is scored, then written: the UPDATE of the game (at the
    version read, and only where no table plays the game, D51: asked in the UPDATE itself, so a
    table made meanwhile is seen), the INSERT of the round and the INSERT of its sides' facts
    (``round_sides``, what the statistics sum), nothing else; no row is read ``FOR
    UPDATE``. On SQLite the API key's check is a read transaction of its own, ended with
    ``ROLLBACK``, then the append's unit begins with ``BEGIN IMMEDIATE`` on the same connection,
    before it reads the game; on PostgreSQL the unit continues the request's transaction. The same
    three writes on both databases; either way the request checks out one connection."""
    game_id = create_game(flask_client)["id"]
    append(flask_client, game_id, SEED_ROUND_1)
    statements: list[str] = []
    checkouts: list[int] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()))

    def checkout(*args: Any) -> None:
        checkouts.append(1)

    engine = get_db(app).engine
    event.listen(engine, "before_cursor_execute", record)
    event.listen(engine.pool, "checkout", checkout)
    try:
        append(flask_client, game_id, [tally("Team 1", clean=1, table=100), tally("Team 2", clean=1, table=90)])
    finally:
        event.remove(engine, "before_cursor_execute", record)
        event.remove(engine.pool, "checkout", checkout)
    assert not any("FOR UPDATE" in s for s in statements), statements
    reads = [s for s in statements if s.startswith("SELECT")]
    assert [s.split(" FROM ")[1].split()[0] for s in reads] == ["api_keys", "games"], statements
    writes = [s for s in statements if s.split()[0] in ("UPDATE", "INSERT", "DELETE", "WITH")]
    assert [" ".join(s.split()[:3]) for s in writes] == [
        "UPDATE games SET",
        "INSERT INTO rounds",
        "INSERT INTO round_sides",
    ], statements
    assert "FROM tables" in writes[0] and "NOT (EXISTS" in writes[0], writes[0]
    if db_backend == "sqlite":
        assert [s for s in statements if s.startswith(("BEGIN", "ROLLBACK"))] == [
            "BEGIN",
            "ROLLBACK",
            "BEGIN IMMEDIATE",
        ], statements
        assert statements.index("BEGIN IMMEDIATE") == len(statements) - 5, statements  # the game, its 3 writes
    assert len(checkouts) == 1


def test_an_append_with_an_idempotency_key_stores_its_answer_in_the_rounds_transaction(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    """With a key the answer is stored with the round, in the round's write transaction."""
    game_id = create_game(flask_client)["id"]
    with recorded_statements(app) as statements:
        response = flask_client.post(
            f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers={"Idempotency-Key": "one-transaction"}
        )
    assert response.status_code == 201, response.get_json()
    kinds = [s.split()[0] for s in statements if s.split()[0] in ("UPDATE", "INSERT")]
    assert kinds[-4:] == ["UPDATE", "INSERT", "INSERT", "UPDATE"], (
        statements  # the game, the round, its sides' facts, the key's stored answer
    )
    last = max(i for i, s in enumerate(statements) if s.startswith("UPDATE games"))
    assert not any(s.startswith("BEGIN") for s in statements[last:]), statements  # one transaction
    again = flask_client.post(
        f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers={"Idempotency-Key": "one-transaction"}
    )
    assert again.status_code == 201 and again.data == response.data
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1


def test_the_stored_round_is_the_request_as_sent(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    sent = {"teams": SEED_ROUND_1}
    response = flask_client.post(f"/v1/games/{game_id}/rounds", data=json.dumps(sent), content_type="application/json")
    assert response.status_code == 201
    with app.app_context(), get_db().session() as session:
        rnd = session.scalars(select(Round).where(Round.game_id == game_id)).one()
        assert rnd.request == {**sent, "round": 1} and rnd.revision == 1 and rnd.author is None
        assert [b["total"] for b in rnd.teams] == [3740, 1075]
        game = session.get(Game, game_id)
        assert game is not None and game.version == 2 and game.status == "in_progress" and game.rounds_played == 1


APPENDERS = 8
APPENDS_EACH = 5
CORRECTORS = 8
CORRECTIONS_EACH = 4


def small_round(points: int) -> list[dict[str, Any]]:
    return [tally("Team 1", clean=1, table=points), tally("Team 2", clean=1, table=100)]


def send(method: str, url: str, retry_on: tuple[int, ...], attempts: int = 200, **kwargs: Any) -> requests.Response:
    for _ in range(attempts):
        response = requests.request(method, url, timeout=60, **kwargs)
        if response.status_code not in retry_on:
            return response
        time.sleep(0.01)
    raise AssertionError(f"{method} {url}: still {response.status_code} after {attempts} attempts")


def test_concurrent_appends_and_corrections(  # noqa: C901 - its nested workers count into it
    app: Flask, threaded_server: str, db_backend: str
) -> None:
    def create(rules: dict[str, Any]) -> int:
        response = requests.post(
            f"{threaded_server}/v1/games",
            json={"name": "c", "preset": "pagat", "rules": rules, "teams": TEAMS},
            timeout=30,
        )
        assert response.status_code == 201, response.text
        return int(response.json()["id"])

    target = create({"rounds": 50})
    corrected = [create({}), create({})]
    for game_id in corrected:
        for _ in range(3):
            response = requests.post(
                f"{threaded_server}/v1/games/{game_id}/rounds", json={"teams": small_round(100)}, timeout=30
            )
            assert response.status_code == 201, response.text

    errors: list[str] = []
    corrections: Counter[tuple[int, int]] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(APPENDERS + CORRECTORS)

    def appender(i: int) -> None:
        start.wait()
        for j in range(APPENDS_EACH):
            key = str(uuid.uuid4())
            response = send(
                "POST",
                f"{threaded_server}/v1/games/{target}/rounds",
                (409, 503),
                json={"teams": small_round(100 + 5 * (i * APPENDS_EACH + j))},
                headers={"Idempotency-Key": f'"{key}"'},
            )
            if response.status_code != 201:
                errors.append(f"append: {response.status_code} {response.text}")
            # a retry of a completed append returns it again and stores nothing
            again = send(
                "POST",
                f"{threaded_server}/v1/games/{target}/rounds",
                (409, 503),
                json={"teams": small_round(100 + 5 * (i * APPENDS_EACH + j))},
                headers={"Idempotency-Key": f'"{key}"'},
            )
            if again.status_code != 201 or again.json() != response.json():
                errors.append(f"replay: {again.status_code} {again.text}")

    def corrector(i: int) -> None:
        game_id = corrected[i % 2]
        number = 1 + (i // 2) % 3
        start.wait()
        done = 0
        while done < CORRECTIONS_EACH:
            url = f"{threaded_server}/v1/games/{game_id}/rounds/{number}"
            got = send("GET", url, (503,))
            response = send(
                "PUT",
                url,
                (409, 503),
                # a body no other corrector sends: the same body on the ETag one behind is a retry (no revision)
                json={"teams": small_round(105 + 5 * i + 50 * done)},
                headers={"If-Match": got.headers["ETag"]},
            )
            if response.status_code == 412:
                continue
            if response.status_code != 200:
                errors.append(f"correct: {response.status_code} {response.text}")
                return
            done += 1
            with lock:
                corrections[(game_id, number)] += 1

    threads = [threading.Thread(target=appender, args=(i,)) for i in range(APPENDERS)]
    threads += [threading.Thread(target=corrector, args=(i,)) for i in range(CORRECTORS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors[:5]

    with get_db(app).session() as session:
        for game_id in [target, *corrected]:
            game = session.get(Game, game_id)
            assert game is not None
            rounds = session.scalars(select(Round).where(Round.game_id == game_id).order_by(Round.number)).all()
            expected_rounds = APPENDERS * APPENDS_EACH if game_id == target else 3
            assert [r.number for r in rounds] == list(range(1, expected_rounds + 1))  # each number once
            totals = [sum(r.teams[side]["total"] for r in rounds) for side in range(2)]
            assert [t["total"] for t in game.state["totals"]] == totals
            assert game.rounds_played == expected_rounds
            for r in rounds:
                revisions = session.scalars(
                    select(RoundRevision).where(RoundRevision.round_id == r.id).order_by(RoundRevision.revision)
                ).all()
                made = corrections[(game_id, r.number)]
                assert r.revision == made + 1
                assert [v.revision for v in revisions] == list(range(1, made + 1))  # no revision lost
        target_game = session.get(Game, target)
        assert target_game is not None
        table_points = sorted(
            r.request["teams"][0]["tally"]["table_points"]
            for r in session.scalars(select(Round).where(Round.game_id == target))
        )
        assert table_points == [100 + 5 * k for k in range(APPENDERS * APPENDS_EACH)]  # each append once
    assert sum(corrections.values()) == CORRECTORS * CORRECTIONS_EACH
