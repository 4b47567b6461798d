"""The deal under every preset: sizes, red threes laid out and replaced, the first discard, the stock."""

from __future__ import annotations

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.errors import PlayError
from handfoot.engine.play import deal_problems, new_round, rounds_from, to_mapping
from handfoot.engine.presets import resolve_rules
from tests.engine.play.helpers import table_of


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_deal_sizes_threes_and_first_discard(preset: str, seed: int) -> None:
    rules = PRESETS[preset].rules
    state = new_round(preset, table_of(preset), seed)
    decks = rules.decks_for(len(state.seats))
    assert state.cards_in_play() == decks * 54
    assert len(state.pile) == 1
    top = state.pile[0]
    assert not top.is_wild  # a wild turned first is buried and another turned (seed 000, 001, 003)
    for seat in state.seats:
        assert len(seat.hand) == rules.hand_size  # red threes replaced one for one
        assert seat.foot is not None and len(seat.foot) == rules.foot_size
    laid = [c for side in state.sides for c in side.red_threes]
    held = [c for seat in state.seats for c in seat.hand if c.is_red_three]
    assert all(c.is_red_three for c in laid)
    if rules.red_threes_automatic and rules.red_threes_automatic_foot == "dealt":  # D76: the feet's too
        assert not any(c.is_red_three for seat in state.seats for c in seat.foot or ())
    if rules.red_threes_laid_out:
        assert not held and not top.is_red_three
    else:
        assert not laid
    dealt = len(state.seats) * (rules.hand_size + rules.foot_size) + 1 + len(laid)
    assert len(state.stock) == decks * 54 - dealt
    assert state.phase == "draw" and state.turn == 0 and state.step == 0


@pytest.mark.parametrize("jokers", [0, 4])
def test_the_deal_follows_the_rounds_sizes_and_the_jokers_per_deck(jokers: int) -> None:
    """House rules D25 and D28: round 2 of [11, 13] / [12, 14] deals 13 and 14; a deck holds its jokers."""
    overrides = {"hand_size_by_round": [11, 13], "foot_size_by_round": [12, 14], "jokers_per_deck": jokers}
    state = new_round("pagat", table_of("pagat"), 3, round_number=2, overrides=overrides)
    decks = state.rules.decks_for(len(state.seats))
    assert state.cards_in_play() == decks * (52 + jokers)
    for seat in state.seats:
        assert len(seat.hand) == 13 and seat.foot is not None and len(seat.foot) == 14
    jokers_seen = sum(
        c.rank.name == "JOKER"
        for c in [*state.stock, *state.pile, *(c for s in state.seats for c in (*s.hand, *(s.foot or ())))]
    )
    assert jokers_seen == decks * jokers


def test_the_seed_decides_the_deal() -> None:
    one, again, other = (new_round("pagat", table_of("pagat"), s) for s in (5, 5, 6))
    assert to_mapping(one) == to_mapping(again)
    assert to_mapping(one)["stock"] != to_mapping(other)["stock"]


def test_red_threes_in_a_hand_are_laid_out_where_the_rules_lay_them_out() -> None:
    # a seed whose deal gives some hand a red three: laid out (pagat) or held (wages)
    for seed in range(40):
        pagat = new_round("pagat", table_of("pagat"), seed)
        if any(side.red_threes for side in pagat.sides):
            break
    else:
        raise AssertionError("no red three dealt in 40 seeds")
    assert sum(len(s.red_threes) for s in pagat.sides) >= 1
    wages = new_round("wages", table_of("wages"), seed)
    assert not any(side.red_threes for side in wages.sides)


@pytest.mark.parametrize(("round_number", "first"), [(1, 0), (2, 1), (4, 3), (5, 0)])
def test_each_round_starts_with_the_next_seat(round_number: int, first: int) -> None:
    assert new_round("pagat", table_of("pagat"), 1, round_number).turn == first


def test_sides_the_rules_refuse_are_refused() -> None:
    with pytest.raises(PlayError) as err:
        new_round("online-11-13", [("A", ["a"]), ("B", ["b"])], 1)  # teams of two only
    assert err.value.code == "team_count"


def test_partners_sit_apart() -> None:
    state = new_round("pagat", table_of("pagat"), 1)
    assert [s.side for s in state.seats] == [0, 1, 0, 1]
    assert [s.name for s in state.seats] == ["North", "East", "South", "West"]


def test_deal_problems_is_the_deal_s_own_check_round_by_round() -> None:
    """Two decks for four players deal rounds of 11 + 11 but not round 3's 11 + 30: ``deal_problems``
    names that round, and ``new_round`` refuses exactly it, with the same problem."""
    house = {"decks_per_player": 0, "decks_extra": 2, "foot_size_by_round": [11, 11, 30, 11], "hand_size": 11}
    rules = resolve_rules("pagat", house).rules
    sides = [("NS", ["N", "S"]), ("EW", ["E", "W"])]
    found = {n: deal_problems(rules, 4, n) for n in rounds_from(rules, 1)}
    assert list(found) == [1, 2, 3, 4] and [n for n, p in found.items() if p] == [3]
    assert [(p.code, p.path) for p in found[3]] == [("inconsistent_rules", ("rules",))]
    assert "round 3 deals 165 cards" in found[3][0].detail and "hold 108" in found[3][0].detail
    for n in (1, 2, 4):
        new_round("pagat", sides, 1, n, house)
    with pytest.raises(PlayError) as refused:
        new_round("pagat", sides, 1, 3, house)
    assert list(refused.value.problems) == found[3]


def test_rounds_from_a_game_to_a_target_score_ends_past_the_sizes_by_round() -> None:
    rules = resolve_rules(
        "pagat",
        {"rounds": None, "target_score": 10000, "hand_size_by_round": [11, 12], "foot_size_by_round": [11, 12, 13]},
    ).rules
    assert list(rounds_from(rules, 1)) == [1, 2, 3, 4] and list(rounds_from(rules, 9)) == [9]


@pytest.mark.parametrize(("players", "decks"), [(3, 5), (4, 5), (5, 6), (6, 6)])
def test_a_wages_table_deals_its_decks_by_table_size(players: int, decks: int) -> None:
    """D75: "Need 5 decks (6 decks recommended for 5 & 6 players cut-throat)" (the Wages reunion rules)."""
    seats = [(f"Side {i}", [f"P{i}"]) for i in range(players)]
    state = new_round("wages", seats, 4)
    assert state.cards_in_play() == decks * 54


@pytest.mark.parametrize(
    ("by_players", "players", "decks"), [((), 4, 5), ((3, 4), 1, 3), ((3, 4), 2, 4), ((3, 4), 5, 4)]
)
def test_decks_by_players_steps_by_table_size_and_keeps_its_last_entry(
    by_players: tuple[int, ...], players: int, decks: int
) -> None:
    """A house rule's `decks_by_players` (one player first; a larger table plays its last entry), and
    the formula when it is empty (Pagat: players + 1)."""
    rules = resolve_rules("pagat", {"decks_by_players": list(by_players)}).rules
    assert rules.decks_for(players) == decks
