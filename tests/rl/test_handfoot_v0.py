"""handfoot.rl.handfoot_v0: PettingZoo's own API and seed tests, whole games by masked random
agents under several presets, rewards as round points, a stable observation."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test

from handfoot.engine import PRESETS, UnknownPresetError
from handfoot.engine.play import score, step, view
from handfoot.rl import handfoot_v0
from handfoot.rl.actions import ACTION_COUNT, INDEX
from handfoot.rl.observation import LAYOUT, SIZE, encode


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        api_test(handfoot_v0.env(preset="pagat"), num_cycles=200)
    # the two warnings PettingZoo gives every classic game's dict observation, and nothing else
    assert {str(w.message).split(" ")[0] for w in seen} <= {"Observation"}, [str(w.message) for w in seen]


def test_pettingzoo_seed_test_passes() -> None:
    """Two environments reset with one seed give the same observations, rewards and masks."""
    seed_test(lambda **kwargs: handfoot_v0.env(preset="wages", **kwargs), num_cycles=50)


def play(env: AECEnv, rng: random.Random) -> dict[str, Any]:
    """A whole game by agents choosing at random among the indexes their mask allows. Checks each
    action against the engine, the rewards against the engine's score of each round and the
    observation's shape and space. Returns the figures of the game."""
    env.reset()
    raw: handfoot_v0.raw_env = env.unwrapped
    rewards = dict.fromkeys(raw.possible_agents, 0.0)
    expected = dict.fromkeys(raw.possible_agents, 0.0)
    actions = rounds = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        assert observation["observation"].shape == (SIZE,) and observation["action_mask"].shape == (ACTION_COUNT,)
        assert env.observation_space(agent).contains(observation)
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask).tolist()
        assert legal, f"{agent} has no legal action"
        if actions % 10 == 0:
            others = [a for a in raw.agents if a != agent]
            assert not any(env.observe(a)["action_mask"].any() for a in others), "a seat not to act has a move"
        index = rng.choice(legal)
        state = raw.engine_state
        action, after = raw.moves()[index]
        assert step(state, action) == after  # the engine accepts what the mask allowed
        env.step(index)
        actions += 1
        if raw.engine_state is not after or after.phase == "ended":  # a round ended (and the next was dealt)
            rounds += 1
            for agent in raw.possible_agents:
                expected[agent] += expected_round(after, raw, agent)
            assert env.rewards == {a: expected_round(after, raw, a) for a in env.agents}
    assert not env.agents
    assert rewards == expected
    return {"actions": actions, "rounds": rounds, "totals": list(raw.totals)}


def expected_round(state: Any, raw: handfoot_v0.raw_env, agent: str) -> float:
    """The reward of ``agent`` for the round ``state`` ended: its side's round score (``points``),
    or that less the mean of the others', over the sum of every side's in absolute value (``margin``)."""
    seat = state.seats[raw.possible_agents.index(agent)]
    points = [b.total for b in score(state).teams]
    mine = points[seat.side]
    if raw.reward == "points":
        return float(mine)
    others = (sum(points) - mine) / (len(points) - 1)
    return (mine - others) / sum(abs(p) for p in points) if any(points) else 0.0


@pytest.mark.parametrize("preset", ["pagat", "bicycle", "steve-simpson", "hodges", "wages", "bga"])
def test_masked_random_agents_play_whole_games(preset: str) -> None:
    env = handfoot_v0.env(preset=preset, seed=5, rounds=2)
    figures = play(env, random.Random(5))
    assert figures["rounds"] == 2 and figures["actions"] > 40
    raw: handfoot_v0.raw_env = env.unwrapped
    assert len(raw.possible_agents) == 4 and len(raw.sides) == (4 if preset == "steve-simpson" else 2)


@pytest.mark.parametrize("preset", ["pagat", "steve-simpson"])
def test_points_rewards_add_up_to_the_game_and_margins_to_zero(preset: str) -> None:
    raw = handfoot_v0.raw_env(preset=preset, seed=8, rounds=2, reward="points")
    play(raw, random.Random(8))
    assert raw.totals != [0] * len(raw.sides)
    margins = handfoot_v0.margins(raw.totals)
    assert sum(margins) == pytest.approx(0.0) and all(-1 <= m <= 1 for m in margins)
    assert handfoot_v0.margins([0, 0]) == [0.0, 0.0] and handfoot_v0.margins([300, -100]) == [1.0, -1.0]
    with pytest.raises(ValueError, match="margin"):
        handfoot_v0.env(reward="points")
    with pytest.raises(ValueError, match="reward"):
        handfoot_v0.raw_env(reward="elo")


