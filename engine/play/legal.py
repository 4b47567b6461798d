"""Whether an action is legal, judged on a state's facts without building the state after it.

:func:`facts` (:mod:`~handfoot.engine.play.facts`, named here too) gives what the checks of one
seat's actions read, computed once per state and seat and kept on the
:class:`~handfoot.engine.play.state.State`: the hand as counts by card and its naturals by rank,
its wild cards, the side's table analysed (:meth:`State.table
<handfoot.engine.play.state.State.table>`), each rank's open and last meld on it, and whether the
seat may go out now. One predicate a rule of play, each taking an action already read into cards:

- :func:`judge_meld` (a meld action), :func:`judge_take` (taking the pile; :func:`take_verdict`), :func:`judge_discard`
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

from handfoot.engine.cards import Card
from handfoot.engine.checks import check_opening, opening_met
from handfoot.engine.errors import PlayError, Problem
from handfoot.engine.pile import check_discard_pile, pile_refused, take_count, take_refusals
from handfoot.engine.play.after import (
    Changed,
    Melds,
    checks_after,
    meld_cards,
    meld_checks,
    melds_after,
    table_after_melds,
)
from handfoot.engine.play.facts import Facts as Facts
from handfoot.engine.play.facts import facts as facts
from handfoot.engine.play.facts import sorted_hand as sorted_hand
from handfoot.engine.play.going_out import going_out_refusals, needs_permission
from handfoot.engine.play.members import listed, refuse, take_refused, without
from handfoot.engine.play.state import Phase, State
from handfoot.engine.rules import Contract
from handfoot.engine.scoring import burn_problems
from handfoot.engine.table import Table, analyse_table, table_changed


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


def _opening_score(state: State, side: int) -> int | None:
    return state.sides[side].score if state.rules.opening_thresholds else None


def _last_cards(state: State, seat: int, books: Contract, remaining: int, words: bool = True) -> bool | None:
    """May the seat, its foot picked up, leave itself ``remaining`` (0 or 1) cards with ``books``
    (by kind) on its side's table after the action, and does it go out by it? Returns whether it
    may go out now (the checks of :func:`going_out_refusals`). Where ``last_card_needs_contract``
    the seat may not do it otherwise (raises :class:`PlayError` with the refusals: D41; without
    ``words``, returns ``None``); where not, play goes on as if the side had not gone out (seed
    002; D70)."""
    refusals = going_out_refusals(state, seat, books, True, remaining, True)
    if refusals and state.rules.last_card_needs_contract:
        if not words:
            return None
        raise PlayError(refusals)
    return not refusals


class Verdict(NamedTuple):
    """An action accepted: ``melds`` (the side's melds after it; ``None``: unchanged, or, for a
    meld judged by ``checks``, left to the successor's builder), ``table`` (those melds analysed,
    where the checks made it), ``left`` (cards the hand keeps; a take's counts its cards from the
    pile), ``taken`` (cards taken from the pile), ``going_out`` (the side goes out when the hand
    empties), ``checks`` (a meld action whose melds were judged each alone, no rule between melds
    concerning them: their checks, :data:`Changed`, from which :func:`table_after` gives the
    table after it; else ``None``)."""

    melds: Melds | None
    table: Table | None
    left: int
    taken: int
    going_out: bool
    checks: Changed | None


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
    burn rule, the last cards): :func:`meld_verdict` with its refusals worded. Raises
    :class:`PlayError` (paths as the action's members)."""
    verdict = meld_verdict(state, seat, new, adds, burn, True)
    assert verdict is not None
    return verdict


def _refused(problems: Sequence[Problem], words: bool) -> None:
    """A rule broken: ``None`` (whether, not why), or with ``words`` :class:`PlayError` (``problems``)."""
    if words:
        raise PlayError(problems)


