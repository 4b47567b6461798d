"""``make simulate``: bot rounds in process under every preset, every invariant checked at every step.

    python -m bench.simulate --rounds 1000            # every preset
    python -m bench.simulate --rounds 50 --preset pagat --preset wages

Per round (seed = the round's index; greedy seats on one side, random on the other, sides swapped
every other round): every card accounted for after every action (each deck: 52 cards and the rules' jokers); every
action accepted is also accepted by the matching check function (``check_discard_pile`` and, for an
opening, ``check_opening`` for a take; ``validate_meld`` for each meld and addition and
``check_opening`` for an opening; ``check_going_out`` for the side that went out); the round ends;
its score equals ``score_round_request`` (the function behind ``POST /v1/rounds/score``) on the end
state's request body; and replaying the deal and the log reproduces every state. Prints a table
per preset (``refused``: candidates of the policies the step refused; they choose from the bodies the
view lists) and a JSON summary (``--json``); exits 1 on any invariant failure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from handfoot.engine import check_discard_pile, check_going_out, check_opening, score_round_request, validate_meld
from handfoot.engine.cards import deck, parse_cards
from handfoot.engine.errors import PlayError
from handfoot.engine.play import State, new_round, score, score_body, step, to_mapping
from handfoot.engine.play.bots import actor, greedy_policy, random_policy, view
from handfoot.engine.presets import PRESETS


def table_for(preset: str) -> list[tuple[str, list[str]]]:
    """Two sides of two players where the preset allows partners, else two players alone."""
    rules = PRESETS[preset].rules
    per = min(max(2, rules.players_per_team_min), rules.players_per_team_max)
    sides = max(2, rules.teams_min)
    return [(f"Side {j + 1}", [f"P{j + 1}.{k + 1}" for k in range(per)]) for j in range(sides)]


class Timer:
    """Seconds spent in ``step`` and in the check functions, by action type."""

    def __init__(self) -> None:
        self.step: Counter[str] = Counter()
        self.check: Counter[str] = Counter()
        self.count: Counter[str] = Counter()
        self.refused = 0  # candidates the policies gave that the step refused (they choose from the view's list)


def check_action(prev: State, action: dict[str, Any], nxt: State, timer: Timer) -> list[str]:
    """The matching check functions on an accepted action: what they refuse (empty: all agree)."""
    rules, kind = prev.rules, action["type"]
    seat = prev.seats[action["seat"]]
    side = prev.sides[seat.side]
    failures: list[str] = []
    started = time.perf_counter()
    if kind == "take_pile":
        cards = parse_cards(action.get("cards", []))
        extra = [parse_cards(m) for m in action.get("melds", [])]
        if not check_discard_pile(
            seat.hand, prev.pile, rules, side.melds, prev.pile_taken, prev.frozen_turns > 0, side.burn
        ).allowed:
            failures.append("check_discard_pile refused an accepted take")
        if (
            not side.melds
            and not check_opening(
                [(prev.pile[0], *cards), *extra],
                rules,
                prev.round,
                (prev.pile[0],),
                side.score if rules.opening_thresholds else None,
                prev.pile_taken,
            ).met
        ):
            failures.append("check_opening refused an accepted opening by a take")
    elif kind == "meld":
        new = [parse_cards(m) for m in action.get("melds", [])]
        for cards in new:
            if not validate_meld(cards, rules).valid:
                failures.append(f"validate_meld refused an accepted meld {action}")
        for add in action.get("add", []):
            if not validate_meld(parse_cards(add["cards"]), rules, side.melds[add["to"]]).valid:
                failures.append(f"validate_meld refused an accepted addition {action}")
        if (
            not side.melds
            and not check_opening(new, rules, prev.round, (), side.score if rules.opening_thresholds else None).met
        ):
            failures.append("check_opening refused an accepted opening")
    if nxt.ended == "went_out" and nxt.out_side is not None:
        out = nxt.sides[nxt.out_side]
        players = [nxt.seats[i].player_state() for i in nxt.seats_of(nxt.out_side)]
        if not check_going_out(out.melds, players, rules, nxt.round).met:
            failures.append("check_going_out refused the side that went out")
    timer.check[kind] += time.perf_counter() - started
    return failures


def play_checked(preset: str, seed: int, timer: Timer) -> tuple[State, list[dict[str, Any]], list[str]]:
    """One round with every invariant; the end state, the log and the failures."""
    sides = table_for(preset)
    state = new_round(preset, sides, seed)
    total = state.rules.decks_for(len(state.seats)) * len(deck(state.rules.jokers_per_deck))
    greedy_side = seed % 2
    rng = random.Random(seed)
    states, log, failures = [state], [], []
    if state.cards_in_play() != total:
        failures.append(f"deal: {state.cards_in_play()} cards, not {total}")
    while state.phase != "ended":
        if len(log) > 20_000:
            failures.append("the round did not end in 20,000 actions")
            break
        seat = actor(state)
        policy = greedy_policy if state.seats[seat].side == greedy_side else random_policy
        for action in policy(view(state, seat), state.rules, rng):
            started = time.perf_counter()
            try:
                nxt = step(state, action)
            except PlayError:
                timer.refused += 1
                continue
            timer.step[action["type"]] += time.perf_counter() - started
            timer.count[action["type"]] += 1
            break
        else:
            failures.append(f"no candidate accepted at step {state.step}")
            break
        failures += check_action(state, action, nxt, timer)
        if nxt.cards_in_play() != total:
            failures.append(f"step {nxt.step}: {nxt.cards_in_play()} cards, not {total}")
        state = nxt
        states.append(state)
        log.append(action)
    if state.phase == "ended":
        mine = [(b.name, b.total, tuple(b.lines)) for b in score(state).teams]
        theirs = [(b.name, b.total, tuple(b.lines)) for b in score_round_request(score_body(state)).teams]
        if mine != theirs:
            failures.append("the round's score differs from POST /v1/rounds/score on its end state")
    replayed = new_round(preset, sides, seed)
    if to_mapping(replayed) != to_mapping(states[0]):
        failures.append("replay: the deal differs")
    for k, action in enumerate(log):
        replayed = step(replayed, action)
        if replayed != states[k + 1]:
            failures.append(f"replay: state {k + 1} differs")
            break
    return state, log, failures


def simulate(preset: str, rounds: int) -> dict[str, Any]:
    """``rounds`` checked rounds of ``preset``: the figures and failures."""
    timer = Timer()
    ended: Counter[str] = Counter()
    actions: list[int] = []
    wins = Counter[str]()
    failures: list[str] = []
    started = time.perf_counter()
    for seed in range(rounds):
        state, log, failed = play_checked(preset, seed, timer)
        failures += [f"seed {seed}: {f}" for f in failed]
        actions.append(len(log))
        if state.phase != "ended":
            continue
        ended[state.ended or ""] += 1
        totals = [b.total for b in score(state).teams]
        greedy, other = totals[seed % 2], max(t for j, t in enumerate(totals) if j != seed % 2)
        wins["greedy" if greedy > other else "random" if other > greedy else "tie"] += 1
    seconds = time.perf_counter() - started
    step_us = {k: 1e6 * timer.step[k] / timer.count[k] for k in timer.count}
    check_us = {k: 1e6 * timer.check[k] / timer.count[k] for k in timer.count if timer.check[k]}
    return {
        "preset": preset,
        "rounds": rounds,
        "seconds": round(seconds, 2),
        "rounds_per_second": round(rounds / seconds, 2),
        "actions_per_round": round(sum(actions) / max(1, len(actions)), 1),
        "actions": sum(actions),
        "refused": timer.refused,
        "ended": dict(ended),
        "greedy_win_rate": round(wins["greedy"] / max(1, rounds), 3),
        "wins": dict(wins),
        "step_us": {k: round(v, 1) for k, v in step_us.items()},
        "check_us": {k: round(v, 1) for k, v in check_us.items()},
        "failures": failures[:20],
        "failure_count": len(failures),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per preset (default 1000)")
    parser.add_argument("--preset", action="append", help="a preset id (repeatable; default: every preset)")
    parser.add_argument("--json", help="write the summary to this file")
    args = parser.parse_args(argv)
    results = []
    print(
        f"{'preset':14} {'rounds':>6} {'rounds/s':>8} {'actions':>7} {'out':>5} {'stock':>5} "
        f"{'greedy':>6} {'step us':>8} {'check us':>8} {'refused':>7} failures"
    )
    for preset in args.preset or list(PRESETS):
        r = simulate(preset, args.rounds)
        results.append(r)
        meld_step, meld_check = r["step_us"].get("meld", 0.0), r["check_us"].get("meld", 0.0)
        print(
            f"{preset:14} {r['rounds']:>6} {r['rounds_per_second']:>8} {r['actions_per_round']:>7} "
            f"{r['ended'].get('went_out', 0):>5} {r['ended'].get('stock_out', 0):>5} "
            f"{r['greedy_win_rate']:>6} {meld_step:>8.1f} {meld_check:>8.1f} {r['refused']:>7} {r['failure_count']}",
            flush=True,
        )
        for failure in r["failures"]:
            print("   ", failure)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    return 1 if any(r["failure_count"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
