"""Taking the discard pile: the take's rule (:func:`take_refusals`, decided as bits before any
wording; :func:`take_problems`, the same worded) and the pile check (:func:`check_discard_pile`,
``POST /v1/discard-pile/check``). :mod:`~handfoot.engine.checks` names them too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

from handfoot.engine.cards import RANK_TEXT, Card, Rank
from handfoot.engine.errors import Problem
from handfoot.engine.rules import RuleSet
from handfoot.engine.table import Table, analyse_table

_rank_of = attrgetter("rank")

# The rules a take breaks, one bit each (:func:`take_refusals`), worded by :func:`take_problems`.
NOT_TAKEN = 1  # pile_take_allowed false
RED_THREE = 2  # a red three on top
BLACK_THREE = 4  # a black three on top, pile_blocked_by
WILD_BLOCKED = 8  # a wild card on top, pile_wild_top / all_wild_melds
WILD_MATCH = 16  # a wild card on top without its matching pair
CLOSED = 32  # the top card's rank a completed book, pile_closed_rank_blocks
CLOSED_BURN = 64  # the same where after_book is burn (D71)
BURNED = 128  # the top card's rank burned on the side
LATER_MATCH = 256  # pile_later_take's natural and wild card or open meld missing
NEEDS_PAIR = 512  # two naturals of the rank missing


@dataclass(frozen=True, slots=True)
class DiscardPileCheck:
    """``allowed``; ``cards`` taken if allowed (the top ``pile_take_count``, all if fewer);
    ``problems``."""

    allowed: bool
    cards: int
    problems: tuple[Problem, ...]


def pile_refused(pile: Sequence[Card], rules: RuleSet, frozen: bool, burn: Sequence[Card]) -> bool:
    """Whether :func:`check_discard_pile` refuses the pile whatever the hand melds with it: an empty
    pile, a frozen one, a burn pile where the rules have none (each worded there)."""
    return not pile or frozen or (bool(burn) and rules.after_book != "burn")


def take_count(pile: Sequence[Card], rules: RuleSet) -> int:
    """How many cards a take takes from ``pile``: the top ``pile_take_count``, all if fewer."""
    return len(pile) if rules.pile_take_count is None else min(len(pile), rules.pile_take_count)


def check_discard_pile(
    hand: Sequence[Card],
    pile: Sequence[Card],
    rules: RuleSet,
    melds: Sequence[Sequence[Card]] = (),
    taken_before: bool = False,
    frozen: bool = False,
    burn: Sequence[Card] = (),
    table: Table | None = None,
) -> DiscardPileCheck:
    """May a player holding ``hand`` take the discard ``pile`` (top card first)?

    ``melds`` are the side's melds on the table; ``taken_before``: the pile has been taken this round
    (seed 003's 'broken' pile); ``frozen``: a wild card was discarded onto it (seed 003; ``not_in_rules``
    where the rules never freeze); ``burn``: the side's burn pile (seed 003; ``not_in_rules`` where the
    rules have none); ``table``: ``melds`` analysed, where the caller has it. What the take needs of
    the hand: :func:`take_problems`. Rules: ``pile_take_count``, ``pile_blocked_by``, ``pile_wild_top``,
    ``pile_later_take``, ``pile_freezes_on_wild``, ``pile_closed_rank_blocks`` (seeds 000, 001, 003, 004).
    """
    problems: list[Problem] = []
    take = take_count(pile, rules)
    if not pile:
        problems.append(Problem("pile_empty", "the discard pile is empty", ("pile",)))
        return DiscardPileCheck(False, 0, tuple(problems))
    if frozen and not rules.pile_freezes_on_wild:
        problems.append(
            Problem(
                "not_in_rules",
                "these rules never freeze the pile (pile_freezes_on_wild is false): `frozen` cannot be true",
                ("frozen",),
            )
        )
    elif frozen:
        problems.append(
            Problem(
                "pile_frozen",
                "the pile is frozen by a discarded wild card until every player has had a turn (pile_freezes_on_wild)",
                ("frozen",),
            )
        )
    if burn and rules.after_book != "burn":
        problems.append(
            Problem(
                "not_in_rules",
                f"these rules have no burn pile (after_book is {rules.after_book}): `burn` must be empty",
                ("burn",),
            )
        )
    problems += take_problems(pile[0], hand, rules, table or analyse_table(melds, rules), taken_before, burn)
    return DiscardPileCheck(not problems, take, tuple(problems))


_NEVER_TAKEN = "these rules never take the discard pile (pile_take_allowed is false): every turn draws from the stock"


def take_refusals(
    top: Card, hand: Sequence[Card], rules: RuleSet, table: Table, taken_before: bool = False, burn: Sequence[Card] = ()
) -> int:
    """The rules of :func:`take_problems` that taking the pile with ``top`` on it and ``hand``'s
    cards melded with it breaks, as bits (this module's constants; 0: none), no problem worded:
    what the listing and the mask ask of each take candidate."""
    if not rules.pile_take_allowed:  # seed 002: "drawing 2 cards maximum and minimum", every turn
        return NOT_TAKEN
    rank = top.rank
    if rank is Rank.THREE:
        if top.is_red_three:
            return RED_THREE
        return BLACK_THREE if rules.pile_blocked_by in ("black_three", "any_three") else 0
    if top.is_wild:
        if rules.pile_wild_top == "blocked" or not rules.all_wild_melds:
            return WILD_BLOCKED
        return WILD_MATCH if list(map(_rank_of, hand)).count(rank) < 2 else 0
    bits = 0
    text = RANK_TEXT[top.rank_index]
    closed = text in table.closed_ranks()
    if closed and rules.pile_closed_rank_blocks:
        bits = CLOSED
    elif closed and rules.after_book == "burn":  # the top card could start no meld nor join one (D71)
        bits = CLOSED_BURN
    elif any(c.rank is rank for c in burn):
        bits = BURNED
    naturals = list(map(_rank_of, hand)).count(rank)  # a rank is one object: counted by identity
    if taken_before and rules.pile_later_take == "natural_and_wild_or_open_meld":
        if not (naturals >= 2 or (naturals >= 1 and any(c.is_wild for c in hand)) or text in table.open_ranks()):
            bits |= LATER_MATCH
    elif naturals < 2:
        bits |= NEEDS_PAIR
    return bits


def take_problems(
    top: Card,
    hand: Sequence[Card],
    rules: RuleSet,
    table: Table,
    taken_before: bool = False,
    burn: Sequence[Card] = (),
    at_top: tuple[str | int, ...] = ("pile", 0),
    at_hand: tuple[str | int, ...] = ("hand",),
) -> list[Problem]:
    """What taking the discard pile with ``top`` on it needs of the cards from ``hand`` melded with it:
    the one rule of a take (:func:`take_refusals`, worded), used by :func:`check_discard_pile` and by
    ``checks.check_opening`` (an opening with cards from a taken pile, whose hand cards are its
    melded cards not from the pile).

    None where ``pile_take_allowed`` is false (``pile_not_taken``). A three on top blocks
    (``pile_blocked_by``; a red three is never melded); a wild on top needs a matching pair of that
    wild (``pile_wild_top``, ``all_wild_melds``); a rank that is a completed
    book blocks (``pile_closed_rank_blocks``, seed 003; and where ``after_book`` is ``burn``, as no
    second book of it may be started: D71); a rank the side has burned gives no help
    (seed 003 'Burn cards cannot be used to draw from the discard pile'); else two natural cards of
    the rank in hand (seed 000 'You need two cards in hand matching the top card'; seed 001 'two
    matching natural cards from your hand (wilds do not count)'), or after a first take
    ``pile_later_take``. Codes: ``pile_not_taken``, ``pile_blocked``, ``pile_needs_match``, ``pile_rank_closed``.
    """
    bits = take_refusals(top, hand, rules, table, taken_before, burn)
    return _worded(bits, top, hand, rules, at_top, at_hand) if bits else []


def _worded(
    bits: int,
    top: Card,
    hand: Sequence[Card],
    rules: RuleSet,
    at_top: tuple[str | int, ...],
    at_hand: tuple[str | int, ...],
) -> list[Problem]:
    """The problems of :func:`take_refusals`' ``bits``, in the order the rule decides them."""
    if bits & NOT_TAKEN:
        return [Problem("pile_not_taken", _NEVER_TAKEN, at_top)]
    if bits & RED_THREE:
        return [Problem("pile_blocked", "a red three on top cannot be melded", at_top)]
    if bits & BLACK_THREE:
        detail = f"a black three on top blocks the pile (pile_blocked_by {rules.pile_blocked_by})"
        return [Problem("pile_blocked", detail, at_top)]
    if bits & WILD_BLOCKED:
        detail = (
            f"a wild card ({top.code}) on top blocks the pile "
            f"(pile_wild_top {rules.pile_wild_top}, all_wild_melds "
            f"{str(rules.all_wild_melds).lower()})"
        )
        return [Problem("pile_blocked", detail, at_top)]
    if bits & WILD_MATCH:
        detail = (
            f"taking a {top.code} needs two matching "
            f"{'jokers' if top.rank is Rank.JOKER else '2s'} in hand "
            "(pile_wild_top matching_pair)"
        )
        return [Problem("pile_needs_match", detail, at_hand)]
    problems: list[Problem] = []
    rank = top.rank.value
    if bits & CLOSED:
        detail = f"the {rank}s are a completed book on your table (pile_closed_rank_blocks)"
        problems.append(Problem("pile_rank_closed", detail, at_top))
    elif bits & CLOSED_BURN:
        detail = (
            f"the {rank}s are a completed book on "
            "your table and these rules start no second book of a rank (after_book "
            "burn): the top card cannot be melded"
        )
        problems.append(Problem("pile_rank_closed", detail, at_top))
    elif bits & BURNED:
        detail = f"the {rank}s are burned on your side: burn cards cannot be used to draw from the discard pile"
        problems.append(Problem("pile_rank_closed", detail, at_top))
    if bits & LATER_MATCH:
        detail = (
            f"taking a {top.code} needs a natural pair, a "
            "natural and a wild card, or an open meld of the rank "
            "(pile_later_take)"
        )
        problems.append(Problem("pile_needs_match", detail, at_hand))
    elif bits & NEEDS_PAIR:
        naturals = sum(1 for c in hand if c.rank is top.rank)
        detail = (
            f"taking a {top.code} needs two natural "
            f"{rank}s in hand to meld with it at once (wild cards do not "
            f"count); the hand has {naturals}"
        )
        problems.append(Problem("pile_needs_match", detail, at_hand))
    return problems
