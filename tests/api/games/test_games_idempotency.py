"""Idempotency-Key on the games resource.

Idempotency-Key on appends and on game creation: one round stored per key, whatever the retries.

An Idempotency-Key never brings back a game that is gone: replaying an append to a deleted game
(or to a game the caller cannot see) is a 404, like any request to it.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from handfoot.server.db import get_db
from handfoot.server.models import IdempotencyKey, Round
from handfoot.server.services import rounds as rounds_svc
from tests.api.app.test_problems import assert_problem
from tests.helpers.games import SEED_ROUND_1, TEAMS, create_game, out_round

PROBLEMS = "https://handfoot.dev/problems/"


def rounds_stored(app: Flask, game_id: int) -> int:
    with get_db(app).session() as session:
        return len(session.scalars(select(Round).where(Round.game_id == game_id)).all())


@pytest.mark.db
def test_same_key_same_body_stores_one_round(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    headers = {"Idempotency-Key": '"8e03978e-40d5-43e8-bc93-6894a57f9324"'}
    first = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers=headers)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers=headers)
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert again.data == first.data  # the first answer again, byte for byte
    assert again.headers["Location"] == first.headers["Location"] and again.headers["ETag"] == first.headers["ETag"]
    assert rounds_stored(app, game_id) == 1
    # unquoted is the same key
    unquoted = flask_client.post(
        f"/v1/games/{game_id}/rounds",
        json={"teams": SEED_ROUND_1},
        headers={"Idempotency-Key": "8e03978e-40d5-43e8-bc93-6894a57f9324"},
    )
    assert unquoted.status_code == 201 and unquoted.headers["Idempotent-Replayed"] == "true"
    # a new key is a new round
    flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers={"Idempotency-Key": "k2"})
    assert rounds_stored(app, game_id) == 2


@pytest.mark.db
def test_same_key_other_body_is_422(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    headers = {"Idempotency-Key": "abc"}
    assert (
        flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers=headers).status_code
        == 201
    )
    response = flask_client.post(
        f"/v1/games/{game_id}/rounds", json={"teams": out_round("Team 1", "Team 2")}, headers=headers
    )
    assert response.status_code == 422
    assert response.get_json()["type"] == PROBLEMS + "idempotency-key-reused"
    other_game = create_game(flask_client)["id"]  # another path is another request too
    response = flask_client.post(f"/v1/games/{other_game}/rounds", json={"teams": SEED_ROUND_1}, headers=headers)
    assert response.status_code == 422
    assert rounds_stored(app, game_id) == 1 and rounds_stored(app, other_game) == 0


@pytest.mark.db
def test_failed_request_releases_its_key(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    headers = {"Idempotency-Key": "retry-me"}
    bad = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": [SEED_ROUND_1[0]]}, headers=headers)
    assert bad.status_code == 422
    with get_db(app).session() as session:
        assert session.scalars(select(IdempotencyKey)).all() == []
    # the fixed body under a new key works; the same body under the same key runs again (422 again)
    assert (
        flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": [SEED_ROUND_1[0]]}, headers=headers).status_code
        == 422
    )


@pytest.mark.db
def test_create_game_is_idempotent(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    body = {"name": "F", "preset": "pagat", "teams": TEAMS}
    first = flask_client.post("/v1/games", json=body, headers={"Idempotency-Key": "g1"})
    again = flask_client.post("/v1/games", json=body, headers={"Idempotency-Key": "g1"})
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert again.data.strip() == first.data.strip()
    assert len(flask_client.get("/v1/games").get_json()) == 1


@pytest.mark.db
@pytest.mark.parametrize("value", ["", "x" * 256, '"unterminated\\"', "caf\u00e9"])
def test_bad_keys_are_422(flask_client: FlaskClient, db_backend: str, value: str) -> None:
    game_id = create_game(flask_client)["id"]
    response = flask_client.post(
        f"/v1/games/{game_id}/rounds",
        json={"teams": SEED_ROUND_1},
        headers={"Idempotency-Key": value.encode("utf-8").decode("latin-1")},
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["parameter"] == "Idempotency-Key"


@pytest.mark.db
def test_expired_keys_are_purged(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    old = datetime.now(UTC) - timedelta(days=2)
    with get_db(app).write_session() as session:
        session.add(
            IdempotencyKey(
                scope="anonymous",
                key="old",
                token="t",
                status=201,
                created_at=old,
                expires_at=old + timedelta(days=1),
                fingerprint="x",
                response_body="{}",
                response_headers={},
            )
        )
    response = flask_client.post(
        f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers={"Idempotency-Key": "old"}
    )
    assert response.status_code == 201 and "Idempotent-Replayed" not in response.headers


def test_replay_of_an_append_to_a_deleted_game_is_404(flask_client: FlaskClient) -> None:
    """A stored key must not bring back a deleted game's append as a 201."""
    game_id = create_game(flask_client)["id"]
    body = {"teams": out_round(*[t["name"] for t in TEAMS])}
    headers = {"Idempotency-Key": '"k-1"'}
    first = flask_client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers)
    assert first.status_code == 201
    replay = flask_client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers.get("Idempotent-Replayed") == "true"
    assert flask_client.delete(f"/v1/games/{game_id}").status_code == 204
    assert_problem(flask_client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers), 404, "not-found")


def test_replay_of_a_game_creation_whose_game_was_deleted_is_404(flask_client: FlaskClient) -> None:
    """A stored key must not answer 201 for a created game that is gone."""
    body = {"name": "Friday", "preset": "pagat", "teams": TEAMS}
    headers = {"Idempotency-Key": '"create-1"'}
    first = flask_client.post("/v1/games", json=body, headers=headers)
    assert first.status_code == 201
    replay = flask_client.post("/v1/games", json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers["Location"] == first.headers["Location"]
    assert flask_client.delete(first.headers["Location"]).status_code == 204
    gone = flask_client.post("/v1/games", json=body, headers=headers)
    assert_problem(gone, 404, "not-found")
    assert "Location" not in gone.headers
    assert flask_client.get(first.headers["Location"]).status_code == 404


def test_one_key_sent_twice_at_once_stores_once_and_replays(
    app: Flask, threaded_server: str, db_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The claim is written in the append's own transaction: a second request with the key, sent
    while the first is still scoring, waits for the first's commit and replays its answer (no
    409, no second round)."""
    game_id = requests.post(
        f"{threaded_server}/v1/games", json={"name": "F", "preset": "pagat", "teams": TEAMS}, timeout=30
    ).json()["id"]
    original = rounds_svc._prepare
    first_inside = threading.Event()

    def slow_prepare(*args: Any, **kwargs: Any) -> Any:
        first_inside.set()
        time.sleep(0.3)  # the second request arrives meanwhile (the order, not a timing, is asserted)
        return original(*args, **kwargs)

    monkeypatch.setattr(rounds_svc, "_prepare", slow_prepare)
    url = f"{threaded_server}/v1/games/{game_id}/rounds"
    headers = {"Idempotency-Key": '"twice"'}
    answers: list[requests.Response] = []
    first = threading.Thread(
        target=lambda: answers.append(requests.post(url, json={"teams": SEED_ROUND_1}, headers=headers, timeout=30))
    )
    first.start()
    assert first_inside.wait(30)
    second = requests.post(url, json={"teams": SEED_ROUND_1}, headers=headers, timeout=30)
    first.join(30)
    assert [a.status_code for a in answers] == [201] and second.status_code == 201, second.text
    assert second.headers.get("Idempotent-Replayed") == "true" and second.content == answers[0].content
    assert rounds_stored(app, game_id) == 1