def meld_verdict(
    state: State,
    seat: int,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
    burn: Sequence[Card],
    words: bool = False,
    checks: Changed | None = None,
) -> Verdict | None:
    """The rules of a meld action (:func:`judge_meld`), each decided before any refusal is worded:
    ``None`` at the first rule broken, for a caller that asks whether (the listing and the mask,
    of each candidate); with ``words``, :class:`PlayError` with every rule broken instead (the
    step's refusal). The side's melds are read from the facts and each meld checked alone; the
    melds and table after the action are made only where a rule between melds may concern it.
    ``checks``: the meld rule's checks of the action's melds where the caller has made them, each
    valid (:func:`~handfoot.engine.play.after.meld_checks`' answer): not made again."""
    if state.phase != "play" or seat != state.turn:
        if not words:
            return None
        expect(state, seat, "play")
    found = facts(state, seat)
    cards = meld_cards(found, new, adds, burn, words)
    if cards is None:
        return None
    rules = found.rules
    if not found.melds and not adds:  # the opening: decided as bits, worded only for the step's refusal
        score = _opening_score(state, found.side)
        if words:
            opening = check_opening(new, rules, state.round, (), score)
            if not opening.met:
                raise PlayError(opening.problems)
        elif not opening_met(new, rules, state.round, score, list(checks.values()) if checks else ()):
            return None
    table_now = found.table
    melds: Melds | None = None
    changed: Changed | None = None
    table: Table | None = table_now  # a burn alone leaves the table as it stands
    if new or adds or table_now.problems:
        melds, table, changed, problems = melds_after(state, found, new, adds, words, checks)
        if problems:
            _refused(problems, words)
            return None
    left = len(found.hand) - len(cards)
    last = left <= 1 and state.seats[seat].foot is None
    if table is None and (burn or last):  # what the burn rule and going out read: the books after
        assert changed is not None
        table = table_changed(table_now, checks_after(table_now, changed), changed)
    if burn:
        assert table is not None
        problems = burn_problems(burn, table.closed_ranks(), rules, ())
        if problems:
            _refused(problems, words)
            return None
    going_out: bool | None = False
    if last and table is not None:
        going_out = _last_cards(state, seat, table.books, left, words)
        if going_out is None:
            return None
    return _new(Verdict, (melds, table, left, 0, going_out, changed))


def judge_take(
    state: State, seat: int, cards: Sequence[Card], onto: int | None, extra: Sequence[Sequence[Card]]
) -> Verdict:
    """Taking the pile by ``seat``: its top card melded with ``cards`` from the hand (a new meld,
    or onto the side's meld ``onto``) and ``extra`` new melds, judged by the take's rule
    (``pile.check_discard_pile``), the cards held, the opening (only the top card counting) or
    each meld and the rules between melds, and the last cards: :func:`take_verdict` with its
    refusals worded. Raises :class:`PlayError` (paths as the take's members)."""
    verdict = take_verdict(state, seat, cards, onto, extra, True)
    assert verdict is not None
    return verdict


def take_verdict(
    state: State,
    seat: int,
    cards: Sequence[Card],
    onto: int | None,
    extra: Sequence[Sequence[Card]],
    words: bool = False,
) -> Verdict | None:
    """The rules of a take (:func:`judge_take`), each decided before any refusal is worded (the
    take's rule as bits, ``pile.take_refusals``): ``None`` at the first rule broken, for a caller
    that asks whether (the listing and the mask, of each candidate); with ``words``,
    :class:`PlayError` with the refusals instead (the step's). The side's melds are read from the
    facts and each meld checked alone; the melds and table after the take are made only with
    ``words`` (the take taken) or where a rule between melds may concern it."""
    if state.phase != "draw" or seat != state.turn:
        if not words:
            return None
        expect(state, seat, "draw")
    found = facts(state, seat)
    used = _take_cards(state, found, cards, onto, extra, words)
    if used is None:
        return None
    after = _take_melds(state, found, cards, onto, extra, words)
    if after is None:
        return None
    melds, table, changed = after
    taken = take_count(state.pile, found.rules)
    left = len(found.hand) - len(used) + taken - 1
    going_out: bool | None = False
    if state.seats[seat].foot is None and left <= 1:
        if table is None:  # what going out reads: the books after
            if changed is not None:
                table = table_changed(found.table, checks_after(found.table, changed), changed)
            else:
                assert melds is not None
                table = analyse_table(melds, found.rules)
        going_out = _last_cards(state, seat, table.books, left, words)
        if going_out is None:
            return None
    return _new(Verdict, (melds, table, left, taken, going_out, changed))


