"""Every worked case (``tests/cases/worked/*.json``) and every rule case of our own
(``tests/cases/rules/*.json``, the same format), run through the HTTP API and through the engine.

Cases are discovered at collection time, so a case added to the folder is tested the day it lands.
The folder is the project's copy of ``../shared/cases`` (``test_case_copy.py`` keeps them equal).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from handfoot import engine
from tests.conftest import RULE_CASES, WORKED_CASES

CASE_FILES = sorted(WORKED_CASES.glob("*.json")) + sorted(RULE_CASES.glob("*.json"))

# The engine operation behind each endpoint of DESIGN §4.
ENGINE_OPERATIONS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "POST /v1/melds/validate": engine.validate_meld_request,
    "POST /v1/openings/check": engine.check_opening_request,
    "POST /v1/going-out/check": engine.check_going_out_request,
    "POST /v1/discard-pile/check": engine.check_discard_pile_request,
    "POST /v1/rounds/score": engine.score_round_request,
}


def load(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return case


def test_cases_folder_is_found() -> None:
    assert CASE_FILES, f"no cases found in {WORKED_CASES}"
    assert list(RULE_CASES.glob("*.json")), f"no cases found in {RULE_CASES}"


def check_expectations(case: dict[str, Any], status: int, body: Any) -> None:
    expect = case["expect"]
    assert status == expect.get("status", 200), body
    if "status" in expect:
        if "codes" in expect:  # our own cases name the rules a refusal breaks
            assert sorted({e["code"] for e in body["errors"]}) == sorted(expect["codes"]), body
        return
    for key, value in expect.items():
        if key == "teams":
            assert len(body["teams"]) == len(value)
            for got, want in zip(body["teams"], value, strict=True):
                if "name" in want:
                    assert got["name"] == want["name"]
                assert got["total"] == want["total"], got
                lines = {line["code"]: line["points"] for line in got["lines"]}
                for code, points in want.get("lines", {}).items():
                    assert lines.get(code, 0) == points, (code, got)
        else:
            assert body[key] == value, (key, body)


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case_over_http(path: Path, stateless_client: FlaskClient) -> None:
    case = load(path)
    method, url = case["endpoint"].split(" ", 1)
    response = stateless_client.open(url, method=method, json=case["request"])
    if response.status_code >= 400:
        assert response.content_type == "application/problem+json"
        assert response.json and response.json["errors"], "a refusal names the rule broken"
    check_expectations(case, response.status_code, response.json)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, engine.Contract):
        return value.as_dict()
    return value


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case_through_engine(path: Path) -> None:
    case = load(path)
    operation = ENGINE_OPERATIONS[case["endpoint"]]
    try:
        result = operation(case["request"])
    except engine.HandFootError as err:
        assert err.problems and all(p.code in engine.PROBLEM_CODES for p in err.problems)
        check_expectations(case, 422, {"errors": [{"code": p.code} for p in err.problems]})
        return
    if isinstance(result, engine.RoundScore):
        body: Any = {
            "teams": [
                {"name": t.name, "total": t.total, "lines": [{"code": ln.code, "points": ln.points} for ln in t.lines]}
                for t in result.teams
            ]
        }
    else:
        body = {key: _plain(getattr(result, key)) for key in case["expect"] if key != "status"}
    check_expectations(case, 200, body)
