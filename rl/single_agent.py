"""One seat of ``handfoot_v0`` as a Gymnasium environment: a learner against fixed policies.

    from handfoot.rl.single_agent import SingleSeatEnv
    env = SingleSeatEnv(preset="pagat", seat=0, others="greedy", rounds=1)
    observation, info = env.reset(seed=7)
    while True:
        action = env.action_space.sample(info["action_mask"])        # or a learner's choice
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Off-the-shelf single-agent libraries train on it: the observation is the seat's float32 array
(``handfoot.rl.observation``), the action the fixed index (``Discrete(ACTION_COUNT)``), the legal
indexes in ``info["action_mask"]`` and :meth:`SingleSeatEnv.action_masks` (the method
sb3-contrib's ``MaskablePPO`` calls). Every other seat, the partner included, is played by a fixed
policy of the engine's form (``handfoot.client.policies.Policy``: a reference bot's name or the
function): its candidates are played through the index (a body the view lists by
``handfoot.rl.seat.index_of``, any other by ``handfoot.rl.actions.index_for``), the
first that has an index; when none has, a random legal index.

Rewards are the AEC environment's (``reward="margin"``, the default, or ``"points"``), the seat's
own, added up over the other seats' moves between two of its own. An index its mask refuses
forfeits the game as ``handfoot_v0.env()`` does (-1 for each round left, this one included); the
episode ends there. Under ``reward="points"`` it raises ``ValueError`` (points have no worst round).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from handfoot.engine.rules import RuleSet
from handfoot.rl.actions import ACTION_COUNT, index_for
from handfoot.rl.handfoot_v0 import forfeit_rewards, raw_env
from handfoot.rl.observation import observation_space
from handfoot.rl.seat import index_of

__all__ = ["FixedPolicy", "SingleSeatEnv"]

#: A fixed policy: the engine's form (the seat's view, the rules, a ``random.Random`` -> candidates).
FixedPolicy = Callable[[dict[str, Any], RuleSet, random.Random], list[dict[str, Any]]]


def _policy(policy: str | FixedPolicy) -> FixedPolicy:
    if not isinstance(policy, str):
        return policy
    from handfoot.engine.play.arena import POLICIES

    if policy not in POLICIES:
        raise ValueError(f"others: {policy!r} is not a reference policy ({', '.join(POLICIES)})")
    return POLICIES[policy]


class SingleSeatEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """Seat ``seat`` of ``handfoot_v0.raw_env`` (``preset``, ``rules``, ``play``, ``rounds``,
    ``reward`` as there) played by the learner; each other seat by ``others`` (a reference
    policy's name or a policy function, or ``{seat: policy}`` for each other seat).

    Raises ``ValueError`` for a seat the table does not have, an unknown policy name, or a mapping
    that leaves a seat out; the engine's errors for rules it does not know."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        preset: str = "pagat",
        *,
        seat: int = 0,
        others: str | FixedPolicy | Mapping[int, str | FixedPolicy] = "greedy",
        rules: Mapping[str, Any] | None = None,
        play: Mapping[str, Any] | None = None,
        rounds: int = 1,
        reward: str = "margin",
    ) -> None:
        self.game = raw_env(preset=preset, rules=rules, play=play, rounds=rounds, reward=reward, seed=0)
        seats = len(self.game.possible_agents)
        if not 0 <= seat < seats:
            raise ValueError(f"seat: the table has seats 0 to {seats - 1}")
        self.seat, self.agent = seat, self.game.possible_agents[seat]
        if isinstance(others, Mapping):
            missing = sorted(set(range(seats)) - {seat} - set(others))
            if missing:
                raise ValueError(f"others: no policy for seats {missing}")
            self.others = {k: _policy(p) for k, p in others.items() if k != seat}
        else:
            self.others = dict.fromkeys((k for k in range(seats) if k != seat), _policy(others))
        self.observation_space = cast("spaces.Space[npt.NDArray[np.float32]]", observation_space())
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._rng = random.Random(0)
        self._mask = np.zeros(ACTION_COUNT, dtype=np.int8)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal indexes now, as booleans (what ``MaskablePPO`` asks for)."""
        return self._mask.astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new game dealt from ``seed`` (the deal and the other seats' choices; ``None``: from
        the environment's generator); the others play until the learner's first move."""
        super().reset(seed=seed)
        self.game.reset(seed=int(self.np_random.integers(2**31)))
        self._rng = random.Random(int(self.np_random.integers(2**31)))
        reward = self._others_play()
        observation, info = self._observe()
        info["reward_before_first_move"] = reward  # 0 unless a round ended before the seat moved
        return observation, info

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play index ``action`` for the learner's seat, then the others until its next move or
        the game's end; the reward is the seat's over all those moves."""
        if self.game.terminations[self.agent]:
            raise RuntimeError("the game has ended: reset() the environment")
        index = int(action)
        if index not in self.game.moves():
            if self.game.reward != "margin":
                raise ValueError(
                    f"action {index} is not legal now (info['action_mask']); reward='points' has no forfeit"
                )
            reward = forfeit_rewards(self.game, self.agent)[self.agent]
            self.game.terminations = dict.fromkeys(self.game.agents, True)
            self._mask = np.zeros(ACTION_COUNT, dtype=np.int8)
            observation, info = self._observe()
            info["forfeit"] = True
            return observation, reward, True, False, info
        self.game.step(index)
        reward = self.game.rewards[self.agent] + self._others_play()
        observation, info = self._observe()
        return observation, reward, self.game.terminations[self.agent], False, info

    def _others_play(self) -> float:
        """The other seats' moves until the learner's turn or the end; the learner's reward meanwhile."""
        reward = 0.0
        while not self.game.terminations[self.agent] and self.game.agent_selection != self.agent:
            agent = self.game.agent_selection
            k = self.game.possible_agents.index(agent)
            state, moves = self.game.engine_state, self.game.moves()
            seen = self.game.seat_view(agent)
            listed = [body for entry in seen["actions"] for body in entry["send"]]
            chosen = None
            for candidate in self.others[k](seen, state.rules, self._rng):
                body = {key: value for key, value in candidate.items() if key != "seat"}
                # a body the view lists: its index read from the view (tests/rl/test_seat.py: the
                # index whose move it is), no successor built; any other through the engine's step
                chosen = index_of(seen, body) if body in listed else None
                if chosen is None or chosen not in moves:
                    chosen = index_for(state, candidate, moves)
                if chosen is not None:
                    break
            self.game.step(chosen if chosen is not None else self._rng.choice(sorted(moves)))
            reward += self.game.rewards[self.agent]
        return reward

    def _observe(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        observed = self.game.observe(self.agent)
        self._mask = observed["action_mask"]
        info = dict(self.game.infos[self.agent])
        info["action_mask"] = self._mask.copy()
        observation: npt.NDArray[np.float32] = observed["observation"]
        return observation, info
