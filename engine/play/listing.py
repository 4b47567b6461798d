"""The actions open to a seat, each with the exact bodies to send: what the view lists is what
:func:`~handfoot.engine.play.step.step` accepts.

Each entry of :func:`open_actions` carries ``send``: action bodies (without ``seat``, as a seat posts
them to a table; add ``"seat"`` to give one to ``step``), every one of them checked by the step's
own predicates (:mod:`~handfoot.engine.play.legal`, asked of the body's cards) before it is listed. An entry
is listed only when at least one body is accepted, so a bot may pick any body of any entry. Where the
choice is combinatorial (which melds to make, which cards to add), ``send`` enumerates one body per
part (a new meld, an addition, a burn), each accepted alone, and first the largest combination of
them that is accepted as one action (an opening needs its melds together).

Going out is not an action of its own: it is melding or discarding the last cards; the view's
``going_out`` says whether emptying the hand now would be accepted (D79).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from handfoot.engine.cards import RANK_TEXT, Card, codes
from handfoot.engine.melds import MeldCheck, cards_points, validate_meld
from handfoot.engine.play.after import Changed
from handfoot.engine.play.going_out import going_out_refusals
from handfoot.engine.play.legal import (
    accepted,
    facts,
    judge_ask,
    judge_discards,
    meld_verdict,
    take_verdict,
)
from handfoot.engine.play.parts import NONE, Body, Part, card_parts, joined, kept_parts
from handfoot.engine.play.parts import body_of as body_of
from handfoot.engine.play.parts import combine as combine
from handfoot.engine.play.parts import meld_parts as meld_parts
from handfoot.engine.play.parts import rest_melds as rest_melds
from handfoot.engine.play.state import State
from handfoot.engine.rules import RuleSet
from handfoot.engine.table import Table

_TRIES = 3  # cards a part may shed to be accepted (to keep the cards a hand must keep)


def meld_candidates(state: State, seat: int) -> list[Part]:
    """:func:`card_parts` of the seat's hand and its side's table now (unchecked): the parts the
    view's ``meld`` entry is judged from, for a caller that judges them itself (the rl mask)."""
    found, rules = facts(state, seat), state.rules
    table = found.table
    return card_parts(found.naturals, found.wilds, _extend(table, rules), _burnable(table, rules), rules)


def _extend(table: Table, rules: RuleSet) -> list[dict[str, Any]]:
    """The side's melds that take more cards: ``to``, ``rank`` (``None``: a wild meld), ``size``."""
    most = rules.book_max_size
    out = []
    for i, check in enumerate(table.checks):
        if most is None or check.size < most:
            out.append({"to": i, "rank": check.rank, "size": check.size})
    return out


def _burnable(table: Table, rules: RuleSet) -> list[str]:
    return sorted(table.closed_ranks()) if rules.after_book == "burn" else []


def _shed(part: Part) -> Part | None:
    """``part`` (one meld, addition or burn) with its last card left out (a part that would leave
    the hand too few cards), or ``None`` when no card can go."""
    new, adds, burn = part
    if adds:
        ((to, cards),) = adds
        return (NONE, ((to, cards[:-1]),), NONE) if len(cards) > 1 else None
    if burn:
        return (NONE, NONE, burn[:-1]) if len(burn) > 1 else None
    (meld,) = new
    return ((meld[:-1],), NONE, NONE) if len(meld) > 1 else None


def _first_combined(state: State, seat: int, parts: Sequence[Part], whole: Mapping[int, Changed | None]) -> Part | None:
    """The first of :func:`combine` of ``parts[:n]``, ``n`` from all down to two, that is more than
    one part and that the step's meld predicate accepts, or ``None``. Each distinct combination is
    judged once; one holding a meld or addition the meld rule (``melds.validate_meld``, which the
    predicate applies to each meld alone) refuses is refused unasked. ``whole``: the parts the
    predicate accepted alone (the meld rule accepts them), each with its melds' checks where the
    predicate made them (``Verdict.checks``): a combination of such parts is judged with them, not
    checked again."""
    kept = kept_parts(parts)
    if len(kept) < 2:
        return None
    rules = state.rules
    for m, i in enumerate(kept):  # the first kept part the meld rule refuses: no combination holds it
        if i in whole:
            continue
        new, adds, _ = parts[i]
        if not _melds_valid(state, seat, new, adds, rules):
            kept = kept[:m]
            break
    for m in range(len(kept), 1, -1):
        picked = []
        for i in kept[:m]:  # loops: a comprehension is a function made and called
            picked.append(parts[i])
        combined = joined(picked)
        if combined is not None and combined not in parts:
            checks = _joined_checks(parts, kept[:m], whole, len(state.sides[state.seats[seat].side].melds))
            if meld_verdict(state, seat, *combined, False, checks) is not None:
                return combined
    return None


