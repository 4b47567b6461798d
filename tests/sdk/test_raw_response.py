"""``with_raw_response`` (sdk/_raw.py): each call's own answer, in one shape on both clients, whatever
else runs at the same time (threads, ``asyncio.gather``)."""

from __future__ import annotations

import asyncio
import json
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import responses

from handfoot.client import Client, Headers, NotFoundError, PresetSummary, RawResponse
from tests.conftest import run_async
from tests.helpers.sdk import BASE, PROBLEM_JSON, problem

httpx = pytest.importorskip("httpx", reason="the async extra: pip install -e '.[async]'")
from handfoot.client.aio import AsyncClient  # noqa: E402  (needs httpx)

PRESET_IDS = ["pagat", "bicycle", "bga", "family", "online-11-13"]


def preset_body(preset_id: str) -> dict[str, object]:
    return {
        "id": preset_id,
        "name": preset_id.title(),
        "source": "s",
        "summary": "x",
        "rules": {},
        "provenance": {},
        "fields": [],
    }


def test_the_call_s_answer_and_result(rsps: responses.RequestsMock, once: Client) -> None:
    """The status, headers, bytes and request id of the call are beside its typed result."""
    listed = [{"id": "pagat", "name": "Pagat", "source": "s", "summary": "x"}]
    rsps.get(f"{BASE}/v1/presets", json=listed, headers={"X-Request-ID": "r-1", "X-RateLimit-Remaining": "9"})
    raw = once.with_raw_response(once.presets)
    assert isinstance(raw, RawResponse)
    assert raw.status == 200
    assert raw.parsed == [PresetSummary(id="pagat", name="Pagat", source="s", summary="x")]
    assert json.loads(raw.body) == listed
    assert raw.request_id == "r-1"
    assert isinstance(raw.headers, Headers)
    assert raw.headers["x-ratelimit-remaining"] == raw.headers["X-RateLimit-Remaining"] == "9"
    assert "content-type" in raw.headers and "Nope" not in raw.headers
    with pytest.raises(TypeError):
        raw.headers["X-New"] = "1"  # type: ignore[index]
    assert pickle.loads(pickle.dumps(raw.headers)) == raw.headers


def test_a_retried_call_gives_its_last_answer(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    """Retries are the transport's business: the caller sees the answer the result was read from."""
    rsps.get(f"{BASE}/v1/presets/pagat", status=503, json=problem(503, "Unavailable"), content_type=PROBLEM_JSON)
    rsps.get(f"{BASE}/v1/presets/pagat", json=preset_body("pagat"), headers={"X-Request-ID": "second"})
    raw = sdk_client.with_raw_response(sdk_client.preset, "pagat")
    assert (raw.status, raw.request_id, raw.parsed.id) == (200, "second", "pagat")


def test_an_error_is_raised_as_the_method_raises_it(rsps: responses.RequestsMock, once: Client) -> None:
    """No RawResponse for a failed call: the error carries its own answer and request id."""
    rsps.get(
        f"{BASE}/v1/presets/x",
        status=404,
        json=problem(404, "Not found"),
        content_type=PROBLEM_JSON,
        headers={"X-Request-ID": "gone"},
    )
    with pytest.raises(NotFoundError) as info:
        once.with_raw_response(once.preset, "x")
    assert info.value.request_id == "gone"


def test_a_lazy_iterator_is_refused(once: Client) -> None:
    """``games()`` fetches nothing until iterated, so there is no answer to give: say so, not ``None``."""
    with pytest.raises(ValueError, match="no HTTP answer"):
        once.with_raw_response(once.games)


def test_threads_each_get_their_own_answer(rsps: responses.RequestsMock, once: Client) -> None:
    """Five threads on one client: each RawResponse is its own call's (``last_response`` is one slot)."""
    barrier = threading.Barrier(len(PRESET_IDS))

    def answer(preset_id: str) -> Callable[[Any], tuple[int, dict[str, str], str]]:
        def callback(request: Any) -> tuple[int, dict[str, str], str]:
            barrier.wait(5)  # every request is in flight before any is answered
            return 200, {"X-Request-ID": f"id-{preset_id}"}, json.dumps(preset_body(preset_id))

        return callback

    for preset_id in PRESET_IDS:
        rsps.add_callback(
            responses.GET, f"{BASE}/v1/presets/{preset_id}", callback=answer(preset_id), content_type="application/json"
        )
    with ThreadPoolExecutor(len(PRESET_IDS)) as pool:
        raws = list(pool.map(lambda p: once.with_raw_response(once.preset, p), PRESET_IDS))
    assert [(r.parsed.id, r.request_id) for r in raws] == [(p, f"id-{p}") for p in PRESET_IDS]


class ReversedAnswers(httpx.AsyncBaseTransport):
    """Answers each preset request after the next one's: the first sent is the last answered."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.answered = {preset_id: asyncio.Event() for preset_id in PRESET_IDS}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        preset_id = request.url.path.rsplit("/", 1)[-1]
        later = PRESET_IDS[PRESET_IDS.index(preset_id) + 1 :]
        if later:  # an event, not a sleep: the order holds however loaded the machine is
            await self.answered[later[0]].wait()
        self.order.append(preset_id)
        self.answered[preset_id].set()
        return httpx.Response(200, json=preset_body(preset_id), headers={"X-Request-ID": f"id-{preset_id}"})


def test_gathered_async_calls_each_get_their_own_answer() -> None:
    """``asyncio.gather`` on one AsyncClient: answers arrive in reverse order, and each RawResponse is still
    its own call's (the shared ``last_response`` holds whichever came last)."""
    transport = ReversedAnswers()

    async def main() -> list[RawResponse[Any]]:
        async with AsyncClient(BASE, http=httpx.AsyncClient(transport=transport)) as ahf:
            raws = await asyncio.gather(*(ahf.with_raw_response(ahf.preset, p) for p in PRESET_IDS))
            assert ahf.last_response is not None
            assert ahf.last_response.headers["X-Request-ID"] == f"id-{PRESET_IDS[0]}"
            return raws

    raws = run_async(main())
    assert transport.order == PRESET_IDS[::-1]
    for preset_id, raw in zip(PRESET_IDS, raws, strict=True):
        assert (raw.parsed.id, raw.request_id, raw.status) == (preset_id, f"id-{preset_id}", 200)
        assert json.loads(raw.body)["id"] == preset_id
        assert isinstance(raw.headers, Headers)


def test_both_clients_give_the_same_shape(rsps: responses.RequestsMock, once: Client) -> None:
    """One RawResponse type and one Headers type, whichever HTTP library carried the answer."""
    rsps.get(f"{BASE}/v1/presets/pagat", json=preset_body("pagat"), headers={"X-Request-ID": "same"})
    sync_raw = once.with_raw_response(once.preset, "pagat")

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=preset_body("pagat"), headers={"X-Request-ID": "same"})

    async def main() -> RawResponse[Any]:
        async with AsyncClient(BASE, http=httpx.AsyncClient(transport=httpx.MockTransport(handler))) as ahf:
            return await ahf.with_raw_response(ahf.preset, "pagat")

    async_raw = run_async(main())
    assert type(async_raw) is type(sync_raw) and type(async_raw.headers) is type(sync_raw.headers)
    assert (async_raw.status, async_raw.parsed, async_raw.request_id) == (sync_raw.status, sync_raw.parsed, "same")
    assert json.loads(async_raw.body) == json.loads(sync_raw.body)
    assert async_raw.headers["content-type"].startswith("application/json")
