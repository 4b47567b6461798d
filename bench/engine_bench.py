"""Engine timings, in process: time per call (timeit), against a floor that only sums card values."""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

from bench.rounds import PAGAT_VALUES, score_body, tally_body, validate_body


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


def per_call_us(fn: Callable[[], object], runs: int, budget_s: float = 0.4) -> list[float]:
    """``runs`` timings of ``fn`` in microseconds per call, each over about ``budget_s`` seconds."""
    timer = timeit.Timer(fn)
    number, took = timer.autorange()
    number = max(1, int(number * budget_s / max(took, 1e-9)))
    return [t / number * 1e6 for t in timer.repeat(repeat=runs, number=number)]


def cases() -> dict[str, Callable[[], object]]:
    from engine import score_round_request, validate_meld_request

    cards, tallies, meld = score_body(), tally_body(), validate_body()
    return {
        "score_cards": lambda: score_round_request(cards),
        "score_tallies": lambda: score_round_request(tallies),
        "validate_meld": lambda: validate_meld_request(meld),
        "floor_score": lambda: floor_score(cards),
        "floor_meld": lambda: floor_meld(meld),
    }


#: Each engine case and the floor it is compared with.
RATIOS = {"score_cards": "floor_score", "score_tallies": "floor_score", "validate_meld": "floor_meld"}
