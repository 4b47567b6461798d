"""Security: API keys (the `flask keys` commands, ownership), keys stored hashed, CORS, rate limiting
(per key, and shared leases across workers), and Retry-After only on a 429 or a 503.

Security: keys stored hashed and compared in constant time, CORS off unless configured,
``Cache-Control: no-store`` on games answers to keyed requests, rate limiting per key with 429.

API keys: the `flask keys` commands, 401 without a key once keys exist, 404 for another key's game.

Leased rate-limit counting (``api/ratelimit.py``'s ``Leases``): several workers share one
allowance, never grant past it, refuse at most the documented few early, and hit the shared
storage far less than once a request on a busy key.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from limits.storage import Storage
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from handfoot.server import auth
from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from handfoot.server.models import ApiKey
from handfoot.server.ratelimit import LEASE_FRACTION, LEASE_MAX, Leases, SQLiteStorage
from handfoot.server.security import parse_origins
from tests.helpers.games import SEED_ROUND_1, append, create_game


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


def test_keys_are_compared_in_constant_time(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
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
    for response in (
        flask_client.get("/v1/presets", headers=origin),
        flask_client.get("/v1/games", headers=origin),
        flask_client.options("/v1/games", headers={**origin, "Access-Control-Request-Method": "POST"}),
    ):
        assert "Access-Control-Allow-Origin" not in response.headers


def test_cors_allows_only_the_configured_origins(make_app: Callable[..., Flask]) -> None:
    flask_client = make_app(CORS_ORIGINS="https://keeper.example, https://other.example/").test_client()
    ok = flask_client.options(
        "/v1/games",
        headers={
            "Origin": "https://keeper.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Idempotency-Key",
        },
    )
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


def assert_429(response: Any, limit: str = "3 per 1 minute", who: str = "API key or address") -> None:
    assert response.status_code == 429, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    assert 0 < int(response.headers["Retry-After"]) <= 60
    body = response.get_json()
    assert body["type"] == "https://handfoot.dev/problems/too-many-requests"
    assert f"for this {who} (limit: {limit})" in body["detail"]


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


@pytest.mark.db
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


@pytest.mark.db
def test_open_store_without_keys(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    assert flask_client.get(f"/v1/games/{game_id}").status_code == 200


@pytest.mark.db
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


@pytest.mark.db
def test_adopt_anonymous_games(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    result = app.test_cli_runner().invoke(args=["keys", "create", "family", "--adopt-anonymous"])
    token = result.stdout.strip().splitlines()[-1]
    assert flask_client.get(f"/v1/games/{game_id}", headers=bearer(token)).status_code == 200


@pytest.mark.db
def test_database_down_is_503_with_retry_after() -> None:
    from handfoot.server import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none"})
    flask_client = app.test_client()
    for method, path in [
        ("get", "/v1/games"),
        ("post", "/v1/games"),
        ("get", "/v1/games/1"),
        ("post", "/v1/games/1/rounds"),
    ]:
        response = getattr(flask_client, method)(path, **({"json": {}} if method == "post" else {}))
        assert response.status_code == 503, (method, path)
        assert response.headers["Retry-After"] and response.content_type == "application/problem+json"
        assert response.get_json()["type"] == "https://handfoot.dev/problems/service-unavailable"


class Counting(SQLiteStorage):
    """The shared file, counting its ``incr`` calls."""

    incrs = 0

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        Counting.incrs += 1
        return super().incr(key, expiry, amount)


def granted(storage: Storage, limit: int, workers: int, requests: int, seed: int) -> int:
    """Requests granted out of ``requests`` spread at random over ``workers`` (one Leases each)."""
    leases = [Leases() for _ in range(workers)]
    rng = random.Random(seed)
    return sum(rng.choice(leases).take(storage, "key", limit, 60)[0] <= limit for _ in range(requests))


def test_leases_never_grant_past_the_limit_and_refuse_at_most_the_bound_early(tmp_path: Path) -> None:
    limit, workers = 6400, 3
    bound = (workers - 1) * min(LEASE_MAX, limit // LEASE_FRACTION)
    for seed in range(3):
        storage = Counting(f"handfoot+sqlite://{tmp_path / f'limits-{seed}.sqlite3'}")
        Counting.incrs = 0
        got = granted(storage, limit, workers, limit + 500, seed)
        assert limit - bound <= got <= limit, (got, limit, bound)
        assert Counting.incrs < got / 8, (Counting.incrs, got)  # leased, not one hit a request


def test_small_limits_are_counted_request_by_request(tmp_path: Path) -> None:
    storage = SQLiteStorage(f"handfoot+sqlite://{tmp_path / 'limits.sqlite3'}")
    for seed in range(5):
        storage.reset()
        assert granted(storage, 12, 4, 60, seed) == 12


def test_counts_and_reset_follow_the_shared_window(tmp_path: Path) -> None:
    storage = SQLiteStorage(f"handfoot+sqlite://{tmp_path / 'limits.sqlite3'}")
    one, other = Leases(), Leases()
    counts = [one.take(storage, "k", 10_000, 60)[0] for _ in range(3)] + [other.take(storage, "k", 10_000, 60)[0]]
    assert counts[:2] == [1, 2] and counts[2] == 3 and counts[3] > 3  # the second hit leased the third
    assert one.take(storage, "k", 10_000, 60)[1] == storage.get_expiry("k")


# -- Retry-After: only where waiting helps -----------------------------------------------------------

RATE = {"RATE_LIMIT": "5/minute"}


def test_no_retry_after_on_answers_that_are_not_refusals(make_app: Callable[..., Flask]) -> None:
    """Retry-After appears only where waiting helps (a 429, a 503), never on another answer, even with a rate
    limit configured."""
    flask_client = make_app(**RATE).test_client()
    ok = flask_client.get("/v1/presets")
    unknown = flask_client.post(
        "/v1/rounds/score", json={"preset": "pagat", "teams": [{"name": "A", "melds": [["1X"]]}]}
    )
    missing = flask_client.get("/v1/presets/nope")
    bad_json = flask_client.post("/v1/rounds/score", data="{", content_type="application/json")
    for response in (ok, unknown, missing, bad_json):
        assert response.status_code in (200, 400, 404, 422)
        assert "Retry-After" not in response.headers, (response.status_code, response.headers)


def test_429_carries_the_window(make_app: Callable[..., Flask]) -> None:
    flask_client = make_app(**RATE).test_client()
    statuses = [flask_client.get("/v1/presets").status_code for _ in range(6)]
    assert statuses[-1] == 429
    refused = flask_client.get("/v1/presets")
    assert 0 < int(refused.headers["Retry-After"]) <= 60


def test_503_keeps_its_own_retry_after(make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(**RATE)
    from handfoot.server.db import Database

    def down(self: Database) -> None:
        raise OperationalError("SELECT 1", {}, Exception("down"))

    monkeypatch.setattr(Database, "ping", down)
    response = app.test_client().get("/health")
    assert response.status_code == 503
    from handfoot.server.resources.health.routes import RETRY_AFTER_SECONDS

    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)


def test_seats_count_against_their_own_allowance(make_app: Callable[..., Flask]) -> None:
    """A Seat-Token of a seat of the table counts against its seat's allowance (``SEAT_RATE_LIMIT``)
    from its first request, not the address's: four seats on one address play on past the address's
    limit; each seat has its own limit; made-up tokens count against the address, so they buy
    nothing."""
    from tests.helpers.tables import create, seat_headers

    flask_client = make_app(RATE_LIMIT="6/minute", SEAT_RATE_LIMIT="10/minute").test_client()
    created = create(flask_client)  # the address: 1
    for seat in range(4):  # 40 requests from the address, each seat's 10 its own
        for _ in range(10):
            response = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, seat))
            assert response.status_code == 200, (seat, response.get_json())
            assert response.headers["X-RateLimit-Limit"] == "10"
    assert_429(
        flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 0)),
        "10 per 1 minute",
        "seat",
    )
    made_up = {"Seat-Token": "not-a-seat-token"}
    for _ in range(5):  # the address: 2..6, its last
        assert flask_client.get(f"/v1/tables/{created['id']}/view", headers=made_up).status_code == 404
    assert_429(flask_client.get(f"/v1/tables/{created['id']}/view", headers=made_up), "6 per 1 minute")
    assert_429(flask_client.get("/v1/presets"), "6 per 1 minute")


@pytest.mark.parametrize(
    ("setting", "name"), [("RATE_LIMIT", "HANDFOOT_RATE_LIMIT"), ("SEAT_RATE_LIMIT", "HANDFOOT_SEAT_RATE_LIMIT")]
)
def test_a_bad_limit_is_refused_at_start_naming_its_setting(
    make_app: Callable[..., Flask], setting: str, name: str
) -> None:
    config = {"RATE_LIMIT": "10/minute", setting: "lots"}
    with pytest.raises(ValueError, match=name):
        make_app(**config)
