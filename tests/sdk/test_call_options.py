"""What a caller controls per call and reads off an error: ``with_options``' extra headers and query
parameters, iterating a page, a readable ``AsyncClient``, and what a request that got no answer says
(a server to start; a write that may have been stored, with the ``Idempotency-Key`` to resend it)."""

from __future__ import annotations

from typing import Any

import pytest
import requests
import responses
from responses import matchers

from handfoot.client import APIConnectionError, Client, ClientClosedError
from handfoot.client.params import side, tally
from tests.helpers.sdk import BASE
from tests.sdk.test_pagination import summary

HEALTH = {"status": "ok", "database": "ok"}
GAMES = f"{BASE}/v1/games"


def test_extra_headers_and_query_go_with_every_request_of_the_copy(rsps: responses.RequestsMock) -> None:
    rsps.get(
        f"{BASE}/health",
        json=HEALTH,
        match=[
            matchers.header_matcher({"X-Trace": "t-1", "X-Proxy": "p"}),
            matchers.query_param_matcher({"probe": "1"}),
        ],
    )
    rsps.get(f"{BASE}/health", json=HEALTH, match=[matchers.query_param_matcher({})])
    with Client(BASE) as hf:
        traced = hf.with_options(extra_headers={"X-Trace": "t-1"}, extra_query={"probe": 1})
        traced.with_options(extra_headers={"X-Proxy": "p"}).health()  # a copy of a copy keeps both
        hf.health()  # the client itself sends neither
    assert "X-Trace" not in rsps.calls[1].request.headers


def test_a_calls_own_query_wins_over_the_extra_query(rsps: responses.RequestsMock) -> None:
    rsps.get(GAMES, json=[], match=[matchers.query_param_matcher({"status": "finished", "page_size": "5"})])
    with Client(BASE) as hf:
        page = hf.with_options(extra_query={"status": "in_progress", "page_size": 5}).games_page(status="finished")
    assert list(page) == [] and len(page) == 0


def test_a_page_iterates_over_its_items(rsps: responses.RequestsMock) -> None:
    rsps.get(GAMES, json=[summary(3), summary(2)])
    with Client(BASE) as hf:
        page = hf.games_page()
    assert [game.id for game in page] == [3, 2] and len(page) == 2
    assert list(page) == list(page.items)


def test_clients_print_their_server() -> None:
    pytest.importorskip("httpx", reason="the async extra")
    from handfoot.client.aio import AsyncClient

    assert repr(AsyncClient("http://scores.test/")) == "AsyncClient(base_url='http://scores.test')"
    assert repr(Client("http://scores.test/")) == "Client(base_url='http://scores.test')"


def test_no_server_says_where_it_looked_and_how_to_start_one() -> None:
    with Client("http://127.0.0.1:1", max_retries=0) as hf, pytest.raises(APIConnectionError) as info:
        hf.health()
    assert "is a handfoot server running at http://127.0.0.1:1?" in str(info.value)
    assert "handfoot-server serve" in str(info.value)
    assert not info.value.outcome_unknown and info.value.idempotency_key is None


def test_a_refused_write_was_not_stored() -> None:
    """Refused before it was sent: nothing can have been stored, so the outcome is known."""
    with Client("http://127.0.0.1:1", max_retries=0) as hf, pytest.raises(APIConnectionError) as info:
        hf.add_round(1, teams=[side("Us", tally())])
    assert not info.value.outcome_unknown and info.value.idempotency_key is not None


def test_a_write_cut_off_in_flight_carries_its_key_to_resend(rsps: responses.RequestsMock) -> None:
    """The connection dropped after the round was sent: the server may have stored it. The error
    says so and carries the key; resending with it sends the same ``Idempotency-Key``."""
    keys: list[str] = []

    def reset(request: Any) -> Any:
        keys.append(request.headers["Idempotency-Key"])
        raise requests.ConnectionError("Connection reset by peer")

    rsps.add_callback(responses.POST, f"{GAMES}/7/rounds", callback=reset)
    rsps.add_callback(responses.POST, f"{GAMES}/7/rounds", callback=reset)
    with Client(BASE, max_retries=0) as hf:
        with pytest.raises(APIConnectionError) as info:
            hf.add_round(7, teams=[side("Us", tally())])
        error = info.value
        assert error.outcome_unknown and error.idempotency_key is not None
        assert keys == [f'"{error.idempotency_key}"']
        assert f"resend with idempotency_key={error.idempotency_key!r}" in str(error)
        with pytest.raises(APIConnectionError):
            hf.add_round(7, teams=[side("Us", tally())], idempotency_key=error.idempotency_key)
    assert keys[1] == keys[0]


def test_a_client_closed_under_a_write_carries_its_key(rsps: responses.RequestsMock) -> None:
    hf = Client(BASE, max_retries=2)

    def close_then_fail(request: Any) -> Any:
        hf.close()  # another thread closes the client while the round is on its way
        raise requests.ConnectionError("connection pool is closed")

    rsps.add_callback(responses.POST, f"{GAMES}/7/rounds", callback=close_then_fail)
    with pytest.raises(ClientClosedError) as info:
        hf.add_round(7, teams=[side("Us", tally())])
    assert info.value.outcome_unknown and info.value.idempotency_key
    assert "client closed while the request was in flight; the server may have stored it" in str(info.value)


def test_a_read_cut_off_in_flight_has_no_unknown_outcome(rsps: responses.RequestsMock) -> None:
    rsps.get(f"{BASE}/health", body=requests.ConnectionError("Connection reset by peer"))
    with Client(BASE, max_retries=0) as hf, pytest.raises(APIConnectionError) as info:
        hf.health()
    assert not info.value.outcome_unknown and info.value.idempotency_key is None
