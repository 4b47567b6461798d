"""The table-side checks: opening meld, going out (contract), taking the discard pile (the last
kept in :mod:`~handfoot.engine.pile`, named here too)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from handfoot.engine.cards import Card
from handfoot.engine.errors import Problem
from handfoot.engine.melds import MeldCheck, cards_points
from handfoot.engine.pile import DiscardPileCheck as DiscardPileCheck
from handfoot.engine.pile import check_discard_pile as check_discard_pile
from handfoot.engine.pile import take_problems
from handfoot.engine.rules import Contract, RuleSet, per_rules
from handfoot.engine.table import Table, analyse_table


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """``points`` (card points counted toward the minimum), ``minimum`` (points), ``met``,
    ``problems`` (every meld problem, and ``opening_below_minimum`` when not met)."""

    points: int
    minimum: int
    met: bool
    problems: tuple[Problem, ...]


def check_opening(
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    round_number: int = 1,
    from_pile: Sequence[Card] = (),
    score: int | None = None,
    taken_before: bool = False,
) -> OpeningCheck:
    """Check a side's opening melds against the round's minimum (``opening_minimum_by_round``).

    Only card values count: no red threes, no book bonuses (seed 000; seed 004). ``from_pile`` lists
    the melded cards that came from a taken discard pile, its top card first; when
    ``opening_pile_top_only`` only that top card counts (seed 000 'Picking up'; seed 003; seed 004),
    and the cards from hand (the melded cards not from the pile) must make the take that
    :func:`take_problems` asks, as ``POST /v1/discard-pile/check`` does (``taken_before``: the pile
    was taken before this round, so ``pile_later_take`` applies; the play engine gives it).
    ``score`` is the side's cumulative score, needed when ``opening_thresholds`` are set.
    Under ``opening_needs_book`` the melds must hold a completed valid book (``opening_needs_book``; a
    keeper's fifth round, "a canasta to meld": docs/rules-decisions.md D27). Made once per rule set
    and what it reads.
    """
    key: list[int | bool | None] = [round_number, score, taken_before]
    for card in from_pile:  # loops: a comprehension is a function made and called
        key.append(card.key)
    for meld in melds:  # every card by its key (a Card hashes in Python), each meld after a -1
        key.append(-1)
        for card in meld:
            key.append(card.key)
    made = _openings_made(rules)
    found = made.get(tuple(key))
    if found is None:
        if len(made) >= _OPENINGS_KEPT:  # a bound on memory: start again
            made.clear()
        found = made[tuple(key)] = _check_opening(melds, rules, round_number, from_pile, score, taken_before)
    return found


@per_rules
def _openings_made(rules: RuleSet) -> dict[tuple[int | bool | None, ...], OpeningCheck]:
    """:func:`check_opening` made under ``rules`` (an answer is immutable: shared), by what it reads:
    the round, the score, ``taken_before``, and the cards (``Card.key``) from the pile and of each
    meld."""
    return {}


_OPENINGS_KEPT = 4096  # a round judges a few dozen openings; past this many, start again


def _check_opening(
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    round_number: int,
    from_pile: Sequence[Card],
    score: int | None,
    taken_before: bool,
) -> OpeningCheck:
    """:func:`check_opening`, made."""
    table = analyse_table(melds, rules)
    problems = list(table.problems)
    excluded: list[Card] = []
    if from_pile:  # the melded cards counted only here, by Card.key (a Card hashes in Python)
        melded: dict[int, int] = {}
        first: dict[int, Card] = {}  # each card's first copy melded, in order: the hand's cards
        for meld in melds:
            for card in meld:
                key = card.key
                if key in melded:
                    melded[key] += 1
                else:
                    melded[key] = 1
                    first[key] = card
        hand_counts = dict(melded)
        for i, card in enumerate(from_pile):
            key = card.key
            if melded.get(key, 0) <= 0:
                problems.append(
                    Problem(
                        "pile_card_not_in_melds",
                        f"{card.code} from the pile is not in the melds (or is listed more often than melded)",
                        ("from_pile", i),
                    )
                )
                continue
            melded[key] -= 1
            if i > 0 and rules.opening_pile_top_only:
                excluded.append(card)
        for card in from_pile:  # every card from the pile, melded or not, is no hand card
            if card.key in hand_counts:
                hand_counts[card.key] -= 1
        # the melded cards not from the pile, each distinct card as often as left, in the order first melded
        hand = [first[key] for key, count in hand_counts.items() for _ in range(count)]
        # the take itself: the rule of POST /v1/discard-pile/check, applied once
        problems += take_problems(
            from_pile[0], hand, rules, table, taken_before, at_top=("from_pile", 0), at_hand=("melds",)
        )
    points = table.points - cards_points(excluded, rules)
    minimum = rules.opening_minimum_for(round_number, score)
    faults = _opening_faults(points, minimum, table, rules, score)
    if faults:
        problems += _opening_problems(faults, points, minimum, round_number, rules)
    return OpeningCheck(points=points, minimum=minimum, met=not problems, problems=tuple(problems))


def opening_met(
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    round_number: int = 1,
    score: int | None = None,
    known: Sequence[MeldCheck] = (),
) -> bool:
    """Whether :func:`check_opening` of ``melds`` (none from the pile) is met, decided before any
    refusal is worded (the play engine's candidates ask it: whether, not why). ``known``: the
    melds' checks where the caller has made them (``table.analyse_table`` reuses them)."""
    table = analyse_table(melds, rules, known=known)
    if table.problems:
        return False
    return not _opening_faults(table.points, rules.opening_minimum_for(round_number, score), table, rules, score)


#: :func:`check_opening`'s own rules broken, as bits (the melds' problems are the table's).
_MISSING_SCORE, _BELOW_MINIMUM, _NEEDS_BOOK = 1, 2, 4


def _opening_faults(points: int, minimum: int, table: Table, rules: RuleSet, score: int | None) -> int:
    """The opening's rules ``points`` (card points counted) on ``table`` break, as bits: no score
    where ``opening_thresholds`` needs it, below ``minimum`` (points), no completed book where
    ``opening_needs_book``."""
    faults = 0
    if rules.opening_thresholds and score is None:
        faults |= _MISSING_SCORE
    if points < minimum:
        faults |= _BELOW_MINIMUM
    if rules.opening_needs_book and table.books == _NO_BOOKS:
        faults |= _NEEDS_BOOK
    return faults


def _opening_problems(faults: int, points: int, minimum: int, round_number: int, rules: RuleSet) -> list[Problem]:
    """:func:`_opening_faults`' bits in words (codes ``missing_score``, ``opening_below_minimum``,
    ``opening_needs_book``), in that order."""
    problems: list[Problem] = []
    if faults & _MISSING_SCORE:
        problems.append(
            Problem(
                "missing_score",
                "these rules take the opening minimum from the "
                "side's cumulative score (opening_thresholds); give `score`",
                ("score",),
            )
        )
    if faults & _BELOW_MINIMUM:
        problems.append(
            Problem(
                "opening_below_minimum",
                f"the opening melds count {points} points; round {round_number} needs at least {minimum}",
                ("melds",),
            )
        )
    if faults & _NEEDS_BOOK:
        problems.append(
            Problem(
                "opening_needs_book",
                "these rules open with a completed book "
                f"({rules.book_size} cards; opening_needs_book): the opening melds hold none",
                ("melds",),
            )
        )
    return problems


_NO_BOOKS = Contract()


class PlayerState(NamedTuple):
    """A player at the end of play: ``hand`` cards, ``foot`` cards when the foot was never picked
    up (``None`` once picked up), and ``played_from_foot`` (``None``: not given; read only where
    ``going_out_needs_foot_play``, and then an absent value is not refused: docs/rules-decisions.md D17).
    A named tuple: the reader of a request body builds one per player with ``tuple.__new__``."""

    name: str
    hand: tuple[Card, ...] = ()
    foot: tuple[Card, ...] | None = None
    played_from_foot: bool | None = None


@dataclass(frozen=True, slots=True)
class GoingOutCheck:
    """``met`` (no rule known to be broken); ``books`` and ``missing`` by kind (``clean_books``,
    ``dirty_books``, ``wild_books``); ``contract`` needed this round; ``problems``; ``unknown``: each
    input not given on which ``met`` rests (code ``input_needed``, its path the missing member's; D78:
    a ``met`` with ``unknown`` entries is not a yes to the rule those inputs decide)."""

    met: bool
    books: Contract
    missing: Contract
    contract: Contract
    problems: tuple[Problem, ...]
    unknown: tuple[Problem, ...] = ()


def contract_shortfall(books: Contract, needed: Contract) -> Contract:
    """The books still missing, by kind (never negative)."""
    return Contract(
        max(0, needed.clean_books - books.clean_books),
        max(0, needed.dirty_books - books.dirty_books),
        max(0, needed.wild_books - books.wild_books),
    )


def going_out_problems(
    books: Contract,
    players: Sequence[PlayerState] | None,
    rules: RuleSet,
    round_number: int,
    prefix: tuple[str | int, ...] = (),
) -> list[Problem]:
    """The rules broken by a side going out with ``books`` (contract; feet picked up and, where
    ``going_out_needs_foot_play``, played from: a ``played_from_foot`` of false is refused)."""
    problems: list[Problem] = []
    needed = rules.contract_for(round_number)
    if (
        books.clean_books < needed.clean_books
        or books.dirty_books < needed.dirty_books
        or books.wild_books < needed.wild_books
    ):
        missing = contract_shortfall(books, needed)
        parts = [f"{n} {k.replace('_', ' ')}" for k, n in missing.as_dict().items() if n]
        problems.append(
            Problem(
                "contract_not_met",
                f"going out in round {round_number} needs "
                f"{needed.clean_books} clean, {needed.dirty_books} dirty and "
                f"{needed.wild_books} wild books (contract); missing {', '.join(parts)}",
                (*prefix, "went_out") if prefix else ("melds",),
            )
        )
    if players is not None and rules.going_out_needs_feet:
        for i, player in enumerate(players):
            if player.foot is not None:
                problems.append(
                    Problem(
                        "foot_not_picked_up",
                        f"{player.name} has not picked up the "
                        "foot; every player of the side must have picked up their foot "
                        "before the side goes out (going_out_needs_feet)",
                        (*prefix, "players", i, "foot"),
                    )
                )
            elif rules.going_out_needs_foot_play and player.played_from_foot is False:
                problems.append(
                    Problem(
                        "foot_not_played",
                        f"{player.name} has not played from the foot; "
                        "every player of the side must have picked up their foot and "
                        "played from it before the side goes out (going_out_needs_foot_play)",
                        (*prefix, "players", i, "played_from_foot"),
                    )
                )
    return problems


def player_problems(
    players: Sequence[PlayerState], rules: RuleSet, round_number: int, prefix: tuple[str | int, ...] = ()
) -> list[Problem]:
    """What no table could have left a side's players with, under any contract (paths under ``prefix``):

    - a foot never picked up that does not hold exactly the round's foot size dealt
      (:meth:`RuleSet.foot_size_for`; ``foot_count``; seed 000 "Cards in a foot you never picked up all
      count against you");
    - ``played_from_foot`` true with the foot never picked up, or false from a player who picked up
      the foot and holds no cards, so has played it (``invalid_input``).
    """
    problems: list[Problem] = []
    for i, player in enumerate(players):
        foot = player.foot
        if foot is None and (player.played_from_foot is not False or player.hand):
            continue  # the usual end state: nothing to check (decided before any path is built)
        at = (*prefix, "players", i)
        if foot is not None:
            dealt = rules.foot_size_for(round_number)
            if len(foot) != dealt:
                problems.append(
                    Problem(
                        "foot_count",
                        f"{player.name}'s foot was never picked up, so it holds "
                        f"the {dealt} cards dealt (foot_size); it lists "
                        f"{len(foot)}",
                        (*at, "foot"),
                    )
                )
            if player.played_from_foot:
                problems.append(
                    Problem(
                        "invalid_input",
                        f"{player.name} cannot have played from a foot never picked up",
                        (*at, "played_from_foot"),
                    )
                )
        elif player.played_from_foot is False and not player.hand:
            problems.append(
                Problem(
                    "invalid_input",
                    f"{player.name} picked up the foot and holds no cards, "
                    "so has played from it: played_from_foot cannot be false",
                    (*at, "played_from_foot"),
                )
            )
    return problems


#: One holder of cards at the end of a round, for :func:`out_of_cards_problems`: who (words), whether
#: they still hold a card, and the path that says so.
Holder = tuple[str, bool, tuple[str | int, ...]]


def out_of_cards_problems(holders: Sequence[Holder], went_out: bool, rules: RuleSet) -> list[Problem]:
    """``out_of_cards_not_out`` for each holder of a side that did not go out and holds no card, where
    ``last_card_needs_contract``: a player plays the last card of hand and foot only by going out,
    which needs the contract (seed 004 "上がりの条件を満たしていない場合、手札のフットを0枚にすることは
    できません"; seed 000, going out: meld everything, or all but one card and discard it). Where the
    rules let play go on (seed 002 "play continues as normal as if the team had not gone out") no
    holder is refused. A holder is a player of the cards form (a tally names no players: D21)."""
    if went_out or not rules.last_card_needs_contract:
        return []
    return [
        Problem(
            "out_of_cards_not_out",
            f"{who} holds no cards, but the side did not go out: under "
            "these rules a player plays the last card of hand and foot only by going out, which "
            "needs the contract (last_card_needs_contract)",
            path,
        )
        for who, holds, path in holders
        if not holds
    ]


def check_going_out(
    melds: Sequence[Sequence[Card]], players: Sequence[PlayerState], rules: RuleSet, round_number: int = 1
) -> GoingOutCheck:
    """May a side with these melds on the table and these players go out this round?

    Needs the contract's books by kind (seed 000 'Going out', seeds 001-004) and, where
    ``going_out_needs_feet``, every player's foot picked up (seed 000; seed 001), and where
    ``going_out_needs_foot_play`` played from (seed 000). Meld problems are
    reported and an invalid meld counts as no book. Where a player's ``played_from_foot`` decides the
    answer and was not given, it is listed in ``unknown`` (:func:`going_out_unknowns`).
    """
    table = analyse_table(melds, rules)
    books = table.books
    problems = [
        *table.problems,
        *player_problems(players, rules, round_number),
        *going_out_problems(books, players, rules, round_number),
    ]
    needed = rules.contract_for(round_number)
    unknown = tuple(going_out_unknowns(players, rules))
    return GoingOutCheck(
        met=not problems,
        books=books,
        missing=contract_shortfall(books, needed),
        contract=needed,
        problems=tuple(problems),
        unknown=unknown,
    )


def going_out_unknowns(players: Sequence[PlayerState], rules: RuleSet) -> list[Problem]:
    """What :func:`going_out_problems` cannot decide for want of an input: where every player must
    have played from the foot (``going_out_needs_foot_play``, Pagat "your partner must have played
    from the foot"), a player whose foot is picked up and whose ``played_from_foot`` was not given
    (``input_needed`` at ``("players", i, "played_from_foot")``; D78: unknown is not yes)."""
    if not (rules.going_out_needs_feet and rules.going_out_needs_foot_play):
        return []
    return [
        Problem(
            "input_needed",
            f"{player.name}: played_from_foot not given; going out needs every player of the side to have "
            "played from the foot (going_out_needs_foot_play): give true or false",
            ("players", i, "played_from_foot"),
        )
        for i, player in enumerate(players)
        if player.foot is None and player.played_from_foot is None
    ]
