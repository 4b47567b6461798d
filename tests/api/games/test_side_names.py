"""Side names are told apart the same way everywhere: two names that differ only by case or by
Unicode composition (NFC "Zoë" and NFD "Zoe\u0308") are the same side, in a scored round and in a game."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from handfoot import engine
from tests.api.app.test_problems import assert_problem

TALLY = {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes_on_table": 0, "red_threes_caught": 0,
         "table_points": 0, "points_left": 0}
SAME = [("A", "A"), ("A", "a"), ("Zo\u00eb", "Zoe\u0308"), ("STRASSE", "straße")]


@pytest.mark.parametrize(("first", "second"), SAME)
def test_scored_round_refuses_two_sides_with_one_name(flask_client: FlaskClient, first: str, second: str) -> None:
    body = {"preset": "pagat", "teams": [{"name": first, "tally": TALLY}, {"name": second, "tally": TALLY}]}
    with pytest.raises(engine.RoundError) as info:
        engine.score_round_request(body)
    assert [(p.code, p.path) for p in info.value.problems] == [("duplicate_side", ("teams", 1, "name"))]
    problem = assert_problem(flask_client.post("/v1/rounds/score", json=body), 422)
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [("/teams/1/name", "duplicate_side")]


@pytest.mark.parametrize(("first", "second"), SAME)
def test_game_refuses_two_sides_with_one_name(flask_client: FlaskClient, first: str, second: str) -> None:
    body = {"name": "G", "preset": "pagat", "teams": [{"name": first, "players": ["Ann", "Bo"]},
                                                       {"name": second, "players": ["Cy", "Di"]}]}
    problem = assert_problem(flask_client.post("/v1/games", json=body), 422)
    assert any(e.get("pointer") == "/teams/1/name" and e["code"] == "duplicate_side" for e in problem["errors"])


def test_players_are_told_apart_the_same_way(flask_client: FlaskClient) -> None:
    body = {"name": "G", "preset": "pagat", "teams": [{"name": "A", "players": ["Zo\u00eb", "Bo"]},
                                                       {"name": "B", "players": ["Cy", "zoe\u0308"]}]}
    problem = assert_problem(flask_client.post("/v1/games", json=body), 422)
    assert any(e.get("pointer") == "/teams/1/players/1" and e["code"] == "duplicate_player" for e in problem["errors"])


def test_player_filter_finds_either_spelling(flask_client: FlaskClient) -> None:
    body = {"name": "G", "preset": "pagat", "teams": [{"name": "A", "players": ["Zo\u00eb", "Bo"]},
                                                       {"name": "B", "players": ["Cy", "Di"]}]}
    assert flask_client.post("/v1/games", json=body).status_code == 201
    for query in ("Zo\u00eb", "zoe\u0308", "ZOË"):
        found = flask_client.get("/v1/games", query_string={"player": query}).get_json()
        assert [g["name"] for g in found] == ["G"], query


@pytest.mark.parametrize(("first", "second"), SAME)
def test_appends_and_corrections_match_sides_the_same_way(flask_client: FlaskClient, first: str, second: str) -> None:
    """A round names a game's side in any spelling the duplicate check calls the same: it is that
    side, stored and answered under the game's spelling; the two spellings of one side are one."""
    game = {"name": "G", "preset": "pagat", "teams": [{"name": first, "players": ["Ann", "Bo"]},
                                                       {"name": "Other", "players": ["Cy", "Di"]}]}
    game_id = flask_client.post("/v1/games", json=game).get_json()["id"]
    teams = [{"name": "OTHER", "tally": {**TALLY, "table_points": 90}},
             {"name": second, "tally": {**TALLY, "clean_books": 1, "table_points": 100}}]
    for response in (flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": teams}),
                     flask_client.put(f"/v1/games/{game_id}/rounds/1", json={"teams": teams},
                                headers={"If-Match": flask_client.get(f"/v1/games/{game_id}/rounds/1").headers.get(
                                    "ETag", '"none"')})):
        assert response.status_code in (200, 201), response.get_json()
        answer = response.get_json()
        assert [b["name"] for b in answer["teams"]] == [first, "Other"]  # the game's order and spelling
        assert [t["name"] for t in answer["totals_after"]] == [first, "Other"]
        assert answer["request"]["teams"][1]["name"] == second  # the request as sent
    both = [{"name": first, "tally": TALLY}, {"name": second, "tally": TALLY}]
    problem = assert_problem(flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": both}), 422)
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [("/teams/1/name", "duplicate_side"),
                                                                      ("/teams", "missing_side")]
