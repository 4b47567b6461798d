"""Error mapping: each status class raises its exception, carrying readable problem details; against a real
server, the classes only a misbehaving server provokes.

Error mapping: each status class raises its exception, carrying readable problem details.

The SDK's error classes that only a misbehaving server provokes, against a real server.

``ServerError``: the database stays locked, so every try of an append gets 503 and the SDK gives up
after its retries, carrying the problem, its ``code`` and the server's request id. ``RateLimitError``:
the server's rate limit is exceeded, and the 429's ``Retry-After`` reaches the exception.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import responses
from flask import Flask
from sqlalchemy import make_url

import handfoot.client
from handfoot.client import (
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    NotFoundError,
    PayloadTooLargeError,
    PreconditionFailedError,
    PreconditionRequiredError,
    ProblemDetails,
    ProblemItem,
    RateLimitError,
    ServerError,
    UnprocessableEntityError,
)
from handfoot.client._transport import Transport
from handfoot.server.db import get_db
from tests.conftest import make_test_app, served, served_url
from tests.helpers.sdk import BASE, PROBLEM_JSON, problem


@pytest.mark.parametrize(
    ("status", "exc_type"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, AuthenticationError),
        (404, NotFoundError),
        (409, ConflictError),
        (412, PreconditionFailedError),
        (413, PayloadTooLargeError),
        (422, UnprocessableEntityError),
        (428, PreconditionRequiredError),
        (429, RateLimitError),
        (500, ServerError),
        (503, ServerError),
        (418, APIStatusError),
    ],
)
def test_status_maps_to_exception(
    rsps: responses.RequestsMock, once: Client, status: int, exc_type: type[APIStatusError]
) -> None:
    body = problem(status, "Something", detail="It went wrong.", instance="/v1/presets/x")
    rsps.get(f"{BASE}/v1/presets/x", json=body, status=status, content_type=PROBLEM_JSON)
    with pytest.raises(exc_type) as info:
        once.preset("x")
    err = info.value
    assert type(err) is exc_type
    assert isinstance(err, handfoot.client.HandFootError)
    assert err.status == status
    assert err.response is not None and err.response.status_code == status
    assert err.problem.type == "https://handfoot.example/problems/something"
    assert err.problem.title == "Something"
    assert err.problem.detail == "It went wrong."
    assert err.problem.instance == "/v1/presets/x"
    assert str(err).startswith(f"{status} Something: It went wrong.")


def test_validation_error_exposes_problems(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    body = problem(
        422,
        "Round breaks the rules",
        detail="Team 1 went out without its contract.",
        code="contract-not-met",
        errors=[
            {
                "pointer": "/teams/0/went_out",
                "code": "contract-not-met",
                "detail": "Going out needs 2 clean and 2 dirty books (Pagat).",
            },
            {"pointer": "/teams/0/melds/1/2", "code": "unknown-card", "detail": "'ZZ' is no card"},
            {"parameter": "page_size", "code": "too-large", "detail": "at most 100"},
        ],
    )
    rsps.post(f"{BASE}/v1/rounds/score", json=body, status=422, content_type=PROBLEM_JSON)
    with pytest.raises(UnprocessableEntityError) as info:
        sdk_client.score_round(preset="pagat", teams=[{"name": "Team 1", "went_out": True}])
    err = info.value
    assert len(rsps.calls) == 1  # 422 is never retried
    assert err.problems == [
        ProblemItem(
            "contract-not-met",
            "Going out needs 2 clean and 2 dirty books (Pagat).",
            pointer="/teams/0/went_out",
        ),
        ProblemItem("unknown-card", "'ZZ' is no card", pointer="/teams/0/melds/1/2"),
        ProblemItem("too-large", "at most 100", parameter="page_size"),
    ]
    assert err.problem.extra == {"code": "contract-not-met"}
    assert handfoot.client.ValidationError is UnprocessableEntityError
    text = str(err)
    assert text.splitlines() == [
        "422 Round breaks the rules: Team 1 went out without its contract.",
        "  - /teams/0/went_out: Going out needs 2 clean and 2 dirty books (Pagat). [contract-not-met]",
        "  - /teams/0/melds/1/2: 'ZZ' is no card [unknown-card]",
        "  - parameter page_size: at most 100 [too-large]",
    ]


def test_flask_smorest_default_error_body_is_understood(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    body = {
        "code": 422,
        "status": "Unprocessable Entity",
        "message": "The request was well-formed but was unable to be followed.",
        "errors": {
            "json": {"teams": {"0": {"name": ["Missing data for required field."]}}},
            "query": {"page": ["Not a valid integer."]},
        },
    }
    rsps.post(f"{BASE}/v1/rounds/score", json=body, status=422)
    with pytest.raises(UnprocessableEntityError) as info:
        sdk_client.score_round(preset="pagat", teams=[])
    p = info.value.problem
    assert p.type == "about:blank"
    assert p.title == "Unprocessable Entity"
    assert p.status == 422
    assert p.detail == "The request was well-formed but was unable to be followed."
    assert p.errors == (
        ProblemItem("invalid", "Missing data for required field.", pointer="/teams/0/name"),
        ProblemItem("invalid", "Not a valid integer.", parameter="page"),
    )


@pytest.mark.parametrize(
    ("body", "content_type", "detail"),
    [
        ("", "text/plain", None),
        ("upstream connect error", "text/plain", "upstream connect error"),
        (
            "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad &amp; gone</h1></body>",
            "text/html",
            "502 Bad Gateway Bad & gone",
        ),
        ("not json {", "application/json", "not json {"),
        ("[1, 2]", "application/json", "[1, 2]"),
    ],
)
def test_non_problem_bodies_give_sensible_problem(
    rsps: responses.RequestsMock, once: Client, body: str, content_type: str, detail: str | None
) -> None:
    rsps.get(f"{BASE}/v1/presets", body=body, status=502, content_type=content_type)
    with pytest.raises(ServerError) as info:
        once.presets()
    p = info.value.problem
    assert p == ProblemDetails(type="about:blank", title="Bad Gateway", status=502, detail=detail)
    assert str(info.value).startswith("502 Bad Gateway")


def test_problem_without_title_uses_status_phrase() -> None:
    p = ProblemDetails.from_json({"detail": "No game 7."}, status=404)
    assert (p.type, p.title, p.status, p.detail) == ("about:blank", "Not Found", 404, "No game 7.")
    assert str(p) == "404 Not Found: No game 7."


def test_rate_limit_error_exposes_retry_after(rsps: responses.RequestsMock, once: Client) -> None:
    rsps.get(f"{BASE}/v1/presets", status=429, headers={"Retry-After": "120"})
    with pytest.raises(RateLimitError) as info:
        once.presets()
    assert info.value.retry_after == 120.0


@pytest.mark.parametrize(
    ("problem_type", "status", "code"),
    [
        ("https://handfoot.dev/problems/version-moved", 409, "version_moved"),
        ("https://handfoot.dev/problems/idempotency-in-flight/", 409, "idempotency_in_flight"),
        ("https://handfoot.example/problems/invalid-round?lang=en", 422, "invalid_round"),
        ("about:blank", 502, "bad_gateway"),
        ("about:blank", 429, "too_many_requests"),
        ("about:blank", 599, "http_error"),
    ],
)
def test_code_names_the_problem_type(
    rsps: responses.RequestsMock, once: Client, problem_type: str, status: int, code: str
) -> None:
    """Callers branch on ``e.code`` (a plain identifier) instead of comparing type URLs."""
    body = {"type": problem_type, "title": "t", "status": status}
    rsps.get(f"{BASE}/v1/presets/x", json=body, status=status, content_type=PROBLEM_JSON)
    with pytest.raises(APIStatusError) as info:
        once.preset("x")
    assert info.value.code == code
    assert f"code={code!r}" in repr(info.value)


def test_request_id_is_the_answers_x_request_id(rsps: responses.RequestsMock, once: Client) -> None:
    """The id to quote in a bug report is on the error, read from the answer's ``X-Request-ID``."""
    rsps.get(
        f"{BASE}/v1/presets/x",
        json=problem(404, "Not found"),
        status=404,
        content_type=PROBLEM_JSON,
        headers={"X-Request-ID": "abc123"},
    )
    rsps.get(f"{BASE}/v1/presets/y", json=problem(404, "Not found"), status=404, content_type=PROBLEM_JSON)
    with pytest.raises(NotFoundError) as info:
        once.preset("x")
    assert info.value.request_id == "abc123"
    with pytest.raises(NotFoundError) as info:
        once.preset("y")
    assert info.value.request_id is None


