"""Retry-After appears only where waiting helps: on a 429 (the rate limit's window) and a 503 (the
server's own value), never on another answer, even with a rate limit configured."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy.exc import OperationalError

RATE = {"RATE_LIMIT": "5/minute"}


@pytest.fixture
def app_config() -> dict[str, object]:
    return {**RATE}


def test_no_retry_after_on_answers_that_are_not_refusals(app: Flask) -> None:
    flask_client = app.test_client()
    ok = flask_client.get("/v1/presets")
    unknown = flask_client.post(
        "/v1/rounds/score", json={"preset": "pagat", "teams": [{"name": "A", "melds": [["1X"]]}]}
    )
    missing = flask_client.get("/v1/presets/nope")
    bad_json = flask_client.post("/v1/rounds/score", data="{", content_type="application/json")
    for response in (ok, unknown, missing, bad_json):
        assert response.status_code in (200, 400, 404, 422)
        assert "Retry-After" not in response.headers, (response.status_code, response.headers)


def test_429_carries_the_window(app: Flask) -> None:
    flask_client = app.test_client()
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
