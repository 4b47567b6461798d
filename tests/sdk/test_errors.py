"""Error mapping: each status class raises its exception, carrying readable problem details."""

from __future__ import annotations

import pytest
import responses

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
        "  - /teams/0/went_out: Going out needs 2 clean and 2 dirty books (Pagat). "
        "[contract-not-met]",
        "  - /teams/0/melds/1/2: 'ZZ' is no card [unknown-card]",
        "  - parameter page_size: at most 100 [too-large]",
    ]


def test_flask_smorest_default_error_body_is_understood(
    rsps: responses.RequestsMock, sdk_client: Client
) -> None:
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
    rsps.get(f"{BASE}/v1/presets/x", json=problem(404, "Not found"), status=404, content_type=PROBLEM_JSON,
             headers={"X-Request-ID": "abc123"})
    rsps.get(f"{BASE}/v1/presets/y", json=problem(404, "Not found"), status=404, content_type=PROBLEM_JSON)
    with pytest.raises(NotFoundError) as info:
        once.preset("x")
    assert info.value.request_id == "abc123"
    with pytest.raises(NotFoundError) as info:
        once.preset("y")
    assert info.value.request_id is None
