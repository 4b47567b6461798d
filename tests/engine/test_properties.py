"""Property tests (hypothesis) of the engine over random legal melds and rounds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from handfoot.engine import (
    PRESETS,
    Card,
    HandFootError,
    Rank,
    RuleSet,
    Suit,
    Tally,
    apply_overrides,
    breakdown,
    card_points,
    score_round_request,
    validate_meld,
)
from handfoot.engine.cards import NATURAL_RANKS
from tests.conftest import examples

SUITS = list(Suit)
WILD = st.sampled_from([Card(Rank.JOKER, None)] + [Card(Rank.TWO, s) for s in SUITS])
SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@st.composite
def melds(draw: st.DrawFn, rules: RuleSet, open_only: bool = False) -> list[Card]:
    """A meld that is valid under ``rules``."""
    rank = draw(st.sampled_from(NATURAL_RANKS))
    top = rules.book_size - 1 if open_only else (rules.book_max_size or rules.book_size + 3)
    size = draw(st.integers(rules.meld_min, top))
    wilds = draw(st.integers(0, size - 1))
    cards = [Card(rank, draw(st.sampled_from(SUITS))) for _ in range(size - wilds)]
    cards += [draw(WILD) for _ in range(wilds)]
    cards = draw(st.permutations(cards))
    assume(validate_meld(cards, rules).valid)
    return list(cards)


def natural_cards(max_size: int = 8, min_size: int = 0) -> st.SearchStrategy[list[Card]]:
    cards = st.builds(Card, st.sampled_from((*NATURAL_RANKS, Rank.TWO)), st.sampled_from(SUITS))
    return st.lists(cards, min_size=min_size, max_size=max_size)


def player_not_out(draw: st.DrawFn, rules: Any, name: str) -> dict[str, Any]:
    """A legal end state of a player of a side that did not go out: a hand (never empty where only
    going out empties a player: ``last_card_needs_contract``) and a foot never picked up (``foot_size``
    cards) or none (picked up)."""
    hand = draw(natural_cards(min_size=1 if rules.last_card_needs_contract else 0))
    foot = draw(st.one_of(st.none(), natural_cards(rules.foot_size, rules.foot_size)))
    return {"name": name, "hand": [c.code for c in hand]} | ({} if foot is None else {"foot": [c.code for c in foot]})


PRESET_IDS = sorted(PRESETS)


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A legal round under a random preset, in the cards form, nobody out."""
    preset = draw(st.sampled_from(PRESET_IDS))
    rules = PRESETS[preset].rules
    teams = []
    for t in range(max(2, rules.teams_min)):
        ranks_used: set[Rank] = set()
        team_melds = []
        for meld in draw(st.lists(melds(rules, open_only=True), max_size=4)):
            rank = next((c.rank for c in meld if not c.is_wild), None)
            if rank in ranks_used:
                continue
            ranks_used.add(rank)  # type: ignore[arg-type]
            team_melds.append([c.code for c in meld])
        players = [player_not_out(draw, rules, f"P{t}{i}") for i in range(rules.players_per_team_min)]
        teams.append({"name": f"T{t}", "went_out": False, "melds": team_melds, "players": players})
    return {"preset": preset, "round": draw(st.integers(1, 4)), "teams": teams}


@SETTINGS
@given(st.sampled_from(PRESET_IDS), st.lists(st.integers(0, 30), min_size=9, max_size=9), st.booleans())
def test_total_is_the_sum_of_lines(preset: str, counts: list[int], out: bool) -> None:
    rules = PRESETS[preset].rules
    tally = Tally(
        *counts[:5],
        table_points=counts[5] * 5,
        points_left=counts[6] * 5,
        burn_points=counts[7] * 5,
        perfect_cuts=counts[8],
    )
    b = breakdown("T", out, tally, replace(rules, perfect_cut_bonus=50), 1)
    assert b.total == sum(line.points for line in b.lines)


