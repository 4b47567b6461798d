"""A policy trained on the environment, seated at an HTTP table (docs/bots.md, "A policy trained on
the environment"; docs/rl.md, "A trained policy at an HTTP table").

    HANDFOOT_URL=http://127.0.0.1:8000 python examples/rl_table_bot.py

It trains a tiny linear policy on ``handfoot_v0`` (a second or two of numpy: random play, then one
ridge regression an index of the round's margin on the observation), then plays seat 0 of a new
one-round table against the reference bots. At the table it sees what any seat sees, its view: the
observation is ``encode(sv.view)``, the encoder the environment uses, and its moves are
``listed_moves(sv.view)`` (each index the view lists a body of, with the body), so every body it
sends is one the table accepts.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from handfoot.client import Client, GameTeamInput, SeatView
from handfoot.client.bots import Action, Bot, BotSummary, policy_choose
from handfoot.rl.actions import ACTION_COUNT
from handfoot.rl.handfoot_v0 import raw_env
from handfoot.rl.observation import SIZE, encode
from handfoot.rl.seat import listed_moves

Array = npt.NDArray[np.float64]


class LinearPolicy:
    """One linear scorer an index over the observation (``weights``: ``(ACTION_COUNT, SIZE + 1)``,
    the last column a bias): the legal index of highest score is played."""

    def __init__(self, weights: Array) -> None:
        self.weights = weights
        self.decisions = 0

    def scores(self, observation: npt.NDArray[np.float32]) -> Array:
        """Each index's score for ``observation`` (shape ``(ACTION_COUNT,)``)."""
        return self.weights[:, :SIZE] @ observation + self.weights[:, SIZE]

    def choose(self, sv: SeatView) -> list[Action]:
        """The Bot's ``choose``: the bodies the view lists, the best-scored index's first."""
        moves = listed_moves(sv.view)
        scores = self.scores(encode(sv.view))
        self.decisions += 1
        return [moves[index] for index in sorted(moves, key=lambda i: -scores[i])]


def play_randomly(rounds: int, seed: int) -> tuple[Array, Array, Array]:
    """``rounds`` rounds of ``handfoot_v0`` (Pagat) by random legal indexes: every step's
    observation, index and the round's margin of the side that chose it."""
    rng = random.Random(seed)
    observations: list[npt.NDArray[np.float32]] = []
    indexes: list[int] = []
    agents: list[str] = []
    margins: list[float] = []
    game = raw_env(preset="pagat", seed=seed, rounds=rounds)
    game.reset()
    start = 0
    for agent in game.agent_iter():
        observation, _, done, truncated, _ = game.last()
        if done or truncated:
            game.step(None)
            continue
        index = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        observations.append(observation["observation"])
        indexes.append(index)
        agents.append(agent)
        played = game.round
        game.step(index)
        if game.round != played or all(game.terminations.values()):  # the round ended: its margins
            margins += [game.rewards[a] for a in agents[start:]]
            start = len(agents)
    return np.array(observations, dtype=np.float64), np.array(indexes), np.array(margins)


def train(rounds: int = 4, seed: int = 0, ridge: float = 1.0) -> LinearPolicy:
    """A :class:`LinearPolicy` fitted to ``rounds`` rounds of random play: for each index, the ridge
    regression of the round's margin on the observations where it was played (an index never played
    scores 0)."""
    observations, indexes, margins = play_randomly(rounds, seed)
    weights = np.zeros((ACTION_COUNT, SIZE + 1))
    rows = np.hstack([observations, np.ones((len(observations), 1))])
    for index in np.unique(indexes):
        x, y = rows[indexes == index], margins[indexes == index]
        # ridge in its dual form: an index is played a few dozen times, far fewer than the features
        weights[index] = x.T @ np.linalg.solve(x @ x.T + ridge * np.eye(len(x)), y)
    return LinearPolicy(weights)


def play_at_table(client: Client, policy: LinearPolicy, seed: int = 2026) -> list[BotSummary]:
    """One round at a new Pagat table: ``policy`` at seat 0, the greedy bot at seat 2 (its partner),
    the random bot at seats 1 and 3. Every seat's :class:`BotSummary`, in seat order."""
    teams: list[GameTeamInput] = [
        {"name": "Trained", "players": ["Ann", "Cy"]},
        {"name": "Random", "players": ["Bo", "Di"]},
    ]
    table = client.create_table(name="Trained policy", preset="pagat", teams=teams, seed=seed, rules={"rounds": 1})
    minds: list[Any] = [
        policy.choose,
        policy_choose("random", seed=1),
        policy_choose("greedy", seed=2),
        policy_choose("random", seed=3),
    ]
    summaries: list[Any] = [None] * len(minds)

    def seat(k: int, token: str) -> None:
        summaries[k] = Bot(Client(client.base_url), table.id, token, minds[k]).play()

    threads = [threading.Thread(target=seat, args=(k, token)) for k, token in enumerate(table.tokens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return summaries


def main() -> None:
    policy = train()
    with Client() as hf:
        mine, *_ = play_at_table(hf, policy)
    print(f"trained policy at seat 0: {mine.actions} actions, {mine.refused} refused")
    print("round points: " + ", ".join(f"{side} {points:,}" for side, points in mine.totals.items()))


if __name__ == "__main__":
    main()
