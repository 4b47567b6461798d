"""A tally may leave out the counts that are zero: the server takes them as 0 (issue 20, item 3).

Every count of every worked case in tally form, left out whenever it is 0, scores exactly as the
whole tally, on the score endpoint and when appended to a game; an empty tally is a side that
scored nothing; and the document gives every count the default 0 and requires none.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from handfoot.server.resources.rounds.schemas import TallySchema
from tests.conftest import WORKED_CASES

CASES = [json.loads(path.read_text()) for path in sorted(WORKED_CASES.glob("*.json"))]
TALLY_CASES = [case for case in CASES if any("tally" in team for team in case["request"].get("teams", []))]


def without_zeros(body: dict[str, Any]) -> dict[str, Any]:
    teams = [{**team, "tally": {k: v for k, v in team["tally"].items() if v != 0}} if "tally" in team else team
             for team in body["teams"]]
    return {**body, "teams": teams}


def test_some_cases_have_zero_counts() -> None:
    zeros = [c["id"] for c in TALLY_CASES if without_zeros(c["request"]) != c["request"]]
    assert "s0-worked-round-tally" in zeros and len(zeros) >= 3, zeros


@pytest.mark.parametrize("case", TALLY_CASES, ids=[c["id"] for c in TALLY_CASES])
def test_omitted_zero_counts_score_as_zeros(flask_client: FlaskClient, case: dict[str, Any]) -> None:
    whole = flask_client.post("/v1/rounds/score", json=case["request"])
    short = flask_client.post("/v1/rounds/score", json=without_zeros(case["request"]))
    assert short.status_code == whole.status_code, short.get_json()
    assert short.get_json() == whole.get_json()


def test_an_empty_tally_scores_nothing(flask_client: FlaskClient) -> None:
    body = {"preset": "pagat", "teams": [
        {"name": "Us", "went_out": True, "tally": {"clean_books": 2, "dirty_books": 2, "wild_books": 1,
                                                    "table_points": 465, "points_left": 0}},
        {"name": "Them", "tally": {}}]}
    answer = flask_client.post("/v1/rounds/score", json=body)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["teams"][1]["total"] == 0


def test_appended_round_fills_zeros(flask_client: FlaskClient) -> None:
    case = json.loads((WORKED_CASES / "s0-worked-round-tally.json").read_text())["request"]
    game = flask_client.post("/v1/games", json={"name": "Zeros", "preset": "pagat", "teams": [
        {"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}]})
    assert game.status_code == 201, game.get_json()
    appended = flask_client.post(f"/v1/games/{game.get_json()['id']}/rounds",
                           json={"round": 1, "teams": without_zeros(case)["teams"]})
    assert appended.status_code == 201, appended.get_json()
    assert [t["total"] for t in appended.get_json()["teams"]] == [3740, 1075]


def test_the_document_says_every_count_defaults_to_zero() -> None:
    spec = json.loads((WORKED_CASES.parents[2] / "openapi" / "openapi.json").read_text())
    tally = spec["components"]["schemas"]["Tally"]
    assert "required" not in tally
    counts = [name for name, field in TallySchema().fields.items() if name not in ("has_melded", "rank_books")]
    assert len(counts) == 11  # the seven of every table, burn points and the three grades of cut
    for name in counts:
        assert tally["properties"][name]["default"] == 0, name
