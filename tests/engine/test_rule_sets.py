"""Rule sets: house rules over a preset (every bad key reported, what differs said, rules that are not an
object refused), snapshots, and per-round lists with the values past their end."""

from __future__ import annotations

import pytest

from handfoot.engine import (
    PRESETS,
    Contract,
    RulesError,
    apply_overrides,
    resolve_rules,
    rules_from_mapping,
)

PAGAT = PRESETS["pagat"].rules


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