@SETTINGS
@given(rounds(), st.randoms(use_true_random=False))
def test_score_does_not_depend_on_order(body: dict[str, Any], rnd: Any) -> None:
    try:
        first = score_round_request(body)
    except HandFootError:
        assume(False)
        raise
    shuffled = {**body, "teams": []}
    for team in body["teams"]:
        melds_ = [rnd.sample(m, len(m)) for m in team["melds"]]
        rnd.shuffle(melds_)
        players = [dict(p, hand=rnd.sample(p["hand"], len(p["hand"]))) for p in team["players"]]
        rnd.shuffle(players)
        shuffled["teams"].append({**team, "melds": melds_, "players": players})
    again = score_round_request(shuffled)
    assert [(t.name, t.total, t.lines) for t in again.teams] == [(t.name, t.total, t.lines) for t in first.teams]


@SETTINGS
@given(rounds(), st.data())
def test_moving_a_card_from_an_open_meld_to_a_hand_costs_twice_its_value(body: dict[str, Any], data: Any) -> None:
    rules = PRESETS[body["preset"]].rules
    try:
        before = score_round_request(body)
    except HandFootError:
        assume(False)
        raise
    team_index = data.draw(st.integers(0, len(body["teams"]) - 1))
    team = body["teams"][team_index]
    assume(team["melds"])
    j = data.draw(st.integers(0, len(team["melds"]) - 1))
    meld = team["melds"][j]
    k = data.draw(st.integers(0, len(meld) - 1))
    rest = meld[:k] + meld[k + 1 :]
    from handfoot.engine import parse_cards

    assume(validate_meld(parse_cards(rest), rules).valid)
    moved = {
        **team,
        "melds": [*team["melds"][:j], rest, *team["melds"][j + 1 :]],
        "players": [dict(team["players"][0], hand=[*team["players"][0]["hand"], meld[k]]), *team["players"][1:]],
    }
    after = score_round_request(
        {**body, "teams": [*body["teams"][:team_index], moved, *body["teams"][team_index + 1 :]]}
    )
    value = card_points(parse_cards([meld[k]])[0], rules)
    assert before.teams[team_index].total - after.teams[team_index].total == 2 * value
    for i, t in enumerate(after.teams):
        if i != team_index:
            assert t == before.teams[i]


LOOSER = [
    {"wild_ratio": "more"},
    {"wild_ratio": "equal"},
    {"wild_ratio": "none"},
    {"book_max_size": None},
    {"min_naturals_with_wilds": 0, "min_naturals_dirty_book": 0},
    {"max_wilds_per_book": None},
]
ORDER = {"twice": 0, "more": 1, "equal": 2, "none": 3}


@SETTINGS
@given(st.sampled_from(PRESET_IDS), st.data())
def test_valid_meld_stays_valid_under_looser_limits(preset: str, data: Any) -> None:
    rules = PRESETS[preset].rules
    meld = data.draw(melds(rules))
    for change in LOOSER:
        if "wild_ratio" in change and ORDER[change["wild_ratio"]] < ORDER[rules.wild_ratio]:
            continue  # not looser than this preset
        try:
            looser = apply_overrides(rules, change)
        except HandFootError:
            continue  # e.g. a change this preset's other values make inconsistent
        assert validate_meld(meld, looser).valid, (preset, change, meld)


@SETTINGS
@given(st.sampled_from(PRESET_IDS), st.data())
def test_meld_validity_is_unchanged_by_permuting(preset: str, data: Any) -> None:
    rules = PRESETS[preset].rules
    cards = data.draw(
        st.lists(
            st.one_of(WILD, st.builds(Card, st.sampled_from(list(Rank)[:-1]), st.sampled_from(SUITS))),
            min_size=1,
            max_size=9,
        )
    )
    again = data.draw(st.permutations(cards))
    a, b = validate_meld(cards, rules), validate_meld(again, rules)
    assert (a.valid, a.kind, a.complete, a.points) == (b.valid, b.kind, b.complete, b.points)
