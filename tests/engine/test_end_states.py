"""Tallies and end states no table could have played are refused, under every preset.

Issue 19 item 1: end states no table could have played are refused, under every preset.

Sources (developers' labels): seed 004 (Board Game Arena: the foot may not reach 0 cards without the
going-out conditions), seed 000 (Pagat: going out needs the contract; "Cards in a foot you never picked
up all count against you"), seed 002 (Hodges: "play continues as normal as if the team had not gone
out"). Choices in docs/rules-decisions.md D20-D23.

A tally no legal table can produce is refused, above as well as below: more books than the decks'
cards make, more card points than the decks hold (numbers past 64 bits: tests/api/rounds/test_scoring.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from handfoot.engine import PRESETS, HandFootError, RoundError, score_round_request
from handfoot.engine.operations import check_going_out_request
from tests.helpers.sides import per_side

PRESET_IDS = list(PRESETS)
#: Where a player may run out of cards and play goes on (seed 002).
PLAY_GOES_ON = {"hodges"}


def _problems(call: Any, body: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
    try:
        answer = call(body)
    except HandFootError as err:
        return [(p.code, p.path) for p in err.problems]
    return [(p.code, p.path) for p in getattr(answer, "problems", ())]


def _foot(size: int) -> list[str]:
    """``size`` cards, no two alike (any preset's decks hold them)."""
    cards = [r + s for s in "CDHS" for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    return cards[:size]


def _round(
    preset: str,
    *,
    player: dict[str, Any] | None = None,
    tally: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A round nobody went out of: every player holds a card, but side 1's first player is ``player``
    (or side 1 is the ``tally``)."""
    r = PRESETS[preset].rules
    teams: list[dict[str, Any]] = [
        {
            "name": f"T{i}",
            "melds": [["KS", "KH", "KD"]],
            "players": [{"name": f"T{i} P{p}", "hand": ["9S"]} for p in range(per_side(r))],
        }
        for i in range(max(2, r.teams_min))
    ]
    if player is not None:
        teams[1]["players"][0] = {"name": "T1 P0", **player}
    if tally is not None:
        teams[1] = {"name": "T1", "tally": tally}
    return {"preset": preset, "rules": rules or {}, "round": 1, "teams": teams}


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_every_preset_says_whether_only_going_out_empties_a_player(preset: str) -> None:
    p = PRESETS[preset]
    assert p.rules.last_card_needs_contract is (preset not in PLAY_GOES_ON)
    prov = p.provenance["last_card_needs_contract"]
    assert prov.kind in ("stated", "decision", "filled"), prov
    if preset in ("pagat", "bga", "hodges"):  # the three sources that say it
        assert prov.kind == "stated" and prov.source == p.source, prov


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_a_player_with_no_cards_on_a_side_not_out(preset: str) -> None:
    """Refused (naming the player and the rule) where only going out empties a player; legal where
    play goes on."""
    body = _round(preset, player={"hand": []})
    got = _problems(score_round_request, body)
    if preset in PLAY_GOES_ON:
        assert got == []
    else:
        assert got == [("out_of_cards_not_out", ("teams", 1, "players", 0, "hand"))]
    # a house rule turns it either way
    flipped = {"last_card_needs_contract": preset in PLAY_GOES_ON}
    assert bool(_problems(score_round_request, {**body, "rules": flipped})) is (preset in PLAY_GOES_ON)


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_an_empty_hand_with_the_foot_still_down_is_legal(preset: str) -> None:
    """A player who discarded the last card of the hand holds the foot, not nothing (seed 000)."""
    foot = _foot(PRESETS[preset].rules.foot_size)
    assert _problems(score_round_request, _round(preset, player={"hand": [], "foot": foot})) == []


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_the_side_that_went_out_may_hold_no_cards(preset: str) -> None:
    body = _round(preset, player={"hand": []})
    body["teams"][1]["went_out"] = True
    codes = [code for code, _ in _problems(score_round_request, body)]
    assert "out_of_cards_not_out" not in codes
    assert "contract_not_met" in codes  # one meld is no contract: the going-out rule still speaks


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_a_tally_names_no_players_so_it_is_not_refused(preset: str) -> None:
    """A tally of a side not out with 0 points left scores, as the same round in cards with a player
    holding no card does not (D21): the tally cannot say which player, and 0 is a blank count too."""
    tally = {"table_points": 30, "points_left": 0}
    assert _problems(score_round_request, _round(preset, tally=tally)) == []
    cards = [code for code, _ in _problems(score_round_request, _round(preset, player={"hand": []}))]
    assert cards == ([] if preset in PLAY_GOES_ON else ["out_of_cards_not_out"])


@pytest.mark.parametrize("preset", PRESET_IDS)
@pytest.mark.parametrize("delta", [-1, 1, None])
def test_a_foot_never_picked_up_holds_the_cards_dealt(preset: str, delta: int | None) -> None:
    """Scoring and the going-out check alike: another count is ``foot_count`` naming that foot."""
    size = PRESETS[preset].rules.foot_size
    foot = [] if delta is None else _foot(size + delta)
    want = [("foot_count", ("teams", 1, "players", 0, "foot"))]
    assert _problems(score_round_request, _round(preset, player={"hand": ["9S"], "foot": foot})) == want
    check = {"preset": preset, "round": 1, "melds": [], "players": [{"name": "N", "hand": ["9S"], "foot": foot}]}
    assert ("foot_count", ("players", 0, "foot")) in _problems(check_going_out_request, check)
    assert _problems(score_round_request, _round(preset, player={"hand": ["9S"], "foot": _foot(size)})) == []


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_a_foot_never_picked_up_holds_the_rounds_foot_size(preset: str) -> None:
    """Under ``foot_size_by_round`` (D25) the foot dealt is the round's: round 2 of [11, 13] deals 13."""
    body = _round(preset, player={"hand": ["9S"], "foot": _foot(13)}, rules={"foot_size_by_round": [11, 13]})
    body["round"] = 2
    assert _problems(score_round_request, body) == []
    body["teams"][1]["players"][0]["foot"] = _foot(11)
    assert _problems(score_round_request, body) == [("foot_count", ("teams", 1, "players", 0, "foot"))]
    body["round"] = 1
    assert _problems(score_round_request, body) == []


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_played_from_foot_false_with_no_cards_left(preset: str) -> None:
    """A player who picked up the foot and holds no cards has played from it (D23)."""
    body = _round(preset, player={"hand": [], "played_from_foot": False})
    body["teams"][1]["went_out"] = True  # so only the played_from_foot input is in question
    assert ("invalid_input", ("teams", 1, "players", 0, "played_from_foot")) in _problems(score_round_request, body)
    body = _round(preset, player={"hand": ["9S"], "played_from_foot": False})
    assert _problems(score_round_request, body) == []


def test_the_rule_is_a_validated_house_rule() -> None:
    codes = _problems(score_round_request, _round("pagat", rules={"last_card_needs_contract": 1}))
    assert codes == [("invalid_rule_value", ("rules", "last_card_needs_contract"))]


ZERO = {
    "clean_books": 0,
    "dirty_books": 0,
    "wild_books": 0,
    "red_threes_on_table": 0,
    "red_threes_caught": 0,
    "table_points": 0,
    "points_left": 0,
}


def body(**tally: int) -> dict[str, Any]:
    return {"preset": "pagat", "teams": [{"name": "A", "tally": {**ZERO, **tally}}, {"name": "B", "tally": ZERO}]}


# pagat, 2 sides of at most 3 players: at most 7 decks = 378 cards; one deck's cards (no red threes)
# are worth 4 x (20 ace + 6 x 10 K-8 + 4 x 5 7-4 + 20 two) + 2 x 5 black threes + 2 x 50 jokers = 590
DECKS = PRESETS["pagat"].rules.decks_for(2 * 3)
assert DECKS == 7


@pytest.mark.parametrize(
    ("tally", "field"),
    [
        ({"clean_books": 1000, "table_points": 40000}, "clean_books"),
        ({"clean_books": 30, "dirty_books": 30, "table_points": 4200}, "clean_books"),
        ({"wild_books": 7, "table_points": 7 * 7 * 20}, "wild_books"),
        ({"table_points": DECKS * 590 + 5}, "table_points"),
        ({"points_left": DECKS * 590 + 5}, "points_left"),
    ],
)
def test_more_than_the_decks_hold_is_refused(tally: dict[str, int], field: str) -> None:
    with pytest.raises(RoundError) as info:
        score_round_request(body(**tally))
    assert ("invalid_tally", ("teams", 0, "tally", field)) in {(p.code, p.path) for p in info.value.problems}


@pytest.mark.parametrize(
    "tally",
    [
        {"table_points": DECKS * 590},
        {"points_left": DECKS * 590},
        {"clean_books": 6, "wild_books": 6, "table_points": 2000},
    ],
)
def test_the_most_the_decks_hold_is_accepted(tally: dict[str, int]) -> None:
    """The ceilings are the decks' own, not lower: at the most the decks hold the round scores each count."""
    score = score_round_request(body(**tally))
    lines = {line.code: line for line in score.teams[0].lines}
    for field, value in tally.items():
        line = lines[field]
        assert (abs(line.points) if line.count is None else line.count) == value
    assert score.teams[0].warnings == ()
