"""handfoot.rl.observation: one encoder of the seat's view for the environment and an HTTP table;
every index named, scaled into its bounds, documented (docs/rl-features.md), and blind to what the
seat may not know."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from handfoot.engine import PRESETS
from handfoot.engine.play import new_round, view
from handfoot.rl import handfoot_v0
from handfoot.rl.actions import acting_seat
from handfoot.rl.observation import (
    FEATURES,
    INDEX,
    LAYOUT,
    SCALES,
    SIZE,
    encode,
    feature_table,
    observation_space,
)
from tests.engine.play.helpers import arrange

ROOT = Path(__file__).resolve().parents[2]


def test_every_index_is_named_and_the_docs_table_is_the_encoders() -> None:
    assert len(FEATURES) == len(set(FEATURES)) == len(SCALES) == SIZE == sum(n for _, n in LAYOUT)
    assert all(scale >= 1 for scale in SCALES)
    text = (ROOT / "docs" / "rl-features.md").read_text(encoding="utf-8")
    assert feature_table() in text  # regenerate with: python -m handfoot.rl.observation > table


def test_counts_are_divided_by_their_documented_maximum() -> None:
    state = arrange(hands={0: "7S 7H 7H 2C JK 9D"}, melds={0: ["KS KH KD 2D"], 1: ["5S 5H 5D"]}, phase="play")
    obs = encode(view(state, 0))
    assert obs[INDEX["hand:7H"]] == pytest.approx(2 / 7) and obs[INDEX["hand:JK"]] == pytest.approx(1 / 14)
    assert obs[INDEX["seat0:hand_size"]] == pytest.approx(6 / 60) and obs[INDEX["phase:play"]] == 1
    assert obs[INDEX["side0:K:cards"]] == pytest.approx(4 / 14) and obs[INDEX["side0:K:wilds"]] == pytest.approx(1 / 14)
    assert obs[INDEX["side0:K:open"]] == 1 and obs[INDEX["side0:K:books"]] == 0
    assert obs[INDEX["side1:5:cards"]] == pytest.approx(3 / 14) and obs[INDEX["opened"]] == 1
    assert obs[INDEX["to_act"]] == 1 and encode(view(state, 1))[INDEX["to_act"]] == 0
    # seats and sides from the observer: East's own side is slot 0, North's side slot 1
    assert encode(view(state, 1))[INDEX["side1:K:cards"]] == pytest.approx(4 / 14)
    big = replace(state, sides=(replace(state.sides[0], score=-50_000), state.sides[1]))
    assert encode(view(big, 0))[INDEX["side0:score"]] == -1  # points clipped to [-1, 1]


@pytest.mark.parametrize("preset", ["pagat", "steve-simpson", "wikipedia"])
def test_every_observation_of_a_round_lies_in_the_space_and_reads_as_json_does(preset: str) -> None:
    raw = handfoot_v0.raw_env(preset=preset, seed=3)
    raw.reset()
    space, rng = observation_space(), random.Random(3)
    while raw.moves():
        state = raw.engine_state
        for seat in range(len(state.seats)):
            obs = raw.observe(raw.possible_agents[seat])["observation"]
            assert space.contains(obs), [FEATURES[i] for i in np.flatnonzero((obs < space.low) | (obs > space.high))]
            listed = view(state, seat)  # a table's view: with its listing, through JSON
            assert np.array_equal(obs, encode(json.loads(json.dumps(listed))))
        raw.step(rng.choice(sorted(raw.moves())))


def test_what_the_seat_may_not_know_does_not_move_it() -> None:
    """Other seats' cards, the feet and the stock's order: changed, the observation is the same."""
    state = new_round("pagat", handfoot_v0.table_for(PRESETS["pagat"].rules), seed=6)
    seat = acting_seat(state)
    assert seat == 0
    seats = list(state.seats)
    seats[1], seats[2] = replace(seats[1], hand=seats[2].hand), replace(seats[2], hand=seats[1].hand)
    seats[3] = replace(seats[3], foot=tuple(reversed(seats[3].foot or ())))
    other = replace(state, seats=tuple(seats), stock=tuple(reversed(state.stock)))
    assert np.array_equal(encode(view(state, 0)), encode(view(other, 0)))
    assert not np.array_equal(encode(view(state, 1)), encode(view(other, 1)))  # East's own hand changed


def test_a_shared_sides_block_is_found_by_its_members_and_their_counts() -> None:
    """A shared view's side is found again by its kept melds and completes: a side holding the same
    objects with another score (a caller's own mapping) is encoded anew, not given the kept block."""
    raw = handfoot_v0.raw_env(preset="pagat", seed=5)
    raw.reset()
    rng = random.Random(5)
    while raw.moves() and not any(side.melds for side in raw.engine_state.sides):
        raw.step(rng.choice(sorted(raw.moves())))
    state = raw.engine_state
    shared = view(state, 0, listing=False, shared=True)
    assert any(side["melds"] for side in shared["sides"]), "no meld laid: nothing kept to find"
    before = encode(shared)
    changed = {**shared, "sides": [{**side, "score": side["score"] + 500} for side in shared["sides"]]}
    after = encode(changed)
    at = [FEATURES.index(f"side{k}:score") for k in range(len(shared["sides"]))]
    assert all(after[i] != before[i] for i in at)
    assert np.array_equal(encode(shared), before)
