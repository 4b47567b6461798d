"""Checks the shared cases do not cover: opening minimums, books past seven and wild caps, black-three
books, the Wages and online pile rules, and meld problems' paths into the request."""

from __future__ import annotations

from handfoot.engine import (
    PRESETS,
    apply_overrides,
    check_discard_pile,
    check_opening,
    parse_cards,
    validate_meld,
)

PAGAT = PRESETS["pagat"].rules
WAGES = PRESETS["wages"].rules


def test_opening_minimum_by_cumulative_score() -> None:
    rules = apply_overrides(
        PAGAT,
        {
            "opening_thresholds": [
                {"score": -100000, "minimum": 50},
                {"score": 1500, "minimum": 90},
                {"score": 3000, "minimum": 120},
            ]
        },
    )
    melds = [parse_cards(["AS", "AH", "AD", "2C"])]  # 80 points
    assert check_opening(melds, rules, 1, score=0).met
    assert not check_opening(melds, rules, 1, score=1500).met
    assert check_opening(melds, rules, 1, score=3200).minimum == 120
    assert {p.code for p in check_opening(melds, rules, 1).problems} == {"missing_score"}


def test_books_past_seven_and_wild_caps() -> None:
    eight = parse_cards(["9S"] * 6 + ["2C", "JK"])
    assert {p.code for p in validate_meld(eight, PAGAT).problems} == {"meld_too_large"}
    long_books = apply_overrides(PAGAT, {"book_max_size": None})
    assert validate_meld(eight, long_books).valid and validate_meld(eight, long_books).complete
    capped = apply_overrides(PRESETS["bga"].rules, {"max_wilds_per_book": 2})
    assert {p.code for p in validate_meld(parse_cards(["8S"] * 4 + ["2C", "2D", "JK"]), capped).problems} == {
        "wild_limit_in_book"
    }
    closed = validate_meld(parse_cards(["9S"]), PAGAT, onto=parse_cards(["9H"] * 7))
    assert {p.code for p in closed.problems} == {"book_closed"}


def test_black_three_books() -> None:
    threes = parse_cards(["3S", "3C", "3S"])
    assert not validate_meld(threes, PAGAT).valid
    rules = apply_overrides(PAGAT, {"black_three_books": True})
    assert validate_meld(threes, rules).valid
    assert not validate_meld(parse_cards(["3S", "3C", "3S", "2H"]), rules).valid
    assert not validate_meld(parse_cards(["3H", "3D", "3H"]), rules).valid  # red threes never


def test_wages_discard_pile() -> None:
    hand = parse_cards(["9S", "2C", "KD"])
    # first take needs a natural pair
    first = check_discard_pile(hand, parse_cards(["9D", "4S"]), WAGES)
    assert not first.allowed and first.problems[0].code == "pile_needs_match"
    # once taken, a natural and a wild will do
    assert check_discard_pile(hand, parse_cards(["9D", "4S"]), WAGES, taken_before=True).allowed
    # any three blocks; a wild on top blocks; a frozen pile blocks; a closed rank blocks
    assert check_discard_pile(hand, parse_cards(["3H"]), WAGES).problems[0].code == "pile_blocked"
    assert check_discard_pile(parse_cards(["2S", "2H"]), parse_cards(["2D"]), WAGES).problems[0].code == "pile_blocked"
    frozen = check_discard_pile(parse_cards(["9S", "9H"]), parse_cards(["9D"]), WAGES, frozen=True)
    assert [p.code for p in frozen.problems] == ["pile_frozen"]
    closed = check_discard_pile(parse_cards(["9S", "9H"]), parse_cards(["9D"]), WAGES, melds=[parse_cards(["9C"] * 7)])
    assert [p.code for p in closed.problems] == ["pile_rank_closed"]


def test_online_wild_pair_takes_a_wild() -> None:
    online = PRESETS["online-11-13"].rules
    assert check_discard_pile(parse_cards(["2S", "2H"]), parse_cards(["2D"]), online).allowed
    assert not check_discard_pile(parse_cards(["2S", "JK"]), parse_cards(["2D"]), online).allowed
    assert check_discard_pile(parse_cards(["JK", "JK"]), parse_cards(["JK"] * 9), online).cards == 7


def test_meld_problems_have_paths_into_the_request() -> None:
    check = validate_meld(parse_cards(["9S", "3H"]), PAGAT, onto=parse_cards(["9H", "3C"]))
    assert {(p.code, p.path) for p in check.problems} >= {
        ("rank_not_meldable", ("cards", 1)),
        ("rank_not_meldable", ("onto", 1)),
    }


def test_a_meld_with_threes_is_kept_by_its_cards() -> None:
    """A check of threes is made once per rule set and cards, and never answers for other cards of
    the same composition: a red three's place and an ``onto``'s colours are part of the answer."""
    rules = apply_overrides(PAGAT, {"black_three_books": True})
    red_first, red_last = parse_cards(["3H", "3S", "3C"]), parse_cards(["3S", "3C", "3H"])
    assert validate_meld(red_first, rules) is validate_meld(parse_cards(["3H", "3S", "3C"]), rules)
    paths = {p.path for p in validate_meld(red_first, rules).problems}
    assert ("cards", 0) in paths and ("cards", 2) not in paths
    assert ("cards", 2) in {p.path for p in validate_meld(red_last, rules).problems}
    black = parse_cards(["3S", "3C"])
    assert validate_meld(black, rules, onto=parse_cards(["3S", "3C", "3S"])).valid
    assert not validate_meld(black, rules, onto=parse_cards(["3S", "3D", "3S"])).valid