def test_async_errors_carry_the_code_and_request_id_too() -> None:
    """``AsyncClient``'s errors are the same classes with the same ``code`` and ``request_id``."""
    httpx = pytest.importorskip("httpx", reason="the async extra")
    from handfoot.client.aio import AsyncClient
    from tests.conftest import run_async

    def answer(request: Any) -> Any:
        body = {"type": "https://handfoot.example/problems/version-moved", "title": "t", "status": 409}
        headers = {"X-Request-ID": "req-9", "Content-Type": PROBLEM_JSON}
        return httpx.Response(409, json=body, headers=headers)

    async def main() -> APIStatusError:
        http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
        async with AsyncClient(BASE, max_retries=0, http=http) as ahf:
            with pytest.raises(APIStatusError) as info:
                await ahf.preset("pagat")
        await http.aclose()
        return info.value

    error = run_async(main())
    assert (error.code, error.request_id, error.status) == ("version_moved", "req-9", 409)


TEAMS = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
TALLY = {
    "clean_books": 0,
    "dirty_books": 0,
    "wild_books": 0,
    "red_threes_on_table": 0,
    "red_threes_caught": 0,
    "table_points": 0,
    "points_left": 0,
}


@pytest.fixture
def serve(db_url: str) -> Iterator[Callable[..., str]]:
    apps: list[Flask] = []
    with contextlib.ExitStack() as servers:

        def start(**config: Any) -> str:
            app = make_test_app(db_url, **config)
            apps.append(app)
            return served_url(servers.enter_context(served(app)))

        yield start
    for app in apps:
        get_db(app).dispose()