def _joined_checks(
    parts: Sequence[Part], picked: Sequence[int], whole: Mapping[int, Changed | None], count: int
) -> Changed | None:
    """The meld checks of :func:`joined` of the ``picked`` parts (sharing no card, none adding to a
    meld another adds to), from each part's own (``whole``; a side of ``count`` melds): additions at
    their melds, then the new melds past the table's end in order, as ``after.meld_checks`` makes
    them; ``None`` where a part's are not known."""
    adds: Changed = {}
    news: list[MeldCheck] = []
    for i in picked:
        checks = whole.get(i)
        new, add, _ = parts[i]
        if checks is None:
            if new or add:  # judged with the table after it (a rank shared): not kept
                return None
            continue
        for at, check in checks.items():
            if at >= count:
                news.append(check)
            elif at in adds:  # a meld added to twice: the second addition reads the first
                return None
            else:
                adds[at] = check
    for j, check in enumerate(news):
        adds[count + j] = check
    return adds


def _melds_valid(
    state: State,
    seat: int,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
    rules: RuleSet,
) -> bool:
    """Whether the meld rule (``melds.validate_meld``) accepts each new meld and each addition
    (with the seat's side's meld it goes onto) of a part."""
    for cards in new:
        if not validate_meld(cards, rules).valid:
            return False
    if adds:
        found = facts(state, seat)
        for to, cards in adds:
            if not validate_meld(cards, rules, found.melds[to], found.composition(to)).valid:
                return False
    return True


def _meld_bodies(state: State, seat: int, parts: Sequence[Part]) -> list[Body]:
    """The meld bodies accepted now, of the candidate ``parts`` (:func:`card_parts`), each judged
    by the step's meld predicate: all of them as one action first (:func:`combine`; dropping parts
    from the end until one is accepted), then each part alone (shedding a few cards where the part
    whole is refused: a hand must keep two). The parts alone are judged first: a part accepted
    whole needs no check of its melds for the combinations."""
    out: list[Part] = []
    whole: dict[int, Changed | None] = {}
    for i, part in enumerate(parts):
        found: Part | None = part
        for tries in range(_TRIES):
            if found is None:
                break
            verdict = meld_verdict(state, seat, *found)
            if verdict is not None:
                if not tries:
                    whole[i] = verdict.checks
                break
            found = _shed(found)
        else:
            found = None
        if found is not None and found not in out:
            out.append(found)
    # a combination holds two parts at least: it equals none of them
    combined = _first_combined(state, seat, parts, whole)
    bodies = [] if combined is None else [body_of(combined)]
    for part in out:  # a loop: a comprehension is a function made and called
        bodies.append(body_of(part))
    return bodies


def _take_bodies(state: State, seat: int, onto: int | None) -> tuple[list[Body], int]:
    """The takes of the pile accepted now, and how many cards a take takes from the pile: the top
    card melded with a natural pair of its rank, a natural and a wild card, all its rank's
    naturals, or (onto an open meld) nothing more; before the side has opened, with the new melds
    the rest of the hand makes where the take alone is short of the opening minimum. Each judged
    by the step's take predicate asked of its cards; only the accepted ones written as bodies."""
    me = state.seats[seat]
    top = state.pile[0]
    rank = top.rank
    same: list[Card] = []
    wilds: list[Card] = []
    for card in me.hand:  # one loop, not two comprehensions
        if card.rank is rank:
            same.append(card)
        elif card.is_wild:
            wilds.append(card)
    candidates: list[list[Card]] = [same[:2]] if len(same) >= 2 else []
    if same and wilds and not top.is_wild:
        candidates.append([same[0], wilds[0]])
    if len(same) > 2:
        candidates.append(same)
    if onto is not None:
        candidates.append([])  # the open meld alone, where pile_later_take lets it
    opened = bool(state.sides[me.side].melds)
    out: list[Body] = []
    taken = 0
    for cards in candidates:
        extra: tuple[tuple[Card, ...], ...] = ()
        verdict = take_verdict(state, seat, cards, onto, extra)
        if verdict is None and not opened:
            extra = rest_melds(me.hand, cards, state.rules)
            # every further meld the rest of the hand starts, counted with the take
            verdict = take_verdict(state, seat, cards, onto, extra) if extra else None
        if verdict is not None:
            body: Body = {"type": "take_pile", "cards": codes(cards), "onto": onto}
            if extra:
                body["melds"] = [codes(m) for m in extra]
            out.append(body)
            taken = verdict.taken
    return out, taken


def _open_meld_of(state: State, seat: int, table: Table) -> int | None:
    """The side's open meld of the pile top's rank (a take goes onto it: one open meld a rank), or
    ``None``; ``table``: the side's table analysed."""
    top = state.pile[0]
    if top.is_wild:
        return None
    rank = RANK_TEXT[top.rank_index]  # not Rank.value, a Python-level descriptor
    for i, check in enumerate(table.checks):  # a loop, not a generator expression
        if check.rank == rank and not check.complete:
            return i
    return None


