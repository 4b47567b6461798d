"""Play at research speed: the engine's self-play, the RL environment, one seat view, and RLCard's
games, in CPU time (``time.process_time``) in one run.

    python -m bench.play_speed                    # ~1 min: every row, 8 CPU-seconds each
    python -m bench.play_speed --seconds 3 --json # a quick look, the figures as JSON
    valgrind --tool=callgrind python -m bench.play_speed --instructions view --count 200   # and setup
    valgrind --tool=callgrind python -m bench.play_speed --row-instructions env --count 4  # and --count 0

Rows (each runs whole rounds or games until ``--seconds`` of CPU time have passed, the rows taking
turns in ``--slices`` slices so that a drift of the machine's speed falls on every row alike, then
reports the rate over everything it ran):

- ``selfplay``: Pagat, 2 sides of 2, random policy at every seat (``bots.random_policy``: it
  chooses from the seat's view with its listing, then ``step``), seeds 0, 1, 2, ...; actions
  accepted per CPU-second.
- ``env``: ``handfoot_v0`` (Pagat, one round), a random legal index at every step (from the
  action mask, read by ``numpy.flatnonzero`` as the examples read it), the acting seat's
  observation encoded every step; steps per CPU-second.
- ``view``: one seat view with its listing (``play.view``) of the acting seat, on the states a
  random self-play round passes through (fresh copies each pass: nothing computed before is
  reused); views per CPU-second.
- ``gin_rummy``, ``doudizhu``: RLCard's environments (``rlcard.make``), a random legal action
  at every step, the state (observation and legal actions) returned every step; steps per
  CPU-second. Skipped, with a line saying so, when rlcard is not installed (it is in the
  ``bench`` dependency group).

Then the ratios the targets read: an environment step's CPU against a gin-rummy step's and a
doudizhu step's. Figures belong in docs/performance.md, not here.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from handfoot.engine.play import new_round, state_from_mapping, to_mapping, view
from handfoot.engine.play.arena import table_sides
from handfoot.engine.play.bots import actor, play_round, random_policy

Row = dict[str, Any]


class _Runner:
    """One row run in slices: ``once(i)`` (returns how many units it did) for i = 0, 1, ... until
    each slice's CPU seconds are spent; the counts and seconds summed over the slices."""

    def __init__(self, name: str, unit: str, once: Callable[[int], int]) -> None:
        self.name, self.unit, self.once = name, unit, once
        self.done, self.i, self.spent = 0, 0, 0.0

    def slice(self, seconds: float) -> None:
        start = time.process_time()
        while True:
            self.done += self.once(self.i)
            self.i += 1
            if time.process_time() - start >= seconds:
                break
        self.spent += time.process_time() - start

    def row(self) -> Row:
        return _row(self.name, self.unit, self.done, self.spent)


class _Views(_Runner):
    """The view row: each pass views fresh copies of ``states`` (read back from their JSON form,
    untimed), so that no analysis kept on a state from an earlier pass is reused."""

    def __init__(self, states: list[Any]) -> None:
        super().__init__("view", "views", len)
        self.states = states

    def slice(self, seconds: float) -> None:
        spent = 0.0
        while spent < seconds:
            fresh = [state_from_mapping(to_mapping(state)) for state in self.states]
            start = time.process_time()
            for state in fresh:
                view(state, actor(state))
            spent += time.process_time() - start
            self.done += len(fresh)
        self.spent += spent


def _row(name: str, unit: str, done: int, spent: float) -> Row:
    return {"row": name, "unit": unit, "count": done, "cpu_s": round(spent, 3), "per_cpu_s": round(done / spent, 1)}


def selfplay(seed: int) -> int:
    state = new_round("pagat", table_sides("pagat", 2), seed, 1)
    _, log = play_round(state, [random_policy] * len(state.seats), random.Random(seed))
    return len(log)


def env_round(seed: int) -> int:
    import numpy as np

    from handfoot.rl.handfoot_v0 import raw_env

    game = raw_env(preset="pagat")
    game.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    for _agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        game.step(rng.choice(legal))
        steps += 1
    return steps


def _states(seed: int) -> list[Any]:
    state = new_round("pagat", table_sides("pagat", 2), seed, 1)
    _, log = play_round(state, [random_policy] * len(state.seats), random.Random(seed))
    from handfoot.engine.play import step

    out = [state]
    for action in log:
        state = step(state, action)
        out.append(state)
    return out[:-1]


