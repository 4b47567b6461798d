"""``GET /metrics`` in process: Prometheus' text format, counted by route (never by id), off or
behind a token by configuration. Several workers adding up: tests/process/test_observability.py."""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Flask

from tests.conftest import WORKED_CASES


def sample(text: str, name: str) -> float:
    [value] = [float(line.split()[-1]) for line in text.splitlines() if line.split(" ")[0] == name]
    return value


def test_a_scored_round_and_requests_by_route(make_app: Callable[..., Flask]) -> None:
    client = make_app().test_client()
    before = client.get("/metrics")
    assert (before.status_code, before.mimetype) == (200, "text/plain")
    worked = json.loads((WORKED_CASES / "s0-worked-round-tally.json").read_text())["request"]
    assert client.post("/v1/rounds/score", json=worked).status_code == 200
    assert client.get("/v1/games/98765").status_code == 404
    after = client.get("/metrics").get_data(as_text=True)
    scored = "handfoot_rounds_scored_total"
    assert sample(after, scored) == sample(before.get_data(as_text=True), scored) + 1
    assert 'route="/v1/games/{game_id}",status="404"' in after
    labels = [line.partition("}")[0] for line in after.splitlines() if "{" in line]
    assert not [label for label in labels if "98765" in label]  # ids are never labels (a value may hold the digits)


def test_metrics_can_be_turned_off(make_app: Callable[..., Flask]) -> None:
    assert make_app(METRICS="off").test_client().get("/metrics").status_code == 404


def test_a_token_protects_them(make_app: Callable[..., Flask]) -> None:
    client = make_app(METRICS_TOKEN="s3cret-token").test_client()
    refused = client.get("/metrics")
    assert (refused.status_code, refused.headers["WWW-Authenticate"]) == (401, "Bearer")
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
