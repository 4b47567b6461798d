"""What one seat may see: its own cards, every table, the pile's top and size, counts of the rest,
and the actions open to it now, described so that a bot can choose without guessing.

A view never holds another seat's cards, a foot not picked up (its own included), the stock's order
or the seed while the round is in play; once it has ended, the seed and every seat's cards are
public (for audit and replay) with the score.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from handfoot.engine.cards import Card
from handfoot.engine.checks import check_discard_pile
from handfoot.engine.melds import cards_points, validate_meld
from handfoot.engine.play.end import score
from handfoot.engine.play.state import State
from handfoot.engine.play.step import going_out_refusals, needs_permission
from handfoot.engine.table import analyse_table


def _codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in cards]


def view(state: State, seat: int) -> dict[str, Any]:
    """The view of seat ``seat`` (an index) as plain JSON data. Members: ``seat``, ``round``,
    ``step`` (the round's actions so far), ``phase``, ``turn``, ``hand``, ``foot_size`` (``None`` once picked up),
    ``played_from_foot``, ``sides`` (name, melds, books by kind, red threes, burn, score before the
    round), ``seats`` (name, side, hand size, foot size), ``pile`` (top, size, frozen, taken),
    ``stock_size``, ``opening_minimum``, ``contract``, ``asked``, ``permission``, ``answerer``,
    ``actions`` (open to this seat now: :func:`open_actions`); once ended also ``ended``,
    ``out_side``, ``seed``, ``hands``/``feet`` of every seat and ``score`` (each side's total and lines)."""
    rules = state.rules
    me = state.seats[seat]
    sides = []
    for side in state.sides:
        table = analyse_table(side.melds, rules)
        sides.append(
            {
                "name": side.name,
                "melds": [_codes(m) for m in side.melds],
                "books": table.books.as_dict(),
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
        "actions": open_actions(state, seat),
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


def open_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The actions open to ``seat`` now, each ``{"type": ..., ...}`` with what choosing it needs:

    - ``draw``: ``cards`` it gives, ``ends_round`` (an empty stock).
    - ``take_pile``: ``allowed`` (``checks.check_discard_pile`` on the whole hand), ``cards`` it
      takes, ``problems`` (codes, when refused), ``with`` (sets of hand cards that meld the top
      card and make the take, sent with ``onto``: ``check_discard_pile`` and ``validate_meld``
      accept them), ``onto`` (the side's open meld of the top card's rank, which a take goes onto,
      or ``None``: a new meld), ``opening_minimum`` (points still needed by the side's opening, or
      ``None``).
    - ``meld``: ``opening_minimum`` (or ``None`` once the side has melded), ``naturals`` by rank and
      ``wilds`` in hand, ``extend`` (the side's melds that take more cards: ``to``, ``rank``,
      ``size``), ``burn`` (ranks the side may burn), ``keep`` (cards the seat must keep after
      melding unless it may go out: 0 with the foot still down, or where ``last_card_needs_contract``
      is false and play goes on after the last card: D70).
    - ``discard``: ``cards`` (distinct), ``goes_out`` (the last card; where
      ``last_card_needs_contract`` is false, only when the side may go out: else play goes on, D70).
    - ``ask`` (where going out needs the partner's yes and nobody was asked this turn).
    - ``go_out``: ``allowed`` now and ``problems`` (codes) otherwise: not an action itself (going out
      is melding or discarding the last cards); says whether emptying the hand would be accepted.
    - ``answer`` (``yes``: true or false), for the partner asked.
    """
    if state.phase == "ended":
        return []
    if state.phase == "answer":
        return [{"type": "answer"}] if seat == state.answerer else []
    if seat != state.turn:
        return []
    rules, me = state.rules, state.seats[seat]
    side = state.sides[me.side]
    opening = None if side.melds else rules.opening_minimum_for(state.round, side.score)
    if state.phase == "draw":
        actions: list[dict[str, Any]] = [
            {"type": "draw", "cards": min(rules.draw_count, len(state.stock)), "ends_round": not state.stock}
        ]
        if state.pile:
            check = check_discard_pile(
                me.hand, state.pile, rules, side.melds, state.pile_taken, state.frozen_turns > 0, side.burn
            )
            top = state.pile[0]
            same = [c for c in me.hand if c.rank is top.rank]
            wilds = [c for c in me.hand if c.is_wild and c.rank is not top.rank]
            # the side's open meld of the top card's rank: a take goes onto it (one open meld a rank)
            onto = (
                None
                if top.is_wild
                else next(
                    (
                        i
                        for i, c in enumerate(analyse_table(side.melds, rules).checks)
                        if c.rank == top.rank.value and not c.complete
                    ),
                    None,
                )
            )
            candidates: list[list[Card]] = [same[:2]] if len(same) >= 2 else []
            if same and wilds and not top.is_wild:
                candidates.append([same[0], wilds[0]])
            if onto is not None:
                candidates.append([])  # the open meld alone, where pile_later_take lets it
            # offered only where the take's rule and the meld's rule accept them (a first take's
            # natural pair, pile_later_take, the wild limits): the step's own checks
            onto_meld = side.melds[onto] if onto is not None else ()
            options = [
                _codes(cards)
                for cards in candidates
                if check_discard_pile(
                    cards, state.pile, rules, side.melds, state.pile_taken, state.frozen_turns > 0, side.burn
                ).allowed
                and validate_meld([top, *cards], rules, onto_meld).valid
            ]
            actions.append(
                {
                    "type": "take_pile",
                    "allowed": check.allowed,
                    "cards": check.cards,
                    "problems": [p.code for p in check.problems],
                    "with": options,
                    "onto": onto,
                    "opening_minimum": opening,
                    "top_points": cards_points([top], rules),
                }
            )
        return actions
    table = analyse_table(side.melds, rules)
    counts = Counter(c.rank.value for c in me.hand if not c.is_wild and c.rank.value != "3")
    extend = [
        {"to": i, "rank": check.rank, "size": check.size}
        for i, check in enumerate(table.checks)
        if rules.book_max_size is None or check.size < rules.book_max_size
    ]
    books = table.books
    go_out = going_out_refusals(state, seat, books, True, 0, False)
    may_go_out = not going_out_refusals(state, seat, books, True, 1, False)
    actions = [
        {
            "type": "meld",
            "opening_minimum": opening,
            "naturals": dict(counts),
            "wilds": sum(1 for c in me.hand if c.is_wild),
            "extend": extend,
            "burn": sorted(table.closed_ranks()) if rules.after_book == "burn" else [],
            "keep": 0 if me.foot is not None or may_go_out or not rules.last_card_needs_contract else 2,
        },
        {
            "type": "discard",
            "cards": sorted({c.code for c in me.hand}),
            "goes_out": len(me.hand) == 1
            and me.foot is None
            and (
                rules.last_card_needs_contract
                or not going_out_refusals(state, seat, books, me.played_from_foot, 0, False)
            ),
        },
    ]
    if needs_permission(state, seat) and not state.asked:
        actions.append({"type": "ask"})
    actions.append({"type": "go_out", "allowed": not go_out, "problems": [p.code for p in go_out]})
    return actions
