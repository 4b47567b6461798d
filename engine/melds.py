"""Meld validation and classification under a RuleSet.

A meld is cards of one rank, optionally with wild cards (2s and jokers). It is *complete* (a book,
a.k.a. pile or canasta) at ``book_size`` cards, else *open*. Its kind: ``clean`` (no wilds),
``dirty`` (naturals and wilds) or ``wild`` (wild cards only, where ``all_wild_melds`` allows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from handfoot.engine.cards import MELD_CARDS_MAX, RANK_BITS, RANK_INDEX, Card, Rank, composition
from handfoot.engine.errors import Problem
from handfoot.engine.frozen import fast_init
from handfoot.engine.rules import RuleSet, per_rules


class BookKind(Enum):
    """The kind of a meld or book; the value is the API's text."""

    CLEAN = "clean"
    DIRTY = "dirty"
    WILD = "wild"


@per_rules
def rank_points(rules: RuleSet) -> tuple[int, ...]:
    """The card values of ``rules`` (points), indexed by ``Card.rank_index``: joker, 2, ace, K-8 (or
    K-10 when ``high_from`` is 10) at ``high_points``, the rest at ``low_points``, a three at
    ``black_three_points`` (a red three is never counted as a card: see scoring)."""
    high = {Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN}
    if rules.high_from == "8":
        high |= {Rank.NINE, Rank.EIGHT}
    fixed = {Rank.JOKER: rules.joker_points, Rank.TWO: rules.two_points, Rank.ACE: rules.ace_points,
             Rank.THREE: rules.black_three_points}
    return tuple(fixed.get(rank, rules.high_points if rank in high else rules.low_points)
                 for rank in Rank)


_RANKS = tuple(Rank)
_TWO, _THREE, _JOKER = RANK_INDEX[Rank.TWO], RANK_INDEX[Rank.THREE], RANK_INDEX[Rank.JOKER]
#: The fields of a composition that count natural cards: all but 2s and jokers.
_NATURAL_FIELDS = sum(MELD_CARDS_MAX << RANK_BITS * r for r in range(len(Rank)) if r not in (_TWO, _JOKER))


