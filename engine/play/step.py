"""``step(state, action) -> state``: one action of one seat, checked by the rule functions the check
endpoints and scoring use, applied to a copy. The state given is never changed.

An action is a small JSON-able mapping with ``type`` and ``seat`` (the seat's index):

- ``{"type": "draw"}``: ``draw_count`` cards from the stock (two in every published rule set; red
  threes laid out and replaced).
- ``{"type": "take_pile", "cards": [...], "onto": i?, "melds": [[...], ...]?}``: take the discard
  pile, melding its top card at once with ``cards`` from the hand (a new meld, or onto the side's
  meld ``i``); ``melds``: further new melds from the hand, counted with it toward an opening.
- ``{"type": "meld", "melds": [[...], ...]?, "add": [{"to": i, "cards": [...]}]?, "burn": [...]?}``.
- ``{"type": "discard", "card": "7H"}``: ends the turn (or goes out with the last card).
- ``{"type": "ask"}`` "May I go out?", and the partner's ``{"type": "answer", "yes": true}``.

Each type takes the members :data:`~handfoot.engine.play.members.ACTION_MEMBERS` lists and no other
(``unknown_action`` at the member's path): a misspelt member is refused, not ignored. Going out is
no action of its own (D79): it is melding or discarding the last cards.

Refusals raise :class:`~handfoot.engine.errors.PlayError` (or ``CardError`` for a string that is not
a card) listing every rule broken, with the checks' codes (``pile_needs_match``,
``opening_below_minimum``, ``contract_not_met``, ``too_many_wilds``, ...) and the flow's
(``not_your_turn``, ``wrong_phase``, ``card_not_held``, ...); paths point at a member the action
holds (``()``: the action as a whole, for what concerns the table rather than a member).
Each handler reads the action's members into cards and asks the rule of its type, a predicate of
:mod:`~handfoot.engine.play.legal` (``judge_meld``, ``judge_take``, ``judge_discard``, ...), on
the state's facts; the next state is built only once it has passed. :func:`refusals` runs the same
checks without building the next state; the seat view's listing (:mod:`~handfoot.engine.play.listing`)
and the RL mask ask the same predicates of their candidates' cards, so what they list is what
``step`` accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from handfoot.engine.cards import Card, parse_cards
from handfoot.engine.errors import HandFootError, PlayError, Problem
from handfoot.engine.play.after import table_after
from handfoot.engine.play.going_out import going_out_refusals, needs_permission
from handfoot.engine.play.legal import (
    Verdict,
    expect,
    judge_ask,
    judge_discard,
    judge_meld,
    judge_take,
)
from handfoot.engine.play.members import (
    ACTION_MEMBERS,
    Action,
    card_lists,
    cards_of,
    read_adds,
    refuse,
    without,
)
from handfoot.engine.play.state import State
from handfoot.engine.play.work import Work
from handfoot.engine.table import Table

__all__ = [
    "ACTION_TYPES",
    "discard_refusals",
    "discarded",
    "going_out_refusals",
    "melded",
    "needs_permission",
    "refusals",
    "step",
]


def _after_cards_leave(work: Work, seat: int, may_go_out: bool) -> None:
    """A hand emptied by melding: the foot is picked up at once (running: seed 000, seed 004), or,
    with the foot already picked up, the side has gone out (``may_go_out``), else the turn passes
    with nothing to discard (D70)."""
    if work.hands[seat]:
        return
    if work.feet[seat] is not None:
        work.pick_up_foot(seat)
    elif may_go_out:
        work.end_round("went_out", work.side_of(seat))
    else:
        work.end_turn(None)


#: What a handler gives once an action has passed every check: the next state, built when called.
Apply = Callable[[], State]


def _draw(state: State, seat: int, action: Action) -> Apply:
    expect(state, seat, "draw")

    def apply() -> State:
        work = Work(state)
        if not state.stock:  # pile_only: the seat does not (or cannot) take the pile: the round ends
            work.end_round("stock_out")
            return work.freeze()
        work.draw(seat, state.rules.draw_count)
        if work.ended is None:
            work.phase = "play"
        return work.freeze()

    return apply


def _take_pile(state: State, seat: int, action: Action) -> Apply:
    expect(state, seat, "draw")
    cards, extra = cards_of(action, "cards"), card_lists(action, "melds")
    onto = action.get("onto")
    if onto is not None and (isinstance(onto, bool) or not isinstance(onto, int)):
        raise refuse("unknown_action", "onto: a meld index", ("onto",))
    verdict = judge_take(state, seat, cards, onto, extra)
    side = state.seats[seat].side

    def apply() -> State:
        work = Work(state)
        hand_after = without(state.seats[seat].hand, [(c, ()) for group in (cards, *extra) for c in group])
        work.hands[seat] = hand_after + list(state.pile[1 : verdict.taken])
        work.pile = state.pile[verdict.taken :]
        assert verdict.melds is not None
        work.melds[side] = verdict.melds  # read, never edited, by the step
        work.pile_taken, work.phase = True, "play"
        if state.seats[seat].foot is None:
            work.played[seat] = True
        _after_cards_leave(work, seat, verdict.going_out)
        return _with_table(work.freeze(), side, verdict.table)

    return apply


def _meld(state: State, seat: int, action: Action) -> Apply:
    expect(state, seat, "play")
    new, adds, burn = card_lists(action, "melds"), read_adds(action), cards_of(action, "burn")
    verdict = judge_meld(state, seat, new, adds, burn)
    return lambda: melded(state, seat, (new, adds, burn), verdict)


#: A meld action read into cards: new melds, additions ``(meld index, cards)``, burnt cards.
MeldCards = tuple[Sequence[Sequence[Card]], Sequence[tuple[int, Sequence[Card]]], Sequence[Card]]


def melded(state: State, seat: int, cards: MeldCards, verdict: Verdict) -> State:
    """The state after a meld action of ``seat`` (``cards``: new melds, additions, burn) that
    :func:`~handfoot.engine.play.legal.judge_meld` accepted with ``verdict``: what :func:`step`
    builds once it has read and judged the action, for a caller that judged its cards itself (the
    rl mask: the successor of the one index taken)."""
    new, adds, burn = cards
    side = state.seats[seat].side
    work = Work(state)
    used: list[tuple[Card, tuple[()]]] = []
    for group in (*new, *[m for _, m in adds], burn):  # loops: no generator made and called
        for card in group:
            used.append((card, ()))
    work.hands[seat] = without(state.seats[seat].hand, used)
    if verdict.melds is not None:
        work.melds[side] = verdict.melds  # read, never edited, by the step
    elif new or adds:  # judged meld by meld (verdict.checks): the melds laid here, once
        melds = list(work.melds[side])
        for to, group in adds:
            melds[to] = (*melds[to], *group)
        melds += map(tuple, new)
        work.melds[side] = melds
    if burn:
        work.burn[side] = (*work.burn[side], *burn)
    if state.seats[seat].foot is None:
        work.played[seat] = True
    _after_cards_leave(work, seat, verdict.going_out)
    return _with_table(work.freeze(), side, table_after(state.table(side), verdict))


def _with_table(after: State, side: int, table: Table | None) -> State:
    """``after`` with the step's analysis of side ``side``'s melds kept as that side's table
    (:meth:`State.table`), where the step made one of the melds it laid: one analysis, not two."""
    held = after.sides[side]
    if table is not None and held._table is None and len(table.checks) == len(held.melds):
        object.__setattr__(held, "_table", (after.rules, table))
    return after


def discard_refusals(state: State, seat: int, card: Card) -> list[Problem]:
    """The rules a discard of ``card`` by ``seat`` breaks now (empty: :func:`step` accepts
    ``{"type": "discard", "card": card.code, "seat": seat}``): :func:`~handfoot.engine.play.legal.judge_discard`,
    the step's own rule of a discard, asked of a card rather than of an action to read (the
    view's listing and the rl mask ask it of each card held)."""
    try:
        judge_discard(state, seat, card)
    except PlayError as exc:
        return list(exc.problems)
    return []


