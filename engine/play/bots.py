"""Two reference policies, for tests, the simulation and as examples for bot authors.

A policy reads only what its seat may see (a :func:`~handfoot.engine.play.view.view`) and the rules
in force, and returns candidate actions, best first, each one of the bodies the view lists (an
entry's ``send``, with the seat's ``seat`` added): what the view lists the step accepts, so the
first candidate is taken; the driver (:func:`choose`, or a bot at an HTTP table) sends them in
order until one is accepted all the same.

- :func:`random_policy`: a random listed move (the pile or the stock, a meld half the time, "May I
  go out?" now and then, a random answer and a random discard).
- :func:`greedy_policy`: takes the pile when it may, melds the largest combination listed, asks to
  go out once only the partner's yes is missing, and discards its least useful card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from handfoot.engine.cards import rank_of as _rank
from handfoot.engine.errors import PlayError
from handfoot.engine.play import listing
from handfoot.engine.play.state import State
from handfoot.engine.play.step import step
from handfoot.engine.play.view import view
from handfoot.engine.rules import RuleSet

Action = dict[str, Any]
Policy = Callable[[dict[str, Any], RuleSet, random.Random], list[Action]]


def _find(actions: Sequence[Action], kind: str) -> Action | None:
    for action in actions:  # a loop: a generator is a function made and called
        if action["type"] == kind:
            return action
    return None


def _send(v: dict[str, Any], kind: str) -> list[Action]:
    """The bodies the view lists for ``kind`` (none when it is not open), each with the seat's ``seat``."""
    entry = _find(v["actions"], kind)
    out: list[Action] = []
    if entry:
        seat = v["seat"]
        for body in entry["send"]:
            out.append({**body, "seat": seat})
    return out


def meld_parts(v: dict[str, Any], rules: RuleSet) -> list[Action]:
    """Candidate meld actions of one part each (unchecked) from a view: its hand and its ``meld``
    entry's ``extend`` and ``burn`` (none when no meld is listed), by
    :func:`~handfoot.engine.play.listing.meld_parts`, the listing's own generator (the rl
    environment's macros send them to ``step``, which judges; the reference policies pick from the
    view's ``send``)."""
    meld = _find(v["actions"], "meld")
    return [] if meld is None else listing.meld_parts(v["hand"], meld["extend"], meld["burn"], rules)


def _discards(v: dict[str, Any]) -> list[str]:
    """The cards the view lists to discard, least useful first: threes, then cards of ranks held
    least often and matching no open meld, wild cards last; among equals the higher points first
    (fewer points left in hand: the view's ``cards``)."""
    entry = _find(v["actions"], "discard")
    if entry is None:
        return []
    facts = v["cards"]
    counts = Counter(_rank(c) for c in v["hand"])
    side = v["sides"][v["side"]]
    open_ranks = {_rank(c) for m in side["melds"] for c in m if _rank(c) not in ("2", "JK")}  # a meld's naturals

    def usefulness(code: str) -> tuple[int, int]:
        if _rank(code) == "3":
            return (-1, 0)
        if facts[code]["wild"]:
            return (100, 0)
        return (counts[_rank(code)] + (10 if _rank(code) in open_ranks else 0), -facts[code]["points"])

    return sorted(entry["cards"], key=usefulness)  # listed in card order: ties keep it


def greedy_policy(v: dict[str, Any], rules: RuleSet, rng: random.Random) -> list[Action]:
    """Take the pile when it may, meld the largest combination listed, ask to go out when only the
    partner's yes is missing, discard the least useful card."""
    seat = v["seat"]
    if _find(v["actions"], "answer"):
        return [{"type": "answer", "yes": True, "seat": seat}]
    if v["phase"] == "draw":
        return [*_send(v, "take_pile"), *_send(v, "draw")]
    out: list[Action] = []
    going_out = v["going_out"] or {}
    if going_out.get("problems") == ["partner_not_asked"]:
        out += _send(v, "ask")  # before the last melds: a yes lets it meld everything
    out += _send(v, "meld")[:1]  # the largest combination listed first; the next view lists what is left
    out += [{"type": "discard", "card": c, "seat": seat} for c in _discards(v)]
    return out


def random_policy(v: dict[str, Any], rules: RuleSet, rng: random.Random) -> list[Action]:
    """A random listed move: an answer at random; the pile (when open) or the stock at random; a
    random meld half the time, else a random discard (asking now and then)."""
    if _find(v["actions"], "answer"):
        return [rng.choice(_send(v, "answer"))]
    if v["phase"] == "draw":
        takes, draw = _send(v, "take_pile"), _send(v, "draw")
        return [rng.choice(takes), *draw] if takes and rng.random() < 0.5 else draw
    out: list[Action] = []
    melds = _send(v, "meld")
    if melds and rng.random() < 0.5:
        out.append(rng.choice(melds))
    if rng.random() < 0.1:
        out += _send(v, "ask")
    discards = _send(v, "discard")
    rng.shuffle(discards)
    return out + discards


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
