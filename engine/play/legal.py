"""Whether an action is legal, judged on a state's facts without building the state after it.

:func:`facts` gives what the checks of one seat's actions read, computed once per state and seat
and kept on the :class:`~handfoot.engine.play.state.State`: the hand as counts by card and its
naturals by rank, its wild cards, the side's table analysed (:meth:`State.table
<handfoot.engine.play.state.State.table>`), each rank's open and last meld on it, and whether the
seat may go out now. One predicate a rule of play, each taking an action already read into cards:

- :func:`judge_meld` (a meld action), :func:`judge_take` (taking the pile), :func:`judge_discard`
  (a discard; :func:`judge_discards`: the same of every card held, asked once), :func:`expect`
  (whose turn, which phase), :func:`~handfoot.engine.play.going_out.going_out_refusals` (going out).

:func:`~handfoot.engine.play.step.step` reads an action's members into cards and asks these; the
seat view's listing (:mod:`~handfoot.engine.play.listing`) and the RL mask (``handfoot.rl.actions``)
ask the same of each candidate, so that what they list is what ``step`` accepts, and the successor
is built only for the action taken. Each predicate raises :class:`~handfoot.engine.errors.PlayError`
with every rule broken (the step's refusal), or returns what building the next state needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from handfoot.engine.cards import Card, Rank
from handfoot.engine.checks import check_discard_pile, check_opening
from handfoot.engine.errors import Path, PlayError, Problem
from handfoot.engine.melds import BookKind, MeldCheck, validate_meld
from handfoot.engine.play.going_out import going_out_reasons, going_out_refusals, needs_permission
from handfoot.engine.play.members import listed, refuse, take_refused, without
from handfoot.engine.play.state import Phase, State
from handfoot.engine.rules import Contract
from handfoot.engine.scoring import burn_problems
from handfoot.engine.table import Table, analyse_table, table_changed

Melds = list[tuple[Card, ...]]
_RANK_TEXT = tuple(rank.value for rank in Rank)  # by Card.rank_index: an enum's .value is a descriptor


class Facts:
    """What the checks of seat ``seat``'s actions read in ``state``, computed once
    (:func:`facts`): ``hand``; ``held`` (how many of each card, by ``Card.key``); ``naturals``
    (the hand's natural cards by rank text, in hand order; threes included); ``wilds`` (its wild
    cards, in hand order); ``side`` (the seat's side, an index); ``table`` (that side's table
    analysed). :meth:`melds_of`, :meth:`closed_ranks` and :meth:`going_out` are computed on first
    reading."""

    __slots__ = (
        "_closed",
        "_counts",
        "_going_out",
        "_melds",
        "hand",
        "held",
        "naturals",
        "seat",
        "side",
        "table",
        "wilds",
    )

    def __init__(self, state: State, seat: int) -> None:
        me = state.seats[seat]
        # no reference to the state: it keeps these facts, and a cycle would leave every state of
        # a round to the garbage collector rather than freed as soon as the next one replaces it
        self.seat, self.side, self.hand = seat, me.side, me.hand
        held: dict[int, int] = {}
        naturals: dict[str, list[Card]] = {}
        wilds: list[Card] = []
        for card in me.hand:
            key = card.key
            held[key] = held.get(key, 0) + 1
            if card.is_wild:
                wilds.append(card)
            else:
                naturals.setdefault(_RANK_TEXT[card.rank_index], []).append(card)
        self.held, self.naturals, self.wilds = held, naturals, wilds
        self.table = state.table(me.side)
        self._melds: dict[str, tuple[int | None, int]] | None = None
        self._going_out: list[Problem] | None = None
        self._closed: set[str] | None = None
        self._counts: dict[str, int] | None = None

    def closed_ranks(self) -> set[str]:
        """The ranks with a completed book on the side's table (``Table.closed_ranks``), once."""
        if self._closed is None:
            self._closed = self.table.closed_ranks()
        return self._closed

    def rank_counts(self) -> dict[str, int]:
        """How many melds of each rank (rank text; wild melds have none) the side's table holds, once."""
        if self._counts is None:
            counts: dict[str, int] = {}
            for check in self.table.checks:
                if check.rank is not None:
                    counts[check.rank] = counts.get(check.rank, 0) + 1
            self._counts = counts
        return self._counts

    def holds(self, cards: Sequence[Card]) -> bool:
        """Whether the hand holds ``cards`` (each copy used once)."""
        held = self.held
        if len(cards) == 1:
            return held.get(cards[0].key, 0) > 0
        need: dict[int, int] = {}
        for card in cards:
            n = need[card.key] = need.get(card.key, 0) + 1
            if held.get(card.key, 0) < n:
                return False
        return True

    def melds_of(self, rank: str) -> tuple[int | None, int | None]:
        """The side's open (unfinished) meld of ``rank`` (rank text; ``wild``: a wild meld) and its
        last meld of that rank (indexes on the side's table, ``None`` where there is none)."""
        if self._melds is None:
            out: dict[str, tuple[int | None, int]] = {}
            for i, check in enumerate(self.table.checks):
                rank_of = "wild" if check.kind is BookKind.WILD else check.rank
                if rank_of is None:
                    continue
                open_meld = out[rank_of][0] if rank_of in out else None
                out[rank_of] = (i if open_meld is None and not check.complete else open_meld, i)
            self._melds = out
        return self._melds.get(rank, (None, None))

    def going_out(self, state: State) -> list[Problem]:
        """Why emptying the hand now (its foot picked up and played from) would not go out, the
        last discard aside: :func:`going_out_reasons` in ``state`` (the state these facts are of),
        each problem at its own path."""
        if self._going_out is None:
            self._going_out = going_out_reasons(state, self.seat, self.table.books, True, 0, False)
        return self._going_out