def going_out(state: State, seat: int, table: Table | None = None) -> dict[str, Any] | None:
    """Whether emptying the hand now (its foot picked up) would be accepted as going out, in the
    seat's play phase: ``allowed`` and ``problems`` (codes); ``None`` at any other moment.
    ``table``: the seat's side's table analysed, where the caller has it (else analysed here)."""
    if state.phase != "play" or seat != state.turn:
        return None
    problems = facts(state, seat).going_out(state)
    return {"allowed": not problems, "problems": [p.code for p in problems]}


def _discard_bodies(discards: list[str]) -> list[Body]:
    """A discard body for each card string of ``discards``, in order."""
    out: list[Body] = []
    for code in discards:  # a loop: a comprehension is a function made and called
        out.append({"type": "discard", "card": code})
    return out


_code = attrgetter("code")


def _own_table(state: State, seat: int) -> Table:
    return state.table(state.seats[seat].side)


def open_actions(state: State, seat: int, table: Table | None = None) -> list[dict[str, Any]]:
    """The actions open to ``seat`` now, each ``{"type": ..., "send": [body, ...], ...}``: ``send``
    holds the bodies to post (each accepted now, checked by the step's own predicates,
    :mod:`~handfoot.engine.play.legal`); an action with none
    accepted is not listed. Besides ``send``, what choosing needs (docs/tables.md):

    - ``draw``: ``cards`` it gives, ``ends_round`` (an empty stock).
    - ``take_pile``: ``allowed`` (true), ``cards`` it takes from the pile, ``problems`` (empty),
      ``with`` (each body's hand cards, in ``send``'s order), ``onto`` (the side's open meld of the
      top card's rank, which a take goes onto, or ``None``: a new meld), ``opening_minimum`` (points
      the side's opening needs, or ``None``), ``top_points``.
    - ``meld``: ``opening_minimum``, ``naturals`` by rank and ``wilds`` in hand, ``extend`` (the
      side's melds that take more cards: ``to``, ``rank``, ``size``), ``burn`` (ranks the side may
      burn), ``keep`` (the fewest cards the hand may hold after a meld, its foot picked up, unless
      the side may go out: 2; else 0: D70).
    - ``discard``: ``cards`` (distinct, each accepted), ``goes_out`` (the last card goes out).
    - ``ask`` (where going out needs the partner's yes and nobody was asked this turn).
    - ``answer``, for the partner asked: ``send`` holds the yes and the no.

    ``table``: the seat's side's table analysed, where the caller has it (else analysed here).
    """
    if state.phase == "ended":
        return []
    if state.phase == "answer":
        if seat != state.answerer:
            return []
        return [{"type": "answer", "send": [{"type": "answer", "yes": True}, {"type": "answer", "yes": False}]}]
    if seat != state.turn:
        return []
    rules, me = state.rules, state.seats[seat]
    side = state.sides[me.side]
    opening = None if side.melds else rules.opening_minimum_for(state.round, side.score)
    if state.phase == "draw":
        actions: list[dict[str, Any]] = [
            {
                "type": "draw",
                "cards": min(rules.draw_count, len(state.stock)),
                "ends_round": not state.stock,
                "send": [{"type": "draw"}],
            }
        ]
        if state.pile:
            table = table or _own_table(state, seat)
            onto = _open_meld_of(state, seat, table)
            takes, taken = _take_bodies(state, seat, onto)
            if takes:
                actions.append(
                    {
                        "type": "take_pile",
                        "allowed": True,
                        "cards": taken,
                        "problems": [],
                        "with": [body["cards"] for body in takes],
                        "onto": onto,
                        "opening_minimum": opening,
                        "top_points": cards_points([state.pile[0]], rules),
                        "send": takes,
                    }
                )
        return actions
    found = facts(state, seat)
    table = found.table
    books = table.books
    actions = []
    extend, burnable = _extend(table, rules), _burnable(table, rules)
    melds = _meld_bodies(state, seat, card_parts(found.naturals, found.wilds, extend, burnable, rules))
    if melds:
        counts = {}
        for rank, held in found.naturals.items():  # a loop: no zip, no pop of the threes after
            if rank != "3":
                counts[rank] = len(held)
        actions.append(
            {
                "type": "meld",
                "opening_minimum": opening,
                "naturals": counts,
                "wilds": len(found.wilds),
                "extend": extend,
                "burn": burnable,
                # going out by the discard after it: the problems of going out now (one card left
                # is no reason of its own), read once per state and seat
                "keep": 0
                if me.foot is not None or not rules.last_card_needs_contract or not found.going_out(state)
                else 2,
                "send": melds,
            }
        )
    # a discard's rule reads no card but that it is held: asked once, every card held listed
    discards = sorted(set(map(_code, me.hand))) if accepted(judge_discards, state, seat) else []
    if discards:
        actions.append(
            {
                "type": "discard",
                "cards": discards,
                "goes_out": len(me.hand) == 1
                and me.foot is None
                and (
                    rules.last_card_needs_contract
                    or not going_out_refusals(state, seat, books, me.played_from_foot, 0, False)
                ),
                "send": _discard_bodies(discards),
            }
        )
    if accepted(judge_ask, state, seat):
        actions.append({"type": "ask", "send": [{"type": "ask"}]})
    return actions
