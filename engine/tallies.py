"""The tally form of a side's round: its counts, as counted at the table, and what no legal table
can produce (a tally given in a request is checked here; one derived from cards needs no such check).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import NamedTuple

from handfoot.engine.cards import RANK_INDEX, Rank, deck
from handfoot.engine.checks import going_out_problems
from handfoot.engine.errors import Path, Problem
from handfoot.engine.frozen import fast_init
from handfoot.engine.melds import rank_points
from handfoot.engine.rules import Contract, RuleSet, per_rules


@fast_init
@dataclass(frozen=True, slots=True)
class RankBooks:
    """Of a side's completed books, those of one ``rank`` that has a bonus of its own
    (``rank_book_bonuses``): how many are clean and how many dirty (counted also in the tally's
    ``clean_books`` and ``dirty_books``, D30)."""

    rank: str
    clean_books: int = 0
    dirty_books: int = 0


class Tally(NamedTuple):
    """A side's round as counted at the table: what its :class:`~handfoot.engine.breakdown.Breakdown` is
    made of. Counts are cards or books; ``*_points`` are points.

    A named tuple (immutable, compared by value, fields by name or position): scoring derives one per
    side of every round, built with ``tuple.__new__`` as :class:`~handfoot.engine.breakdown.Line` is.

    ``points_left`` is positive (it is subtracted); ``red_threes_caught`` counts red threes held in
    hands or feet; ``perfect_cuts``, ``cuts_within_1`` and ``cuts_within_3`` count a side's cuts of
    exactly the dealt count, one card off, and two or three off (the graded perfect cut, D29);
    ``has_melded`` (for rules that score red threes by it) defaults to whether the side has any
    points or books on the table; ``rank_books``: which of the books are of a rank with a bonus of its
    own (:class:`RankBooks`, one per rank, only ranks of ``rank_book_bonuses``).
    """

    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0
    red_threes_on_table: int = 0
    red_threes_caught: int = 0
    table_points: int = 0
    points_left: int = 0
    burn_points: int = 0
    perfect_cuts: int = 0
    has_melded: bool | None = None
    cuts_within_1: int = 0
    cuts_within_3: int = 0
    rank_books: tuple[RankBooks, ...] = ()

    @property
    def books(self) -> Contract:
        """The completed books by kind, in the shape of a contract."""
        return Contract(self.clean_books, self.dirty_books, self.wild_books)

    @property
    def melded(self) -> bool:
        """``has_melded``, or when not given whether the side has points or books on the table."""
        if self.has_melded is not None:
            return self.has_melded
        return bool(self.table_points or self.clean_books or self.dirty_books or self.wild_books)


#: The tally's counts (every field but ``has_melded`` and ``rank_books``): whole numbers of a request's ``tally``.
TALLY_COUNTS = tuple(name for name in Tally._fields if name not in ("has_melded", "rank_books"))

#: The tally's points that threes can make negative where ``threes_count_against`` (D74).
_SIGNED = ("table_points", "burn_points")
_NATURAL_INDEXES = [RANK_INDEX[r] for r in Rank if r not in (Rank.THREE, Rank.TWO, Rank.JOKER)]
_WILD_INDEXES = [RANK_INDEX[Rank.TWO], RANK_INDEX[Rank.JOKER]]


@per_rules
def _card_steps(rules: RuleSet) -> tuple[int, int, int]:
    """(gcd of every card value, cheapest natural, cheapest wild) under ``rules`` (points)."""
    values = rank_points(rules)
    return (gcd(*values) or 1, min(values[r] for r in _NATURAL_INDEXES), min(values[r] for r in _WILD_INDEXES))


def tally_problems(
    tally: Tally, went_out: bool, rules: RuleSet, round_number: int, at: Path, decks: int
) -> list[Problem]:
    """What a given tally breaks: negative counts (``negative_tally``, and nothing else is checked
    then; table and burn points may be negative where ``threes_count_against``, D74), wild books
    without all-wild melds, red threes on the table where they are never laid out, a burn pile
    without burning, points that no sum of card values makes, fewer table points than its books'
    cards are worth (unless threes count against), more than ``decks`` decks hold (``invalid_tally``, see
    :func:`_ceiling_problems`), ``has_melded`` false with melds on the table, and going out without
    the contract. A tally names no players, so it cannot say that a player ran out of cards
    (docs/rules-decisions.md D21)."""
    problems: list[Problem] = []
    # where threes count against their side (D74), a three on the table or burned counts minus
    signed = _SIGNED if rules.threes_count_against else ()
    for key in TALLY_COUNTS:
        if getattr(tally, key) < 0 and key not in signed:
            problems.append(
                Problem(
                    "negative_tally",
                    f"{key} is {getattr(tally, key)}; counts and points are never negative (points_left is subtracted)",
                    (*at, "tally", key),
                )
            )
    if tally.rank_books:
        problems.extend(_rank_books_problems(tally, rules, at))
    if problems:
        return problems
    if tally.wild_books and not rules.all_wild_melds:
        problems.append(
            Problem(
                "all_wild_not_allowed",
                "these rules have no all-wild melds, so no wild books (all_wild_melds is false)",
                (*at, "tally", "wild_books"),
            )
        )
    if tally.red_threes_on_table and not rules.red_threes_laid_out:
        problems.append(
            Problem(
                "red_three_not_laid_out",
                "these rules never lay red threes out on the table (red_threes_laid_out is false)",
                (*at, "tally", "red_threes_on_table"),
            )
        )
    if tally.red_threes_caught and rules.red_threes_automatic and rules.red_threes_automatic_foot == "dealt":
        # where a foot's red threes wait for the foot (``picked_up``), a foot never picked up holds some
        problems.append(
            Problem(
                "red_three_held",
                "these rules play red threes automatically, a foot's as it is dealt (red_threes_automatic, "
                "red_threes_automatic_foot dealt): none is caught in a hand or foot",
                (*at, "tally", "red_threes_caught"),
            )
        )
    if tally.burn_points and rules.after_book != "burn":
        problems.append(
            Problem(
                "burn_not_allowed",
                f"these rules have no burn pile (after_book is {rules.after_book})",
                (*at, "tally", "burn_points"),
            )
        )
    if tally.has_melded is False and (tally.table_points or tally.books != Contract()):
        problems.append(
            Problem(
                "invalid_tally",
                "has_melded is false, but the side shows table points or books: a side that holds melds has melded",
                (*at, "tally", "has_melded"),
            )
        )
    step, cheapest, cheapest_wild = _card_steps(rules)
    for key in ("table_points", "points_left", "burn_points"):
        if getattr(tally, key) % step:
            problems.append(
                Problem(
                    "invalid_tally",
                    f"{key} {getattr(tally, key)} is not a sum of card "
                    f"values (every card is a multiple of {step} points)",
                    (*at, "tally", key),
                )
            )
    floor = (tally.clean_books + tally.dirty_books) * rules.book_size * min(
        cheapest, cheapest_wild
    ) + tally.wild_books * rules.book_size * cheapest_wild
    if tally.table_points < floor and not signed:
        problems.append(
            Problem(
                "invalid_tally",
                f"table_points {tally.table_points} is less than the cards of the books alone can be worth ({floor})",
                (*at, "tally", "table_points"),
            )
        )
    problems.extend(_ceiling_problems(tally, rules, decks, at))
    if went_out:
        problems.extend(going_out_problems(tally.books, None, rules, round_number, at))
    return problems


def _rank_books_problems(tally: Tally, rules: RuleSet, at: Path) -> list[Problem]:
    """A tally's ``rank_books``: each a rank of ``rank_book_bonuses`` (``not_in_rules``), once
    (``invalid_tally``), counts not negative (``negative_tally``), and no more books of a kind than the
    tally's own count of that kind (``invalid_tally``)."""
    problems: list[Problem] = []
    ranks = {b.rank for b in rules.rank_book_bonuses}
    seen: set[str] = set()
    for k, books in enumerate(tally.rank_books):
        where = (*at, "tally", "rank_books", k)
        if books.rank not in ranks:
            problems.append(
                Problem(
                    "not_in_rules",
                    f"these rules give the {books.rank}s no bonus of their own "
                    "(rank_book_bonuses): list only ranks that have one",
                    (*where, "rank"),
                )
            )
        elif books.rank in seen:
            problems.append(Problem("invalid_tally", f"the {books.rank}s are listed twice", (*where, "rank")))
        seen.add(books.rank)
        for key in ("clean_books", "dirty_books"):
            if getattr(books, key) < 0:
                problems.append(
                    Problem(
                        "negative_tally", f"{key} is {getattr(books, key)}; counts are never negative", (*where, key)
                    )
                )
    for key in ("clean_books", "dirty_books"):
        listed = sum(getattr(b, key) for b in tally.rank_books)
        if listed > getattr(tally, key):
            problems.append(
                Problem(
                    "invalid_tally",
                    f"rank_books list {listed} {key.replace('_', ' ')}, but the side has {getattr(tally, key)} ({key})",
                    (*at, "tally", "rank_books"),
                )
            )
    return problems


