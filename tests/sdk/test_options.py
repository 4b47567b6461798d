"""Per-call control: ``with_options``, the raw answer (``last_response``), debug logging, and closing."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import responses

from handfoot.client import APIConnectionError, Client, ClientClosedError, ServerError
from handfoot.client._transport import LOGGER, _log_from_env
from handfoot.client.params import side, tally
from tests.helpers.live import LiveServer
from tests.helpers.sdk import BASE

HEALTH = {"status": "ok", "database": "ok"}


def test_with_options_sets_timeout_and_retries_per_call(rsps: responses.RequestsMock, sleeps: list[float]) -> None:
    with Client(BASE, timeout=(3.05, 30), max_retries=2) as hf:
        rsps.get(f"{BASE}/health", status=503)
        rsps.get(f"{BASE}/health", json=HEALTH)
        quick = hf.with_options(timeout=1.5, max_retries=0)
        assert (quick.timeout, quick.max_retries, quick.base_url) == (1.5, 0, BASE)
        with pytest.raises(ServerError):
            quick.health()  # not retried: one request
        assert len(rsps.calls) == 1 and sleeps == []
        assert rsps.calls[0].request.req_kwargs["timeout"] == 1.5
        assert hf.health().status == "ok"  # the original keeps its settings
        assert rsps.calls[1].request.req_kwargs["timeout"] == (3.05, 30)
        assert quick._transport.session is hf._transport.session
        quick.close()  # leaves the shared session open
        assert hf._transport._owns_session


def test_last_response_is_the_raw_answer(rsps: responses.RequestsMock) -> None:
    with Client(BASE, max_retries=0) as hf:
        assert hf.last_response is None
        rsps.get(f"{BASE}/health", json=HEALTH, headers={"X-Request-Id": "abc"})
        hf.health()
        assert hf.last_response is not None
        assert (hf.last_response.status_code, hf.last_response.headers["X-Request-Id"]) == (200, "abc")
        rsps.get(f"{BASE}/health", status=503)
        with pytest.raises(ServerError):
            hf.health()
        assert hf.last_response.status_code == 503


def test_requests_are_logged_at_debug_without_the_key(
    rsps: responses.RequestsMock, caplog: pytest.LogCaptureFixture
) -> None:
    rsps.get(f"{BASE}/health", json=HEALTH)
    with caplog.at_level(logging.DEBUG, logger="handfoot.client"), Client(BASE, api_key="hf_secret") as hf:
        hf.health()
    [record] = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert f"GET {BASE}/health -> 200 in" in record.getMessage()
    assert "hf_secret" not in caplog.text


@pytest.fixture
def clean_logger() -> Iterator[None]:
    handlers, level = list(LOGGER.handlers), LOGGER.level
    yield
    LOGGER.handlers[:] = handlers
    LOGGER.setLevel(level)


@pytest.mark.usefixtures("clean_logger")
def test_the_environment_variable_turns_logging_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HANDFOOT_LOG", raising=False)
    _log_from_env()
    assert not LOGGER.handlers
    monkeypatch.setenv("HANDFOOT_LOG", "debug")
    Client(BASE).close()
    Client(BASE).close()  # once, however many clients
    assert len(LOGGER.handlers) == 1 and LOGGER.level == logging.DEBUG


def test_a_replayed_append_is_visible_in_the_raw_answer(live_server: LiveServer) -> None:
    with Client(live_server.url, api_key=live_server.api_key) as hf:
        game = hf.create_game(
            name="raw",
            preset="pagat",
            teams=[{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
        )
        teams = [side("A", tally(clean_books=1, table_points=60)), side("B", tally(points_left=40))]
        first = hf.add_round(game.id, teams=teams, idempotency_key="raw-1")
        assert hf.last_response is not None and "Idempotent-Replayed" not in hf.last_response.headers
        again = hf.add_round(game.id, teams=teams, idempotency_key="raw-1")
        assert hf.last_response.headers.get("Idempotent-Replayed") == "true"
        assert again.number == first.number == 1
        assert len(hf.game(game.id).rounds) == 1


def test_closing_mid_request_raises_client_closed_without_retrying(
    rsps: responses.RequestsMock, sleeps: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    """Closing a client whose request is in flight once logged "retrying" and tried again on a closed session."""
    hf = Client(BASE, max_retries=2)

    def close_then_fail(request: Any) -> Any:
        hf.close()  # another thread closes the client while this request waits for its answer
        raise requests.ConnectionError("connection pool is closed")

    rsps.add_callback(responses.GET, f"{BASE}/health", callback=close_then_fail)
    with caplog.at_level(logging.INFO, logger="handfoot.client"), pytest.raises(ClientClosedError) as info:
        hf.health()
    assert str(info.value) == f"GET {BASE}/health failed: client closed while the request was in flight"
    assert isinstance(info.value, APIConnectionError)
    assert len(rsps.calls) == 1 and sleeps == [] and "retrying" not in caplog.text


def test_a_closed_client_sends_nothing(rsps: responses.RequestsMock) -> None:
    """After ``close()`` every call says so at once; a ``with_options`` copy is closed with its client,
    and closing the copy leaves its client open."""
    rsps.get(f"{BASE}/health", json=HEALTH)
    hf = Client(BASE)
    copy = hf.with_options(max_retries=0)
    copy.close()
    assert hf.health().status == "ok"
    copy2 = hf.with_options(timeout=1)
    hf.close()
    for client in (hf, copy2):
        with pytest.raises(ClientClosedError, match="client closed before the request was sent"):
            client.health()
    assert len(rsps.calls) == 1


def test_closing_an_async_client_mid_request(caplog: pytest.LogCaptureFixture) -> None:
    """AsyncClient: the same error, in flight (no retry, no "retrying" logged) and after ``aclose()``
    (httpx's own error was a RuntimeError)."""
    httpx = pytest.importorskip("httpx", reason="the async extra")
    from handfoot.client.aio import AsyncClient
    from tests.conftest import run_async

    sent: list[httpx.Request] = []

    async def main() -> tuple[str, str]:
        async def close_then_fail(request: httpx.Request) -> httpx.Response:
            sent.append(request)
            await ahf.aclose()  # another task closes the client while this request waits for its answer
            raise httpx.ReadError("closed under the request", request=request)

        http = httpx.AsyncClient(transport=httpx.MockTransport(close_then_fail))
        ahf = AsyncClient(BASE, max_retries=2, http=http)
        with pytest.raises(ClientClosedError) as in_flight:
            await ahf.health()
        with pytest.raises(ClientClosedError) as after:
            await ahf.with_options(max_retries=0).health()
        await http.aclose()
        return str(in_flight.value), str(after.value)

    with caplog.at_level(logging.INFO, logger="handfoot.client"):
        in_flight, after = run_async(main())
    assert "retrying" not in caplog.text
    assert in_flight == f"GET {BASE}/health failed: client closed while the request was in flight"
    assert after == f"GET {BASE}/health failed: client closed before the request was sent"
    assert len(sent) == 1
