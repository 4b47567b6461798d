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
:func:`refusals` runs the same checks without building the next state: what the seat's view lists
(:mod:`~handfoot.engine.play.listing`) is what they accept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from handfoot.engine.cards import Card, parse_cards
from handfoot.engine.checks import check_discard_pile, check_opening, going_out_problems
from handfoot.engine.errors import HandFootError, Path, PlayError, Problem
from handfoot.engine.melds import MeldCheck, validate_meld
from handfoot.engine.play.members import (
    ACTION_MEMBERS,
    Action,
    card_lists,
    cards_of,
    listed,
    read_adds,
    refuse,
    take_refused,
    without,
)
from handfoot.engine.play.state import Phase, State
from handfoot.engine.play.work import Work
from handfoot.engine.rules import Contract
from handfoot.engine.scoring import burn_problems
from handfoot.engine.table import Table, analyse_table


def _expect(state: State, seat: int, phase: Phase) -> None:
    if state.phase == "ended":
        raise refuse("wrong_phase", f"the round has ended ({state.ended})")
    actor = state.answerer if state.phase == "answer" else state.turn
    if seat != actor:
        raise refuse(
            "not_your_turn", f"it is seat {actor}'s {'answer' if state.phase == 'answer' else 'turn'}", ("seat",)
        )
    if state.phase != phase:
        raise refuse(
            "wrong_phase",
            f"this action belongs to the {phase} phase; the turn is in the {state.phase} phase",
            ("type",),
        )


def needs_permission(state: State, seat: int) -> bool:
    """Going out needs the partner's yes: ``ask_partner`` and a side of more than one player."""
    return state.play.ask_partner and len(state.seats_of(state.seats[seat].side)) > 1


def going_out_refusals(
    state: State, seat: int, books: Contract, played: bool, remaining: int, by_meld: bool, at: Path = ()
) -> list[Problem]:
    """Why the seat may not leave itself ``remaining`` cards (0: going out now; 1: going out by its
    discard) with its foot picked up: the contract and the feet (``checks.going_out_problems``, the
    going-out check's and scoring's rule), the partner's yes (``partner_not_asked``; seed 000, seed
    001), and, going out now by melding, the final discard (``going_out_discard`` required:
    ``going_out_needs_discard``). D41. Every problem is at ``at`` (the action's member that would go
    out; ``()``: the action as a whole): the rules it breaks are the side's, not a member's."""
    side = state.seats[seat].side
    players = [state.seats[i].player_state() for i in state.seats_of(side)]
    players = [
        p if state.seats_of(side)[k] != seat else p.__class__(p.name, p.hand, p.foot, played)
        for k, p in enumerate(players)
    ]
    problems = [Problem(p.code, p.detail, at) for p in going_out_problems(books, players, state.rules, state.round)]
    if remaining == 0 and by_meld and state.rules.going_out_discard == "required":
        problems.append(
            Problem(
                "going_out_needs_discard",
                "these rules require the last card to be "
                "discarded (going_out_discard required): keep one card to discard",
                at,
            )
        )
    if needs_permission(state, seat) and state.permission is not True:
        # asked before the last melds: 'If the answer is yes, meld everything, or meld all but one
        # and discard it' (seed 000), so a no never leaves a seat holding one card it cannot play
        problems.append(
            Problem(
                "partner_not_asked", 'going out needs the partner\'s yes to "May I go out?" this turn (ask first)', at
            )
        )
    return problems