def card_points(card: Card, rules: RuleSet) -> int:
    """Points of one card (a black three: ``black_three_points``)."""
    return rank_points(rules)[card.rank_index]


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
    ``book_size``, ``book_max_size``; a clean meld past it under ``clean_books_grow``, D26), wild
    limits (``wild_ratio``, ``min_naturals_with_wilds``,
    ``min_naturals_dirty_book``, ``max_wilds_per_book``); each rule's source is in the preset's
    provenance.
    """
    return meld_check(cards, rules, onto)


def meld_check(cards: Sequence[Card], rules: RuleSet, onto: Sequence[Card] = ()) -> MeldCheck:  # noqa: C901 - the meld rules, one branch each, read whole
    """The meld rules, all of them, for :func:`validate_meld` and every meld on a table.

    Reads the meld's composition (``handfoot.engine.cards``), and its cards only for the colour of
    its threes. So a meld without threes, taken alone (no ``onto``), gets an answer that depends on
    its composition and nothing else: what :func:`handfoot.engine.table.analyse_table` relies on to
    check each composition once.
    """
    whole = [*onto, *cards] if onto else cards
    size = len(whole)
    if size > MELD_CARDS_MAX:
        return MeldCheck(False, None, None, size >= rules.book_size, size, 0, 0, 0, (Problem(
            "meld_too_large", f"a meld holds at most {MELD_CARDS_MAX} cards (the engine counts no "
            f"more); this one has {size}", ("cards",)),))
    comp = composition(whole)
    points_by_rank = rank_points(rules)
    twos = comp >> RANK_BITS * _TWO & MELD_CARDS_MAX
    jokers = comp >> RANK_BITS * _JOKER
    wilds = twos + jokers
    n = size - wilds  # naturals
    natural_fields = comp & _NATURAL_FIELDS
    top = (natural_fields.bit_length() - 1) // RANK_BITS  # the highest natural rank (-1: none)
    mixed = natural_fields >> RANK_BITS * top != n if n else False
    points = twos * points_by_rank[_TWO] + jokers * points_by_rank[_JOKER]
    if mixed:
        ranks = [r for r in range(len(Rank)) if natural_fields >> RANK_BITS * r & MELD_CARDS_MAX]
        points += sum(points_by_rank[r] * (comp >> RANK_BITS * r & MELD_CARDS_MAX) for r in ranks)
    else:
        points += n * points_by_rank[top] if n else 0
    threes = comp >> RANK_BITS * _THREE & MELD_CARDS_MAX
    problems: list[Problem] = []
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
        problems.append(Problem("mixed_ranks", "a meld is cards of one rank (plus wild cards); this one "
                                f"has {', '.join(sorted(_RANKS[r].value for r in ranks))}", ("cards",)))
    if size < rules.meld_min:
        problems.append(Problem("meld_too_small", f"a meld needs at least {rules.meld_min} cards "
                                f"(meld_min); this one has {size}", ("cards",)))
    # clean_books_grow: a clean meld has no size limit of its own (a dirty one still closes at it)
    max_size = None if rules.clean_books_grow and not wilds else rules.book_max_size
    complete_before = bool(onto) and len(onto) >= rules.book_size
    if complete_before and cards and max_size == rules.book_size:
        problems.append(Problem("book_closed", f"the meld is a completed book of {len(onto)}; no card "
                                f"may be added (book_max_size {rules.book_max_size}"
                                + (", clean_books_grow: only a clean book grows)" if rules.clean_books_grow else ")"),
                                ("onto",)))
    elif max_size is not None and size > max_size:
        problems.append(Problem("meld_too_large", f"a meld holds at most {max_size} cards "
                                "(book_max_size" + ("; clean_books_grow: only a clean book grows" if
                                                    rules.clean_books_grow else "") + f"); this one has {size}",
                                ("cards",)))
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
        problems.extend(wild_card_problems(n, wilds, complete, rules))
    elif n:
        kind = BookKind.CLEAN
    else:
        kind = None
    if mixed:
        kind = None
    rank_text = _RANKS[top].value if n and not mixed else None
    return MeldCheck(valid=not problems, kind=kind, rank=rank_text, complete=complete, size=size,
                     naturals=n, wilds=wilds, points=points, problems=tuple(problems))


def wild_card_problems(naturals: int, wilds: int, complete: bool, rules: RuleSet) -> list[Problem]:
    """The wild-card limits of a meld of ``naturals`` natural and ``wilds`` (at least one) wild
    cards, ``complete`` when a book: ``wild_ratio`` (``too_many_wilds``), ``min_naturals_with_wilds``
    and, for a book, ``min_naturals_dirty_book`` (``too_few_naturals``), ``max_wilds_per_book``
    (``wild_limit_in_book``), ``min_natural_share`` as a percentage of the meld's cards (seed 004's
    'a certain percentage of the cards in a meld at any given time to be non-wild'; ``too_many_wilds``).
    Also what :func:`handfoot.engine.rule_fields.consistency_problems` asks of a dirty book, so a rule set
    that forbids every dirty book is refused by these same limits."""
    problems: list[Problem] = []
    words, keeps = _RATIOS[rules.wild_ratio]
    if not keeps(naturals, wilds):
        problems.append(Problem("too_many_wilds", f"{naturals} natural and {wilds} wild cards break the "
                                f"rule {words} (wild_ratio {rules.wild_ratio})", ("cards",)))
    if naturals < rules.min_naturals_with_wilds:
        problems.append(Problem("too_few_naturals", f"a meld with wild cards needs at least "
                                f"{rules.min_naturals_with_wilds} natural cards "
                                f"(min_naturals_with_wilds); this one has {naturals}", ("cards",)))
    if complete and naturals < rules.min_naturals_dirty_book:
        problems.append(Problem("too_few_naturals", f"a dirty book needs at least "
                                f"{rules.min_naturals_dirty_book} natural cards "
                                f"(min_naturals_dirty_book); this one has {naturals}", ("cards",)))
    if naturals * 100 < rules.min_natural_share * (naturals + wilds):
        problems.append(Problem("too_many_wilds", f"{naturals} natural cards of {naturals + wilds} are "
                                f"below the least share of naturals, {rules.min_natural_share}% "
                                "(min_natural_share)", ("cards",)))
    if rules.max_wilds_per_book is not None and wilds > rules.max_wilds_per_book:
        problems.append(Problem("wild_limit_in_book", f"at most {rules.max_wilds_per_book} wild "
                                f"cards in a meld (max_wilds_per_book); this one has {wilds}",
                                ("cards",)))
    return problems


#: wild_ratio → (the rule in words, whether ``naturals`` and ``wilds`` keep it).
_RATIOS: dict[str, tuple[str, Callable[[int, int], bool]]] = {
    "twice": ("naturals >= 2 x wilds", lambda n, w: n >= 2 * w),
    "more": ("more naturals than wilds", lambda n, w: n > w),
    "equal": ("no more wilds than naturals", lambda n, w: n >= w),
    "none": ("", lambda n, w: True),
}
