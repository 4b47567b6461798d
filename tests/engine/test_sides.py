"""The sides rule (engine.sides_problems): one function for rounds and games alike."""

from __future__ import annotations

import pytest

from handfoot.engine import RoundError, find_preset, score_round_request, sides_problems

PAGAT = find_preset("pagat").rules
TALLY = {
    "clean_books": 0,
    "dirty_books": 0,
    "wild_books": 0,
    "red_threes_on_table": 0,
    "red_threes_caught": 0,
    "table_points": 0,
    "points_left": 0,
}


def side(name: str, *players: str) -> dict[str, object]:
    return {"name": name, "went_out": False, "melds": [], "players": [{"name": p, "hand": ["5S"]} for p in players]}


def codes_at(problems: list) -> list[tuple[str, tuple]]:  # type: ignore[type-arg]
    return [(p.code, p.path) for p in problems]


@pytest.mark.parametrize(("first", "second"), [("North", "north"), ("North", "NORTH"), ("Zo\u00eb", "Zoe\u0308")])
def test_a_player_on_two_sides_is_refused_in_a_round(first: str, second: str) -> None:
    body = {"preset": "pagat", "round": 1, "teams": [side("Us", first, "South"), side("Them", second, "West")]}
    with pytest.raises(RoundError) as caught:
        score_round_request(body)
    assert ("duplicate_player", ("teams", 1, "players", 0)) in codes_at(caught.value.problems)


def test_the_same_rule_serves_a_game_and_counts_players() -> None:
    problems = sides_problems(PAGAT, ["Us", "Them"], [["Ann", "Bo"], ["Cy", "ann"]])
    assert codes_at(problems) == [("duplicate_player", ("teams", 1, "players", 1))]
    assert sides_problems(PAGAT, ["Us", "Them"], [["Ann", "Bo"], ["Cy", "Di"]]) == []
    assert sides_problems(PAGAT, ["Us", "Them"], [["Ann", "Bo"], None]) == []  # a tally names no players
    assert [p.code for p in sides_problems(PAGAT, ["Us", "Them"], [["Ann"], ["Cy", "Di"]])] == ["team_count"]


def test_unnamed_players_are_different_players() -> None:
    body = {
        "preset": "pagat",
        "round": 1,
        "teams": [
            {"name": "Us", "went_out": False, "melds": [], "players": [{"hand": ["5S"]}, {"hand": ["4S"]}]},
            {"name": "Them", "went_out": False, "melds": [], "players": [{"hand": ["6S"]}, {"hand": ["KS"]}]},
        ],
    }
    score = score_round_request(body)
    assert [t.total for t in score.teams] == [-10, -15]
