"""Security: keys stored hashed and compared in constant time, CORS off unless configured,
``Cache-Control: no-store`` on games answers to keyed requests, rate limiting per key with 429."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from handfoot.server import auth
from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from handfoot.server.models import ApiKey
from handfoot.server.security import parse_origins
from tests.helpers.games import create_game


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- API keys ---------------------------------------------------------------------------------------


@pytest.mark.db
def test_keys_are_stored_as_sha256_only(app: Flask, db_backend: str) -> None:
    _, token = create_key(get_db(app), "kitchen")
    with get_db(app).session() as session:
        rows = session.execute(select(ApiKey.__table__)).mappings().all()
    assert len(rows) == 1
    stored = " ".join(str(v) for v in rows[0].values())
    assert token not in stored and token[3:] not in stored
    assert rows[0]["key_hash"] == hashlib.sha256(token.encode()).hexdigest()


def test_keys_are_compared_in_constant_time(app: Flask, flask_client: FlaskClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _, token = create_key(get_db(app), "kitchen")
    calls: list[tuple[Any, Any]] = []
    compare = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return compare(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    assert flask_client.get("/v1/games", headers=bearer(token)).status_code == 200
    assert calls == [(auth.hash_key(token), auth.hash_key(token))]
    assert flask_client.get("/v1/games", headers=bearer(token[:-1] + "x")).status_code == 401


def test_keys_are_random_and_long() -> None:
    tokens = {auth.new_token() for _ in range(200)}
    assert len(tokens) == 200
    assert all(t.startswith("hf_") and len(t) == 46 for t in tokens)  # 256 bits, URL-safe base64


# --- CORS -----------------------------------------------------------------------------------------------


def test_cors_is_off_by_default(flask_client: FlaskClient) -> None:
    origin = {"Origin": "https://evil.example"}
    for response in (flask_client.get("/v1/presets", headers=origin), flask_client.get("/v1/games", headers=origin),
                     flask_client.options("/v1/games", headers={**origin, "Access-Control-Request-Method": "POST"})):
        assert "Access-Control-Allow-Origin" not in response.headers


def test_cors_allows_only_the_configured_origins(make_app: Callable[..., Flask]) -> None:
    flask_client = make_app(CORS_ORIGINS="https://keeper.example, https://other.example/").test_client()
    ok = flask_client.options("/v1/games", headers={"Origin": "https://keeper.example",
                                              "Access-Control-Request-Method": "POST",
                                              "Access-Control-Request-Headers": "Authorization, Idempotency-Key"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://keeper.example"
    allowed = ok.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "idempotency-key" in allowed
    read = flask_client.get("/v1/games", headers={"Origin": "https://other.example"})
    assert read.headers["Access-Control-Allow-Origin"] == "https://other.example"
    assert "ETag" in read.headers["Access-Control-Expose-Headers"]
    denied = flask_client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in denied.headers


def test_parse_origins() -> None:
    assert parse_origins(None) == [] and parse_origins(" ") == []
    assert parse_origins("*") == ["*"]
    assert parse_origins("https://a.example/, http://b.example:8080") == ["https://a.example", "http://b.example:8080"]


# --- Cache-Control ---------------------------------------------------------------------------------------


def test_game_reads_with_a_key_are_no_store(app: Flask, flask_client: FlaskClient) -> None:
    _, token = create_key(get_db(app), "kitchen")
    game_id = create_game(flask_client, headers=bearer(token))["id"]
    for path in ("/v1/games", f"/v1/games/{game_id}", f"/v1/games/{game_id}/scoresheet"):
        response = flask_client.get(path, headers=bearer(token))
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-store"
        assert "Authorization" in response.headers["Vary"]
    assert flask_client.get("/v1/games/999", headers=bearer(token)).headers["Cache-Control"] == "no-store"


# --- rate limiting ----------------------------------------------------------------------------------------


def assert_429(response: Any) -> None:
    assert response.status_code == 429, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    assert 0 < int(response.headers["Retry-After"]) <= 60
    body = response.get_json()
    assert body["type"] == "https://handfoot.dev/problems/too-many-requests"
    assert "3 per 1 minute" in body["detail"]


def test_no_rate_limit_unless_configured(flask_client: FlaskClient) -> None:
    for _ in range(30):
        assert flask_client.get("/v1/presets").status_code == 200


def test_rate_limit_per_key(make_app: Callable[..., Flask]) -> None:
    app = make_app(RATE_LIMIT="3/minute")
    flask_client = app.test_client()
    _, alice = create_key(get_db(app), "alice")
    _, bob = create_key(get_db(app), "bob")
    for _ in range(3):
        response = flask_client.get("/v1/games", headers=bearer(alice))
        assert response.status_code == 200 and "Retry-After" not in response.headers
    assert_429(flask_client.get("/v1/games", headers=bearer(alice)))
    assert_429(flask_client.post("/v1/rounds/score", json={}, headers=bearer(alice)))  # every /v1 route counts
    # bob has his own allowance, and so has an anonymous caller's address
    assert flask_client.get("/v1/games", headers=bearer(bob)).status_code == 200
    assert flask_client.get("/v1/presets").status_code == 200
    # health, docs and the spec are not limited
    for _ in range(5):
        assert flask_client.get("/health").status_code == 200
        assert flask_client.get("/openapi.json").status_code == 200


def test_made_up_keys_share_the_address_allowance(make_app: Callable[..., Flask]) -> None:
    flask_client = make_app(RATE_LIMIT="3/minute").test_client()
    for i in range(3):
        assert flask_client.get("/v1/presets", headers=bearer(f"hf_made_up_{i}")).status_code == 200
    assert_429(flask_client.get("/v1/presets", headers=bearer("hf_made_up_again")))
    assert_429(flask_client.get("/v1/presets"))


def test_rate_limit_from_the_environment(monkeypatch: pytest.MonkeyPatch, db_url: str) -> None:
    from handfoot.server import create_app

    monkeypatch.setenv("HANDFOOT_RATE_LIMIT", "3/minute")
    monkeypatch.setenv("HANDFOOT_RATE_LIMIT_STORAGE", "memory://")
    flask_client = create_app({"TESTING": True, "DATABASE_URL": db_url}).test_client()
    for _ in range(3):
        flask_client.get("/v1/presets")
    assert_429(flask_client.get("/v1/presets"))


def test_429_is_documented_on_every_v1_operation(app: Flask) -> None:
    paths = app.extensions["handfoot.api"].spec.to_dict()["paths"]
    for path, item in paths.items():
        for method, operation in item.items():
            if path.startswith("/v1/") and method in ("get", "post", "put", "delete"):
                assert "429" in operation["responses"], (method, path)
