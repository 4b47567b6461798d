"""The take's rule decided as bits agrees with its worded form: ``pile.take_refusals`` refuses
exactly where ``pile.take_problems`` words a problem, and ``legal.take_verdict`` (asked by the
listing and the mask, no refusal worded) refuses exactly where the step's ``judge_take`` raises,
under every preset, over the draw phases of seeded rounds and every pair, natural-and-wild and
onto-meld take the hand could try."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.cards import Card
from handfoot.engine.errors import PlayError
from handfoot.engine.pile import take_problems, take_refusals
from handfoot.engine.play import State, new_round, step, view
from handfoot.engine.play.bots import actor
from handfoot.engine.play.legal import judge_take, take_verdict
from tests.engine.play.helpers import table_of

ROUNDS = 2


def _refused(state: State, seat: int, cards: Sequence[Card], onto: int | None) -> bool:
    try:
        judge_take(state, seat, cards, onto, ())
    except PlayError:
        return True
    return False


def _candidates(state: State, seat: int) -> list[tuple[list[Card], int | None]]:
    """Hand cards a take might meld with the top card: pairs of any rank, a card and a wild card,
    nothing; each as a new meld and onto each of the side's melds."""
    hand = state.seats[seat].hand
    cards: list[list[Card]] = [[], *([a, b] for i, a in enumerate(hand) for b in hand[i + 1 : i + 3])]
    ontos = [None, *range(len(state.sides[state.seats[seat].side].melds))]
    return [(c, onto) for c in cards for onto in ontos]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_take_verdict_refuses_where_judge_take_refuses(preset: str) -> None:
    asked = refused = 0
    for seed in range(ROUNDS):
        state = new_round(preset, table_of(preset), seed)
        rng = random.Random(seed)
        while state.phase != "ended":
            seat = actor(state)
            if state.phase == "draw" and state.pile:
                table = state.table(state.seats[seat].side)
                for cards, onto in _candidates(state, seat):
                    no = _refused(state, seat, cards, onto)
                    assert (take_verdict(state, seat, cards, onto, ()) is None) == no, (seed, state.step, cards)
                    bits = take_refusals(state.pile[0], cards, state.rules, table, state.pile_taken)
                    assert bool(bits) == bool(take_problems(state.pile[0], cards, state.rules, table, state.pile_taken))
                    asked += 1
                    refused += no
            bodies = [b for entry in view(state, seat)["actions"] for b in entry["send"]]
            state = step(state, {**rng.choice(bodies), "seat": seat})
    assert refused > 0 and asked > 0
