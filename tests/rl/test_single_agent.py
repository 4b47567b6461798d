"""handfoot.rl.single_agent: one seat as a Gymnasium environment against fixed policies, checked by
Gymnasium's own checker, its rewards the AEC environment's, an illegal index a forfeit."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from handfoot.engine.play.arena import POLICIES
from handfoot.rl import handfoot_v0
from handfoot.rl.actions import INDEX
from handfoot.rl.single_agent import SingleSeatEnv


def test_gymnasiums_checker_passes() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        check_env(SingleSeatEnv(preset="pagat", rounds=1), skip_render_check=True)
    # only the game points' bounds, unbounded in the space (docs/rl.md, Observation)
    said = {str(w.message) for w in seen}
    assert all("infinity" in text for text in said), said


def episode(env: SingleSeatEnv, seed: int, rng: random.Random) -> tuple[float, dict[str, Any], int]:
    """A whole game by masked random choices: the seat's rewards added up, the last info, moves made."""
    _, info = env.reset(seed=seed)
    total, moves = float(info["reward_before_first_move"]), 0
    while True:
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        observation, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask).tolist()))
        assert env.observation_space.contains(observation) and not truncated
        total += reward
        moves += 1
        if terminated:
            return total, info, moves


@pytest.mark.parametrize(("preset", "seat"), [("pagat", 0), ("pagat", 3), ("steve-simpson", 1)])
def test_a_game_pays_the_seat_its_sides_margins(preset: str, seat: int) -> None:
    env = SingleSeatEnv(preset=preset, seat=seat, rounds=2)
    total, info, moves = episode(env, 11, random.Random(1))
    assert info["round"] == 2 and moves > 10
    side = env.game.engine_state.seats[seat].side
    # the two rounds' margins of the seat's side, from the points each round gave every side
    assert env.game.totals == info["game_points"]
    assert -2 <= total <= 2 and total != 0
    points = SingleSeatEnv(preset=preset, seat=seat, rounds=2, reward="points")
    in_points, info, _ = episode(points, 11, random.Random(1))
    assert in_points == info["game_points"][side]  # the same game: the seat was given its side's points


def test_a_seed_repeats_the_game_and_the_others_are_the_policies_given() -> None:
    first = [episode(SingleSeatEnv(preset="wages", others="planner"), 5, random.Random(2)) for _ in range(2)]
    assert first[0][0] == first[1][0] and first[0][1]["game_points"] == first[1][1]["game_points"]
    asked: list[int] = []

    def watched(view: dict[str, Any], rules: Any, rng: random.Random) -> list[dict[str, Any]]:
        asked.append(view["seat"])
        return POLICIES["greedy"](view, rules, rng)

    episode(SingleSeatEnv(preset="pagat", seat=2, others={0: "random", 1: watched, 3: watched}), 3, random.Random(3))
    assert asked and set(asked) == {1, 3}


def test_an_illegal_index_forfeits_and_bad_arguments_are_refused() -> None:
    env = SingleSeatEnv(preset="pagat", rounds=2)
    _, info = env.reset(seed=4)
    assert not info["action_mask"][INDEX["ask"]]  # the draw phase
    _, reward, terminated, _, info = env.step(INDEX["ask"])
    assert (reward, terminated, info["forfeit"]) == (2 * handfoot_v0.ILLEGAL_REWARD, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(INDEX["draw"])
    points = SingleSeatEnv(preset="pagat", reward="points")
    points.reset(seed=4)
    with pytest.raises(ValueError, match="not legal now"):
        points.step(INDEX["ask"])
    with pytest.raises(ValueError, match="seats 0 to 3"):
        SingleSeatEnv(seat=4)
    with pytest.raises(ValueError, match="no policy for seats \\[3\\]"):
        SingleSeatEnv(others={1: "greedy", 2: "greedy"})
    with pytest.raises(ValueError, match="not a reference policy"):
        SingleSeatEnv(others="clever")
