"""API keys: the `flask keys` commands, 401 without a key once keys exist, 404 for another key's game."""

from __future__ import annotations

import hashlib

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from handfoot.server.models import ApiKey
from tests.helpers.games import SEED_ROUND_1, append, create_game

pytestmark = pytest.mark.db


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_keys_cli_create_list_revoke(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(args=["keys", "create", "kitchen"])
    assert result.exit_code == 0, result.output
    token = result.stdout.strip().splitlines()[-1]
    assert token.startswith("hf_") and len(token) > 40
    with get_db(app).session() as session:
        key = session.scalars(select(ApiKey)).one()
        assert key.key_hash == hashlib.sha256(token.encode()).hexdigest()  # only the hash is stored
    listed = runner.invoke(args=["keys", "list"])
    assert "kitchen" in listed.output and "active" in listed.output and token not in listed.output

    assert flask_client.get("/v1/games", headers=bearer(token)).status_code == 200
    assert runner.invoke(args=["keys", "revoke", str(key.id)]).exit_code == 0
    assert "revoked" in runner.invoke(args=["keys", "list"]).output
    response = flask_client.get("/v1/games", headers=bearer(token))
    assert response.status_code == 401  # revoked; and no other key exists, but a key sent must be valid
    assert runner.invoke(args=["keys", "revoke", "999"]).exit_code != 0


def test_open_store_without_keys(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    assert flask_client.get(f"/v1/games/{game_id}").status_code == 200


def test_ownership(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    _, alice = create_key(get_db(app), "alice")
    _, bob = create_key(get_db(app), "bob")
    game_id = create_game(flask_client, headers=bearer(alice))["id"]
    append(flask_client, game_id, SEED_ROUND_1, headers=bearer(alice))
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1", headers=bearer(alice)).headers["ETag"]

    routes = [
        ("get", f"/v1/games/{game_id}", {}),
        ("get", f"/v1/games/{game_id}/rounds/1", {}),
        ("put", f"/v1/games/{game_id}/rounds/1", {"json": {"teams": SEED_ROUND_1}, "headers": {"If-Match": etag}}),
        ("get", f"/v1/games/{game_id}/rounds/1/revisions", {}),
        ("get", f"/v1/games/{game_id}/scoresheet", {}),
        ("post", f"/v1/games/{game_id}/rounds", {"json": {"teams": SEED_ROUND_1}}),
        ("delete", f"/v1/games/{game_id}", {}),
    ]
    for method, path, kwargs in routes:
        headers = {**kwargs.get("headers", {}), **bearer(bob)}
        response = getattr(flask_client, method)(path, **{**kwargs, "headers": headers})
        assert response.status_code == 404, (method, path, response.get_json())
        response = getattr(flask_client, method)(path, **kwargs)
        assert response.status_code == 401, (method, path)
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.get_json()["type"] == "https://handfoot.dev/problems/unauthorized"
    assert flask_client.get("/v1/games", headers=bearer(bob)).get_json() == []
    assert [g["id"] for g in flask_client.get("/v1/games", headers=bearer(alice)).get_json()] == [game_id]
    assert flask_client.get("/v1/games").status_code == 401
    assert flask_client.post("/v1/games", json={}).status_code == 401
    assert flask_client.get("/v1/games", headers={"Authorization": "Basic abc"}).status_code == 401
    assert flask_client.get("/v1/games", headers=bearer("hf_wrong")).status_code == 401

    revisions = flask_client.get(f"/v1/games/{game_id}/rounds/1/revisions", headers=bearer(alice)).get_json()
    assert revisions[-1]["author"] == "alice"
    # scoring stays open
    assert flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": SEED_ROUND_1}).status_code == 200


def test_adopt_anonymous_games(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    result = app.test_cli_runner().invoke(args=["keys", "create", "family", "--adopt-anonymous"])
    token = result.stdout.strip().splitlines()[-1]
    assert flask_client.get(f"/v1/games/{game_id}", headers=bearer(token)).status_code == 200


def test_database_down_is_503_with_retry_after() -> None:
    from handfoot.server import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none"})
    flask_client = app.test_client()
    for method, path in [("get", "/v1/games"), ("post", "/v1/games"), ("get", "/v1/games/1"),
                         ("post", "/v1/games/1/rounds")]:
        response = getattr(flask_client, method)(path, **({"json": {}} if method == "post" else {}))
        assert response.status_code == 503, (method, path)
        assert response.headers["Retry-After"] and response.content_type == "application/problem+json"
        assert response.get_json()["type"] == "https://handfoot.dev/problems/service-unavailable"
