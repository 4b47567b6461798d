"""What one seat may see: its own cards, every table, the pile's top and size, counts of the rest,
and the actions open to it now, described so that a bot can choose without guessing.

A view never holds another seat's cards, a foot not picked up (its own included), the stock's order
or the seed while the round is in play; once it has ended, the seed and every seat's cards are
public (for audit and replay) with the score.
"""

from __future__ import annotations

from typing import Any

from handfoot.engine.breakdown import Line
from handfoot.engine.cards import Card
from handfoot.engine.errors import Problem
from handfoot.engine.melds import card_points
from handfoot.engine.play.end import score
from handfoot.engine.play.legal import facts
from handfoot.engine.play.listing import going_out, open_actions
from handfoot.engine.play.state import State
from handfoot.engine.table import Table

_LINE_FIELDS = Line._fields


def _codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in cards]


def view(state: State, seat: int, listing: bool = True) -> dict[str, Any]:
    """The view of seat ``seat`` (an index) as plain JSON data. Members: ``seat``, ``round``,
    ``step`` (the round's actions so far), ``phase``, ``turn``, ``hand``, ``foot_size`` (``None`` once picked up),
    ``played_from_foot``, ``sides`` (name, melds, books by kind, red threes, burn, score before the
    round), ``seats`` (name, side, hand size, foot size), ``pile`` (top, size, frozen, taken),
    ``stock_size``, ``opening_minimum``, ``contract``, ``asked``, ``permission``, ``answerer``,
    ``cards`` (each card of the hand and the pile's top: ``points`` and ``wild``), ``going_out``
    (in the seat's play phase, whether emptying its hand now would go out: ``allowed``, ``problems``;
    else ``None``), ``actions`` (open to this seat now, each with the bodies to send:
    :func:`~handfoot.engine.play.listing.open_actions`); once ended also ``ended``,
    ``out_side``, ``seed``, ``hands``/``feet`` of every seat and ``score`` (each side's total and lines).
    ``listing=False`` leaves out ``actions`` and ``going_out`` (the step's checks asked of every
    candidate: most of a view's cost), for a reader that knows its moves otherwise (the rl mask)."""
    rules = state.rules
    me = state.seats[seat]
    sides = []
    tables = [state.table(j) for j in range(len(state.sides))]  # the state's own analyses, shared with the listing
    for j, (side, table) in enumerate(zip(state.sides, tables, strict=True)):
        sides.append(
            {
                "name": side.name,
                "melds": [_codes(m) for m in side.melds],
                "complete": [check.complete for check in table.checks],
                "books": table.books.as_dict(),
                "book_values": [dict(zip(_LINE_FIELDS, line, strict=True)) for line in state.book_values(j)],
                "red_threes": _codes(side.red_threes),
                "burn": _codes(side.burn),
                "score": side.score,
            }
        )
    out: dict[str, Any] = {
        "seat": seat,
        "side": me.side,
        "round": state.round,
        "step": state.step,
        "phase": state.phase,
        "turn": state.turn,
        "hand": _codes(me.hand),
        "foot_size": None if me.foot is None else len(me.foot),
        "played_from_foot": me.played_from_foot,
        "sides": sides,
        "seats": [
            {
                "name": s.name,
                "side": s.side,
                "hand_size": len(s.hand),
                "foot_size": None if s.foot is None else len(s.foot),
                "played_from_foot": s.played_from_foot,
            }
            for s in state.seats
        ],
        "pile": {
            "top": state.pile[0].code if state.pile else None,
            "size": len(state.pile),
            "frozen": state.frozen_turns > 0,
            "taken": state.pile_taken,
        },
        "stock_size": len(state.stock),
        "opening_minimum": rules.opening_minimum_for(state.round, state.sides[me.side].score),
        "contract": rules.contract_for(state.round).as_dict(),
        "asked": state.asked,
        "permission": state.permission,
        "answerer": state.answerer,
        "cards": {c.code: {"points": card_points(c, rules), "wild": c.is_wild} for c in (*me.hand, *state.pile[:1])},
        **(
            {
                "going_out": _going_out(state, seat, tables[me.side]),
                "actions": open_actions(state, seat, tables[me.side]),
            }
            if listing
            else {}
        ),
        "history": list(state.history),
    }
    if state.phase == "ended":
        result = score(state)
        out |= {
            "ended": state.ended,
            "out_side": state.out_side,
            "seed": state.seed,
            "hands": [_codes(s.hand) for s in state.seats],
            "feet": [None if s.foot is None else _codes(s.foot) for s in state.seats],
            "score": [
                {"name": b.name, "total": b.total, "lines": [line._asdict() for line in b.lines]} for b in result.teams
            ],
        }
    return out


def _going_out(state: State, seat: int, table: Table) -> dict[str, Any] | None:
    """:func:`~handfoot.engine.play.listing.going_out` (``allowed``, ``problems``: codes) with
    ``errors``: each problem as ``{"pointer", "code", "detail"}``, in ``problems``' order, ``pointer``
    a JSON Pointer into this view (:func:`problem_pointer`); ``None`` outside the seat's play."""
    if state.phase != "play" or seat != state.turn:
        return going_out(state, seat, table)  # None: the listing's answer at any other moment
    problems = facts(state, seat).going_out(state)  # each with its own path: a player's, the side's
    return {
        "allowed": not problems,
        "problems": [p.code for p in problems],
        "errors": [{"pointer": problem_pointer(state, seat, p), "code": p.code, "detail": p.detail} for p in problems],
    }


def problem_pointer(state: State, seat: int, problem: Problem) -> str:
    """Where in ``seat``'s view a going-out problem lies, as a JSON Pointer (RFC 6901): a player's
    foot not picked up ``/seats/<seat>/foot_size``, not played from ``/seats/<seat>/played_from_foot``;
    the contract ``/sides/<side>/books``; the partner's yes ``/permission``; the final discard
    ``/hand``; else ``""`` (the view as a whole). Two problems of one code about two seats differ."""
    side = state.seats[seat].side
    path = problem.path
    if len(path) == 3 and path[0] == "players" and isinstance(path[1], int):
        member = "foot_size" if path[2] == "foot" else "played_from_foot"
        return f"/seats/{state.seats_of(side)[path[1]]}/{member}"
    return {
        "contract_not_met": f"/sides/{side}/books",
        "partner_not_asked": "/permission",
        "going_out_needs_discard": "/hand",
    }.get(problem.code, "")
