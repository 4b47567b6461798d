"""Hand and Foot as a PettingZoo AEC environment: ``handfoot.rl.handfoot_v0``.

    from handfoot.rl import handfoot_v0
    env = handfoot_v0.env(preset="pagat", seed=7)
    env.reset()
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

Agents are the seats, ``seat_0`` ... ``seat_3`` in turn order: two sides of two partners (seats 0
and 2, seats 1 and 3) where the rule set has partners, else four players alone. The acting agent
is the seat whose turn it is, or the partner asked "May I go out?" while it answers.

- Observation: ``{"observation": float32 array (handfoot.rl.observation: the seat's view, encoded
  as at an HTTP table),
  "action_mask": int8 array}``; the mask marks the indexes of :data:`~handfoot.rl.actions.ACTIONS`
  whose engine action :func:`~handfoot.engine.play.step` accepts now (all zero for a seat not to act).
- Action: ``Discrete(ACTION_COUNT)``, the fixed index of macro actions of :mod:`handfoot.rl.actions`.
- Reward (``reward=``): when a round ends every seat gets its side's result, 0 otherwise.
  ``"margin"`` (the default) normalises it: the side's round score (the engine's
  :func:`~handfoot.engine.play.score`: books, cards, red threes, going out, cards left) less the
  mean of the other sides', over the sum of every side's score in absolute value: from -1 to 1,
  the sides' rewards adding up to 0. ``"points"``: the side's round score itself, in points.
- Termination: every agent once the game's ``rounds`` are played. Round ``k`` (from 1) is dealt
  with seed ``seed + k - 1`` and opens by each side's points so far.

``env()`` wraps :class:`raw_env` as PettingZoo's classic games do, save for illegal moves: an
action its mask refuses forfeits the game (:class:`ForfeitIllegalWrapper`: every seat of the side
that chose it gets -1 for each round left, this one included, the worst the margins could give,
and the other sides share the opposite), an index out of range is an error, and the order of calls
is enforced. A forfeit on the margins' scale never pays the side that is behind; ``env()`` takes
``reward="margin"`` only (points have no worst round to forfeit at: use :class:`raw_env`, which
raises ``ValueError`` for an index that is not legal).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from handfoot.engine.play import State, new_round, score, view
from handfoot.engine.presets import resolve_rules
from handfoot.engine.rules import RuleSet
from handfoot.rl.actions import ACTION_COUNT, ACTIONS, acting_seat, legal_moves
from handfoot.rl.moves import Move
from handfoot.rl.observation import encode, observation_space

#: What a side forfeits for each round left (this one included) when one of its seats plays an index
#: its mask refuses, under ``env()``: the lowest margin a round can give.
ILLEGAL_REWARD = -1.0
_INT8 = np.dtype(np.int8)
#: The rewards ``reward=`` may name.
REWARDS = ("margin", "points")

Observation = dict[str, npt.NDArray[Any]]


def table_for(rules: RuleSet) -> list[tuple[str, list[str]]]:
    """The environment's table under ``rules``: two sides of two where the rules allow partners,
    else four players alone (``sides`` as :func:`~handfoot.engine.play.new_round` takes them).

    Raises ``ValueError`` where the rules allow neither."""
    if rules.players_per_team_min <= 2 <= rules.players_per_team_max and rules.teams_min <= 2 <= rules.teams_max:
        return [("North-South", ["North", "South"]), ("East-West", ["East", "West"])]
    if rules.players_per_team_min <= 1 and rules.teams_min <= 4 <= rules.teams_max:
        return [(name, [name]) for name in ("North", "East", "South", "West")]
    raise ValueError("these rules allow neither two sides of two nor four players alone")


def margins(points: Sequence[int]) -> list[float]:
    """Each side's round ``points`` as a margin: its points less the mean of the other sides',
    over the sum of every side's points in absolute value (0 when every side scored 0). From -1 to
    1; the margins add up to 0."""
    scale = sum(abs(p) for p in points)
    if scale == 0 or len(points) < 2:
        return [0.0] * len(points)
    total = sum(points)
    return [(p - (total - p) / (len(points) - 1)) / scale for p in points]


def forfeit_rewards(game: raw_env, agent: str) -> dict[str, float]:
    """The rewards of a forfeit by ``agent``'s side in ``game`` (margins): each of its seats
    ``ILLEGAL_REWARD`` times the rounds left (this one included), every other seat its side's
    share of the opposite."""
    if game.reward != "margin":
        raise ValueError("a forfeit is scored on the margins' scale: reward='margin'")
    left = game.rounds - game.round + 1
    seats = game.engine_state.seats
    side = seats[game.possible_agents.index(agent)].side
    others = len(game.sides) - 1
    return {
        a: ILLEGAL_REWARD * left if seats[k].side == side else -ILLEGAL_REWARD * left / others
        for k, a in enumerate(game.possible_agents)
    }


class ForfeitIllegalWrapper(wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper`` with the rewards of a forfeit
    (:func:`forfeit_rewards`) instead of one number for the seat alone."""

    _prev_obs: Any  # the parent's: the acting seat's last observation (its mask)

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env, illegal_reward=ILLEGAL_REWARD)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self._prev_obs is None:
            self.observe(agent)
        live = not (self.terminations[agent] or self.truncations[agent])
        if not live or self._prev_obs["action_mask"][action]:
            super().step(action)
            return
        EnvLogger.warn_on_illegal_move()
        game: raw_env = self.env.unwrapped
        self._prev_obs = self._prev_info = None
        game._cumulative_rewards[agent] = 0
        game.terminations = dict.fromkeys(self.agents, True)
        game.truncations = dict.fromkeys(self.agents, True)
        game.rewards = {a: r for a, r in forfeit_rewards(game, agent).items() if a in game.agents}
        game._accumulate_rewards()
        game._deads_step_first()
        self._terminated = True