def _take_cards(
    state: State, found: Facts, cards: Sequence[Card], onto: int | None, extra: Sequence[Sequence[Card]], words: bool
) -> Sequence[Card] | None:
    """Every hand card of a take, judged by the take's rule and held; ``None`` where refused (with
    ``words``: :class:`PlayError`, the pile check's problems worded, or ``card_not_held``)."""
    rules, pile = found.rules, state.pile
    held = state.sides[found.side]
    if words:
        check = check_discard_pile(
            cards, pile, rules, held.melds, state.pile_taken, state.frozen_turns > 0, held.burn, found.table
        )
        if not check.allowed:
            raise take_refused(check.problems, onto is not None, bool(extra))
    elif pile_rule_refuses(state, found, cards):
        return None
    used: Sequence[Card] = cards
    if extra:
        used = list(cards)
        for meld in extra:  # a loop, not a generator: no function made and called each time
            used += meld
    if not found.holds(used):
        if not words:
            return None
        groups = [(cards, ("cards",)), *((m, ("melds", i)) for i, m in enumerate(extra))]
        without(found.hand, [u for group, path in groups for u in listed(group, *path)])
    return used


def pile_rule_refuses(state: State, found: Facts, cards: Sequence[Card]) -> bool:
    """Whether the take's rule (``pile.pile_refused``, ``pile.take_refusals``, decided as bits)
    refuses taking the pile with ``cards`` from the hand of the seat whose facts are ``found``:
    what :func:`take_verdict` asks first, whatever further melds the take makes (the rl mask asks
    it before making them)."""
    held, pile = state.sides[found.side], state.pile
    return pile_refused(pile, found.rules, state.frozen_turns > 0, held.burn) or bool(
        take_refusals(pile[0], cards, found.rules, found.table, state.pile_taken, held.burn)
    )


def _take_melds(
    state: State, found: Facts, cards: Sequence[Card], onto: int | None, extra: Sequence[Sequence[Card]], words: bool
) -> tuple[Melds | None, Table | None, Changed | None] | None:
    """A take's melds judged: the opening (the side has none), or each meld and the rules between
    melds. ``(melds, table, checks)`` as a :class:`Verdict` keeps them (with ``words``, the melds
    and table after the take; else the checks where no rule between melds concerns it), ``None``
    where refused (with ``words``: :class:`PlayError`)."""
    top = state.pile[0]
    if not found.melds:  # the opening: the take and its melds, only the top card counting
        if onto is not None:
            if not words:
                return None
            raise refuse("unknown_meld", "the side has no melds yet", ("onto",))
        opening = check_opening(
            [(top, *cards), *extra],
            state.rules,
            state.round,
            (top,),
            _opening_score(state, found.side),
            state.pile_taken,
        )
        if not opening.met:
            if not words:
                return None
            raise take_refused(opening.problems, False, bool(extra))
        return [(top, *cards), *map(tuple, extra)], None, None
    new, adds = ([(top, *cards), *extra], ()) if onto is None else (extra, [(onto, (top, *cards))])
    if not words:
        melds, table, changed, problems = melds_after(state, found, new, adds, False)
        return None if problems else (melds, table, changed)
    # the take taken: its melds and table, for the successor
    checks, problems = meld_checks(state, found, new, adds)
    if not problems:
        after, table, problems = table_after_melds(state, found, new, adds, checks)
    if problems:
        raise take_refused(problems, onto is not None, bool(extra))
    return after, table, None


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
    return _new(Verdict, (None, None, left, 0, going_out, None))


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
