"""A misspelt house rule is a 422 naming it and the rule meant: the same words on every operation
that takes ``rules`` (scoring, the checks, a game, a table), read by the one reader of a rule."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

TEAMS = [{"name": "Us", "players": ["A", "B"]}, {"name": "Them", "players": ["C", "D"]}]
BODIES: dict[str, dict[str, Any]] = {
    "/v1/rounds/score": {"preset": "pagat", "teams": [{"name": "Us"}, {"name": "Them"}]},
    "/v1/melds/validate": {"preset": "pagat", "cards": ["KS", "KH", "KD"]},
    "/v1/games": {"name": "Friday", "preset": "pagat", "teams": TEAMS},
    "/v1/tables": {"name": "Friday", "preset": "pagat", "teams": TEAMS},
}


@pytest.mark.parametrize("path", BODIES)
def test_a_misspelt_rule_names_the_rule_meant(flask_client: FlaskClient, path: str) -> None:
    response = flask_client.post(path, json={**BODIES[path], "rules": {"going_out_bonsu": 200}})
    assert response.status_code == 422, response.get_data(as_text=True)
    [error] = response.get_json()["errors"]
    assert (error["pointer"], error["code"]) == ("/rules/going_out_bonsu", "unknown_field")
    assert "'going_out_bonsu' is not a house rule; did you mean 'going_out_bonus'" in error["detail"]


def test_a_name_like_none_says_where_the_names_are(flask_client: FlaskClient) -> None:
    response = flask_client.post("/v1/rounds/score", json={**BODIES["/v1/rounds/score"], "rules": {"qqqq": 1}})
    [error] = response.get_json()["errors"]
    assert error["code"] == "unknown_field" and "`fields` of GET /v1/presets/{preset_id}" in error["detail"]


def test_a_known_rule_with_a_bad_value_and_an_unknown_one_are_both_named(flask_client: FlaskClient) -> None:
    rules = {"going_out_bonus": "lots", "red_three_bonsu": 100}
    response = flask_client.post("/v1/games", json={**BODIES["/v1/games"], "rules": rules})
    pointers = sorted(error["pointer"] for error in response.get_json()["errors"])
    assert pointers == ["/rules/going_out_bonus", "/rules/red_three_bonsu"]
