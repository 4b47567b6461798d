"""A tally no legal table can produce is refused, above as well as below: more books than the decks'
cards make, more card points than the decks hold, numbers past 64 bits (at the API)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from handfoot.engine import PRESETS, RoundError, score_round_request

ZERO = {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes_on_table": 0, "red_threes_caught": 0,
        "table_points": 0, "points_left": 0}


def body(**tally: int) -> dict[str, Any]:
    return {"preset": "pagat", "teams": [{"name": "A", "tally": {**ZERO, **tally}}, {"name": "B", "tally": ZERO}]}


# pagat, 2 sides of at most 3 players: at most 7 decks = 378 cards; one deck's cards (no red threes)
# are worth 4 x (20 ace + 6 x 10 K-8 + 4 x 5 7-4 + 20 two) + 2 x 5 black threes + 2 x 50 jokers = 590
DECKS = PRESETS["pagat"].rules.decks_for(2 * 3)
assert DECKS == 7


@pytest.mark.parametrize(("tally", "field"), [
    ({"clean_books": 1000, "table_points": 40000}, "clean_books"),
    ({"clean_books": 30, "dirty_books": 30, "table_points": 4200}, "clean_books"),
    ({"wild_books": 7, "table_points": 7 * 7 * 20}, "wild_books"),
    ({"table_points": DECKS * 590 + 5}, "table_points"),
    ({"points_left": DECKS * 590 + 5}, "points_left"),
])
def test_more_than_the_decks_hold_is_refused(tally: dict[str, int], field: str) -> None:
    with pytest.raises(RoundError) as info:
        score_round_request(body(**tally))
    assert ("invalid_tally", ("teams", 0, "tally", field)) in {(p.code, p.path) for p in info.value.problems}


@pytest.mark.parametrize("tally", [{"table_points": DECKS * 590}, {"points_left": DECKS * 590},
                                   {"clean_books": 6, "wild_books": 6, "table_points": 2000}])
def test_the_most_the_decks_hold_is_accepted(tally: dict[str, int]) -> None:
    score_round_request(body(**tally))


def test_numbers_past_64_bits_are_refused_by_the_schema(stateless_client: FlaskClient) -> None:
    response = stateless_client.post("/v1/rounds/score", json=body(table_points=18446744073709551615))
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/teams/0/tally/table_points"
