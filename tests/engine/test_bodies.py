"""The one reader of a round body's shape (``handfoot.engine.bodies``), and the card strings that
``round_from_mapping`` reads after it: each problem at its path, with the API's schema code."""

from __future__ import annotations

from typing import Any

import pytest

from handfoot.engine import CardError, round_from_mapping
from handfoot.engine.bodies import (
    MAX_CARDS_PER_LIST,
    MAX_MELDS_PER_TEAM,
    MAX_TEAMS,
    player_problems,
    score_body_problems,
    side_problems,
)
from handfoot.engine.errors import BodyError

SIDE = {"name": "A", "melds": [["KS", "KH", "KD"]], "players": [{"name": "N", "hand": ["9C"]}]}
TALLY = {"name": "B", "tally": {"clean_books": 1, "table_points": 200}}


def found(problems: list[Any]) -> list[tuple[tuple[str | int, ...], str]]:
    return [(p.path, p.code) for p in problems]


def test_a_sound_body_has_no_problem() -> None:
    assert score_body_problems({"preset": "pagat", "round": 2, "rules": {}, "teams": [SIDE, TALLY]}) == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ([1, 2], [((), "invalid_type")]),
        ({}, [(("preset",), "required"), (("teams",), "required")]),
        ({"preset": "pagat", "teams": [SIDE], "admin": True}, [(("admin",), "unknown_field")]),
        ({"preset": "", "teams": [SIDE]}, [(("preset",), "invalid_value")]),
        ({"preset": "pagat", "teams": [SIDE], "round": True}, [(("round",), "invalid_type")]),
        ({"preset": "pagat", "teams": [SIDE], "round": 51}, [(("round",), "invalid_value")]),
        ({"preset": "pagat", "teams": [SIDE], "rules": []}, [(("rules",), "invalid_type")]),
        ({"preset": "pagat", "teams": None}, [(("teams",), "invalid_type")]),
        ({"preset": "pagat", "teams": []}, [(("teams",), "invalid_value")]),
    ],
)
def test_the_body_members(body: Any, expected: list[Any]) -> None:
    assert found(score_body_problems(body)) == expected


@pytest.mark.parametrize(
    ("side", "expected"),
    [
        ({**SIDE, "cheat": 1}, [((0, "cheat"), "unknown_field")]),
        ({"melds": []}, [((0, "name"), "required")]),
        ({**SIDE, "name": "x" * 101}, [((0, "name"), "invalid_value")]),
        ({**SIDE, "name": "Fri\x00day"}, [((0, "name"), "invalid_value")]),
        ({**SIDE, "name": " \u200b"}, [((0, "name"), "invalid_value")]),
        ({**SIDE, "went_out": "yes"}, [((0, "went_out"), "invalid_type")]),
        ({**SIDE, "melds": [["KS"], "QS"]}, [((0, "melds", 1), "invalid_type")]),
        ({**SIDE, "melds": [["KS"] * (MAX_CARDS_PER_LIST + 1)]}, [((0, "melds", 0), "invalid_value")]),
        ({**SIDE, "melds": [["KS"]] * (MAX_MELDS_PER_TEAM + 1)}, [((0, "melds"), "invalid_value")]),
        ({**SIDE, "burn": None}, [((0, "burn"), "invalid_type")]),
        ({**SIDE, "perfect_cuts": 21}, [((0, "perfect_cuts"), "invalid_value")]),
        ({**SIDE, "players": [{"name": f"p{i}"} for i in range(9)]}, [((0, "players"), "invalid_value")]),
        ({**TALLY, "tally": {"table_points": "465"}}, [((0, "tally", "table_points"), "invalid_type")]),
        ({**TALLY, "tally": {"bonus": 5}}, [((0, "tally", "bonus"), "unknown_field")]),
        (
            {**TALLY, "tally": {"rank_books": [{"clean_books": 1}]}},
            [((0, "tally", "rank_books", 0, "rank"), "required")],
        ),
        ({**TALLY, "melds": [["KS", "KH", "KD"]]}, [((0, "tally"), "invalid_value")]),
    ],
)
def test_a_side(side: dict[str, Any], expected: list[Any]) -> None:
    assert found(side_problems([side, TALLY])) == expected


def test_a_negative_count_is_left_to_the_rules() -> None:
    """negative_tally is the engine's rule (it names the field), not the shape's."""
    assert side_problems([{**TALLY, "tally": {"points_left": -5}}]) == []


def test_a_list_length_is_looked_at_once_its_items_are_sound() -> None:
    """As the schemas' Length: 900 bad sides are 900 problems, not one about the count."""
    problems = side_problems([{"name": 5}] * 900)
    assert len(problems) == 900 and {p.code for p in problems} == {"invalid_type"}
    assert found(side_problems([TALLY] * (MAX_TEAMS + 1))) == [((), "invalid_value")]


def test_players_alone() -> None:
    assert found(player_problems([{"name": "N", "played_from_foot": "no"}], ("players",))) == [
        (("players", 0, "played_from_foot"), "invalid_type")
    ]


def test_an_item_that_is_no_card_string_comes_before_unknown_cards() -> None:
    side = {**SIDE, "melds": [["KS", "KH", 7], ["QS", "QH", "1X"]], "red_threes": ["3DDDDDDDD"]}
    with pytest.raises(BodyError) as refused:
        round_from_mapping({"teams": [side, TALLY]})
    assert found(list(refused.value.problems)) == [
        (("teams", 0, "melds", 0, 2), "invalid_type"),
        (("teams", 0, "red_threes", 0), "invalid_value"),
    ]
    with pytest.raises(CardError) as unknown:
        round_from_mapping({"teams": [{**SIDE, "melds": [["QS", "QH", "1X"]]}, TALLY]})
    assert found(list(unknown.value.problems)) == [(("teams", 0, "melds", 0, 2), "unknown_card")]