def _discard(state: State, seat: int, action: Action) -> Apply:
    expect(state, seat, "play")
    code = action.get("card")
    if not isinstance(code, str):
        raise refuse("unknown_action", "card: one card string", ("card",))
    (card,) = parse_cards([code], ("card",))
    verdict = judge_discard(state, seat, card)
    return lambda: discarded(state, seat, card, verdict)


def discarded(state: State, seat: int, card: Card, verdict: Verdict) -> State:
    """The state after ``seat`` discards ``card``, which :func:`~handfoot.engine.play.legal.judge_discard`
    accepted with ``verdict``: what :func:`step` builds once it has read and judged the action,
    for a caller that judged the card itself (the rl mask: the successor of the one index taken)."""
    me = state.seats[seat]
    work = Work(state)
    work.hands[seat] = without(me.hand, [(card, ("card",))])
    work.pile = (card, *state.pile)
    if verdict.going_out:
        work.end_round("went_out", me.side)
    else:
        work.end_turn(card)
    return work.freeze()


def _ask(state: State, seat: int, action: Action) -> Apply:
    judge_ask(state, seat)
    partners = [i for i in state.seats_of(state.seats[seat].side) if i != seat]
    n = len(state.seats)

    def apply() -> State:
        work = Work(state)
        # the partner next in turn order answers (D42)
        work.answerer = min(partners, key=lambda i: (i - seat) % n)
        work.phase, work.asked = "answer", True
        return work.freeze()

    return apply


