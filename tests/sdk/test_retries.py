"""Retry policy: what is retried, when, how long it waits, and the Idempotency-Key; against a real server
whose database is locked, a retried append stored once.

Retry policy: what is retried, when, how long it waits, and the Idempotency-Key.

The SDK against a real server whose SQLite database is locked: the append gets 503 with
Retry-After, the SDK waits that long and retries with the same Idempotency-Key, and once the lock
is gone the round is stored exactly once.
"""

from __future__ import annotations

import email.utils
import re
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import responses
from sqlalchemy import make_url

from handfoot.client import (
    APIConnectionError,
    APITimeoutError,
    Client,
    ConflictError,
    PreconditionFailedError,
    RateLimitError,
    ServerError,
    UnprocessableEntityError,
)
from handfoot.client._transport import Transport, backoff_delay
from handfoot.server.db import get_db
from tests.conftest import make_test_app, served, served_url
from tests.helpers.sdk import BASE, PROBLEM_JSON, problem

PRESETS = f"{BASE}/v1/presets"
SCORE = f"{BASE}/v1/rounds/score"
APPEND = f"{BASE}/v1/games/1/rounds"
SUMMARY = [{"id": "pagat", "name": "Pagat", "source": "pagat.com", "summary": "Classic"}]
ROUND = {"preset": "pagat", "round": 1, "teams": []}
QUOTED_UUID4 = re.compile(r'^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$')
IN_FLIGHT = "https://handfoot.example/problems/idempotency-in-flight"


def test_connection_error_then_success(rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]) -> None:
    rsps.get(PRESETS, body=requests.ConnectionError("refused"))
    rsps.get(PRESETS, json=SUMMARY)
    assert [p.id for p in sdk_client.presets()] == ["pagat"]
    assert len(rsps.calls) == 2
    assert len(sleeps) == 1 and 0.375 <= sleeps[0] <= 0.5


def test_429_honours_retry_after_seconds(rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]) -> None:
    rsps.get(PRESETS, status=429, headers={"Retry-After": "7"})
    rsps.get(PRESETS, json=SUMMARY)
    sdk_client.presets()
    assert sleeps == [7.0]


def test_503_honours_retry_after_http_date(
    rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]
) -> None:
    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    rsps.get(PRESETS, status=503, headers={"Retry-After": when})
    rsps.get(PRESETS, json=SUMMARY)
    sdk_client.presets()
    assert len(sleeps) == 1 and 27 <= sleeps[0] <= 30


def test_503_then_success_with_backoff(rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]) -> None:
    rsps.get(PRESETS, status=503)
    rsps.get(PRESETS, status=503)
    rsps.get(PRESETS, json=SUMMARY)
    sdk_client.presets()
    assert len(rsps.calls) == 3
    assert 0.375 <= sleeps[0] <= 0.5 and 0.75 <= sleeps[1] <= 1.0


def test_gives_up_after_max_retries(rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]) -> None:
    rsps.get(PRESETS, status=502, json=problem(502, "Bad Gateway"), content_type=PROBLEM_JSON)
    with pytest.raises(ServerError) as info:
        sdk_client.presets()
    assert info.value.status == 502
    assert len(rsps.calls) == 3  # first try + max_retries=2
    assert len(sleeps) == 2


def test_retry_after_over_60_seconds_is_not_waited(
    rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]
) -> None:
    rsps.get(PRESETS, status=429, headers={"Retry-After": "61"})
    with pytest.raises(RateLimitError):
        sdk_client.presets()
    assert len(rsps.calls) == 1 and sleeps == []


def test_timeout_is_retried_then_raised(rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]) -> None:
    rsps.get(PRESETS, body=requests.ReadTimeout("slow"))
    with pytest.raises(APITimeoutError):
        sdk_client.presets()
    assert len(rsps.calls) == 3
    assert isinstance(APITimeoutError(), APIConnectionError)


@pytest.mark.parametrize(
    ("error", "timeout", "said"),
    [
        (requests.ReadTimeout(), (3.05, 30), "timed out reading the answer (no answer within 30 s; 3 tries)"),
        (requests.ConnectTimeout(), (3.05, 30), "timed out connecting (no answer within 3.05 s; 3 tries)"),
        (requests.ReadTimeout(""), 7.5, "timed out reading the answer (no answer within 7.5 s; 3 tries)"),
    ],
)
def test_a_timeout_says_what_timed_out_and_the_seconds(
    rsps: responses.RequestsMock,
    sleeps: list[float],
    error: Exception,
    timeout: float | tuple[float, float],
    said: str,
) -> None:
    """The message once ended "timed out: " with nothing after it (requests' empty reason)."""
    rsps.get(PRESETS, body=error)
    with Client(BASE, timeout=timeout, max_retries=2) as hf, pytest.raises(APITimeoutError) as info:
        hf.presets()
    assert str(info.value) == f"GET {PRESETS} {said}"


