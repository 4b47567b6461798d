"""The SDK's side of issue 19 item 5: a breakdown's ``warnings`` (what's layed is played) and the new
tally inputs, offline through the engine (the served path is tests/api/test_house_rules_api.py)."""

from __future__ import annotations

from handfoot.client.offline import score_round_offline
from handfoot.client.params import side, tally
from handfoot.client.types import ProblemItem

ILLEGAL = ["KS", "KH", "KD", "2C", "2D", "2H", "JK"]


def _player(name: str) -> list[dict[str, object]]:
    return [{"name": name, "hand": ["4H"]}]


def test_warnings_load_as_problem_items_and_print() -> None:
    score = score_round_offline({"preset": "hodges", "teams": [
        {"name": "A", "players": _player("a"), "melds": [ILLEGAL]},
        {"name": "B", "players": _player("b"), "melds": [["9S", "9H", "9D"]]}]})
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
    rules = {"perfect_cut_within_1_bonus": 50, "perfect_cut_within_3_bonus": 20,
             "rank_book_bonuses": [{"rank": "7", "bonus": 1500}]}
    score = score_round_offline({"preset": "pagat", "rules": rules,
                                 "teams": [side("A", counted), side("B", tally())]})
    a = score.teams[0]
    assert (a.points("cut_within_1"), a.points("cut_within_3"), a.points("books_of_7")) == (50, 40, 1500)
    assert a.points("clean_books") == 500
