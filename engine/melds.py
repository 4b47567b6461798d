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
from operator import attrgetter

from handfoot.engine.cards import NATURAL_RANKS, RANK_BITS, RANK_COUNT_MAX, RANK_FIELDS, RANK_INDEX, Card, Rank, Suit
from handfoot.engine.errors import Problem
from handfoot.engine.frozen import fast_init
from handfoot.engine.rules import RuleSet


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


#: ``card.counts`` (a C-level callable for ``map``; see ``handfoot.engine.cards`` for the packed counters).
counts_of = attrgetter("counts")

_RANKS = tuple(Rank)
_TWO, _THREE, _JOKER = RANK_INDEX[Rank.TWO], RANK_INDEX[Rank.THREE], RANK_INDEX[Rank.JOKER]
_FIELD = (1 << RANK_BITS) - 1
#: The fields of a composition (``packed & RANK_FIELDS``) that count natural cards: all but 2s and jokers.
_NATURAL_FIELDS = RANK_FIELDS & ~(_FIELD << RANK_BITS * _TWO) & ~(_FIELD << RANK_BITS * _JOKER)


def _scan_counts(whole: Sequence[Card], points_by_rank: tuple[int, ...]
                 ) -> tuple[int, int, Rank | None, bool, bool] | None:
    """(naturals, points, their rank, mixed ranks (False), any three) of a meld of at most
    ``RANK_COUNT_MAX`` cards whose naturals are of one rank (else ``None``), from the sum of its
    cards' packed counts: one pass in C instead of a Python loop over the cards."""
    comp = sum(map(counts_of, whole)) & RANK_FIELDS
    twos = comp >> RANK_BITS * _TWO & _FIELD
    jokers = comp >> RANK_BITS * _JOKER  # the top field
    points = twos * points_by_rank[_TWO] + jokers * points_by_rank[_JOKER]
    naturals = comp & _NATURAL_FIELDS
    if not naturals:
        return 0, points, None, False, False
    top = (naturals.bit_length() - 1) // RANK_BITS  # the highest natural rank present ...
    n = naturals >> RANK_BITS * top
    if n != len(whole) - twos - jokers:  # ... is not every natural card
        return None
    return n, points + n * points_by_rank[top], _RANKS[top], False, top == _THREE


def _scan_cards(whole: Sequence[Card], points_by_rank: tuple[int, ...]) -> tuple[int, int, Rank | None, bool, bool]:
    """:func:`_scan_counts` card by card, for any meld."""
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
    return n, points, first, mixed, threes


def card_points(card: Card, rules: RuleSet) -> int:
    """Points of one card (a black three: ``black_three_points``)."""
    return card_points_table(rules)[card.rank]


def cards_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """Sum of the points of ``cards``."""
    points = rank_points(rules)
    return sum([points[c.rank_index] for c in cards])


@fast_init
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
    scan = _scan_counts(whole, points_by_rank) if size <= RANK_COUNT_MAX else None
    n, points, first, mixed, threes = scan or _scan_cards(whole, points_by_rank)
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


# ``MeldTable.info`` of a meld, low to high: three 8-bit book counts (clean, dirty, wild: one in its
# kind's field when complete), an 8-bit card count, a 4-bit field per rank (one in the field of its
# naturals' rank), then its card points (signed, unbounded). Summed over at most ``INFO_MELDS_MAX``
# melds no field overflows, so one C-level ``sum`` gives a side's books by kind, its melded cards,
# whether two melds share a rank, and its card points.
INFO_MELDS_MAX = 15
BOOK_BITS = 8
BOOK_MASK = (1 << BOOK_BITS) - 1
BOOK_FIELDS = (1 << 3 * BOOK_BITS) - 1
SIZE_SHIFT = 3 * BOOK_BITS
PRESENCE_SHIFT = SIZE_SHIFT + 8
#: The book counts and the card count of a sum of infos: ``sum & LOW_FIELDS`` is a small int, and
#: its card count is ``low >> SIZE_SHIFT`` (the size field is the highest of them).
LOW_FIELDS = (1 << PRESENCE_SHIFT) - 1
#: In a sum of infos: some rank has two melds (a rank field above one).
PRESENCE_TWICE = sum(0b1110 << PRESENCE_SHIFT + RANK_BITS * r for r in range(len(Rank)))
POINTS_SHIFT = PRESENCE_SHIFT + RANK_BITS * len(Rank)
_BOOK_ONE = {kind: 1 << BOOK_BITS * i for i, kind in enumerate(BookKind)}