def test_an_async_timeout_says_the_same() -> None:
    """AsyncClient's timeouts (httpx's, with an empty message too) read as Client's do, per phase."""
    httpx = pytest.importorskip("httpx", reason="the async extra")
    from handfoot.client.aio import AsyncClient
    from tests.conftest import run_async

    errors = iter([httpx.ConnectTimeout(""), httpx.ReadTimeout(""), httpx.PoolTimeout("")])

    def handler(request: httpx.Request) -> httpx.Response:
        raise next(errors)

    async def main() -> list[str]:
        messages = []
        async with AsyncClient(
            BASE, timeout=(2, 9), max_retries=0, http=httpx.AsyncClient(transport=httpx.MockTransport(handler))
        ) as ahf:
            for _ in range(3):
                with pytest.raises(APITimeoutError) as info:
                    await ahf.presets()
                messages.append(str(info.value))
        return messages

    assert run_async(main()) == [
        f"GET {PRESETS} timed out connecting (no answer within 2 s)",
        f"GET {PRESETS} timed out reading the answer (no answer within 9 s)",
        f"GET {PRESETS} timed out waiting for a free connection (no answer within 9 s)",
    ]


def test_backoff_is_capped_with_jitter() -> None:
    for n in range(12):
        base = min(0.5 * 2**n, 8.0)
        for _ in range(20):
            assert 0.75 * base <= backoff_delay(n) <= base <= 8.0


@pytest.mark.parametrize("status", [409, 412, 422, 400, 404])
def test_no_retry_on_non_transient_status(
    rsps: responses.RequestsMock, sdk_client: Client, status: int, sleeps: list[float]
) -> None:
    rsps.put(f"{BASE}/v1/games/1/rounds/1", status=status, json=problem(status, "No"))
    with pytest.raises(Exception) as info:
        sdk_client._request("PUT", "/v1/games/1/rounds/1", json=ROUND, headers={"If-Match": '"1"'})
    assert getattr(info.value, "status", None) == status
    assert len(rsps.calls) == 1 and sleeps == []