@per_rules
def _deck_totals(rules: RuleSet) -> tuple[int, int, int]:
    """One deck under ``rules``: its cards, its wild cards, and the points of its cards (a red three
    is never counted as a card), made once per RuleSet."""
    cards = deck(rules.jokers_per_deck)
    values = rank_points(rules)
    return (
        len(cards),
        sum(1 for c in cards if c.is_wild),
        sum(values[c.rank_index] for c in cards if not c.is_red_three),
    )


def _ceiling_problems(tally: Tally, rules: RuleSet, decks: int, at: Path) -> list[Problem]:
    """More than ``decks`` decks can hold: books (by cards, and wild cards for wild books), and card
    points on the table (with the burn pile) or left in hands and feet (docs/rules-decisions.md D10)."""
    problems: list[Problem] = []
    where = f"{decks} decks (the most for {rules.players_per_team_max} players a side)"
    deck_cards, deck_wilds, deck_points = _deck_totals(rules)
    cards = decks * deck_cards
    books = tally.clean_books + tally.dirty_books + tally.wild_books
    if books * rules.book_size > cards:
        problems.append(
            Problem(
                "invalid_tally",
                f"{books} books need {books * rules.book_size} cards; {where} hold {cards}",
                (*at, "tally", "clean_books"),
            )
        )
    wilds = decks * deck_wilds
    if tally.wild_books * rules.book_size > wilds:
        problems.append(
            Problem(
                "invalid_tally",
                f"{tally.wild_books} wild books need "
                f"{tally.wild_books * rules.book_size} wild cards; {where} hold {wilds}",
                (*at, "tally", "wild_books"),
            )
        )
    most = decks * deck_points
    for key, points in (("table_points", tally.table_points + tally.burn_points), ("points_left", tally.points_left)):
        if points > most:
            problems.append(
                Problem(
                    "invalid_tally",
                    f"{key} {points} is more than every card of {where} is worth ({most})",
                    (*at, "tally", key),
                )
            )
    return problems
