"""Client construction, headers, lifecycle, and the preset / scoring methods."""

from __future__ import annotations

import json

import pytest
import requests
import responses
from responses import matchers

import handfoot.client
from handfoot.client import Client, PresetSummary, RoundScore, TeamInput
from tests.helpers.sdk import BASE

PRESET_JSON = {
    "id": "pagat",
    "name": "Pagat",
    "source": "https://www.pagat.com/rummy/handfoot.html",
    "summary": "Two-player-team classic",
    "rules": {
        "book_size": 7,
        "opening_minimums": [50, 90, 120, 150],
        "card_values": {"JK": 50, "2": 20},
    },
    "provenance": {
        "book_size": {"kind": "stated", "source": "Pagat", "note": ""},
        "opening_minimums": {"kind": "filled", "source": "bicycle", "note": "pagat is silent"},
    },
    "fields": [],
}

SCORE_JSON = {
    "preset": "pagat",
    "round": 1,
    "teams": [
        {
            "name": "Team 1",
            "total": 3740,
            "lines": [
                {
                    "code": "clean_books",
                    "label": "Clean books",
                    "count": 2,
                    "points_each": 500,
                    "points": 1000,
                },
                {
                    "code": "going_out",
                    "label": "Going out",
                    "count": None,
                    "points_each": None,
                    "points": 100,
                },
                {
                    "code": "points_left",
                    "label": "Points left",
                    "count": None,
                    "points_each": None,
                    "points": -25,
                },
            ],
            "warnings": [],
        },
        {"name": "Team 2", "total": 1075, "lines": [], "warnings": []},
    ],
    "rules_overridden": [],
}


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    c = Client()
    assert c.base_url == "http://127.0.0.1:8000"
    assert c.api_key is None
    assert c.timeout == (3.05, 30)
    assert c.max_retries == 2