def _table_after(
    state: State,
    side: int,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
) -> tuple[list[list[Card]], Table | None, list[Problem]]:
    """The side's melds with ``adds`` and ``new`` melds, that table analysed (``None`` when a meld
    is refused), and every rule they break: each new meld and each addition by
    ``melds.validate_meld`` (the meld endpoint's rule), then the rules between melds by
    ``table.analyse_table`` (reusing the state's analysis of the melds left unchanged). Paths are a
    meld action's: ``("melds", i, ...)`` for a new meld, ``("add", k, ...)`` for an addition (a rule
    between melds at the meld of the action it concerns; ``()`` where it concerns only melds already
    on the table)."""
    rules = state.rules
    melds = [list(m) for m in state.sides[side].melds]
    known: list[MeldCheck | None] = list(state.table(side).checks)
    before = len(melds)
    problems: list[Problem] = []
    for k, (to, cards) in enumerate(adds):
        if not 0 <= to < len(melds):
            problems.append(
                Problem("unknown_meld", f"the side has no meld {to} (it has {len(melds)})", ("add", k, "to"))
            )
            continue
        check = validate_meld(cards, rules, melds[to])
        problems += [Problem(p.code, p.detail, ("add", k, *p.path)) for p in check.problems]
        melds[to] += cards
        known[to] = None
    for i, cards in enumerate(new):
        problems += [Problem(p.code, p.detail, ("melds", i, *p.path[1:])) for p in validate_meld(cards, rules).problems]
        melds.append(list(cards))
    if problems:
        return melds, None, problems
    added = {to: k for k, (to, _) in reversed(list(enumerate(adds)))}
    table = analyse_table(melds, rules, known=known)
    for p in table.problems:
        if p.code in ("duplicate_open_meld", "second_book_of_rank"):
            j = p.path[1] if len(p.path) > 1 and isinstance(p.path[1], int) else -1
            path: Path = ("melds", j - before) if j >= before else ("add", added[j]) if j in added else ()
            problems.append(Problem(p.code, p.detail, path))
    return melds, table, problems


def _opening_score(state: State, side: int) -> int | None:
    return state.sides[side].score if state.rules.opening_thresholds else None


def _last_cards(state: State, seat: int, books: Contract, remaining: int) -> bool:
    """May the seat, its foot picked up, leave itself ``remaining`` (0 or 1) cards with ``books``
    (by kind) on its side's table after the action, and does it go out by it? Returns whether it
    may go out now (the checks of :func:`going_out_refusals`). Where ``last_card_needs_contract``
    the seat may not do it otherwise (raises :class:`PlayError` with the refusals: D41); where not,
    play goes on as if the side had not gone out (seed 002; D70)."""
    refusals = going_out_refusals(state, seat, books, True, remaining, True)
    if refusals and state.rules.last_card_needs_contract:
        raise PlayError(refusals)
    return not refusals


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
    _expect(state, seat, "draw")

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
    _expect(state, seat, "draw")
    rules, me = state.rules, state.seats[seat]
    side = me.side
    cards, extra = cards_of(action, "cards"), card_lists(action, "melds")
    onto = action.get("onto")
    if onto is not None and (isinstance(onto, bool) or not isinstance(onto, int)):
        raise refuse("unknown_action", "onto: a meld index", ("onto",))
    check = check_discard_pile(
        cards,
        state.pile,
        rules,
        state.sides[side].melds,
        state.pile_taken,
        state.frozen_turns > 0,
        state.sides[side].burn,
        state.table(side),
    )
    if not check.allowed:
        raise take_refused(check.problems, onto is not None, bool(extra))
    hand_after = without(
        me.hand, [*listed(cards, "cards"), *(u for i, m in enumerate(extra) for u in listed(m, "melds", i))]
    )
    top = state.pile[0]
    if not state.sides[side].melds:  # the opening: the take and its melds, only the top card counting
        if onto is not None:
            raise refuse("unknown_meld", "the side has no melds yet", ("onto",))
        opening = check_opening(
            [(top, *cards), *extra], rules, state.round, (top,), _opening_score(state, side), state.pile_taken
        )
        if not opening.met:
            raise take_refused(opening.problems, False, bool(extra))
        melds: list[list[Card]] = [[top, *cards], *map(list, extra)]
        table: Table | None = None
        problems: list[Problem] = []
    elif onto is None:
        melds, table, problems = _table_after(state, side, [(top, *cards), *extra], [])
    else:
        melds, table, problems = _table_after(state, side, extra, [(onto, (top, *cards))])
    if problems:
        raise take_refused(problems, onto is not None, bool(extra))
    remaining = len(hand_after) + check.cards - 1
    may_go_out = (
        me.foot is None
        and remaining <= 1
        and _last_cards(state, seat, (table or analyse_table(melds, rules)).books, remaining)
    )

    def apply() -> State:
        work = Work(state)
        work.hands[seat] = hand_after + list(state.pile[1 : check.cards])
        work.pile = list(state.pile[check.cards :])
        work.melds[side] = melds
        work.pile_taken, work.phase = True, "play"
        if me.foot is None:
            work.played[seat] = True
        _after_cards_leave(work, seat, may_go_out)
        return work.freeze()

    return apply


