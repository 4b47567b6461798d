"""Meld validation and classification under a RuleSet.

A meld is cards of one rank, optionally with wild cards (2s and jokers). It is *complete* (a book,
a.k.a. pile or canasta) at ``book_size`` cards, else *open*. Its kind: ``clean`` (no wilds),
``dirty`` (naturals and wilds) or ``wild`` (wild cards only, where ``all_wild_melds`` allows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


@lru_cache(maxsize=256)
def rank_points(rules: RuleSet) -> tuple[int, ...]:
    """``card_points_table(rules)`` as a tuple indexed by ``Card.rank_index``.

    Hashing a RuleSet (the cache key) costs microseconds, so callers that score many melds look
    this up once and pass it down (see :func:`analyse_table`)."""
    table = card_points_table(rules)
    return tuple(table[rank] for rank in Rank)


def card_points(card: Card, rules: RuleSet) -> int:
    """Points of one card (a black three: ``black_three_points``)."""
    return card_points_table(rules)[card.rank]


def cards_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """Sum of the points of ``cards``."""
    points = rank_points(rules)
    return sum([points[c.rank_index] for c in cards])


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
    return meld_check(cards, rules, onto, rank_points(rules))


def meld_check(cards: Sequence[Card], rules: RuleSet, onto: Sequence[Card],
               points_by_rank: tuple[int, ...]) -> MeldCheck:
    """:func:`validate_meld` with the rules' ``rank_points`` already looked up (one pass over the cards)."""
    whole = [*onto, *cards] if onto else cards
    problems: list[Problem] = []
    size = len(whole)
    n = 0
    points = 0
    first: Rank | None = None
    mixed = threes = False
    for c in whole:
        points += points_by_rank[c.rank_index]
        if c.is_wild:
            continue
        n += 1
        rank = c.rank
        if first is None:
            first = rank
        elif rank is not first:
            mixed = True
        if rank is Rank.THREE:
            threes = True
    wilds = size - n
    # threes: red threes are laid out, black threes only melded under black_three_books
    if threes:
        for group, name in ((onto, "onto"), (cards, "cards")):
            for i, card in enumerate(group):
                if card.is_red_three:
                    problems.append(Problem("rank_not_meldable", f"{card.code}: red threes are never melded "
                                            "(they are laid out or held)", (name, i)))
                elif card.is_black_three and not rules.black_three_books:
                    problems.append(Problem("rank_not_meldable", f"{card.code}: black threes cannot be "
                                            "melded under these rules (black_three_books is false)", (name, i)))
    if mixed:
        ranks = {c.rank.value for c in whole if not c.is_wild}
        problems.append(Problem("mixed_ranks", "a meld is cards of one rank (plus wild cards); this one "
                                f"has {', '.join(sorted(ranks))}", ("cards",)))
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
    complete = size >= rules.book_size
    if wilds and not n:
        kind: BookKind | None = BookKind.WILD
        if not rules.all_wild_melds:
            problems.append(Problem("all_wild_not_allowed", "these rules have no all-wild melds "
                                    "(all_wild_melds is false)", ("cards",)))
    elif wilds:
        kind = BookKind.DIRTY
        if threes:
            problems.append(Problem("too_many_wilds", "a meld of black threes holds natural cards only",
                                    ("cards",)))
        ratio = _RATIOS[rules.wild_ratio]
        if not ratio[1](n, wilds):
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
    elif n:
        kind = BookKind.CLEAN
    else:
        kind = None
    if mixed:
        kind = None
    rank_text = first.value if first is not None and not mixed else None
    return MeldCheck(valid=not problems, kind=kind, rank=rank_text, complete=complete, size=size,
                     naturals=n, wilds=wilds, points=points, problems=tuple(problems))


#: wild_ratio → (the rule in words, whether ``naturals`` and ``wilds`` keep it).
_RATIOS: dict[str, tuple[str, Callable[[int, int], bool]]] = {
    "twice": ("naturals >= 2 x wilds", lambda n, w: n >= 2 * w),
    "more": ("more naturals than wilds", lambda n, w: n > w),
    "equal": ("no more wilds than naturals", lambda n, w: n >= w),
    "none": ("", lambda n, w: True),
}
