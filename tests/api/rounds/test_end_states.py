"""Impossible end states through the HTTP API: scoring and game appends refuse them alike (422
naming the input and the rule), and a refused append writes nothing (docs/rules-decisions.md D20-D22)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers.games import create_game, tally

HOLDING = [{"name": "North", "hand": ["9S"]}, {"name": "South", "hand": ["9H"]}]
EMPTY_EAST = [{"name": "East", "hand": []}, {"name": "West", "hand": ["9D"]}]


def _sides(second: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"name": "Team 1", "melds": [["KS", "KH", "KD"]], "players": HOLDING},
            {"name": "Team 2", "melds": [["QS", "QH", "QD"]], "players": second}]


@pytest.mark.parametrize(("teams", "code", "pointer"), [
    (_sides(EMPTY_EAST), "out_of_cards_not_out", "/teams/1/players/0/hand"),
    (_sides([{"name": "East", "hand": ["9C"], "foot": ["4S", "5S"]}, {"name": "West", "hand": ["9D"]}]),
     "foot_count", "/teams/1/players/0/foot"),
])
def test_scoring_and_appends_refuse_alike(flask_client: FlaskClient, teams: list[dict[str, Any]], code: str,
                                          pointer: str) -> None:
    scored = flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": teams})
    game = create_game(flask_client)
    appended = flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": teams})
    for response in (scored, appended):
        assert response.status_code == 422, response.get_json()
        assert response.content_type == "application/problem+json"
        errors = response.get_json()["errors"]
        assert [(e["code"], e["pointer"]) for e in errors] == [(code, pointer)]
        assert "foot_size" in errors[0]["detail"] or "last_card_needs_contract" in errors[0]["detail"]
    assert flask_client.get(f"/v1/games/{game['id']}").get_json()["rounds"] == []


def test_a_tally_is_not_refused_for_it(flask_client: FlaskClient) -> None:
    """A tally names no players (D21): 0 points left on a side not out scores and is stored."""
    game = create_game(flask_client)
    response = flask_client.post(f"/v1/games/{game['id']}/rounds",
                           json={"teams": [tally("Team 1", table=30, left=5), tally("Team 2", table=30)]})
    assert response.status_code == 201, response.get_json()


def test_where_play_goes_on_the_round_scores(flask_client: FlaskClient) -> None:
    """The Hodges family rules let a player run out of cards without going out."""
    teams = [{"name": "A", "melds": [["KS", "KH", "KD"]], "players": [{"name": "N", "hand": []}]},
             {"name": "B", "melds": [["QS", "QH", "QD"]], "players": [{"name": "E", "hand": ["9D"]}]}]
    response = flask_client.post("/v1/rounds/score", json={"preset": "hodges", "teams": teams})
    assert response.status_code == 200, response.get_json()
    refused = flask_client.post("/v1/rounds/score", json={"preset": "hodges", "teams": teams,
                                                    "rules": {"last_card_needs_contract": True}})
    assert refused.status_code == 422
    assert [e["code"] for e in refused.get_json()["errors"]] == ["out_of_cards_not_out"]
