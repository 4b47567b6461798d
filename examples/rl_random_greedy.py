"""Random agents against the engine's greedy bot, both through the PettingZoo environment.

    python examples/rl_random_greedy.py --preset pagat --rounds 3 --seed 7

Every seat acts through handfoot.rl.handfoot_v0's fixed action index. Even seats (North-South, or
North and South alone) choose uniformly among the indexes their action mask allows; odd seats ask
the engine's greedy policy (handfoot.engine.play.bots) for its candidates, best first, and play the
first one the index expresses (handfoot.rl.actions.index_for). Prints each side's points in each
round, the rewards each seat was given, and the game's totals. Needs the rl extra
(pip install "handfoot[rl]"); no server.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np

from handfoot.engine.play.bots import greedy_policy
from handfoot.rl import handfoot_v0
from handfoot.rl.actions import index_for


def greedy_index(raw: handfoot_v0.raw_env, agent: str, rng: random.Random) -> int:
    """The index of the greedy policy's first candidate that the index expresses."""
    state = raw.engine_state
    for action in greedy_policy(raw.seat_view(agent), state.rules, rng):
        index = index_for(state, action, raw.moves())
        if index is not None:
            return index
    raise RuntimeError("the greedy policy offered nothing the index expresses")  # its discards always are


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="pagat", help="a preset id (default pagat)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds in the game (default 3)")
    parser.add_argument("--seed", type=int, default=7, help="the first round's deal (default 7)")
    args = parser.parse_args(argv)

    # rewards in points (the environment's default is the normalised margin): the raw environment,
    # whose agents here play only indexes their mask allows
    raw = handfoot_v0.raw_env(preset=args.preset, seed=args.seed, rounds=args.rounds, reward="points")
    raw.reset()
    env = raw
    names = [name for name, _ in raw.sides]
    greedy = [agent for k, agent in enumerate(raw.possible_agents) if k % 2]
    print(f"{args.preset}, {args.rounds} rounds from seed {args.seed}; greedy: {', '.join(greedy)}, random: the others")
    rng = random.Random(args.seed)
    rewards = dict.fromkeys(raw.possible_agents, 0.0)
    shown = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        action: Any = None
        if not (termination or truncation):
            if agent in greedy:
                action = greedy_index(raw, agent, rng)
            else:
                action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        env.step(action)
        result: dict[str, Any] = next(iter(env.infos.values()), {})
        if result.get("round", 0) > shown:
            shown = result["round"]
            points = ", ".join(f"{name} {p}" for name, p in zip(names, result["round_points"], strict=True))
            print(f"round {shown}: {points}")
    print("rewards: " + ", ".join(f"{agent} {int(total)}" for agent, total in rewards.items()))
    print("game: " + ", ".join(f"{name} {total}" for name, total in zip(names, raw.totals, strict=True)))


if __name__ == "__main__":
    main()