def _meld(state: State, seat: int, action: Action) -> Apply:
    _expect(state, seat, "play")
    rules, me = state.rules, state.seats[seat]
    side = me.side
    new, adds, burn = card_lists(action, "melds"), read_adds(action), cards_of(action, "burn")
    used = [
        *(u for i, m in enumerate(new) for u in listed(m, "melds", i)),
        *(u for k, (_, m) in enumerate(adds) for u in listed(m, "add", k, "cards")),
        *listed(burn, "burn"),
    ]
    if not used:
        raise refuse("unknown_action", "a meld action needs cards: melds, add or burn", ())
    hand_after = without(me.hand, used)
    if not state.sides[side].melds and not adds:
        opening = check_opening(new, rules, state.round, (), _opening_score(state, side))
        if not opening.met:
            raise PlayError(opening.problems)
    melds, table, problems = _table_after(state, side, new, adds)
    if burn and table is not None and not problems:
        closed = table.closed_ranks()
        problems += burn_problems(burn, closed, rules, ())
    if problems:
        raise PlayError(problems)
    may_go_out = (
        me.foot is None
        and len(hand_after) <= 1
        and table is not None
        and _last_cards(state, seat, table.books, len(hand_after))
    )

    def apply() -> State:
        work = Work(state)
        work.hands[seat] = hand_after
        work.melds[side] = melds
        work.burn[side] += burn
        if me.foot is None:
            work.played[seat] = True
        _after_cards_leave(work, seat, may_go_out)
        return work.freeze()

    return apply


def _discard_checks(state: State, seat: int, card: Card) -> tuple[list[Card], bool]:
    """The checks of a discard of ``card`` by ``seat``: its play phase, the card held, and, for its
    last card with the foot picked up, going out (D41, D70). The hand after it and whether it goes
    out; raises :class:`PlayError`."""
    _expect(state, seat, "play")
    me = state.seats[seat]
    hand_after = without(me.hand, [(card, ("card",))])
    going_out = not hand_after and me.foot is None
    if going_out:
        books = state.table(me.side).books
        refusals = going_out_refusals(state, seat, books, me.played_from_foot, 0, False, ("card",))
        if refusals and state.rules.last_card_needs_contract:
            raise PlayError(refusals)
        going_out = not refusals  # else play goes on as if the side had not gone out (D70)
    return hand_after, going_out


def discard_refusals(state: State, seat: int, card: Card) -> list[Problem]:
    """The rules a discard of ``card`` by ``seat`` breaks now (empty: :func:`step` accepts
    ``{"type": "discard", "card": card.code, "seat": seat}``): the step's own checks of a discard,
    asked of a card rather than of an action to read (the view's listing and the rl mask ask it of
    each card held)."""
    try:
        _discard_checks(state, seat, card)
    except PlayError as exc:
        return list(exc.problems)
    return []


def _discard(state: State, seat: int, action: Action) -> Apply:
    _expect(state, seat, "play")
    code = action.get("card")
    if not isinstance(code, str):
        raise refuse("unknown_action", "card: one card string", ("card",))
    (card,) = parse_cards([code], ("card",))
    hand_after, going_out = _discard_checks(state, seat, card)
    me = state.seats[seat]

    def apply() -> State:
        work = Work(state)
        work.hands[seat] = hand_after
        work.pile.insert(0, card)
        if going_out:
            work.end_round("went_out", me.side)
        else:
            work.end_turn(card)
        return work.freeze()

    return apply


def _ask(state: State, seat: int, action: Action) -> Apply:
    _expect(state, seat, "play")
    if not needs_permission(state, seat):
        raise refuse(
            "not_in_rules",
            "there is no partner to ask: these rules or this side go out without asking (ask_partner)",
            ("type",),
        )
    if state.asked:
        raise refuse("already_asked", "the partner was asked this turn", ("type",))
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
    _expect(state, seat, "answer")
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