def sorted_hand(cards: Sequence[Card]) -> tuple[dict[str, list[Card]], list[Card]]:
    """``cards``' natural cards by rank text (threes included) and their wild cards, each in the
    order given: how :class:`Facts` reads a hand (``naturals``, ``wilds``)."""
    naturals: dict[str, list[Card]] = {}
    wilds: list[Card] = []
    for card in cards:
        if card.is_wild:
            wilds.append(card)
        else:
            naturals.setdefault(_RANK_TEXT[card.rank_index], []).append(card)
    return naturals, wilds


def facts(state: State, seat: int) -> Facts:
    """The :class:`Facts` of ``seat`` in ``state``: made on first asking, then kept on the state."""
    cache = state._facts
    if cache is None:
        cache = {}
        object.__setattr__(state, "_facts", cache)
    found = cache.get(seat)
    if found is None:
        found = cache[seat] = Facts(state, seat)
    return found


def expect(state: State, seat: int, phase: Phase) -> None:
    """The flow's rule: ``seat`` acts now (the answerer in an answer phase) in ``phase``
    (``not_your_turn``, ``wrong_phase``)."""
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


def _hold(found: Facts, cards: Sequence[Card], groups: Callable[[], Sequence[tuple[Sequence[Card], Path]]]) -> int:
    """How many ``cards`` (every card of an action) the action uses: ``card_not_held`` (by
    :func:`~handfoot.engine.play.members.without`, at the path of the first use too many) when the
    hand does not hold them all; ``groups`` gives the action's cards by member (cards, the
    member's path), asked only then."""
    if not found.holds(cards):
        without(found.hand, [u for group, path in groups() for u in listed(group, *path)])
    return len(cards)


def _table_after(
    state: State,
    found: Facts,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
) -> tuple[Melds, Table | None, list[Problem]]:
    """The side's melds with ``adds`` and ``new`` melds, that table analysed (``None`` when a meld
    is refused), and every rule they break: each new meld and each addition by
    ``melds.validate_meld`` (the meld endpoint's rule), then the rules between melds by
    ``table.analyse_table`` (reusing the state's analysis of the melds left unchanged). Paths are a
    meld action's: ``("melds", i, ...)`` for a new meld, ``("add", k, ...)`` for an addition (a rule
    between melds at the meld of the action it concerns; ``()`` where it concerns only melds already
    on the table)."""
    rules, side, table_now = state.rules, found.side, found.table
    melds: Melds = list(state.sides[side].melds)
    known: list[MeldCheck] = list(table_now.checks)
    before = len(melds)
    problems: list[Problem] = []
    for k, (to, cards) in enumerate(adds):
        if not 0 <= to < len(melds):
            problems.append(
                Problem("unknown_meld", f"the side has no meld {to} (it has {len(melds)})", ("add", k, "to"))
            )
            continue
        check = validate_meld(cards, rules, melds[to])
        if check.problems:
            problems += [Problem(p.code, p.detail, ("add", k, *p.path)) for p in check.problems]
        melds[to] = (*melds[to], *cards)
        # the check of an addition is the check of the whole meld it makes (the rule reads the
        # meld's composition; only a closed book tells an addition apart, and it refuses it)
        known[to] = check
    for i, cards in enumerate(new):
        check = validate_meld(cards, rules)
        if check.problems:
            problems += [Problem(p.code, p.detail, ("melds", i, *p.path[1:])) for p in check.problems]
        melds.append(tuple(cards))
        known.append(check)
    if problems:
        return melds, None, problems
    changed = [*(dict.fromkeys(to for to, _ in adds) if len(adds) > 1 else [to for to, _ in adds])]
    changed += range(before, len(known))
    if not table_now.problems and _apart(found, table_now, known, changed):
        return melds, table_changed(table_now, known, changed), problems
    table = analyse_table(melds, rules, known=known)
    if table.problems:
        added = {to: k for k, (to, _) in reversed(list(enumerate(adds)))}
        for p in table.problems:
            if p.code in ("duplicate_open_meld", "second_book_of_rank"):
                j = p.path[1] if len(p.path) > 1 and isinstance(p.path[1], int) else -1
                path: Path = ("melds", j - before) if j >= before else ("add", added[j]) if j in added else ()
                problems.append(Problem(p.code, p.detail, path))
    return melds, table, problems