@dataclass(frozen=True, slots=True)
class MeldTable:
    """Every meld that may lie on a table under one RuleSet, by its composition.

    A composition is ``sum(card.counts for card in meld) & RANK_FIELDS``: how many cards of each rank
    (see ``handfoot.engine.cards``). The table holds every composition of at most ``max_size`` cards that
    :func:`meld_check` finds valid, except melds of threes (their suits matter).

    ``info``: composition → the meld's packed info (books, size, rank, points: see ``INFO_MELDS_MAX``);
    ``rank``: composition → ``RANK_INDEX`` of its naturals, ``-1`` for a wild meld.
    ``one_open``, ``burn``: the rules between melds (``one_open_meld_per_rank``, ``after_book`` burn).
    """

    max_size: int
    info: dict[int, int]
    rank: dict[int, int]
    one_open: bool
    burn: bool


@lru_cache(maxsize=64)
def meld_table(rules: RuleSet) -> MeldTable:
    """The :class:`MeldTable` of ``rules``, built by asking :func:`meld_check` about one meld of
    fours and 2s per (naturals, wilds) count, so it cannot disagree with it: validity, kind and
    completeness depend only on those counts for any natural rank but three, and on no suit.
    At most ``RANK_COUNT_MAX`` (15) cards a meld: a few thousand entries at most."""
    max_size = min(RANK_COUNT_MAX, rules.book_max_size or RANK_COUNT_MAX)
    points = rank_points(rules)
    natural, wild = Card(Rank.FOUR, Suit.SPADES), Card(Rank.TWO, Suit.SPADES)
    ranks = [RANK_INDEX[rank] for rank in NATURAL_RANKS]
    info: dict[int, int] = {}
    rank_of: dict[int, int] = {}
    for size in range(1, max_size + 1):
        for wilds in range(size + 1):
            n = size - wilds
            check = meld_check([natural] * n + [wild] * wilds, rules, (), points)
            if not check.valid:
                continue
            book = _BOOK_ONE[check.kind] if check.complete and check.kind is not None else 0
            for twos in range(wilds + 1):
                jokers = wilds - twos
                comp = twos << RANK_BITS * _TWO | jokers << RANK_BITS * _JOKER
                meld_points = twos * points[_TWO] + jokers * points[_JOKER]
                if not n:
                    info[comp] = (meld_points << POINTS_SHIFT) + (size << SIZE_SHIFT) + book
                    rank_of[comp] = -1
                    continue
                for r in ranks:
                    info[comp | n << RANK_BITS * r] = (((meld_points + n * points[r]) << POINTS_SHIFT)
                                                       + (1 << PRESENCE_SHIFT + RANK_BITS * r)
                                                       + (size << SIZE_SHIFT) + book)
                    rank_of[comp | n << RANK_BITS * r] = r
    return MeldTable(max_size, info, rank_of, rules.one_open_meld_per_rank, rules.after_book == "burn")


#: wild_ratio → (the rule in words, whether ``naturals`` and ``wilds`` keep it).
_RATIOS: dict[str, tuple[str, Callable[[int, int], bool]]] = {
    "twice": ("naturals >= 2 x wilds", lambda n, w: n >= 2 * w),
    "more": ("more naturals than wilds", lambda n, w: n > w),
    "equal": ("no more wilds than naturals", lambda n, w: n >= w),
    "none": ("", lambda n, w: True),
}
