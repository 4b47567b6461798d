"""Fair limits for seats: a seat's requests count against the seat's own allowance from its first
request, in any worker, whatever its address has spent; and one owner's waiting seats (an API key's
tables, from any number of addresses) cannot take the waits another owner's seats need."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from handfoot.server import wakeups
from tests.helpers.tables import create, play_turn, seat_headers

pytestmark = pytest.mark.db


@pytest.fixture(autouse=True)
def no_safety_reread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wakeups, "SAFETY_SECONDS", 3600.0)


def _spend_the_address(flask_client: FlaskClient) -> None:
    """Keyless requests from the test client's address until it is refused (429)."""
    for _ in range(10):
        if flask_client.get("/v1/presets").status_code == 429:
            return
    raise AssertionError("the address's allowance was never spent")


def test_a_seat_acts_though_its_address_is_spent_in_every_worker(make_app: Callable[..., Flask]) -> None:
    """A keyless client spends the address's allowance; every seat of a table on that address still
    reads and acts, from its first request, answered by this app or by a fresh one on the same
    database (another worker: it never saw the tokens); a made-up token still counts against the
    address."""
    import random

    config: dict[str, Any] = {"RATE_LIMIT": "5/minute", "SEAT_RATE_LIMIT": "100/minute"}
    app = make_app(**config)
    flask_client = app.test_client()
    created = create(flask_client)
    _spend_the_address(flask_client)
    other = make_app(**config)  # a worker that has seen no seat's request
    other_client = other.test_client()
    assert other_client.get("/v1/presets").status_code == 429  # the allowance is the server's
    for client in (flask_client, other_client):
        for seat in range(4):
            response = client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, seat))
            assert response.status_code == 200, (seat, response.get_json())
            assert response.headers["X-RateLimit-Limit"] == "100"
    answer = play_turn(other_client, other, created, random.Random(1), check=False)
    assert answer["version"] == 1  # the seat acted
    made_up = {"Seat-Token": "not-a-seat-token"}
    for client in (flask_client, other_client):
        refused = client.get(f"/v1/tables/{created['id']}/view", headers=made_up)
        assert refused.status_code == 429 and refused.headers["X-RateLimit-Limit"] == "5"
    wrong_table = client.get(f"/v1/tables/{created['id'] + 1}/view", headers=seat_headers(created, 0))
    assert wrong_table.status_code == 429  # a seat's token buys nothing at another table
