"""Checks under every preset: a take's one rule, openings under a black three, perfect cuts, frozen and burn
piles where the rules have none, having melded and played from the foot, the natural share, burned ranks,
and labels players read. Reason: issue 19 (the rules' second pass), each kind of gap it closed.

Sources (developers' labels): seed 000 (Pagat), seed 001 (the online 11/13 game), seed 002 (Hodges),
seed 003 (Wages), seed 004 (Board Game Arena); choices in docs/rules-decisions.md D15-D19.
"""

from __future__ import annotations

from typing import Any

import pytest

from handfoot.engine import PRESETS, HandFootError, score_round_request
from handfoot.engine.operations import check_discard_pile_request, check_going_out_request, check_opening_request
from tests.helpers.sides import per_side

PRESET_IDS = list(PRESETS)
#: The presets that take the discard pile (the Hodges family rules never do: tested on its own).
TAKER_IDS = [p for p in PRESET_IDS if PRESETS[p].rules.pile_take_allowed]


def _codes(call: Any, body: dict[str, Any]) -> list[str]:
    try:
        answer = call(body)
    except HandFootError as err:
        return [p.code for p in err.problems]
    return [p.code for p in getattr(answer, "problems", ())]


# -- item 3: one rule for a take -------------------------------------------------------------------


@pytest.mark.parametrize("preset", TAKER_IDS)
@pytest.mark.parametrize(
    ("hand", "needs_match"),
    [
        (["KS", "QH"], True),  # one natural from hand
        (["KS", "2C"], True),  # a natural and a wild: wilds do not count on a first take
        (["KS", "KH"], False),  # a natural pair
    ],
)
def test_opening_with_the_pile_asks_what_the_discard_pile_check_asks(
    preset: str, hand: list[str], needs_match: bool
) -> None:
    melds = [["KD", *[c for c in hand if c[0] in "K2"]], ["AS", "AH", "AD", "AC"]]
    if len(melds[0]) < 3:
        melds[0].append("KC")  # keep the meld legal; the K then comes from the pile too
        pile = ["KD", "KC"]
    else:
        pile = ["KD"]
    opening = _codes(check_opening_request, {"preset": preset, "round": 1, "melds": melds, "from_pile": pile})
    take = _codes(check_discard_pile_request, {"preset": preset, "hand": hand, "pile": ["KD"]})
    assert ("pile_needs_match" in opening) is needs_match, opening
    assert ("pile_needs_match" in take) is needs_match, take


@pytest.mark.parametrize("preset", TAKER_IDS)
def test_opening_under_a_black_three_is_blocked_like_the_pile(preset: str) -> None:
    body = {"preset": preset, "round": 1, "melds": [["AS", "AH", "AD"], ["KS", "KH", "KD"]], "from_pile": ["3S"]}
    assert "pile_card_not_in_melds" in _codes(check_opening_request, body)
    assert "pile_blocked" in _codes(check_discard_pile_request, {"preset": preset, "hand": [], "pile": ["3S"]})


# -- item 2: nothing dropped in silence -----------------------------------------------------------


def _round(preset: str, **team: Any) -> dict[str, Any]:
    rules = PRESETS[preset].rules
    teams = [
        {
            "name": f"T{i}",
            "melds": [["KS", "KH", "KD"]],
            "players": [{"name": f"T{i} P{p}", "hand": ["9S"]} for p in range(per_side(rules))],
        }
        for i in range(rules.teams_min)
    ]
    teams[0].update(team)
    return {"preset": preset, "round": 1, "teams": teams}


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_perfect_cuts_without_a_bonus_are_refused_not_ignored(preset: str) -> None:
    assert PRESETS[preset].rules.perfect_cut_bonus == 0
    assert _codes(score_round_request, _round(preset, perfect_cuts=1)) == ["not_in_rules"]
    tally = {"tally": {"table_points": 30, "perfect_cuts": 1}}
    assert _codes(score_round_request, _round(preset, **tally)) == ["not_in_rules"]
    scored = score_round_request({**_round(preset, perfect_cuts=2), "rules": {"perfect_cut_bonus": 100}})
    line = scored.teams[0].line("perfect_cut")
    assert line is not None and line.points == 200


