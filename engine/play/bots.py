"""Two reference policies, for tests, the simulation and as examples for bot authors.

A policy reads only what its seat may see (a :func:`~handfoot.engine.play.view.view`) and the rules
in force, and returns candidate actions, best first; the driver (:func:`play_round`, or a bot at an
HTTP table) sends them in order until one is accepted. The last candidate is always one the rules
accept (a draw, a discard, an answer), so a turn always moves on.

- :func:`random_policy`: a random legal move (a random meld it can make, or a random discard).
- :func:`greedy_policy`: melds what it can (openings, additions, burn, wild books), asks to go out
  once nothing else stands in the way, and discards its least useful card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from handfoot.engine.cards import parse_card
from handfoot.engine.errors import PlayError
from handfoot.engine.melds import card_points
from handfoot.engine.play.state import State
from handfoot.engine.play.step import step
from handfoot.engine.play.view import view
from handfoot.engine.rules import RuleSet

Action = dict[str, Any]
Policy = Callable[[dict[str, Any], RuleSet, random.Random], list[Action]]


def _find(actions: Sequence[Action], kind: str) -> Action | None:
    return next((a for a in actions if a["type"] == kind), None)


def _rank(code: str) -> str:
    return "JK" if code == "JK" else code[:-1]


def _is_wild(code: str) -> bool:
    return code == "JK" or code[:-1] == "2"


def meld_parts(v: dict[str, Any], rules: RuleSet) -> list[Action]:
    """Meld actions the seat could make from its hand, each one part (a new meld, an addition, a
    burn), from the view alone: naturals of a rank with an open meld added to it, ranks of
    ``meld_min`` naturals (or one fewer plus a wild) started, wild cards added to open melds and,
    where the rules have them, wild melds."""
    hand: list[str] = list(v["hand"])
    meld = _find(v["actions"], "meld")
    if meld is None:
        return []
    by_rank: dict[str, list[str]] = {}
    for code in hand:
        if not _is_wild(code) and _rank(code) != "3":
            by_rank.setdefault(_rank(code), []).append(code)
    wilds = [c for c in hand if _is_wild(c)]
    cap = rules.book_max_size or 99
    parts: list[Action] = []
    open_ranks = set()
    for ext in meld["extend"]:
        rank = ext["rank"]
        if rank is None:
            if wilds and ext["size"] < cap:
                parts.append({"type": "meld", "add": [{"to": ext["to"], "cards": wilds[: cap - ext["size"]]}]})
            continue
        open_ranks.add(rank)
        cards = by_rank.pop(rank, [])[: cap - ext["size"]]
        if cards:
            parts.append({"type": "meld", "add": [{"to": ext["to"], "cards": cards}]})
        elif wilds and ext["size"] < cap:
            parts.append({"type": "meld", "add": [{"to": ext["to"], "cards": wilds[:1]}]})
    for rank in meld["burn"]:
        cards = by_rank.pop(rank, [])
        if cards:
            parts.append({"type": "meld", "burn": cards})
    for cards in by_rank.values():
        if len(cards) >= rules.meld_min:
            parts.append({"type": "meld", "melds": [cards[:cap]]})
        elif len(cards) == rules.meld_min - 1 and wilds:
            parts.append({"type": "meld", "melds": [[*cards, wilds[0]]]})
    if rules.all_wild_melds and len(wilds) >= rules.meld_min:
        parts.append({"type": "meld", "melds": [wilds[:cap]]})
    return parts


def _merge(parts: Sequence[Action]) -> Action:
    """One meld action of several parts (a side's opening is one action: its melds count together)."""
    out: Action = {"type": "meld", "melds": [], "add": [], "burn": []}
    used: Counter[str] = Counter()
    for part in parts:
        cards = [
            *(c for m in part.get("melds", []) for c in m),
            *(c for a in part.get("add", []) for c in a["cards"]),
            *part.get("burn", []),
        ]
        if any(used[c] + n > 1 for c, n in Counter(cards).items()) and cards:
            continue  # a wild card offered to two parts: keep the first
        used.update(cards)
        for key in ("melds", "add", "burn"):
            out[key] += part.get(key, [])
    return out


def _discards(v: dict[str, Any], rules: RuleSet) -> list[str]:
    """The hand's distinct cards, least useful first: threes, then cards of ranks held least often
    and matching no open meld, wild cards last; among equals the higher points first (fewer points
    left in hand)."""
    hand = v["hand"]
    counts = Counter(_rank(c) for c in hand)
    side = v["sides"][v["side"]]
    open_ranks = {
        _rank(next(c for c in m if not _is_wild(c))) for m in side["melds"] if any(not _is_wild(c) for c in m)
    }

    def usefulness(code: str) -> tuple[int, int]:
        if _rank(code) == "3":
            return (-1, 0)
        if _is_wild(code):
            return (100, 0)
        return (counts[_rank(code)] + (10 if _rank(code) in open_ranks else 0), -card_points(parse_card(code), rules))

    return sorted(sorted(set(hand)), key=usefulness)  # ties in card order, not set (hash) order


def greedy_policy(v: dict[str, Any], rules: RuleSet, rng: random.Random) -> list[Action]:
    """Meld what it can, ask to go out when only the partner's yes is missing, discard the least
    useful card."""
    seat = v["seat"]
    actions = v["actions"]
    if _find(actions, "answer"):
        return [{"type": "answer", "yes": True, "seat": seat}]
    if v["phase"] == "draw":
        out: list[Action] = []
        take = _find(actions, "take_pile")
        if take and take["allowed"]:
            for cards in take["with"]:
                rest = list(v["hand"])
                for c in cards:
                    rest.remove(c)
                extra = _merge(
                    meld_parts({**v, "hand": rest, "actions": [{"type": "meld", "extend": [], "burn": []}]}, rules)
                )["melds"]
                if take["opening_minimum"] is not None:
                    out.append({"type": "take_pile", "cards": cards, "melds": extra, "seat": seat})
                out.append({"type": "take_pile", "cards": cards, "onto": take["onto"], "seat": seat})
        return [*out, {"type": "draw", "seat": seat}]
    parts = meld_parts(v, rules)
    out = []
    go_out = _find(actions, "go_out")
    if _find(actions, "ask") and go_out and go_out["problems"] == ["partner_not_asked"]:
        out.append({"type": "ask"})  # before the last melds: a yes lets it meld everything
    if parts:
        out.append(_merge(parts))
        out += parts
    out += [{"type": "discard", "card": c} for c in _discards(v, rules)]
    return [{**a, "seat": seat} for a in out]


def random_policy(v: dict[str, Any], rules: RuleSet, rng: random.Random) -> list[Action]:
    """A random legal move: an answer at random; the pile (when allowed) or the stock at random; a
    random meld it can make half the time, else a random discard (asking now and then)."""
    seat = v["seat"]
    actions = v["actions"]
    if _find(actions, "answer"):
        return [{"type": "answer", "yes": rng.random() < 0.5, "seat": seat}]
    if v["phase"] == "draw":
        take = _find(actions, "take_pile")
        draw = {"type": "draw", "seat": seat}
        if take and take["allowed"] and take["with"] and rng.random() < 0.5:
            return [{"type": "take_pile", "cards": rng.choice(take["with"]), "onto": take["onto"], "seat": seat}, draw]
        return [draw]
    out: list[Action] = []
    parts = meld_parts(v, rules)
    if parts and rng.random() < 0.5:
        rng.shuffle(parts)
        out.append(_merge(parts) if rng.random() < 0.5 else parts[0])
    if _find(actions, "ask") and rng.random() < 0.1:
        out.append({"type": "ask"})
    cards = list(_find(actions, "discard")["cards"])  # type: ignore[index]
    rng.shuffle(cards)
    out += [{"type": "discard", "card": c} for c in cards]
    return [{**a, "seat": seat} for a in out]


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def actor(state: State) -> int:
    """The seat to act: the partner asked, else the seat whose turn it is."""
    return state.answerer if state.phase == "answer" and state.answerer is not None else state.turn


def choose(state: State, policy: Policy, rng: random.Random) -> tuple[dict[str, Any], State]:
    """The first of the acting seat's candidates that :func:`step` accepts, and the state after it.

    Raises ``RuntimeError`` if it accepts none (a policy's last candidate is always legal)."""
    v = view(state, actor(state))
    for action in policy(v, state.rules, rng):
        try:
            return action, step(state, action)
        except PlayError:
            continue
    raise RuntimeError(f"no candidate accepted at step {state.step}")


def play_round(
    state: State, policies: Sequence[Policy], rng: random.Random, max_actions: int = 100_000
) -> tuple[State, list[dict[str, Any]]]:
    """Play ``state`` to its end, seat ``i`` choosing by ``policies[i]``; the end state and the log
    of accepted actions."""
    log: list[dict[str, Any]] = []
    while state.phase != "ended" and len(log) < max_actions:
        action, state = choose(state, policies[actor(state)], rng)
        log.append(action)
    return state, log