def instructions(what: str, count: int) -> None:
    """``count`` seat views (or RL masks) of fresh copies of one round's states, untimed: run under
    ``valgrind --tool=callgrind`` with ``what`` ``view`` (or ``mask``) and with ``setup`` (the same
    fresh copies made, nothing asked of them), the difference divided by ``count`` is one view's
    (one mask's) instructions. The round is seed 0's; states are used in order, again from the
    start past its end."""
    from handfoot.rl.actions import acting_seat, legal_moves

    states = _states(0)
    fresh = [state_from_mapping(to_mapping(states[i % len(states)])) for i in range(count)]
    # the collector's generations emptied after the set-up, in both runs: else whether a full
    # collection of the set-up's objects falls among the views moves the figure (docs/performance.md)
    gc.collect()
    for state in fresh:
        if what == "setup":
            continue
        if what == "view":
            view(state, actor(state))
        else:
            seat = acting_seat(state)
            assert seat is not None
            legal_moves(state, seat)


def row_instructions(what: str, count: int) -> None:
    """``count`` rounds (games) of the row ``what`` (``selfplay``, ``env``, ``gin-rummy``,
    ``doudizhu``), seeds 0, 1, ..., untimed, after one warm-up round that is not counted; prints
    ``{"row", "count", "units"}`` (actions or steps run). Under ``valgrind --tool=callgrind``, with
    ``count`` and with 0, the difference divided by ``units`` is one action's (step's) instructions:
    a measure the machine's load does not move, for the ratios the targets read."""
    once = {"selfplay": selfplay, "env": env_round}.get(what) or rlcard_game(what)
    if once is None:
        raise SystemExit(f"{what}: rlcard is not installed (pip install --group bench)")
    once(10_000)  # the warm-up: modules loaded, caches made, in both runs
    units = sum(once(seed) for seed in range(count))
    print(json.dumps({"row": what, "count": count, "units": units}))


def rlcard_game(name: str) -> Callable[[int], int] | None:
    try:
        import rlcard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None

    def once(seed: int) -> int:
        game = rlcard.make(name, config={"seed": seed})
        rng = random.Random(seed)
        state, _ = game.reset()
        steps = 0
        while not game.is_over():
            state, _ = game.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return once


def run(seconds: float, slices: int = 4) -> dict[str, Any]:
    """Every row for ``seconds`` of CPU, the rows taking turns in ``slices`` slices (so that a drift
    of the machine's speed during the run falls on every row alike), and the ratios."""
    runners = [_Runner("selfplay", "actions", selfplay), _Runner("env", "steps", env_round), _Views(_states(0))]
    skipped = []
    for name in ("gin-rummy", "doudizhu"):
        once = rlcard_game(name)
        if once is None:
            skipped.append(f"{name}: rlcard is not installed (pip install --group bench)")
        else:
            runners.append(_Runner(name, "steps", once))
    for _ in range(slices):
        for runner in runners:
            runner.slice(seconds / slices)
    rows = [runner.row() for runner in runners]
    by = {row["row"]: row["per_cpu_s"] for row in rows}
    ratios = {
        f"env step / {name} step": round(by[name] / by["env"], 2) for name in ("gin-rummy", "doudizhu") if name in by
    }
    return {"rows": rows, "ratios": ratios, "skipped": skipped}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="CPU seconds per row")
    parser.add_argument("--slices", type=int, default=4, help="the rows take turns in this many slices")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--instructions",
        choices=("view", "mask", "setup"),
        help="untimed, for callgrind: --count views (or masks) of fresh states of one round, nothing else "
        "(setup: the fresh states alone, to subtract)",
    )
    parser.add_argument(
        "--row-instructions",
        choices=("selfplay", "env", "gin-rummy", "doudizhu"),
        help="untimed, for callgrind: --count rounds (games) of one row after a warm-up; prints the units run",
    )
    parser.add_argument("--count", type=int, default=100, help="with --instructions: how many (0: the setup alone)")
    args = parser.parse_args(argv)
    if args.instructions:
        instructions(args.instructions, args.count)
        return 0
    if args.row_instructions:
        row_instructions(args.row_instructions, args.count)
        return 0
    result = run(args.seconds, args.slices)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for row in result["rows"]:
        print(f"{row['row']:<10} {row['per_cpu_s']:>10,.1f} {row['unit']}/CPU-s  ({row['count']} in {row['cpu_s']} s)")
    for name, ratio in result["ratios"].items():
        print(f"{name}: {ratio}x")
    for line in result["skipped"]:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