def _answer(state: State, seat: int, action: Action) -> Apply:
    expect(state, seat, "answer")
    yes = action.get("yes")
    if not isinstance(yes, bool):
        raise refuse("unknown_action", "yes: true or false", ("yes",))

    def apply() -> State:
        work = Work(state)
        work.permission, work.phase, work.answerer = yes, "play", None
        return work.freeze()

    return apply


_HANDLERS: dict[str, Callable[[State, int, Action], Apply]] = {
    "draw": _draw,
    "take_pile": _take_pile,
    "meld": _meld,
    "discard": _discard,
    "ask": _ask,
    "answer": _answer,
}
ACTION_TYPES: tuple[str, ...] = tuple(_HANDLERS)
assert tuple(ACTION_MEMBERS) == ACTION_TYPES  # one list of types, in one order

#: Names a bot author may try that are no action, with what to send instead (``unknown_action``'s detail).
NOT_ACTIONS: Mapping[str, str] = {
    "go_out": "going out is not an action of its own: meld or discard the last cards (the view's "
    "going_out says whether that would be accepted now)",
}


def _checked(state: State, action: Action) -> Apply:
    """Every check of ``action`` against ``state``: the next state's builder, or :class:`PlayError`."""
    if type(action) is not dict and not isinstance(action, Mapping):  # a dict first: the ABC check is slow
        raise refuse("unknown_action", "an action is an object with type and seat")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _HANDLERS:  # a list or an object is no type
        hint = NOT_ACTIONS.get(kind) if isinstance(kind, str) else None
        raise refuse(
            "unknown_action", f"type: one of {', '.join(ACTION_TYPES)}" + (f"; {hint}" if hint else ""), ("type",)
        )
    handler = _HANDLERS[kind]
    members = ACTION_MEMBERS[kind]
    unknown = [key for key in action if key not in members and key not in ("type", "seat")]
    if unknown:
        listed = ", ".join(("type", "seat", *members))
        raise PlayError(
            [
                Problem("unknown_action", f"{key}: not a member of a {kind} action ({listed})", (str(key),))
                for key in unknown
            ]
        )
    seat = action.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise refuse("unknown_action", f"seat: a seat index from 0 to {len(state.seats) - 1}", ("seat",))
    return handler(state, seat, action)


def step(state: State, action: Action) -> State:
    """The state after ``action`` (see the module's docstring); ``state`` is not changed.

    Raises :class:`PlayError` for an action refused (the state stays as it was)."""
    return _checked(state, action)()


def refusals(state: State, action: Action) -> list[Problem]:
    """The rules ``action`` breaks in ``state``: the problems :func:`step` would raise, by the same
    checks (empty: ``step`` accepts it), without building the next state. What the view lists
    (:func:`~handfoot.engine.play.view.open_actions`) is what this accepts."""
    try:
        _checked(state, action)
    except PlayError as exc:  # CardError is a refusal too: a string that is no card
        return list(exc.problems)
    except HandFootError as exc:
        return list(exc.problems)
    return []