def test_each_round_is_dealt_from_the_seed_and_opens_by_the_points_so_far() -> None:
    raw = handfoot_v0.raw_env(preset="pagat", seed=40, rounds=2)
    raw.reset()
    first = raw.engine_state
    assert (first.seed, first.round) == (40, 1)
    rng = random.Random(1)
    while raw.round == 1:
        raw.step(rng.choice(sorted(raw.moves())))
    second = raw.engine_state
    assert (second.seed, second.round) == (41, 2)
    assert [side.score for side in second.sides] == raw.totals != [0, 0]
    info = raw.infos["seat_0"]
    assert info["round"] == 1 and info["game_points"] == raw.totals == info["round_points"]
    raw.reset(seed=40)
    assert raw.engine_state == first and raw.totals == [0, 0]


def test_an_illegal_action_forfeits_the_game_for_the_wrapped_env_and_is_refused_by_the_raw_one() -> None:
    # a forfeit is the worst the margins could give the side, for every round left: resigning never pays
    env = handfoot_v0.env(preset="pagat", seed=3, rounds=3)
    env.reset()
    agent = env.agent_selection
    assert not env.observe(agent)["action_mask"][INDEX["ask"]]  # no asking in the draw phase
    env.step(INDEX["ask"])  # PettingZoo logs "Illegal move made, game terminating"
    assert all(env.terminations.values())
    side = {"seat_0": -3.0, "seat_1": 3.0, "seat_2": -3.0, "seat_3": 3.0}  # seats 0 and 2 partners
    assert agent == "seat_0" and env.rewards == side
    solo = handfoot_v0.env(preset="steve-simpson", seed=3)
    solo.reset()
    solo.step(INDEX["ask"])
    assert solo.rewards == {"seat_0": -1.0, "seat_1": 1 / 3, "seat_2": 1 / 3, "seat_3": 1 / 3}
    raw = handfoot_v0.raw_env(preset="pagat", seed=3)
    raw.reset()
    with pytest.raises(ValueError, match="ask"):
        raw.step(INDEX["ask"])
    with pytest.raises(ValueError, match="out of range"):
        raw.step(ACTION_COUNT)


def test_the_observation_encodes_the_seats_view() -> None:
    raw = handfoot_v0.raw_env(preset="pagat", seed=9)
    raw.reset()
    state = raw.engine_state
    assert sum(n for _, n in LAYOUT) == SIZE
    for k, agent in enumerate(raw.possible_agents):
        observation = raw.observe(agent)["observation"]
        assert observation.dtype == np.float32 and observation.shape == (SIZE,)
        copies = observation[:52].sum() * 7 + observation[52] * 14  # each card's copies / 7, jokers' / 14
        assert copies == pytest.approx(len(state.seats[k].hand))
        assert observation[53:106].sum() == 1  # the pile's top card
        assert np.array_equal(observation, encode(view(state, k)))  # as a table's seat view encodes
    space = raw.observation_space("seat_0")
    assert isinstance(space, spaces.Dict) and space is raw.observation_space("seat_0")
    assert isinstance(space["action_mask"], spaces.MultiBinary)


def test_rendering_and_bad_arguments() -> None:
    raw = handfoot_v0.raw_env(preset="pagat", seed=2, render_mode="ansi")
    raw.reset()
    text = raw.render()
    assert text is not None and text.startswith("round 1, step 0, draw: seat_0 (North) to act")
    assert "North-South:" in text and "hand: " in text
    with pytest.raises(ValueError, match="rounds"):
        handfoot_v0.raw_env(rounds=0)
    with pytest.raises(ValueError, match="render_mode"):
        handfoot_v0.raw_env(render_mode="rgb_array")
    with pytest.raises(UnknownPresetError):
        handfoot_v0.raw_env(preset="no-such-rules")
    assert set(PRESETS) >= {"pagat", "steve-simpson"}
