"""Fair limits for seats: a seat's requests count against the seat's own allowance from its first
request, in any worker, whatever its address has spent; and one owner's waiting seats (an API key's
tables, from any number of addresses) cannot take the waits another owner's seats need."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from handfoot.server import auth, wakeups
from handfoot.server.db import get_db
from handfoot.server.problems import ProblemHTTPException
from handfoot.server.resources.tables import waits
from tests.helpers.tables import TEAMS, create, play_turn, seat_headers

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


def _table_of(flask_client: FlaskClient, key: str) -> dict[str, Any]:
    body = {"name": "Bots", "preset": "pagat", "teams": TEAMS, "seed": 424242}
    response = flask_client.post("/v1/tables", json=body, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def test_one_owner_on_many_addresses_cannot_take_every_wait() -> None:
    """With the default caps, one owner's 16 seats waiting from 4 addresses hold at most the
    owner's cap; another owner's seats, and the keyless tables', are still admitted."""
    registry = waits.Waits(waits.DEFAULT_PER_ADDRESS, waits.DEFAULT_PER_PROCESS, waits.DEFAULT_PER_OWNER)
    with contextlib.ExitStack() as held:
        admitted = 0
        for i in range(16):
            try:
                held.enter_context(registry.admit(i // 4, i % 4, f"10.0.0.{i % 4}", owner=1))
                admitted += 1
            except ProblemHTTPException as refused:
                assert refused.code == 503 and "owner" in refused.problem["detail"]
        assert admitted == waits.DEFAULT_PER_OWNER < waits.DEFAULT_PER_PROCESS
        held.enter_context(registry.admit(100, 0, "10.0.0.9", owner=2))
        held.enter_context(registry.admit(101, 0, "10.0.0.9", owner=waits.KEYLESS))


@pytest.mark.parametrize("per_owner", [None, 6, 50])
def test_an_owners_cap_stays_below_the_processs(per_owner: int | None) -> None:
    """Whatever is configured, one owner leaves a wait of the process to the others."""
    registry = waits.Waits(per_address=50, per_process=6, per_owner=per_owner)
    with contextlib.ExitStack() as held:
        for seat in range(registry.per_owner):
            held.enter_context(registry.admit(1, seat, "a", owner=1))
        with pytest.raises(ProblemHTTPException):
            registry.admit(2, 0, "b", owner=1).__enter__()
        held.enter_context(registry.admit(3, 0, "c", owner=2))


@pytest.mark.parametrize("path", ["view", "events"])
def test_one_owners_waits_cannot_refuse_another_owners_seats(make_app: Callable[..., Flask], path: str) -> None:
    """Key A's seats hold every wait an owner may (from several addresses); A's next seat is a 503
    naming the owner's cap, from any address, while key B's seat waits and is answered."""
    app = make_app()
    flask_client = app.test_client()
    key_a, key_b = (auth.create_key(get_db(app), name)[1] for name in ("A", "B"))
    owner_a = auth.find_key(get_db(app), key_a)
    assert owner_a is not None
    a_tables = [_table_of(flask_client, key_a) for _ in range(2)]
    b_table = _table_of(flask_client, key_b)
    registry = waits.of_app(app)
    with contextlib.ExitStack() as held:
        for i in range(registry.per_owner):  # A's waits in progress, from several addresses
            held.enter_context(registry.admit(a_tables[0]["id"], i % 4, f"10.0.0.{i}", owner=owner_a.id))
        refused = flask_client.get(
            f"/v1/tables/{a_tables[1]['id']}/{path}",
            query_string={"version": 0, "wait": 1},
            headers=seat_headers(a_tables[1], 0),
            environ_base={"REMOTE_ADDR": "10.0.1.1"},
        )
        assert refused.status_code == 503, refused.get_json()
        assert refused.get_json()["type"].endswith("/waits-full") and "owner" in refused.get_json()["detail"]
        admitted = flask_client.get(
            f"/v1/tables/{b_table['id']}/{path}",
            query_string={"version": 0, "wait": 1},
            headers=seat_headers(b_table, 0),
        )
        assert admitted.status_code == 200, admitted.get_data(as_text=True)
        admitted.close()
