"""What one seat may see: its own cards, every table, the pile's top and size, counts of the rest,
and the actions open to it now, described so that a bot can choose without guessing.

A view never holds another seat's cards, a foot not picked up (its own included), the stock's order
or the seed while the round is in play; once it has ended, the seed and every seat's cards are
public (for audit and replay) with the score.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from handfoot.engine.breakdown import Line
from handfoot.engine.cards import DECK, codes
from handfoot.engine.errors import Problem
from handfoot.engine.melds import card_points
from handfoot.engine.play.end import score
from handfoot.engine.play.legal import facts
from handfoot.engine.play.listing import going_out, open_actions
from handfoot.engine.play.state import Seat, State, set_seat_view, set_viewed
from handfoot.engine.rules import RuleSet, per_rules
from handfoot.engine.scoring import book_values
from handfoot.engine.table import Table

_LINE_FIELDS = Line._fields
_SIDE_MEMBERS = ("name", "melds", "complete", "books", "book_values", "red_threes", "burn", "score")
_complete = attrgetter("complete")


def view(state: State, seat: int, listing: bool = True, shared: bool = False) -> dict[str, Any]:
    """The view of seat ``seat`` (an index) as plain JSON data. Members: ``seat``, ``round``,
    ``step`` (the round's actions so far), ``phase``, ``turn``, ``hand``, ``foot_size`` (``None`` once picked up),
    ``played_from_foot``, ``sides`` (name, melds, books by kind, red threes, burn, score before the
    round), ``seats`` (name, side, hand size, foot size), ``pile`` (top, size, frozen, taken),
    ``stock_size``, ``opening_minimum``, ``contract``, ``asked``, ``permission``, ``answerer``,
    ``cards`` (each card of the hand and the pile's top: ``points`` and ``wild``), ``going_out``
    (in the seat's play phase, whether emptying its hand now would go out: ``allowed``, ``problems``;
    else ``None``), ``actions`` (open to this seat now, each with the bodies to send:
    :func:`~handfoot.engine.play.listing.open_actions`), ``history`` (the round's public events, oldest
    first: the state's own event mappings, shared rather than copied for every view, so a reader
    must not change them); once ended also ``ended``,
    ``out_side``, ``seed``, ``hands``/``feet`` of every seat and ``score`` (each side's total and lines).
    ``listing=False`` leaves out ``actions`` and ``going_out`` (the step's checks asked of every
    candidate: most of a view's cost), for a reader that knows its moves otherwise (the rl mask).
    ``shared=True`` hands out the sides and seats (each a mapping kept with it), each card's mapping
    (kept with the rule set) and the history (the state's tuple) as they are kept rather than
    copies, for a reader that reads them and changes none (the environment's encoder): a change
    to them would show in later views."""
    # loops rather than comprehensions: a comprehension is a function made and called each time
    rules = state.rules
    me = state.seats[seat]
    sides = []
    for j in range(len(state.sides)):
        sides.append(_side(state, j, rules, shared))
    by_code = _facts_by_code(rules)
    hand = []
    cards = {}  # each card's facts copied, unless shared: a caller may change them
    for card in me.hand:
        code = card.code
        hand.append(code)
        if code not in cards:
            cards[code] = by_code[code] if shared else by_code[code].copy()
    pile = state.pile
    top = pile[0].code if pile else None
    if top is not None and top not in cards:
        cards[top] = by_code[top] if shared else by_code[top].copy()
    seats = []
    for s in state.seats:
        part = s._view  # kept by a shared view; a view that copies keeps none (most seats of a fresh state)
        if shared:
            seats.append(part or _seat_part(s))
        else:
            seats.append(_seat_dict(s) if part is None else part.copy())
    out: dict[str, Any] = {
        "seat": seat,
        "side": me.side,
        "round": state.round,
        "step": state.step,
        "phase": state.phase,
        "turn": state.turn,
        "hand": hand,
        "foot_size": None if me.foot is None else len(me.foot),
        "played_from_foot": me.played_from_foot,
        "sides": sides,
        "seats": seats,
        "pile": {"top": top, "size": len(pile), "frozen": state.frozen_turns > 0, "taken": state.pile_taken},
        "stock_size": len(state.stock),
        "opening_minimum": rules.opening_minimum_for(state.round, state.sides[me.side].score),
        "contract": rules.contract_for(state.round).as_dict(),
        "asked": state.asked,
        "permission": state.permission,
        "answerer": state.answerer,
        "cards": cards,
    }
    if listing:
        table = state.table(me.side)
        out["going_out"] = _going_out(state, seat, table)
        out["actions"] = open_actions(state, seat, table)
    out["history"] = state.history if shared else list(state.history)
    if state.phase == "ended":
        result = score(state)
        out |= {
            "ended": state.ended,
            "out_side": state.out_side,
            "seed": state.seed,
            "hands": [codes(s.hand) for s in state.seats],
            "feet": [None if s.foot is None else codes(s.foot) for s in state.seats],
            "score": [
                {"name": b.name, "total": b.total, "lines": [line._asdict() for line in b.lines]} for b in result.teams
            ],
        }
    return out


def _side(state: State, j: int, rules: RuleSet, shared: bool = False) -> dict[str, Any]:
    """Side ``j`` as a view shows it under ``rules`` (the state's: name, melds as card strings, each
    meld's ``complete``, books by kind, book values, red threes, burn, score), every member a new
    list or dict, so that a caller changing its view changes nothing kept (with ``shared``, the
    members of its part kept, as they are). A side viewed before under the same rules (a step
    shares the sides it does not change) is copied from its part kept (:func:`_side_part`); a side
    viewed the first time without ``shared`` (every side of a state read back from its JSON form)
    is read from the side and its table, and keeps nothing but that it was viewed: a part kept
    costs a view that is the only one of its side more than it saves."""
    held = state.sides[j]
    kept = held._view  # read here first: one call a side, not two, where it is kept
    if kept is None or kept[0] is not rules:
        if held._viewed is not rules and not shared:
            set_viewed(held, rules)
            _, complete, books, values, _ = _table_part(state.table(j), rules)
            melds = []
            for meld in held.melds:  # loops, not comprehensions (each a function made and called)
                strings = []
                for card in meld:
                    strings.append(card.code)
                melds.append(strings)
            return {
                "name": held.name,
                "melds": melds,
                "complete": list(complete),
                "books": books.copy(),
                "book_values": list(map(dict.copy, values)),
                "red_threes": list(map(_code, held.red_threes)) if held.red_threes else [],
                "burn": list(map(_code, held.burn)) if held.burn else [],
                "score": held.score,
            }
        kept = _side_part(state, j)
    if shared:
        return kept[2]
    name, melds, complete, books, values, red_threes, burn, score = kept[1]
    return {
        "name": name,
        "melds": list(map(list.copy, melds)),
        "complete": list(complete),
        "books": books.copy(),
        "book_values": list(map(dict.copy, values)),
        "red_threes": list(red_threes),
        "burn": list(burn),
        "score": score,
    }


def _seat_dict(seat: Seat) -> dict[str, Any]:
    """What a view shows of ``seat``: name, side, hand and foot sizes, whether it has played from its foot."""
    return {
        "name": seat.name,
        "side": seat.side,
        "hand_size": len(seat.hand),
        "foot_size": None if seat.foot is None else len(seat.foot),
        "played_from_foot": seat.played_from_foot,
    }


def _seat_part(seat: Seat) -> dict[str, Any]:
    """:func:`_seat_dict` made once and kept on the :class:`~handfoot.engine.play.state.Seat` (the
    states that keep the seat share it): never handed out but to a ``shared`` view (a view copies it)."""
    part = _seat_dict(seat)
    set_seat_view(seat, part)
    return part


def _table_part(table: Table, rules: RuleSet) -> _TablePart:
    """What a view shows of a side that its table and the rules alone decide (each meld's
    ``complete``, books by kind, book values), with the rules: never handed out (a view copies
    them), made once per table analysed (tables are kept by their melds under the rules they were
    analysed by: ``table.kept_table``) by the table's identity, the table kept with them."""
    found = _TABLE_PARTS.get(id(table))
    if found is None or found[0] is not rules:
        if len(_TABLE_PARTS) >= _TABLE_PARTS_KEPT:  # a bound on memory: start again
            _TABLE_PARTS.clear()
        found = _TABLE_PARTS[id(table)] = (
            rules,
            tuple(map(_complete, table.checks)),
            table.books.as_dict(),
            _value_dicts(book_values(table, rules)),
            table,
        )
    return found


_TablePart = tuple[RuleSet, tuple[bool, ...], dict[str, int], tuple[dict[str, Any], ...], Table]
#: :func:`_table_part` made, by the table's id (an object's id is never another's while it lives).
_TABLE_PARTS: dict[int, _TablePart] = {}
_TABLE_PARTS_KEPT = 1024


_code = attrgetter("code")


def _side_part(state: State, j: int) -> tuple[RuleSet, tuple[Any, ...], dict[str, Any]]:
    """What a view shows of side ``j`` (:func:`_side`): the rules it was made under, its members in
    :data:`_SIDE_MEMBERS`' order and the same as a ``shared`` view's mapping; never handed out (a
    view copies them), but to a ``shared`` view: made on the side's second view under the state's
    rules (its first, for a ``shared`` view) and kept on the :class:`~handfoot.engine.play.state.Side`,
    so that the states that keep the side share it."""
    held, rules = state.sides[j], state.rules
    kept = held._view
    if kept is None or kept[0] is not rules:
        table = state.table(j)
        part = (
            held.name,
            tuple([[c.code for c in m] for m in held.melds]),  # lists kept, never handed out: copied
            tuple(map(_complete, table.checks)),
            table.books.as_dict(),
            _value_dicts(state.book_values(j)),
            [c.code for c in held.red_threes],
            [c.code for c in held.burn],
            held.score,
        )
        kept = (rules, part, dict(zip(_SIDE_MEMBERS, part, strict=True)))
        object.__setattr__(held, "_view", kept)
    return kept


def _value_dicts(lines: tuple[Line, ...]) -> tuple[dict[str, Any], ...]:
    """Book value ``lines`` as a view shows them (one mapping a line), never handed out (a view
    copies them): made once per lines (a rule set's book values are a few dozen)."""
    found = _VALUE_DICTS.get(lines)
    if found is None:
        if len(_VALUE_DICTS) >= _VALUE_DICTS_KEPT:  # a bound on memory: start again
            _VALUE_DICTS.clear()
        found = _VALUE_DICTS[lines] = tuple(dict(zip(_LINE_FIELDS, line, strict=True)) for line in lines)
    return found


_VALUE_DICTS: dict[tuple[Line, ...], tuple[dict[str, Any], ...]] = {}
_VALUE_DICTS_KEPT = 1024


@per_rules
def _facts_by_code(rules: RuleSet) -> dict[str, dict[str, Any]]:
    """What a view's ``cards`` says of each card (``points`` as scoring counts it, ``wild``), by
    card string: one mapping per card of a deck under ``rules``, copied into each view."""
    return {c.code: {"points": card_points(c, rules), "wild": c.is_wild} for c in DECK}


def _going_out(state: State, seat: int, table: Table) -> dict[str, Any] | None:
    """:func:`~handfoot.engine.play.listing.going_out` (``allowed``, ``problems``: codes) with
    ``errors``: each problem as ``{"pointer", "code", "detail"}``, in ``problems``' order, ``pointer``
    a JSON Pointer into this view (:func:`problem_pointer`); ``None`` outside the seat's play."""
    if state.phase != "play" or seat != state.turn:
        return going_out(state, seat, table)  # None: the listing's answer at any other moment
    problems = facts(state, seat).going_out(state)  # each with its own path: a player's, the side's
    if not problems:
        return {"allowed": True, "problems": [], "errors": []}
    side = state.seats[seat].side
    if state._by_side is None:
        state.seats_of(side)  # the seats of each side: one mapping per seating, kept on the state
    seating = state._by_side
    # the reasons are made once per rule set and what they read (going_out.going_out_reasons), so
    # their codes and errors are made once per reasons, side and seating: by the problems' and the
    # seating's identities, each kept with them (an object's id is never another's while it lives)
    key = (side, id(seating), *map(id, problems))
    made = _GOING_OUT.get(key)
    if made is None:
        if len(_GOING_OUT) >= _GOING_OUT_KEPT:  # a bound on memory: start again
            _GOING_OUT.clear()
        mates = state.seats_of(side)
        made = _GOING_OUT[key] = (
            [p.code for p in problems],
            [{"pointer": _pointer(p, side, mates), "code": p.code, "detail": p.detail} for p in problems],
            (seating, tuple(problems)),
        )
    return {"allowed": False, "problems": made[0].copy(), "errors": list(map(dict.copy, made[1]))}


#: :func:`_going_out`'s answers made (never handed out: copied), by side and the seating's and the
#: problems' ids: the problems' codes, their errors, and the seating and problems (kept).
_GOING_OUT: dict[tuple[Any, ...], tuple[list[str], list[dict[str, Any]], tuple[Any, ...]]] = {}
_GOING_OUT_KEPT = 1024


def problem_pointer(state: State, seat: int, problem: Problem) -> str:
    """Where in ``seat``'s view a going-out problem lies, as a JSON Pointer (RFC 6901): a player's
    foot not picked up ``/seats/<seat>/foot_size``, not played from ``/seats/<seat>/played_from_foot``;
    the contract ``/sides/<side>/books``; the partner's yes ``/permission``; the final discard
    ``/hand``; else ``""`` (the view as a whole). Two problems of one code about two seats differ."""
    side = state.seats[seat].side
    return _pointer(problem, side, state.seats_of(side))


def _pointer(problem: Problem, side: int, mates: list[int]) -> str:
    """:func:`problem_pointer` of a problem of side ``side``, whose seats are ``mates``."""
    path = problem.path
    if len(path) == 3 and path[0] == "players" and isinstance(path[1], int):
        member = "foot_size" if path[2] == "foot" else "played_from_foot"
        return f"/seats/{mates[path[1]]}/{member}"
    code = problem.code
    if code == "contract_not_met":
        return f"/sides/{side}/books"
    return _POINTERS.get(code, "")


_POINTERS = {"partner_not_asked": "/permission", "going_out_needs_discard": "/hand"}
