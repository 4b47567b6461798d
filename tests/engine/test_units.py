"""Cards, house rules, and the checks that the shared cases do not cover."""

from __future__ import annotations

import pytest

from handfoot.engine import (
    PRESETS,
    CardError,
    Contract,
    RulesError,
    apply_overrides,
    check_discard_pile,
    check_opening,
    parse_card,
    parse_cards,
    resolve_rules,
    rules_from_mapping,
    validate_meld,
)
from handfoot.engine.cards import DECK

PAGAT = PRESETS["pagat"].rules
WAGES = PRESETS["wages"].rules


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        (" qs ", "QS"),
        ("4♣", "4C"),
        ("A♥", "AH"),
        ("k♦", "KD"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("2♠", "2S"),
        ("3D", "3D"),
    ],
)
def test_card_aliases_parse_to_canonical(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["1X", "", "11H", "JKR", "10", "H10", "QX", "🂡"])
def test_unknown_cards(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert info.value.code == "unknown_card"


def test_parse_cards_reports_every_position() -> None:
    with pytest.raises(CardError) as info:
        parse_cards(["KS", "1X", "QH", 7], ("melds", 2))
    assert [p.path for p in info.value.problems] == [("melds", 2, 1), ("melds", 2, 3)]


def test_deck_has_54_cards() -> None:
    assert len(DECK) == 54 and sum(1 for c in DECK if c.is_wild) == 6


def test_overrides_report_every_bad_key() -> None:
    with pytest.raises(RulesError) as info:
        apply_overrides(PAGAT, {"nope": 1, "hand_size": -3, "wild_ratio": "half", "contract": {"gold": 1}})
    got = {(p.code, p.path) for p in info.value.problems}
    assert got == {
        ("unknown_rule", ("rules", "nope")),
        ("invalid_rule_value", ("rules", "hand_size")),
        ("invalid_rule_value", ("rules", "wild_ratio")),
        ("unknown_rule", ("rules", "contract", "gold")),
    }


def test_resolved_rules_say_what_differs() -> None:
    resolved = resolve_rules("bga", {"max_wilds_per_book": 3, "going_out_bonus": 100})
    assert resolved.overridden == ("max_wilds_per_book",)
    assert resolved.rules.max_wilds_per_book == 3


_TWO_SIDES = [
    {"name": "A", "players": [{"hand": ["4S"]}, {"hand": ["7S"]}]},
    {"name": "B", "players": [{"hand": ["5S"]}, {"hand": ["6S"]}]},
]
#: Every engine operation on a request body that takes house ``rules``, with a body it accepts.
_REQUESTS = {
    "score_round_request": {"preset": "pagat", "teams": _TWO_SIDES},
    "compare_round_request": {"presets": ["pagat", "bga"], "teams": _TWO_SIDES},
    "validate_meld_request": {"preset": "pagat", "cards": ["9D", "9S", "9C"]},
    "check_opening_request": {"preset": "pagat", "round": 1, "melds": [["KS", "KH", "KD"]]},
    "check_going_out_request": {"preset": "pagat", "round": 1, "melds": [], "hand": [], "foot_picked_up": True},
    "check_discard_pile_request": {"preset": "pagat", "top": "KS", "hand": ["KH", "KD"]},
}


@pytest.mark.parametrize("operation", sorted(_REQUESTS))
@pytest.mark.parametrize("rules", ["x", "", [1], [], 5, 0, True, False, ("a", 1)])
def test_house_rules_that_are_not_an_object_are_a_rules_error(operation: str, rules: object) -> None:
    """``rules`` is an object of house rules or null (none): anything else is a RulesError at
    ``("rules",)``, never an AttributeError, and never read as "no house rules"."""
    from handfoot import engine

    call = getattr(engine, operation)
    call(_REQUESTS[operation])  # the body itself is accepted
    call({**_REQUESTS[operation], "rules": None})
    call({**_REQUESTS[operation], "rules": {}})
    with pytest.raises(RulesError) as caught:
        call({**_REQUESTS[operation], "rules": rules})
    assert [(p.code, p.path) for p in caught.value.problems] == [("invalid_input", ("rules",))]


def test_snapshot_round_trip() -> None:
    for preset in PRESETS.values():
        assert rules_from_mapping(preset.rules.to_mapping()) == preset.rules


def test_per_round_lists_and_values_past_them() -> None:
    rules = apply_overrides(
        PAGAT,
        {
            "contract_by_round": [{"clean_books": 1}, {"clean_books": 1, "dirty_books": 1}],
            "going_out_bonus_by_round": [50, 75],
        },
    )
    assert rules.contract_for(1) == Contract(1, 0, 0) and rules.contract_for(2) == Contract(1, 1, 0)
    assert rules.contract_for(3) == Contract(2, 2, 1)
    assert [rules.going_out_bonus_for(n) for n in (1, 2, 3)] == [50, 75, 100]
    assert [PAGAT.opening_minimum_for(n) for n in (1, 2, 3, 4, 5, 9)] == [50, 90, 120, 150, 150, 150]


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
