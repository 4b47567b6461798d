"""A policy of your own, for the arena and a table (docs/bots.md, "Your own policy").

    handfoot arena --policies examples.policy_bot:policy,greedy --matches 10
    handfoot play --policy examples.policy_bot:policy --others planner

The policy takes what the view lists and orders it: answer its partner yes once it holds five cards
or fewer, take the pile whenever it may, meld the largest body listed, draw, then discard the card
of the rank it holds fewest of (a wild card last). Every body it returns is one the view lists, so
the table never refuses it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from handfoot.engine.rules import RuleSet


def _discard_key(card: str, counts: Counter[str], wild: dict[str, bool]) -> tuple[bool, int, str]:
    return wild.get(card, False), counts[card[:-1]], card


def policy(view: dict[str, Any], rules: RuleSet, rng: random.Random) -> list[dict[str, Any]]:
    """The seat's view, the rules in force and the seat's random.Random -> candidates, best first."""
    listed = {entry["type"]: entry["send"] for entry in view["actions"]}
    hand: list[str] = view["hand"]
    if "answer" in listed:
        return [body for body in listed["answer"] if body["yes"] is (len(hand) <= 5)]
    candidates: list[dict[str, Any]] = []
    candidates += listed.get("take_pile", [])
    candidates += sorted(listed.get("meld", []), key=lambda body: -len(str(body)))
    candidates += listed.get("draw", [])
    counts = Counter(card[:-1] for card in hand)
    wild = {code: bool(facts["wild"]) for code, facts in view.get("cards", {}).items()}
    discards = listed.get("discard", [])
    candidates += sorted(discards, key=lambda body: _discard_key(body["card"], counts, wild))
    return candidates or [body for bodies in listed.values() for body in bodies]