def _apart(found: Facts, before: Table, checks: Sequence[MeldCheck], changed: Sequence[int]) -> bool:
    """Whether no meld at ``changed`` (indexes into ``checks``, the side's melds after an action)
    shares its rank with another meld: then no rule between melds (one open meld a rank, one book a
    rank where books burn) can concern the action, and its melds are judged each alone."""
    counts, seen = found.rank_counts(), set()
    for i in changed:
        rank = checks[i].rank
        if rank is None:  # a wild meld: the rules between melds read ranks
            continue
        if rank in seen or counts.get(rank, 0) > (i < len(before.checks) and before.checks[i].rank == rank):
            return False
        seen.add(rank)
    return True


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


class Verdict(NamedTuple):
    """An action accepted: ``melds`` (the side's melds after it; ``None``: unchanged), ``table``
    (those melds analysed, where the checks made it), ``left`` (cards the hand keeps; a take's
    counts its cards from the pile), ``taken`` (cards taken from the pile), ``going_out`` (the
    side goes out when the hand empties)."""

    melds: Melds | None
    table: Table | None
    left: int
    taken: int
    going_out: bool


_new = tuple.__new__  # a Verdict without its Python __new__: the listing and the mask judge many


def judge_meld(
    state: State,
    seat: int,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
    burn: Sequence[Card],
) -> Verdict:
    """A meld action of ``seat``: ``new`` melds, ``adds`` (``(meld index, cards)``) and ``burn``,
    judged by the rules of a meld (cards held, the opening, each meld, the rules between melds, the
    burn rule, the last cards). Raises :class:`PlayError` (paths as the action's members)."""
    expect(state, seat, "play")
    found = facts(state, seat)
    if adds or burn or len(new) != 1:
        cards: Sequence[Card] = [*(c for m in new for c in m), *(c for _, m in adds for c in m), *burn]
    else:
        cards = new[0]  # one new meld: the listing's and the mask's most common candidate
    used = _hold(
        found,
        cards,
        lambda: [
            *((m, ("melds", i)) for i, m in enumerate(new)),
            *((m, ("add", k, "cards")) for k, (_, m) in enumerate(adds)),
            (burn, ("burn",)),
        ],
    )
    if not used:
        raise refuse("unknown_action", "a meld action needs cards: melds, add or burn", ())
    side, rules = found.side, state.rules
    if not state.sides[side].melds and not adds:
        opening = check_opening(new, rules, state.round, (), _opening_score(state, side))
        if not opening.met:
            raise PlayError(opening.problems)
    if new or adds or found.table.problems:
        melds: Melds | None
        melds, table, problems = _table_after(state, found, new, adds)
    else:  # a burn alone leaves the table as it stands
        melds, table, problems = None, found.table, []
    if burn and table is not None and not problems:
        problems += burn_problems(burn, table.closed_ranks(), rules, ())
    if problems:
        raise PlayError(problems)
    left = len(found.hand) - used
    me = state.seats[seat]
    going_out = me.foot is None and left <= 1 and table is not None and _last_cards(state, seat, table.books, left)
    return _new(Verdict, (melds, table, left, 0, going_out))


