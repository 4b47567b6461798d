"""An anonymous round append is authenticated like every other games request: "is any API key
active?" is asked first, on its own, whatever the endpoint. Its answers are those of that check,
then the body's parse, then the service: for every state of the keys (none, one active, only
revoked ones), every target (an anonymous game, a key's game, no game) and a valid or an invalid
body. Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from tests.helpers.games import SEED_ROUND_1, create_game, recorded_statements

pytestmark = pytest.mark.db

KEYS = ["no key", "an active key", "only a revoked key"]
TARGETS = ["an anonymous game", "a key's game", "no game"]
BODIES = ["valid", "invalid"]


def _setup(app: Flask, flask_client: FlaskClient, keys: str, target: str) -> int:
    anonymous_game = create_game(flask_client)["id"]  # made while the store is open
    game_id = {"an anonymous game": anonymous_game, "no game": anonymous_game + 1000}.get(target, 0)
    if keys != "no key" or target == "a key's game":
        key, token = create_key(get_db(app), "kitchen")
        if target == "a key's game":
            game_id = create_game(flask_client, headers={"Authorization": f"Bearer {token}"})["id"]
        if keys != "an active key":
            assert app.test_cli_runner().invoke(args=["keys", "revoke", str(key.id)]).exit_code == 0
    return game_id


def _expected(keys: str, target: str, body: str) -> int:
    """What the key check made alone, then the body's parse, then the service answer."""
    if keys == "an active key":
        return 401
    if body == "invalid":
        return 422
    return 201 if target == "an anonymous game" else 404


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("keys", KEYS)
def test_the_anonymous_appends_key_check_answers_as_the_check_alone(
        app: Flask, flask_client: FlaskClient, db_backend: str, keys: str, target: str, body: str) -> None:
    game_id = _setup(app, flask_client, keys, target)
    sent: dict[str, Any] = {"teams": SEED_ROUND_1} if body == "valid" else {"teams": "not a list"}
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json=sent)
    expected = _expected(keys, target, body)
    assert response.status_code == expected, response.get_json()
    assert response.content_type == ("application/json" if expected == 201 else "application/problem+json")
    if expected == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.get_json()["type"] == "https://handfoot.dev/problems/unauthorized"
    if target == "an anonymous game" and keys != "an active key":
        rounds = 1 if expected == 201 else 0
        assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == rounds


def test_a_key_created_between_two_anonymous_appends_stops_the_second(app: Flask, flask_client: FlaskClient,
                                                                      db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    assert flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}).status_code == 201
    create_key(get_db(app), "kitchen")
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1})
    assert response.status_code == 401, response.get_json()


def test_a_keyed_append_reads_the_game_as_its_key_sees_it(app: Flask, flask_client: FlaskClient,
                                                           db_backend: str) -> None:
    """A request with a key never asks whether any key is active: it looks its own key up."""
    _, token = create_key(get_db(app), "kitchen")
    game_id = create_game(flask_client, headers={"Authorization": f"Bearer {token}"})["id"]
    with recorded_statements(app) as statements:
        response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1},
                               headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.get_json()
    key_reads = [s for s in statements if "FROM api_keys" in s]
    assert key_reads and all("api_keys.key_hash =" in s for s in key_reads), statements
    revisions = flask_client.get(
        f"/v1/games/{game_id}/rounds/1/revisions", headers={"Authorization": f"Bearer {token}"}
    )
    assert revisions.get_json()[-1]["author"] == "kitchen"