@pytest.mark.parametrize("preset", TAKER_IDS)
def test_frozen_and_burn_where_the_rules_have_none_are_refused(preset: str) -> None:
    rules = PRESETS[preset].rules
    frozen = _codes(
        check_discard_pile_request, {"preset": preset, "hand": ["KS", "KH"], "pile": ["KD"], "frozen": True}
    )
    assert frozen == (["pile_frozen"] if rules.pile_freezes_on_wild else ["not_in_rules"])
    burn = _codes(check_discard_pile_request, {"preset": preset, "hand": ["KS", "KH"], "pile": ["KD"], "burn": ["KC"]})
    assert "not_in_rules" in burn if rules.after_book != "burn" else "pile_rank_closed" in burn


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_a_side_with_melds_has_melded(preset: str) -> None:
    body = _round(preset, tally={"table_points": 30, "has_melded": False})
    assert _codes(score_round_request, body) == ["invalid_tally"]
    assert _codes(score_round_request, _round(preset, tally={"table_points": 0, "has_melded": False})) == []


# -- item 4: seed rules that can now be expressed --------------------------------------------------

GOING_OUT = [["KS", "KH", "KD", "KC", "KS", "KH", "KD"]]


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_played_from_the_foot(preset: str) -> None:
    rules = {"contract": {"clean_books": 1}}
    body = {
        "preset": preset,
        "rules": rules,
        "melds": GOING_OUT,
        "players": [{"name": "N", "hand": []}, {"name": "S", "hand": ["4C"], "played_from_foot": False}],
    }
    codes = _codes(check_going_out_request, body)
    assert ("foot_not_played" in codes) is PRESETS[preset].rules.going_out_needs_foot_play
    body["players"][1]["played_from_foot"] = None  # not known: not refused (D17)
    assert "foot_not_played" not in _codes(check_going_out_request, body)
    body["players"][1]["played_from_foot"] = True
    assert "foot_not_played" not in _codes(check_going_out_request, body)


def test_pagat_needs_the_foot_played_and_the_others_do_not() -> None:
    assert PRESETS["pagat"].rules.going_out_needs_foot_play
    assert not PRESETS["bga"].rules.going_out_needs_foot_play
    assert not PRESETS["hodges"].rules.going_out_needs_foot_play


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_min_natural_share(preset: str) -> None:
    from handfoot.engine.operations import validate_meld_request

    body = {
        "preset": preset,
        "rules": {
            "wild_ratio": "none",
            "min_naturals_with_wilds": 0,
            "min_naturals_dirty_book": 0,
            "min_natural_share": 75,
        },
        "cards": ["KS", "KH", "2C"],
    }
    assert "too_many_wilds" in _codes(lambda b: validate_meld_request(b), body)
    body["cards"] = ["KS", "KH", "KD", "2C"]
    assert "too_many_wilds" not in _codes(lambda b: validate_meld_request(b), body)
    with pytest.raises(HandFootError) as err:
        validate_meld_request({**body, "rules": {"min_natural_share": 101}})
    assert err.value.problems[0].code == "invalid_rule_value"
    assert err.value.problems[0].path == ("rules", "min_natural_share")


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_burned_ranks_cannot_take_the_pile(preset: str) -> None:
    body = {
        "preset": preset,
        "rules": {"after_book": "burn", "pile_closed_rank_blocks": False, "pile_take_allowed": True},
        "hand": ["KS", "KH"],
        "pile": ["KD"],
        "burn": ["KC"],
    }
    assert _codes(check_discard_pile_request, body) == ["pile_rank_closed"]
    assert _codes(check_discard_pile_request, {**body, "burn": ["QC"]}) == []


# -- items 6 and 7 -------------------------------------------------------------------------------


def test_saskatchewan_goes_out_with_one_book_of_each_kind_as_reported() -> None:
    p = PRESETS["saskatchewan"]
    assert p.rules.contract.as_dict() == {"clean_books": 1, "dirty_books": 1, "wild_books": 1}
    assert p.provenance["contract"].kind == "reported"
    assert "secondary report" in p.provenance["contract"].source


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_no_seed_numbers_where_players_read(preset: str) -> None:
    p = PRESETS[preset]
    labels = [p.name, p.source, p.summary]
    labels += [text for prov in p.provenance.values() for text in (prov.source, prov.note)]
    assert not [text for text in labels if "seed" in text.lower()]


def test_get_pagat_shows_no_seed_in_any_label(tmp_path: Any) -> None:
    from handfoot.server import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"})
    body = app.test_client().get("/v1/presets/pagat").json
    assert body["source"] == "Pagat (partnership rules by Bill Whitnack)"
    labels = [body["name"], body["source"], body["summary"]]
    labels += [v for prov in body["provenance"].values() for k, v in prov.items() if k != "kind"]
    labels += [f["description"] for f in body["fields"]]
    assert labels and not [text for text in labels if "seed" in text.lower()]
