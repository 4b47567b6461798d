"""engine/history.py: what a stored Breakdown says about a side, and who is who across games."""

from __future__ import annotations

import json
from typing import Any

from handfoot.engine import score_round_request
from handfoot.engine.history import BOOK_KINDS, player_key, side_key, side_round_facts


def stored(breakdown: Any) -> dict[str, Any]:
    """A Breakdown as the API stores it: plain JSON data."""
    data: dict[str, Any] = json.loads(
        json.dumps(
            {"name": breakdown.name, "total": breakdown.total, "lines": [line._asdict() for line in breakdown.lines]}
        )
    )
    return data


def test_facts_of_a_scored_round() -> None:
    score = score_round_request(
        {
            "preset": "pagat",
            "teams": [
                {
                    "name": "Us",
                    "went_out": True,
                    "tally": {
                        "clean_books": 2,
                        "dirty_books": 2,
                        "wild_books": 1,
                        "red_threes_on_table": 1,
                        "red_threes_caught": 0,
                        "table_points": 465,
                        "points_left": 25,
                    },
                },
                {
                    "name": "Them",
                    "went_out": False,
                    "tally": {
                        "clean_books": 1,
                        "dirty_books": 2,
                        "wild_books": 0,
                        "red_threes_on_table": 0,
                        "red_threes_caught": 1,
                        "table_points": 260,
                        "points_left": 185,
                    },
                },
            ],
        }
    )
    us, them = (side_round_facts(stored(b)) for b in score.teams)
    assert (us.score, us.went_out, dict(us.books)) == (3740, True, {"clean": 2, "dirty": 2, "wild": 1})
    assert (them.score, them.went_out, dict(them.books)) == (1075, False, {"clean": 1, "dirty": 2, "wild": 0})


def test_a_book_kind_the_breakdown_adds_is_counted_under_its_name() -> None:
    facts = side_round_facts(
        {
            "name": "Us",
            "total": 300,
            "lines": [
                {"code": "clean_books", "count": 0, "points": 0},
                {"code": "black_three_books", "count": 1, "points": 300},
                {"code": "going_out", "count": 0, "points": 0},
                {"code": "table_points", "count": None, "points": 0},
            ],
        }
    )
    assert set(BOOK_KINDS) <= set(facts.books)
    assert facts.books["black_three"] == 1 and not facts.went_out


def test_players_and_sides_across_games() -> None:
    assert player_key("ANN") == player_key("ann") == player_key("Ann")
    assert player_key("Zoe\u0308") == player_key("ZOË")
    assert side_key(["Bob", "ann"]) == side_key(["Ann", "BOB"])
    assert side_key(["Ann", "Bob"]) != side_key(["Ann", "Cy"])


def test_every_preset_books_by_the_kinds_a_history_stores() -> None:
    """The breakdown's book lines under every preset are the kinds of :data:`BOOK_KINDS`, the columns
    a stored round's facts have (``round_sides``): a new kind needs its column before a preset uses it."""
    from handfoot.engine import breakdown, rules_of
    from handfoot.engine.presets import PRESETS
    from handfoot.engine.tallies import Tally

    tally = Tally(1, 1, 1, 0, 0, 0, 0)
    for preset in PRESETS:
        rules = rules_of({"preset": preset}).rules
        lines = breakdown("Us", False, tally, rules, 1).lines
        kinds = [line.code.removesuffix("_books") for line in lines if line.code.endswith("_books")]
        assert kinds == list(BOOK_KINDS), preset
