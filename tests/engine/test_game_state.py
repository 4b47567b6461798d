"""handfoot.engine.games.game_state: running totals, leaders and the end of a game (docs/games-api.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handfoot.engine import Contract, find_preset, game_state

PAGAT = find_preset("pagat").rules
ONLINE = find_preset("online-11-13").rules
SIDES = ("Us", "Them")


def test_no_rounds_is_round_one_in_progress() -> None:
    state = game_state(PAGAT, SIDES, [])
    assert state.status == "in_progress"
    assert state.rounds_played == 0
    assert [(t.name, t.total) for t in state.totals] == [("Us", 0), ("Them", 0)]
    assert state.leaders == ()
    assert state.next_round == 1
    assert state.next_opening_minimum == 50
    assert state.next_contract == Contract(2, 2, 1)
    assert state.winner is None and not state.tie and state.end_reason is None


def test_running_totals_and_next_round() -> None:
    state = game_state(PAGAT, SIDES, [[3740, 1075], [-200, 2300]])
    assert state.running == ((3740, 1075), (3540, 3375))
    assert state.leaders == ("Us",)
    assert state.next_round == 3
    assert state.next_opening_minimum == 120


def test_pagat_ends_after_four_rounds_with_a_winner() -> None:
    state = game_state(PAGAT, SIDES, [[100, 0], [0, 50], [0, 0], [0, 0]])
    assert state.status == "finished"
    assert state.winner == "Us"
    assert state.next_round is None and state.next_contract is None and state.next_opening_minimum is None
    assert state.end_reason == "4 rounds played"


def test_pagat_tie_stands() -> None:
    state = game_state(PAGAT, SIDES, [[100, 0], [0, 100], [5, 5], [0, 0]])
    assert state.status == "finished"
    assert state.tie is True
    assert state.winner is None
    assert state.leaders == ("Us", "Them")
    assert state.end_reason == "4 rounds played; tie stands"


def test_online_tie_calls_for_tiebreakers_until_the_top_differs() -> None:
    rounds = [[100, 0], [0, 100], [5, 5], [0, 0]]
    state = game_state(ONLINE, SIDES, rounds)
    assert state.status == "tiebreaker"
    assert state.next_round == 5
    assert state.next_opening_minimum == 150
    assert state.leaders == ("Us", "Them")
    assert not state.tie and state.winner is None and state.end_reason is None

    state = game_state(ONLINE, SIDES, [*rounds, [50, 50]])  # still level: another tiebreaker
    assert state.status == "tiebreaker" and state.next_round == 6 and state.tiebreaker_rounds == 1

    state = game_state(ONLINE, SIDES, [*rounds, [50, 50], [0, 10]])
    assert state.status == "finished"
    assert state.winner == "Them"
    assert state.end_reason == "4 rounds played; Them won after 2 tiebreaker rounds"


def test_target_score_ends_at_the_round_a_side_reaches_it() -> None:
    rules = replace(PAGAT, rounds=None, target_score=5000)
    state = game_state(rules, SIDES, [[3000, 100], [2100, 200]])
    assert state.status == "finished"
    assert state.winner == "Us"
    assert state.end_reason == "Us reached 5000"
    state = game_state(rules, SIDES, [[3000, 100]] * 1)
    assert state.status == "in_progress" and state.next_round == 2


def test_target_score_or_rounds_whichever_first() -> None:
    rules = replace(PAGAT, rounds=4, target_score=5000)
    assert game_state(rules, SIDES, [[6000, 0]]).end_reason == "Us reached 5000"
    assert game_state(rules, SIDES, [[10, 0]] * 4).end_reason == "4 rounds played"


def test_two_sides_over_target_highest_wins() -> None:
    rules = replace(PAGAT, rounds=None, target_score=5000)
    state = game_state(rules, SIDES, [[5100, 5200]])
    assert state.winner == "Them"
    assert state.end_reason == "Us and Them reached 5000"


def test_rounds_past_the_end_count() -> None:
    # a correction made round 1 reach the target: round 2 still counts (D14)
    rules = replace(PAGAT, rounds=None, target_score=5000)
    state = game_state(rules, SIDES, [[6000, 0], [-2000, 0]])
    assert state.status == "finished"
    assert [t.total for t in state.totals] == [4000, 0]
    assert state.regular_end_round == 1


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        game_state(PAGAT, SIDES, [[1, 2, 3]])
    with pytest.raises(ValueError):
        game_state(PAGAT, (), [])
    with pytest.raises(ValueError):
        game_state(PAGAT, ("A", "A"), [])


scores = st.integers(min_value=-5000, max_value=10000)


@given(st.lists(st.tuples(scores, scores, scores), max_size=12), st.sampled_from(["stands", "tiebreaker_round"]))
def test_properties(rounds: list[tuple[int, int, int]], tie_rule: str) -> None:
    rules = replace(ONLINE, tie_rule=tie_rule, teams_max=3)  # type: ignore[arg-type]
    names = ("A", "B", "C")
    state = game_state(rules, names, rounds)
    assert state.rounds_played == len(rounds)
    for i, t in enumerate(state.totals):
        assert t.total == sum(r[i] for r in rounds)
    if rounds:
        top = max(t.total for t in state.totals)
        assert set(state.leaders) == {t.name for t in state.totals if t.total == top}
    if len(rounds) < 4:
        assert state.status == "in_progress" and state.next_round == len(rounds) + 1
    else:
        assert state.status in ("finished", "tiebreaker")
        if len(state.leaders) == 1:
            assert state.status == "finished" and state.winner == state.leaders[0] and not state.tie
        elif tie_rule == "stands":
            assert state.status == "finished" and state.tie and state.winner is None
        else:
            assert state.status == "tiebreaker" and state.next_opening_minimum == 150
    assert (state.next_round is None) == (state.status == "finished")
    assert (state.end_reason is None) == (state.status != "finished")
