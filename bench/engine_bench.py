"""Engine timings, in process: time per call (timeit), against a floor that only sums card values.

``python -m bench.engine_bench`` times every case once (:func:`per_call_us`, one run) and prints
the microseconds per call as JSON: ``make bench`` runs it in one process per run, each with its own
``PYTHONHASHSEED`` (see ``bench.run.bench_engine``).
"""

from __future__ import annotations

import json
import timeit
from collections.abc import Callable
from typing import Any

from bench.rounds import PAGAT_VALUES, readme_body, score_body, side_body, tally_body, validate_body


def floor_score(body: dict[str, Any], values: dict[str, int] = PAGAT_VALUES) -> int:
    """The floor: walk the same body and sum every card's value from a dict. No rules, no checks."""
    total = 0
    for team in body["teams"]:
        for meld in team["melds"]:
            for card in meld:
                total += values[card]
        for card in team["red_threes"]:
            total += values[card]
        for player in team["players"]:
            for card in player["hand"]:
                total += values[card]
            for card in player.get("foot") or ():
                total += values[card]
    return total


def floor_meld(body: dict[str, Any], values: dict[str, int] = PAGAT_VALUES) -> int:
    total = 0
    for card in body["onto"]:
        total += values[card]
    for card in body["cards"]:
        total += values[card]
    return total


def per_call_us(
    fns: dict[str, Callable[[], object]], runs: int, bursts: int = 40, burst_s: float = 0.01
) -> dict[str, list[float]]:
    """``runs`` timings of each of ``fns``, in microseconds per call.

    Each run times every function in ``bursts`` bursts of about ``burst_s`` seconds, the functions
    taking turns burst by burst (so a case and its floor meet the same machine), and keeps each
    function's fastest burst: timeit's advice, as slower bursts measure what else the machine did
    (one long window per case spread its ratio widely on a shared machine: docs/performance.md).
    """
    timers = {name: timeit.Timer(fn) for name, fn in fns.items()}
    numbers = {}
    for name, timer in timers.items():
        number, took = timer.autorange()
        numbers[name] = max(1, int(number * burst_s / max(took, 1e-9)))
    out: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(runs):
        best = dict.fromkeys(fns, float("inf"))
        for _ in range(bursts):
            for name, timer in timers.items():
                best[name] = min(best[name], timer.timeit(numbers[name]) / numbers[name])
        for name, seconds in best.items():
            out[name].append(seconds * 1e6)
    return out


def cases() -> dict[str, Callable[[], object]]:
    from handfoot.engine import score_round_request, validate_meld_request

    cards, tallies, meld, readme = score_body(), tally_body(), validate_body(), readme_body()
    side_8, side_16 = side_body(8), side_body(16)
    return {
        "score_readme": lambda: score_round_request(readme),
        "score_cards": lambda: score_round_request(cards),
        "score_tallies": lambda: score_round_request(tallies),
        "validate_meld": lambda: validate_meld_request(meld),
        "score_8_melds": lambda: score_round_request(side_8),
        "score_16_melds": lambda: score_round_request(side_16),
        "floor_score": lambda: floor_score(cards),
        "floor_readme": lambda: floor_score(readme),
        "floor_meld": lambda: floor_meld(meld),
    }


#: Each engine case and the floor it is compared with.
RATIOS = {
    "score_readme": "floor_readme",
    "score_cards": "floor_score",
    "score_tallies": "floor_score",
    "validate_meld": "floor_meld",
}
#: The most each case may cost, as a multiple of its floor (``make bench`` marks a miss).
TARGETS = {"score_readme": 10.0, "score_cards": 8.0, "validate_meld": 8.0}
#: The cases of one side with 8 and with 16 melds (twice the cards: linear cost is twice the time),
#: by their melds.
SCALING = {"score_8_melds": 8, "score_16_melds": 16}


def main() -> int:
    print(json.dumps({name: values[0] for name, values in per_call_us(cases(), 1).items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
