"""Whether a seat may go out: the going-out rules as play asks them, for the step's checks, the
seat view and its listing, and the RL mask (:mod:`~handfoot.engine.play.legal` reads them from here).

The contract and the feet are :func:`~handfoot.engine.checks.going_out_problems` (the going-out
check's and scoring's rule); play adds the partner's yes and the final discard. Every state of a
turn asks them again of the same books and feet: the answer is made once per rule set and what it
reads, and each caller gets its own list of the (immutable) problems.
"""

from __future__ import annotations

from typing import Any

from handfoot.engine.checks import PlayerState, going_out_problems
from handfoot.engine.errors import Path, Problem
from handfoot.engine.play.state import State
from handfoot.engine.rules import Contract, RuleSet, per_rules

_new = tuple.__new__  # a PlayerState without its Python __new__


def needs_permission(state: State, seat: int) -> bool:
    """Going out needs the partner's yes: ``ask_partner`` and a side of more than one player."""
    return _asks(state, state.seats_of(state.seats[seat].side))


def _asks(state: State, mates: list[int]) -> bool:
    """:func:`needs_permission` of a seat whose side's seats are ``mates``."""
    return state.play.ask_partner and len(mates) > 1


def going_out_reasons(
    state: State, seat: int, books: Contract, played: bool, remaining: int, by_meld: bool
) -> list[Problem]:
    """Why the seat may not leave itself ``remaining`` cards (0: going out now; 1: going out by its
    discard) with its foot picked up (``played``: whether it has played from its foot, as the
    action would leave it): the contract and the feet (``checks.going_out_problems``, the going-out
    check's and scoring's rule, each problem at its own path: ``("melds",)``, ``("players", i,
    ...)``), the partner's yes (``partner_not_asked``; seed 000, seed 001), and, going out now by
    melding, the final discard (``going_out_discard`` required: ``going_out_needs_discard``), these
    two at ``()``. D41."""
    seats, rules = state.seats, state.rules
    mates = state.seats_of(seats[seat].side)
    discard = remaining == 0 and by_meld and rules.going_out_discard == "required"
    # asked before the last melds: 'If the answer is yes, meld everything, or meld all but one
    # and discard it' (seed 000), so a no never leaves a seat holding one card it cannot play
    ask = _asks(state, mates) and state.permission is not True
    # what going_out_problems reads of each player: its name, whether its foot is picked up, and
    # whether it has played from it (a loop: a comprehension is a function made and called)
    read = []
    for i in mates:
        mate = seats[i]
        read.append((mate.name, mate.foot is None, played if i == seat else mate.played_from_foot))
    feet = tuple(read)
    key = (books.clean_books, books.dirty_books, books.wild_books, state.round, discard, ask, feet)
    made = _reasons_made(rules)
    found = made.get(key)
    if found is None:
        if len(made) >= _REASONS_KEPT:  # a bound on memory: start again
            made.clear()
        players = [
            _new(
                PlayerState,
                (seats[i].name, seats[i].hand, seats[i].foot, played if i == seat else seats[i].played_from_foot),
            )
            for i in mates
        ]
        problems = going_out_problems(books, players, rules, state.round)
        if discard:
            problems.append(_NEEDS_DISCARD)
        if ask:
            problems.append(_PARTNER_NOT_ASKED)
        found = made[key] = tuple(problems)
    return list(found)


@per_rules
def _reasons_made(rules: RuleSet) -> dict[tuple[Any, ...], tuple[Problem, ...]]:
    """:func:`going_out_reasons` made under ``rules``, by what it reads."""
    return {}


_REASONS_KEPT = 4096  # a game meets a few dozen books and feet; past this many, start again

# the two going-out problems that read nothing of the state: made once
_NEEDS_DISCARD = Problem(
    "going_out_needs_discard",
    "these rules require the last card to be discarded (going_out_discard required): keep one card to discard",
    (),
)
_PARTNER_NOT_ASKED = Problem(
    "partner_not_asked", 'going out needs the partner\'s yes to "May I go out?" this turn (ask first)', ()
)


def going_out_refusals(
    state: State, seat: int, books: Contract, played: bool, remaining: int, by_meld: bool, at: Path = ()
) -> list[Problem]:
    """:func:`going_out_reasons` as a step refuses them: every problem at ``at`` (the action's
    member that would go out; ``()``: the action as a whole), as the rules it breaks are the
    side's, not a member's."""
    return [Problem(p.code, p.detail, at) for p in going_out_reasons(state, seat, books, played, remaining, by_meld)]
