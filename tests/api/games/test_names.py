"""A name must show something: names made only of spaces or invisible characters are refused
wherever a name is taken (game, side, player; in games and in scored rounds)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from handfoot.server.names import NAME_PATTERN
from tests.api.app.test_problems import assert_problem

BLANK = ["   ", "\u200b", " \u00a0 ", "\u2060\ufeff", "\u3000"]
TEAMS = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
TALLY = {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes_on_table": 0, "red_threes_caught": 0,
         "table_points": 0, "points_left": 0}


@pytest.mark.parametrize("blank", BLANK)
def test_blank_names_are_refused(flask_client: FlaskClient, blank: str) -> None:
    cases = [
        ({"name": blank, "preset": "pagat", "teams": TEAMS}, "/name"),
        ({"name": "G", "preset": "pagat", "teams": [{"name": blank, "players": ["Ann", "Bo"]}, TEAMS[1]]},
         "/teams/0/name"),
        ({"name": "G", "preset": "pagat", "teams": [{"name": "Us", "players": ["Ann", blank]}, TEAMS[1]]},
         "/teams/0/players/1"),
    ]
    for body, pointer in cases:
        problem = assert_problem(flask_client.post("/v1/games", json=body), 422)
        assert any(e.get("pointer") == pointer for e in problem["errors"]), problem
        assert not re.fullmatch(NAME_PATTERN, blank)
    score = {"preset": "pagat", "teams": [{"name": blank, "tally": TALLY}, {"name": "B", "tally": TALLY}]}
    problem = assert_problem(flask_client.post("/v1/rounds/score", json=score), 422)
    assert any(e.get("pointer") == "/teams/0/name" for e in problem["errors"]), problem


@pytest.mark.parametrize("name", ["Zoë 🂡 北", " Ann ", "A", "x\u200by"])
def test_names_with_something_visible_are_kept_as_sent(flask_client: FlaskClient, name: str) -> None:
    response = flask_client.post("/v1/games", json={"name": name, "preset": "pagat", "teams": TEAMS})
    assert response.status_code == 201 and response.get_json()["name"] == name
    assert re.fullmatch(NAME_PATTERN, name)