def judge_take(
    state: State, seat: int, cards: Sequence[Card], onto: int | None, extra: Sequence[Sequence[Card]]
) -> Verdict:
    """Taking the pile by ``seat``: its top card melded with ``cards`` from the hand (a new meld,
    or onto the side's meld ``onto``) and ``extra`` new melds, judged by the take's rule
    (``checks.check_discard_pile``), the cards held, the opening (only the top card counting) or
    each meld and the rules between melds, and the last cards. Raises :class:`PlayError` (paths
    as the take's members)."""
    expect(state, seat, "draw")
    rules, me = state.rules, state.seats[seat]
    found = facts(state, seat)
    side = found.side
    held = state.sides[side]
    check = check_discard_pile(
        cards, state.pile, rules, held.melds, state.pile_taken, state.frozen_turns > 0, held.burn, found.table
    )
    if not check.allowed:
        raise take_refused(check.problems, onto is not None, bool(extra))
    used = _hold(
        found,
        [*cards, *(c for m in extra for c in m)],
        lambda: [(cards, ("cards",)), *((m, ("melds", i)) for i, m in enumerate(extra))],
    )
    top = state.pile[0]
    table: Table | None = None
    if not held.melds:  # the opening: the take and its melds, only the top card counting
        if onto is not None:
            raise refuse("unknown_meld", "the side has no melds yet", ("onto",))
        opening = check_opening(
            [(top, *cards), *extra], rules, state.round, (top,), _opening_score(state, side), state.pile_taken
        )
        if not opening.met:
            raise take_refused(opening.problems, False, bool(extra))
        melds: Melds = [(top, *cards), *map(tuple, extra)]
        problems: list[Problem] = []
    elif onto is None:
        melds, table, problems = _table_after(state, found, [(top, *cards), *extra], [])
    else:
        melds, table, problems = _table_after(state, found, extra, [(onto, (top, *cards))])
    if problems:
        raise take_refused(problems, onto is not None, bool(extra))
    left = len(found.hand) - used + check.cards - 1
    if me.foot is None and left <= 1:
        table = table or analyse_table(melds, rules)
        going_out = _last_cards(state, seat, table.books, left)
    else:
        going_out = False
    return _new(Verdict, (melds, table, left, check.cards, going_out))


def judge_discard(state: State, seat: int, card: Card) -> Verdict:
    """A discard of ``card`` by ``seat``: its play phase, the card held, and, for its last card
    with the foot picked up, going out (D41, D70). Raises :class:`PlayError` (at ``card``)."""
    expect(state, seat, "play")
    found = facts(state, seat)
    if not found.holds((card,)):
        without(found.hand, [(card, ("card",))])
    return _discard_verdict(state, seat, found)


def judge_discards(state: State, seat: int) -> Verdict:
    """What :func:`judge_discard` judges of a discard besides which card is held: the same for every
    card of the hand (the listing and the mask ask it once, not once a card). Raises
    :class:`PlayError` (at ``card``)."""
    expect(state, seat, "play")
    return _discard_verdict(state, seat, facts(state, seat))


def _discard_verdict(state: State, seat: int, found: Facts) -> Verdict:
    me = state.seats[seat]
    left = len(found.hand) - 1
    going_out = not left and me.foot is None
    if going_out:
        refusals = going_out_refusals(state, seat, found.table.books, me.played_from_foot, 0, False, ("card",))
        if refusals and state.rules.last_card_needs_contract:
            raise PlayError(refusals)
        going_out = not refusals  # else play goes on as if the side had not gone out (D70)
    return _new(Verdict, (None, None, left, 0, going_out))


def judge_ask(state: State, seat: int) -> None:
    """Asking the partner "May I go out?": in the seat's play phase, where going out needs a yes
    (:func:`needs_permission`: ``not_in_rules``), once a turn (``already_asked``)."""
    expect(state, seat, "play")
    if not needs_permission(state, seat):
        raise refuse(
            "not_in_rules",
            "there is no partner to ask: these rules or this side go out without asking (ask_partner)",
            ("type",),
        )
    if state.asked:
        raise refuse("already_asked", "the partner was asked this turn", ("type",))


def accepted(judge: Callable[..., object], *args: Any) -> bool:
    """Whether ``judge(*args)`` (one of this module's predicates) accepts: no :class:`PlayError`."""
    try:
        judge(*args)
    except PlayError:
        return False
    return True
