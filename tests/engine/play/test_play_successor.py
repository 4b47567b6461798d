"""The state a step builds: the same value its members' ``State(...)`` is, frozen as one, sharing
what the step left alone, and the state given unchanged."""

from __future__ import annotations

import dataclasses
import random

import pytest

from handfoot.engine.play import State, new_round, state_from_mapping, to_mapping
from handfoot.engine.play.arena import table_sides
from handfoot.engine.play.bots import actor, choose, greedy_policy, random_policy
from handfoot.engine.play.state import Seat, Side


@pytest.mark.parametrize(("preset", "seed"), [("pagat", 0), ("pagat", 1), ("bga", 2), ("steve-simpson", 3)])
def test_every_successor_is_the_state_its_members_make_and_the_state_given_is_unchanged(preset: str, seed: int) -> None:
    state = new_round(preset, table_sides(preset, 2), seed, 1)
    rng = random.Random(seed)
    policies = [random_policy, greedy_policy] * 2
    while state.phase != "ended":
        before, history = to_mapping(state), state.history
        action, after = choose(state, policies[actor(state)], rng)
        assert to_mapping(state) == before and state.history is history
        rebuilt = state_from_mapping(to_mapping(after))  # each member through the dataclasses' __init__
        assert type(after) is State and after == rebuilt and repr(after) == repr(rebuilt)
        assert after.history == rebuilt.history and after.step == state.step + 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            after.turn = 0  # type: ignore[misc]
        for old, new in zip(state.seats, after.seats, strict=True):
            assert type(new) is Seat and (new is old) == (new == old)
            with pytest.raises(dataclasses.FrozenInstanceError):
                new.hand = ()  # type: ignore[misc]
        for old_side, new_side in zip(state.sides, after.sides, strict=True):
            assert type(new_side) is Side and (new_side is old_side) == (new_side == old_side)
            with pytest.raises(dataclasses.FrozenInstanceError):
                new_side.melds = ()  # type: ignore[misc]
        if len(after.history) == len(state.history) + 1 and action["type"] == "discard":
            # a discard alone changes one hand and the pile: every side and the other seats are shared
            assert all(a is b for a, b in zip(after.sides, state.sides, strict=True))
            kept = [a is b for a, b in zip(after.seats, state.seats, strict=True)]
            assert kept.count(False) == 1 and not kept[action["seat"]]
        state = after
