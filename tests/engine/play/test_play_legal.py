"""The rules of play as predicates on a state's facts (engine/play/legal.py): what the step, the
listing and the rl mask ask, asked once per state and seat, and the state freed when replaced."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from handfoot.engine import PRESETS
from handfoot.engine.cards import parse_cards
from handfoot.engine.errors import PlayError, Problem
from handfoot.engine.play import State, new_round, refusals, step, view
from handfoot.engine.play.bots import actor, choose, greedy_policy, random_policy
from handfoot.engine.play.legal import facts, judge_meld, meld_verdict
from handfoot.engine.play.listing import meld_candidates
from handfoot.engine.play.step import melded
from handfoot.engine.table import analyse_table
from tests.engine.play.helpers import table_of


def _states(seed: int) -> list[State]:
    state = new_round("pagat", table_of("pagat"), seed, 1)
    rng = random.Random(seed)
    out = [state]
    while state.phase != "ended" and len(out) < 400:
        _, state = choose(state, random_policy, rng)
        out.append(state)
    return out


def test_a_state_and_the_facts_it_keeps_are_freed_without_the_collector() -> None:
    """Facts kept on a state never point back at it: a round's states are freed as each is
    replaced (a cycle left every one to the garbage collector, which cost more than it saved)."""
    gc.collect()
    gc.disable()
    try:
        state = new_round("pagat", table_of("pagat"), 3, 1)
        rng = random.Random(3)
        for _ in range(60):
            view(state, actor(state))
            _, state = choose(state, random_policy, rng)
        del state
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_facts_read_the_hand_by_card_and_by_rank() -> None:
    for state in _states(5)[:80]:
        if state.phase == "ended":
            continue
        seat = actor(state)
        found = facts(state, seat)
        assert found is facts(state, seat)  # made once per state and seat
        hand = state.seats[seat].hand
        assert sum(found.held.values()) == len(hand)
        assert sorted(c.code for c in found.wilds) == sorted(c.code for c in hand if c.is_wild)
        assert sum(map(len, found.naturals.values())) + len(found.wilds) == len(hand)
        assert all(c.rank.value == rank for rank, cards in found.naturals.items() for c in cards)
        assert found.holds(hand) and not found.holds([*hand, *hand])


def test_the_meld_predicate_refuses_what_step_refuses_with_the_same_problems() -> None:
    """A meld action refused by ``step`` is refused by ``judge_meld`` asked of its cards, with the
    very problems; one accepted by either is accepted by both."""
    seen = 0
    for state in _states(11):
        if state.phase != "play":
            continue
        seat = state.turn
        hand = state.seats[seat].hand
        for size in (1, 2, 3):
            cards = hand[:size]
            action = {"type": "meld", "seat": seat, "melds": [[c.code for c in cards]]}
            try:
                judge_meld(state, seat, [parse_cards(action["melds"][0])], [], ())
                judged: list[Problem] = []
            except PlayError as exc:
                judged = list(exc.problems)
            assert judged == refusals(state, action)
            if not judged:
                step(state, action)  # accepted: the successor is built
            seen += 1
    assert seen > 20


@pytest.mark.parametrize("preset", sorted(p.id for p in PRESETS.values()))
def test_every_kept_table_is_the_table_analysed_afresh(preset: str) -> None:
    """A step keeps the table its judging built (``table.table_changed`` where no rule between
    melds can apply, else ``analyse_table`` reusing known checks): whatever the path, it is what
    ``analyse_table`` gives the side's melds from nothing, in every state of greedy and random play."""
    for seed, policy in ((1, greedy_policy), (2, random_policy)):
        state = new_round(preset, table_of(preset), seed)
        rng = random.Random(seed)
        for _ in range(600):
            if state.phase == "ended":
                break
            _, state = choose(state, policy, rng)
            for side, held in enumerate(state.sides):
                assert state.table(side) == analyse_table(held.melds, state.rules), (preset, seed, side)


@pytest.mark.parametrize("preset", ["pagat", "hodges", "bga"])
def test_the_quiet_meld_predicate_refuses_what_the_worded_one_refuses(preset: str) -> None:
    """``meld_verdict`` (whether, for the listing and the mask) and ``judge_meld`` (why, for the
    step) decide alike: ``None`` exactly where ``judge_meld`` raises, the same verdict elsewhere;
    and a verdict that kept its checks rather than a table gives the table analysed afresh."""
    state = new_round(preset, table_of(preset), 4, 1)
    rng = random.Random(4)
    seen = refused = 0
    for _ in range(400):
        if state.phase == "ended":
            break
        if state.phase == "play":
            seat = state.turn
            hand = state.seats[seat].hand
            melds = state.sides[state.seats[seat].side].melds
            candidates: list[tuple[Any, Any, Any]] = list(meld_candidates(state, seat))
            candidates += [((hand[:k],), (), ()) for k in (1, 2, 3)]
            candidates += [((), ((to, hand[:1]),), ()) for to in range(len(melds) + 1)]
            for new, adds, burn in candidates:
                quiet = meld_verdict(state, seat, new, adds, burn)
                try:
                    worded = judge_meld(state, seat, new, adds, burn)
                except PlayError:
                    assert quiet is None
                    refused += 1
                    continue
                assert quiet == worded
                if quiet.checks is not None:
                    after = melded(state, seat, (new, adds, burn), quiet)
                    side = state.seats[seat].side
                    assert after.table(side) == analyse_table(after.sides[side].melds, state.rules)
                seen += 1
        _, state = choose(state, random_policy, rng)
    assert seen > 10 and refused > 10
