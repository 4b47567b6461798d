"""Meld validation and classification under a RuleSet.

A meld is cards of one rank, optionally with wild cards (2s and jokers). It is *complete* (a book,
a.k.a. pile or canasta) at ``book_size`` cards, else *open*. Its kind: ``clean`` (no wilds),
``dirty`` (naturals and wilds) or ``wild`` (wild cards only, where ``all_wild_melds`` allows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from engine.cards import Card, Rank
from engine.errors import Problem
from engine.rules import RuleSet


class BookKind(Enum):
    """The kind of a meld or book; the value is the API's text."""

    CLEAN = "clean"
    DIRTY = "dirty"
    WILD = "wild"


@lru_cache(maxsize=256)
def card_points_table(rules: RuleSet) -> dict[Rank, int]:
    """Points of each rank under ``rules`` (red threes are never counted as cards; see scoring)."""
    high = {Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN}
    if rules.high_from == "8":
        high |= {Rank.NINE, Rank.EIGHT}
    table = {Rank.JOKER: rules.joker_points, Rank.TWO: rules.two_points, Rank.ACE: rules.ace_points,
             Rank.THREE: rules.black_three_points}
    for rank in Rank:
        if rank not in table:
            table[rank] = rules.high_points if rank in high else rules.low_points
    return table


def card_points(card: Card, rules: RuleSet) -> int:
    """Points of one card (a black three: ``black_three_points``)."""
    return card_points_table(rules)[card.rank]


def cards_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """Sum of the points of ``cards``."""
    table = card_points_table(rules)
    return sum(table[c.rank] for c in cards)


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The answer about one meld: ``valid``; ``kind`` (None when no kind applies, e.g. mixed ranks);
    ``rank`` (canonical rank text of its naturals, None for a wild meld); ``complete`` (a book);
    ``size``, ``naturals``, ``wilds``; ``points`` (card points of the whole meld); ``problems``."""

    valid: bool
    kind: BookKind | None
    rank: str | None
    complete: bool
    size: int
    naturals: int
    wilds: int
    points: int
    problems: tuple[Problem, ...]


def validate_meld(cards: Sequence[Card], rules: RuleSet, onto: Sequence[Card] = ()) -> MeldCheck:
    """Check ``cards`` as a new meld, or as cards added ``onto`` a meld already on the table.

    Every rule broken is reported (codes ``meld_too_small``, ``meld_too_large``, ``book_closed``,
    ``mixed_ranks``, ``rank_not_meldable``, ``all_wild_not_allowed``, ``too_many_wilds``,
    ``too_few_naturals``, ``wild_limit_in_book``). Problem paths are ``("cards",)`` or ``("onto",)``
    or ``("cards", i)`` for a single card. Sources: meld size and book size (``meld_min``,
    ``book_size``, ``book_max_size``), wild limits (``wild_ratio``, ``min_naturals_with_wilds``,
    ``min_naturals_dirty_book``, ``max_wilds_per_book``); each rule's source is in the preset's
    provenance.
    """
    whole = [*onto, *cards]
    problems: list[Problem] = []
    naturals = [c for c in whole if not c.is_wild]
    wilds = len(whole) - len(naturals)
    size = len(whole)
    ranks = {c.rank for c in naturals}
    # threes: red threes are laid out, black threes only melded under black_three_books
    for group, name in ((onto, "onto"), (cards, "cards")):
        for i, card in enumerate(group):
            if card.is_red_three:
                problems.append(Problem("rank_not_meldable", f"{card.code}: red threes are never melded "
                                        "(they are laid out or held)", (name, i)))
            elif card.is_black_three and not rules.black_three_books:
                problems.append(Problem("rank_not_meldable", f"{card.code}: black threes cannot be "
                                        "melded under these rules (black_three_books is false)", (name, i)))
    if len(ranks) > 1:
        problems.append(Problem("mixed_ranks", "a meld is cards of one rank (plus wild cards); this one "
                                f"has {', '.join(sorted(r.value for r in ranks))}", ("cards",)))
    if size < rules.meld_min:
        problems.append(Problem("meld_too_small", f"a meld needs at least {rules.meld_min} cards "
                                f"(meld_min); this one has {size}", ("cards",)))
    complete_before = bool(onto) and len(onto) >= rules.book_size
    if complete_before and cards and rules.book_max_size == rules.book_size:
        problems.append(Problem("book_closed", f"the meld is a completed book of {len(onto)}; no card "
                                f"may be added (book_max_size {rules.book_max_size})", ("onto",)))
    elif rules.book_max_size is not None and size > rules.book_max_size:
        problems.append(Problem("meld_too_large", f"a meld holds at most {rules.book_max_size} cards "
                                f"(book_max_size); this one has {size}", ("cards",)))
    n = len(naturals)
    complete = size >= rules.book_size
    if wilds and not naturals:
        kind: BookKind | None = BookKind.WILD
        if not rules.all_wild_melds:
            problems.append(Problem("all_wild_not_allowed", "these rules have no all-wild melds "
                                    "(all_wild_melds is false)", ("cards",)))
    elif wilds:
        kind = BookKind.DIRTY
        if Rank.THREE in ranks:
            problems.append(Problem("too_many_wilds", "a meld of black threes holds natural cards only",
                                    ("cards",)))
        ratio = {"twice": ("naturals >= 2 x wilds", n >= 2 * wilds),
                 "more": ("more naturals than wilds", n > wilds),
                 "equal": ("no more wilds than naturals", n >= wilds),
                 "none": ("", True)}[rules.wild_ratio]
        if not ratio[1]:
            problems.append(Problem("too_many_wilds", f"{n} natural and {wilds} wild cards break the "
                                    f"rule {ratio[0]} (wild_ratio {rules.wild_ratio})", ("cards",)))
        if n < rules.min_naturals_with_wilds:
            problems.append(Problem("too_few_naturals", f"a meld with wild cards needs at least "
                                    f"{rules.min_naturals_with_wilds} natural cards "
                                    f"(min_naturals_with_wilds); this one has {n}", ("cards",)))
        if complete and n < rules.min_naturals_dirty_book:
            problems.append(Problem("too_few_naturals", f"a dirty book needs at least "
                                    f"{rules.min_naturals_dirty_book} natural cards "
                                    f"(min_naturals_dirty_book); this one has {n}", ("cards",)))
        if rules.max_wilds_per_book is not None and wilds > rules.max_wilds_per_book:
            problems.append(Problem("wild_limit_in_book", f"at most {rules.max_wilds_per_book} wild "
                                    f"cards in a meld (max_wilds_per_book); this one has {wilds}",
                                    ("cards",)))
    elif naturals:
        kind = BookKind.CLEAN
    else:
        kind = None
    if len(ranks) > 1:
        kind = None
    rank = next(iter(ranks)).value if len(ranks) == 1 else None
    return MeldCheck(valid=not problems, kind=kind, rank=rank, complete=complete, size=size,
                     naturals=n, wilds=wilds, points=cards_points(whole, rules),
                     problems=tuple(problems))
