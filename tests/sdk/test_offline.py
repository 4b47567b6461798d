"""The client offline: handfoot.client.offline and the tally builders give the engine's answers as the
client's results, warnings and the house rules' tally inputs included.

``handfoot.client.offline`` and the tally builders: the engine's answers as the client's results.

The SDK's side of issue 19 item 5: a breakdown's ``warnings`` (what's layed is played) and the new
tally inputs, offline through the engine (the served path is tests/api/presets/test_presets.py).
"""

from __future__ import annotations

import json

import pytest

from handfoot.client import RoundScore
from handfoot.client.display import score_plain
from handfoot.client.offline import OfflineProblemError, score_round_offline
from handfoot.client.params import side, tally
from handfoot.client.types import ProblemItem
from tests.conftest import WORKED_CASES

CASE = json.loads((WORKED_CASES / "s0-worked-round-tally.json").read_text(encoding="utf-8"))


def test_offline_score_is_a_client_result_with_its_renderings() -> None:
    score = score_round_offline(CASE["request"])
    assert isinstance(score, RoundScore)
    assert score.totals == {"Team 1": 3740, "Team 2": 1075}
    assert score.to_dict()["teams"][0]["lines"][0] == {
        "code": "clean_books",
        "label": "Clean books",
        "count": 2,
        "points_each": 500,
        "points": 1000,
    }
    assert "Total                                          3,740" in str(score)
    assert "<table" in score._repr_html_()
    assert score_plain(score).rstrip().endswith("Team 1: 3740\nTeam 2: 1075")


def test_offline_house_rules_are_listed_as_overridden() -> None:
    score = score_round_offline({**CASE["request"], "rules": {"clean_book_bonus": 400}})
    assert score.rules_overridden == ("clean_book_bonus",)
    assert score.teams[0].points("clean_books") == 800


def test_offline_problem_is_the_servers_document() -> None:
    with pytest.raises(OfflineProblemError) as caught:
        score_round_offline({"preset": "nope", "teams": []})
    problem = caught.value.problem
    assert (problem.status, problem.type) == (422, "https://handfoot.dev/problems/unknown-preset")
    assert problem.errors and problem.errors[0].pointer == "/preset"


def test_tally_builder_fills_zeros_and_sends_extras_only_when_given() -> None:
    assert tally(clean_books=2, table_points=465) == {
        "clean_books": 2,
        "dirty_books": 0,
        "wild_books": 0,
        "red_threes_on_table": 0,
        "red_threes_caught": 0,
        "table_points": 465,
        "points_left": 0,
    }
    assert tally(burn_points=10)["burn_points"] == 10 and "burn_points" not in tally()
    assert side("Us", tally(clean_books=1), went_out=True) == {
        "name": "Us",
        "went_out": True,
        "tally": tally(clean_books=1),
    }


def test_built_sides_score_as_the_worked_round() -> None:
    teams = [
        side(
            "Team 1",
            tally(clean_books=2, dirty_books=2, wild_books=1, red_threes_on_table=1, table_points=465, points_left=25),
            went_out=True,
        ),
        side("Team 2", tally(clean_books=1, dirty_books=2, red_threes_caught=1, table_points=260, points_left=185)),
    ]
    assert score_round_offline({"preset": "pagat", "round": 1, "teams": teams}).totals == {
        "Team 1": 3740,
        "Team 2": 1075,
    }


ILLEGAL = ["KS", "KH", "KD", "2C", "2D", "2H", "JK"]


def _player(name: str) -> list[dict[str, object]]:
    return [{"name": name, "hand": ["4H"]}]


def test_warnings_load_as_problem_items_and_print() -> None:
    score = score_round_offline(
        {
            "preset": "hodges",
            "teams": [
                {"name": "A", "players": _player("a"), "melds": [ILLEGAL]},
                {"name": "B", "players": _player("b"), "melds": [["AS", "AH", "AD", "AC", "AS"]]},  # 100: opened
            ],
        }
    )
    first, second = score.teams
    assert first.warnings and all(isinstance(w, ProblemItem) for w in first.warnings)
    assert {w.pointer for w in first.warnings} == {"/teams/0/melds/0"}
    assert "Warnings" in str(first) and "too_many_wilds" in str(first)
    assert second.warnings == () and "Warnings" not in str(second)
    assert first.to_dict()["warnings"][0]["code"] == first.warnings[0].code


def test_tally_builder_sends_the_graded_cuts_and_rank_books() -> None:
    counted = tally(clean_books=2, table_points=400, cuts_within_1=1, cuts_within_3=2)
    assert counted["cuts_within_1"] == 1 and counted["cuts_within_3"] == 2
    counted["rank_books"] = [{"rank": "7", "clean_books": 1}]
    rules = {
        "perfect_cut_within_1_bonus": 50,
        "perfect_cut_within_3_bonus": 20,
        "rank_book_bonuses": [{"rank": "7", "bonus": 1500}],
    }
    score = score_round_offline({"preset": "pagat", "rules": rules, "teams": [side("A", counted), side("B", tally())]})
    a = score.teams[0]
    assert (a.points("cut_within_1"), a.points("cut_within_3"), a.points("books_of_7")) == (50, 40, 1500)
    assert a.points("clean_books") == 500
