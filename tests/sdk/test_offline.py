"""``handfoot.client.offline`` and the tally builders: the engine's answers as the client's results."""

from __future__ import annotations

import json

import pytest

from handfoot.client import RoundScore
from handfoot.client.display import score_plain
from handfoot.client.offline import OfflineProblemError, score_round_offline
from handfoot.client.params import side, tally
from tests.conftest import WORKED_CASES

CASE = json.loads((WORKED_CASES / "s0-worked-round-tally.json").read_text(encoding="utf-8"))


def test_offline_score_is_a_client_result_with_its_renderings() -> None:
    score = score_round_offline(CASE["request"])
    assert isinstance(score, RoundScore)
    assert score.totals == {"Team 1": 3740, "Team 2": 1075}
    assert score.to_dict()["teams"][0]["lines"][0] == {
        "code": "clean_books", "label": "Clean books", "count": 2, "points_each": 500, "points": 1000,
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
        "clean_books": 2, "dirty_books": 0, "wild_books": 0, "red_threes_on_table": 0, "red_threes_caught": 0,
        "table_points": 465, "points_left": 0,
    }
    assert tally(burn_points=10)["burn_points"] == 10 and "burn_points" not in tally()
    assert side("Us", tally(clean_books=1), went_out=True) == {
        "name": "Us", "went_out": True, "tally": tally(clean_books=1),
    }


def test_built_sides_score_as_the_worked_round() -> None:
    teams = [
        side("Team 1", tally(clean_books=2, dirty_books=2, wild_books=1, red_threes_on_table=1, table_points=465,
                             points_left=25), went_out=True),
        side("Team 2", tally(clean_books=1, dirty_books=2, red_threes_caught=1, table_points=260, points_left=185)),
    ]
    assert score_round_offline({"preset": "pagat", "round": 1, "teams": teams}).totals == {
        "Team 1": 3740, "Team 2": 1075,
    }