def test_server_error_after_the_retries(
    serve: Callable[..., str], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = serve(SQLITE_BUSY_TIMEOUT=0.2)
    waits: list[float] = []
    monkeypatch.setattr(Transport, "_sleep", staticmethod(lambda retry, wait, reason: waits.append(wait)))
    holder = sqlite3.connect(make_url(db_url).database, isolation_level=None)
    with Client(base, max_retries=2) as hf:
        game = hf.create_game(name="Locked for good", preset="pagat", teams=TEAMS)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(ServerError) as info:
                hf.add_round(game.id, teams=[{"name": "Us", "tally": TALLY}, {"name": "Them", "tally": TALLY}])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert info.value.status == 503
        assert info.value.problem.type.endswith("/service-unavailable")
        assert info.value.code == "service_unavailable"
        assert info.value.request_id is not None and len(info.value.request_id) == 32  # the server's own id
        assert len(waits) == 2  # two retries, each after the 503's Retry-After
        assert hf.game(game.id).rounds_played == 0  # nothing half-written


def test_rate_limit_error_carries_retry_after(serve: Callable[..., str], monkeypatch: pytest.MonkeyPatch) -> None:
    base = serve(RATE_LIMIT="3/minute")
    monkeypatch.setattr(Transport, "_sleep", staticmethod(lambda retry, wait, reason: None))
    with Client(base, max_retries=0) as hf:
        for _ in range(3):
            hf.presets()
        with pytest.raises(RateLimitError) as info:
            hf.presets()
    assert (info.value.status, info.value.code) == (429, "too_many_requests")
    assert info.value.retry_after is not None and 0 < info.value.retry_after <= 60