def test_409_conflict_on_keyed_post_is_not_retried(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(APPEND, status=409, json=problem(409, "Duplicate round"))
    with pytest.raises(ConflictError):
        sdk_client._transport.post_with_idempotency_key("/v1/games/1/rounds", json=ROUND)
    assert len(rsps.calls) == 1


def test_412_is_never_retried_even_with_key(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(APPEND, status=412, json=problem(412, "Precondition Failed"))
    with pytest.raises(PreconditionFailedError):
        sdk_client._transport.post_with_idempotency_key("/v1/games/1/rounds", json=ROUND)
    assert len(rsps.calls) == 1


def test_idempotency_key_generated_once_and_reused_across_retries(
    rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]
) -> None:
    in_flight = {"type": IN_FLIGHT, "title": "Request in flight", "status": 409}
    rsps.post(APPEND, body=requests.ConnectionError("reset"))
    rsps.post(APPEND, status=409, json=in_flight, content_type=PROBLEM_JSON)
    rsps.post(APPEND, status=201, json={"number": 1})
    response = sdk_client._transport.post_with_idempotency_key("/v1/games/1/rounds", json=ROUND)
    assert response.json() == {"number": 1} and response.status_code == 201
    keys = [call.request.headers["Idempotency-Key"] for call in rsps.calls]
    assert len(keys) == 3 and len(set(keys)) == 1
    assert QUOTED_UUID4.match(keys[0])
    assert len(sleeps) == 2

    # A second logical call gets a new key.
    sdk_client._transport.post_with_idempotency_key("/v1/games/1/rounds", json=ROUND)
    assert rsps.calls[-1].request.headers["Idempotency-Key"] != keys[0]


def test_explicit_idempotency_key_is_quoted_and_escaped(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(APPEND, status=201, json={})
    sdk_client._transport.post_with_idempotency_key("/v1/games/1/rounds", json=ROUND, idempotency_key='my "key"')
    assert rsps.calls[0].request.headers["Idempotency-Key"] == '"my \\"key\\""'
    with pytest.raises(ValueError):
        sdk_client._transport.post_with_idempotency_key("/v1/games/1/rounds", json=ROUND, idempotency_key="é")


def test_keyed_post_is_not_retried_on_500(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(APPEND, status=500)
    with pytest.raises(ServerError):
        sdk_client._transport.post_with_idempotency_key("/v1/games/1/rounds", json=ROUND)
    assert len(rsps.calls) == 1


@pytest.mark.parametrize(
    "failure",
    [
        {"status": 503},
        {"status": 429},
        {"status": 500},
        {"body": requests.ConnectionError("refused")},
        {"body": requests.ConnectTimeout("slow")},
    ],
)
def test_plain_post_is_never_retried(
    rsps: responses.RequestsMock, sdk_client: Client, failure: dict[str, Any], sleeps: list[float]
) -> None:
    rsps.add(responses.POST, f"{BASE}/v1/games", **failure)
    with pytest.raises((ServerError, RateLimitError, APIConnectionError)):
        sdk_client._request("POST", "/v1/games", json={"preset": "pagat"})
    assert len(rsps.calls) == 1 and sleeps == []
    assert "Idempotency-Key" not in rsps.calls[0].request.headers


@pytest.mark.parametrize("status", [500, 503])
def test_score_round_is_idempotent_and_retried(rsps: responses.RequestsMock, sdk_client: Client, status: int) -> None:
    rsps.post(SCORE, status=status)
    rsps.post(SCORE, json={"preset": "pagat", "round": 1, "teams": [], "rules_overridden": []})
    assert sdk_client.score_round(preset="pagat", teams=[]).teams == ()
    assert len(rsps.calls) == 2
    assert "Idempotency-Key" not in rsps.calls[0].request.headers


def test_score_round_422_is_not_retried(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(SCORE, status=422, json=problem(422, "Invalid round"), content_type=PROBLEM_JSON)
    with pytest.raises(UnprocessableEntityError):
        sdk_client.score_round(preset="pagat", teams=[])
    assert len(rsps.calls) == 1


def test_max_retries_zero_disables_retries(rsps: responses.RequestsMock, once: Client) -> None:
    rsps.get(PRESETS, status=503)
    with pytest.raises(ServerError):
        once.presets()
    assert len(rsps.calls) == 1


def test_negative_max_retries_rejected() -> None:
    with pytest.raises(ValueError):
        Client(BASE, max_retries=-1)


TEAMS = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
LOCKED_ROUND = [
    {
        "name": "Us",
        "went_out": True,
        "tally": {
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "red_threes_on_table": 1,
            "red_threes_caught": 0,
            "table_points": 465,
            "points_left": 25,
        },
    },
    {
        "name": "Them",
        "tally": {
            "clean_books": 1,
            "dirty_books": 2,
            "wild_books": 0,
            "red_threes_on_table": 0,
            "red_threes_caught": 1,
            "table_points": 260,
            "points_left": 185,
        },
    },
]


@pytest.fixture
def live(db_url: str) -> Iterator[tuple[str, str]]:
    app = make_test_app(db_url, SQLITE_BUSY_TIMEOUT=0.2)
    with served(app) as server:
        yield served_url(server), db_url
    get_db(app).dispose()


def test_sdk_retries_a_locked_database_and_stores_the_round_once(
    live: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base, db_url = live
    holder = sqlite3.connect(make_url(db_url).database, isolation_level=None)
    waits: list[float] = []

    def sleep(retry: int, seconds: float, reason: str) -> None:  # the first wait releases the lock, as another
        waits.append(seconds)  # writer finishing would
        if holder.in_transaction:
            holder.execute("ROLLBACK")

    monkeypatch.setattr(Transport, "_sleep", staticmethod(sleep))
    with Client(base, max_retries=3) as hf:
        game = hf.create_game(name="Locked", preset="pagat", teams=TEAMS)
        holder.execute("BEGIN IMMEDIATE")
        rnd = hf.add_round(game.id, teams=LOCKED_ROUND)
        assert rnd.number == 1
        assert waits == [2.0]  # the 503's Retry-After, once
        stored: Any = hf.game(game.id)
        assert stored.rounds_played == 1 and [r.number for r in stored.rounds] == [1]
    holder.close()