def test_env_fallbacks(rsps: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDFOOT_URL", "http://env.test:9000/")
    monkeypatch.setenv("HANDFOOT_API_KEY", "k-env")
    rsps.get("http://env.test:9000/v1/presets", json=[])
    with Client() as c:
        assert c.base_url == "http://env.test:9000"
        assert c.presets() == []
    headers = rsps.calls[0].request.headers
    assert headers["Authorization"] == "Bearer k-env"
    assert headers["User-Agent"] == f"handfoot-sdk/{handfoot.client.__version__}"
    assert "application/problem+json" in headers["Accept"]


def test_explicit_arguments_beat_env(rsps: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDFOOT_URL", "http://env.test")
    monkeypatch.setenv("HANDFOOT_API_KEY", "k-env")
    rsps.get(f"{BASE}/v1/presets", json=[])
    Client(BASE, api_key="k-arg").presets()
    assert rsps.calls[0].request.headers["Authorization"] == "Bearer k-arg"


def test_no_authorization_header_without_key(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{BASE}/v1/presets", json=[])
    sdk_client.presets()
    assert "Authorization" not in rsps.calls[0].request.headers


def test_context_manager_closes_own_session_only(monkeypatch: pytest.MonkeyPatch) -> None:
    closed: list[str] = []
    monkeypatch.setattr(requests.Session, "close", lambda self: closed.append("closed"))
    with Client(BASE):
        pass
    assert closed == ["closed"]
    mine = requests.Session()
    with Client(BASE, session=mine):
        pass
    assert closed == ["closed"]


def test_given_session_is_used(rsps: responses.RequestsMock) -> None:
    session = requests.Session()
    session.headers["X-Trace"] = "abc"
    rsps.get(f"{BASE}/v1/presets", json=[])
    Client(BASE, session=session).presets()
    assert rsps.calls[0].request.headers["X-Trace"] == "abc"


def test_timeout_is_passed_to_requests(rsps: responses.RequestsMock) -> None:
    rsps.get(f"{BASE}/v1/presets", json=[], match=[matchers.request_kwargs_matcher({"timeout": 5})])
    Client(BASE, timeout=5).presets()


def test_presets(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(
        f"{BASE}/v1/presets",
        json=[{k: PRESET_JSON[k] for k in ("id", "name", "source", "summary")}],
    )
    assert sdk_client.presets() == [
        PresetSummary("pagat", "Pagat", "https://www.pagat.com/rummy/handfoot.html", "Two-player-team classic")
    ]


def test_preset(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{BASE}/v1/presets/pagat", json=PRESET_JSON)
    p = sdk_client.preset("pagat")
    assert (p.id, p.name) == ("pagat", "Pagat")
    assert p.rules["book_size"] == 7
    assert p.rules["opening_minimums"] == (50, 90, 120, 150)
    assert p.provenance["opening_minimums"] == handfoot.client.Provenance("filled", "bicycle", "pagat is silent")
    with pytest.raises(TypeError):
        p.rules["book_size"] = 8  # type: ignore[index]


def test_preset_id_is_escaped_in_path(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{BASE}/v1/presets/a%2Fb", json={**PRESET_JSON, "id": "a/b"})
    assert sdk_client.preset("a/b").id == "a/b"


def test_score_round_sends_cards_as_given(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    teams: list[TeamInput] = [
        {
            "name": "Team 1",
            "went_out": True,
            "melds": [["KS", "K♥", "KD", "KC", "KS", "KH", "KD"], ["TS", "10♠", "2C"]],
            "red_threes": ["3H"],
            "players": [
                {"name": "North", "hand": []},
                {"name": "South", "hand": ["8S"], "foot": ["QS"]},
            ],
        },
        {"name": "Team 2", "tally": {"clean_books": 1, "points_left": 185}},
    ]
    rsps.post(
        f"{BASE}/v1/rounds/score",
        json=SCORE_JSON,
        match=[
            matchers.json_params_matcher({"preset": "pagat", "round": 2, "teams": teams, "rules": {"book_size": 8}})
        ],
    )
    score = sdk_client.score_round(preset="pagat", teams=teams, round=2, rules={"book_size": 8})
    assert isinstance(score, RoundScore)
    assert score.teams[0].total == 3740
    request = rsps.calls[0].request
    assert request.headers["Content-Type"] == "application/json"
    assert "Idempotency-Key" not in request.headers


def test_score_round_omits_rules_when_not_given(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(f"{BASE}/v1/rounds/score", json=SCORE_JSON)
    sdk_client.score_round(preset="pagat", teams=[{"name": "A"}])
    assert json.loads(rsps.calls[0].request.body or b"") == {
        "preset": "pagat",
        "round": 1,
        "teams": [{"name": "A"}],
    }


def test_preset_rules_can_be_sent_back(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{BASE}/v1/presets/pagat", json=PRESET_JSON)
    rsps.post(f"{BASE}/v1/rounds/score", json=SCORE_JSON)
    rules = sdk_client.preset("pagat").rules
    sdk_client.score_round(preset="pagat", teams=[], rules=rules)
    assert json.loads(rsps.calls[1].request.body or b"")["rules"] == PRESET_JSON["rules"]


def test_bad_success_body_raises_response_validation_error(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{BASE}/v1/presets", body="<html>oops</html>", content_type="text/html")
    rsps.get(f"{BASE}/v1/presets/pagat", json={"id": "pagat"})
    with pytest.raises(handfoot.client.APIResponseValidationError, match="not JSON"):
        sdk_client.presets()
    with pytest.raises(handfoot.client.APIResponseValidationError, match="missing member 'rules'"):
        sdk_client.preset("pagat")


def test_public_names() -> None:
    assert set(handfoot.client.__all__) <= set(dir(handfoot.client))
    for name in ("Client", "HandFootError", "Page", "TeamInput", "ProblemDetails"):
        assert name in handfoot.client.__all__