def env(**kwargs: Any) -> AECEnv:
    """:class:`raw_env` (same arguments; ``reward="margin"`` only) in PettingZoo's classic
    wrappers, an illegal index forfeiting the game (:class:`ForfeitIllegalWrapper`)."""
    if kwargs.get("reward", "margin") != "margin":
        raise ValueError("env(): reward='margin' only (an illegal index forfeits on its scale); raw_env takes points")
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = ForfeitIllegalWrapper(wrapped)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    """The AEC environment (see the module's docstring).

    ``preset``: a rule set id (``pagat``, ``bicycle``, ...); ``rules``: house-rule overrides on it;
    ``play``: play options (``ask_partner``, ``stock_out``); ``seed``: the first round's deal
    (``reset(seed=...)`` replaces it; ``None``: a random one); ``rounds``: rounds in a game;
    ``render_mode``: ``human`` (prints) or ``ansi`` (returns the text); ``reward``: ``margin``
    (the default) or ``points``.

    Raises the engine's ``UnknownPresetError``/``RulesError`` for rules it does not know, and
    ``ValueError`` for a table the rules do not allow or ``rounds`` below 1."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "handfoot_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "pagat",
        rules: Mapping[str, Any] | None = None,
        play: Mapping[str, Any] | None = None,
        seed: int | None = None,
        rounds: int = 1,
        render_mode: str | None = None,
        reward: str = "margin",
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward: one of {', '.join(REWARDS)}")
        self.reward = reward
        if rounds < 1:
            raise ValueError("rounds: at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: one of {', '.join(self.metadata['render_modes'])}, or None")
        self.preset, self.overrides, self.play = preset, dict(rules or {}), dict(play or {})
        self.sides = table_for(resolve_rules(preset, self.overrides).rules)
        self.seed, self.rounds, self.render_mode = seed, rounds, render_mode
        self.possible_agents = [f"seat_{i}" for i in range(sum(len(players) for _, players in self.sides))]
        self.agents = list(self.possible_agents)
        space = spaces.Dict({"observation": observation_space(), "action_mask": spaces.MultiBinary(ACTION_COUNT)})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}
        self._state: State | None = None
        self._moves: dict[int, Move] = {}
        self.totals: list[int] = []
        self.round = 0

    # -- spaces -----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the engine's side ------------------------------------------------------------------------
    @property
    def engine_state(self) -> State:
        """The engine's state of the round in play (every card: for a driver, not for an agent)."""
        if self._state is None:
            raise RuntimeError("reset() the environment first")
        return self._state

    def seat_view(self, agent: str) -> dict[str, Any]:
        """The engine's :func:`~handfoot.engine.play.view` of ``agent``'s seat: what a policy written
        for the engine (or an HTTP table) reads."""
        return view(self.engine_state, self.possible_agents.index(agent))

    def moves(self) -> dict[int, Move]:
        """The acting seat's legal indexes now: ``{index: Move}`` (its engine action, and the state
        after it, built when read: ``action, after = move``)."""
        return self._moves

    def _deal(self, round_number: int) -> None:
        assert self.seed is not None
        self.round = round_number
        self._state = new_round(
            self.preset,
            self.sides,
            self.seed + round_number - 1,
            round_number,
            self.overrides,
            self.play,
            self.totals,
        )
        self._select()

    def _select(self) -> None:
        state = self.engine_state
        seat = acting_seat(state)
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        self._moves = legal_moves(state, seat)

    # -- the AEC API ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.seed = seed
        elif self.seed is None:
            self.seed = random.SystemRandom().randrange(2**31)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.totals = [0] * len(self.sides)
        self._deal(1)

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        marks = bytearray(ACTION_COUNT)  # written index by index, then read by numpy in place
        if agent == self.agent_selection:
            for index in self._moves:
                marks[index] = 1
        mask = np.frombuffer(marks, _INT8)  # the dtype as an object, by position: numpy's quickest reading
        # the seat's view without its listing (the mask says what is open): the encoder an HTTP table's seat uses
        # shared: the encoder reads the view's members and changes none (their copies cost each step)
        state = self._state if self._state is not None else self.engine_state  # raises before reset()
        view_now = view(state, seat, listing=False, shared=True)
        return {"observation": encode(view_now), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = int(action)
        if index not in self._moves:
            name = ACTIONS[index] if 0 <= index < ACTION_COUNT else "out of range"
            raise ValueError(f"action {index} ({name}) is not legal now: see the observation's action_mask")
        self._cumulative_rewards[agent] = 0.0
        if any(self.rewards.values()):  # rewards come at a round's end: most steps have none to clear
            self._clear_rewards()
        self._state = after = self._moves[index].after  # the one successor built this step
        if after.phase == "ended":
            self._end_round()
        else:
            self._select()
        if any(self.rewards.values()):  # nothing to add to the cumulative rewards otherwise
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_round(self) -> None:
        points = [team.total for team in score(self.engine_state).teams]
        for j, total in enumerate(points):
            self.totals[j] += total
        by_side = margins(points) if self.reward == "margin" else [float(p) for p in points]
        for k, agent in enumerate(self.possible_agents):
            self.rewards[agent] = by_side[self.engine_state.seats[k].side]
        for agent in self.agents:
            self.infos[agent] = {"round": self.round, "round_points": points, "game_points": list(self.totals)}
        if self.round < self.rounds:
            self._deal(self.round + 1)
        else:
            self.terminations = dict.fromkeys(self.agents, True)
            self._moves = {}

    def render(self) -> str | None:
        """The round in a few lines (the acting seat's hand, each side's melds, the pile): printed
        for ``human``, returned for ``ansi``."""
        if self.render_mode is None:
            return None
        text = _describe(self.engine_state, self.possible_agents.index(self.agent_selection), self.sides)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def _describe(state: State, seat: int, sides: Sequence[tuple[str, Sequence[str]]]) -> str:
    top = state.pile[0].code if state.pile else "-"
    lines = [
        f"round {state.round}, step {state.step}, {state.phase}"
        + (f" ({state.ended})" if state.ended else f": seat_{seat} ({state.seats[seat].name}) to act"),
        f"  hand: {' '.join(c.code for c in state.seats[seat].hand)}",
        f"  pile: {top} ({len(state.pile)} cards), stock: {len(state.stock)}",
    ]
    for (name, _), side in zip(sides, state.sides, strict=True):
        melds = "  ".join(" ".join(c.code for c in meld) for meld in side.melds) or "-"
        lines.append(f"  {name}: {melds}")
    return "\n".join(lines)
