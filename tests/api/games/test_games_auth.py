"""Who may do what to a game: ownership by API key on every games operation, and the key check of an
anonymous append.

Ownership on every games operation: another key's game is a 404, no key is a 401.

The operations come from the served OpenAPI document (``games_routes.spec_game_operations``), so a
new games route without a case fails here. Runs on SQLite and PostgreSQL.

An anonymous round append is authenticated like every other games request: "is any API key
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
from tests.helpers.game_routes import GAME_OPERATIONS, call, spec_game_operations
from tests.helpers.games import SEED_ROUND_1, append, create_game, recorded_statements

pytestmark = pytest.mark.db


OPERATIONS = sorted(GAME_OPERATIONS)
ON_A_GAME = [op for op in OPERATIONS if "{game_id}" in op[1]]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_games_operation_has_a_case(app: Flask, db_backend: str) -> None:
    """A new games route without an ownership case would go untested: the cases must cover the served document."""
    assert spec_game_operations(app) == set(GAME_OPERATIONS)


@pytest.fixture
def alices_game(app: Flask, flask_client: FlaskClient) -> tuple[str, str, int, str]:
    """Keys for alice and bob; a game of alice's with one round; the round's ETag."""
    _, alice = create_key(get_db(app), "alice")
    _, bob = create_key(get_db(app), "bob")
    game_id = create_game(flask_client, headers=bearer(alice))["id"]
    append(flask_client, game_id, SEED_ROUND_1, headers=bearer(alice))
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1", headers=bearer(alice)).headers["ETag"]
    return alice, bob, game_id, etag


@pytest.mark.parametrize("op", ON_A_GAME, ids=lambda op: f"{op[0].upper()} {op[1]}")
def test_another_keys_game_is_404_and_unchanged(
    flask_client: FlaskClient, db_backend: str, op: tuple[str, str], alices_game: tuple[str, str, int, str]
) -> None:
    alice, bob, game_id, etag = alices_game
    before = flask_client.get(f"/v1/games/{game_id}", headers=bearer(alice)).get_json()
    response = call(flask_client, op, game_id=game_id, headers=bearer(bob), etag=etag)
    assert response.status_code == 404, response.get_json()
    assert response.content_type == "application/problem+json"
    assert str(game_id) in response.get_json()["detail"]
    assert "alice" not in response.get_data(as_text=True)
    after = flask_client.get(f"/v1/games/{game_id}", headers=bearer(alice)).get_json()
    assert after == before  # nothing read, nothing changed


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: f"{op[0].upper()} {op[1]}")
@pytest.mark.parametrize("auth", ["none", "malformed", "unknown", "basic"])
def test_no_valid_key_is_401(
    flask_client: FlaskClient, db_backend: str, op: tuple[str, str], auth: str, alices_game: tuple[str, str, int, str]
) -> None:
    alice, _, game_id, etag = alices_game
    headers = {
        "none": {},
        "malformed": {"Authorization": "Bearer"},
        "unknown": bearer("hf_" + "x" * 43),
        "basic": {"Authorization": "Basic YWxpY2U6c2VjcmV0"},
    }[auth]
    response = call(flask_client, op, game_id=game_id, headers=headers, etag=etag)
    assert response.status_code == 401, response.get_json()
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert response.get_json()["type"] == "https://handfoot.dev/problems/unauthorized"
    assert flask_client.get(f"/v1/games/{game_id}", headers=bearer(alice)).get_json()["rounds_played"] == 1


def test_list_shows_only_own_games(
    flask_client: FlaskClient, db_backend: str, alices_game: tuple[str, str, int, str]
) -> None:
    alice, bob, game_id, _ = alices_game
    assert flask_client.get("/v1/games", headers=bearer(bob)).get_json() == []
    assert [g["id"] for g in flask_client.get("/v1/games", headers=bearer(alice)).get_json()] == [game_id]
    assert flask_client.get("/v1/games?player=North", headers=bearer(bob)).get_json() == []


@pytest.mark.parametrize("op", ON_A_GAME, ids=lambda op: f"{op[0].upper()} {op[1]}")
def test_owner_succeeds_on_every_operation(
    flask_client: FlaskClient, db_backend: str, op: tuple[str, str], alices_game: tuple[str, str, int, str]
) -> None:
    alice, _, game_id, etag = alices_game
    response = call(flask_client, op, game_id=game_id, headers=bearer(alice), etag=etag)
    assert response.status_code in (200, 201, 204), response.get_json()


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
    app: Flask, flask_client: FlaskClient, db_backend: str, keys: str, target: str, body: str
) -> None:
    """An anonymous append is authenticated like every other games request: for each key state, target
    and body it answers what the key check, then the parse, then the service give."""
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


def test_a_key_created_between_two_anonymous_appends_stops_the_second(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    """The key check is asked per request, not remembered: once a key exists the next anonymous append is a 401."""
    game_id = create_game(flask_client)["id"]
    assert flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}).status_code == 201
    create_key(get_db(app), "kitchen")
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1})
    assert response.status_code == 401, response.get_json()


def test_a_keyed_append_reads_the_game_as_its_key_sees_it(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    """A request with a key never asks whether any key is active: it looks its own key up."""
    _, token = create_key(get_db(app), "kitchen")
    game_id = create_game(flask_client, headers={"Authorization": f"Bearer {token}"})["id"]
    with recorded_statements(app) as statements:
        response = flask_client.post(
            f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers={"Authorization": f"Bearer {token}"}
        )
    assert response.status_code == 201, response.get_json()
    key_reads = [s for s in statements if "FROM api_keys" in s]
    assert key_reads and all("api_keys.key_hash =" in s for s in key_reads), statements
    revisions = flask_client.get(
        f"/v1/games/{game_id}/rounds/1/revisions", headers={"Authorization": f"Bearer {token}"}
    )
    assert revisions.get_json()[-1]["author"] == "kitchen"
