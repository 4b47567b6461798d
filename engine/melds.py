"""Meld validation and classification under a RuleSet.

A meld is cards of one rank, optionally with wild cards (2s and jokers). It is *complete* (a book,
a.k.a. pile or canasta) at ``book_size`` cards, else *open*. Its kind: ``clean`` (no wilds),
``dirty`` (naturals and wilds) or ``wild`` (wild cards only, where ``all_wild_melds`` allows).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from operator import attrgetter
from typing import NamedTuple

from handfoot.engine.cards import MELD_CARDS_MAX, RANK_BITS, RANK_INDEX, RANK_TEXT, THREE_FIELD, Card, Rank, key_of
from handfoot.engine.errors import Problem
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
    fixed = {
        Rank.JOKER: rules.joker_points,
        Rank.TWO: rules.two_points,
        Rank.ACE: rules.ace_points,
        Rank.THREE: rules.black_three_points,
    }
    return tuple(fixed.get(rank, rules.high_points if rank in high else rules.low_points) for rank in Rank)


@per_rules
def table_points(rules: RuleSet) -> tuple[int, ...]:
    """The card values of ``rules`` on the table (melds and the burn pile; points), indexed as
    :func:`rank_points`: the same, except that where ``threes_count_against`` (the Hodges family
    rules: "black 3: -300 points", D74) a black three on the table is minus ``black_three_points``."""
    values = list(rank_points(rules))
    if rules.threes_count_against:
        values[RANK_INDEX[Rank.THREE]] = -rules.black_three_points
    return tuple(values)


_RANKS = tuple(Rank)
_TWO, _THREE, _JOKER = RANK_INDEX[Rank.TWO], RANK_INDEX[Rank.THREE], RANK_INDEX[Rank.JOKER]
#: The fields of a composition that count natural cards: all but 2s and jokers.
_NATURAL_FIELDS = sum(MELD_CARDS_MAX << RANK_BITS * r for r in range(len(Rank)) if r not in (_TWO, _JOKER))


def card_points(card: Card, rules: RuleSet) -> int:
    """Points of one card as scoring counts it: :func:`rank_points` (a black three:
    ``black_three_points``), but a red three, never counted as a card, counts
    ``red_three_caught_points`` (signed: what scoring's red-threes-caught line gives one held)."""
    if card.is_red_three:
        return rules.red_three_caught_points
    return rank_points(rules)[card.rank_index]


def cards_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """Sum of the points of ``cards``."""
    points = rank_points(rules)
    return sum([points[c.rank_index] for c in cards])


class MeldCheck(NamedTuple):
    """The answer about one meld: ``valid``; ``kind`` (None when no kind applies, e.g. mixed ranks);
    ``rank`` (canonical rank text of its naturals, None for a wild meld); ``complete`` (a book);
    ``size``, ``naturals``, ``wilds``; ``points`` (card points of the whole meld); ``problems``.

    A named tuple (immutable, compared by value, fields by name), built with ``tuple.__new__``
    (``_new``) as :class:`~handfoot.engine.breakdown.Line` is: every meld of every table has one."""

    valid: bool
    kind: BookKind | None
    rank: str | None
    complete: bool
    size: int
    naturals: int
    wilds: int
    points: int
    problems: tuple[Problem, ...]


#: ``_new(MeldCheck, (valid, kind, ...))``: a MeldCheck without its Python ``__new__``.
_new = tuple.__new__


def validate_meld(
    cards: Sequence[Card], rules: RuleSet, onto: Sequence[Card] = (), onto_composition: int | None = None
) -> MeldCheck:
    """Check ``cards`` as a new meld, or as cards added ``onto`` a meld already on the table: the meld
    rules, all of them, for ``POST /v1/melds/validate``, a meld action in play and every meld on a
    table (:func:`handfoot.engine.table.analyse_table` calls :func:`meld_of` with the composition it
    has).

    Every rule broken is reported (codes ``meld_too_small``, ``meld_too_large``, ``book_closed``,
    ``mixed_ranks``, ``rank_not_meldable``, ``all_wild_not_allowed``, ``too_many_wilds``,
    ``too_few_naturals``, ``wild_limit_in_book``). Problem paths are ``("cards",)`` or ``("onto",)``
    or ``("cards", i)`` for a single card. Sources: meld size and book size (``meld_min``,
    ``book_size``, ``book_max_size``; a clean meld past it under ``clean_books_grow``, D26), wild
    limits (``wild_ratio``, ``min_naturals_with_wilds``,
    ``min_naturals_dirty_book``, ``max_wilds_per_book``); each rule's source is in the preset's
    provenance. Reads the meld's composition (``handfoot.engine.cards``), and its cards only for the
    colour of its threes. ``onto_composition``: ``onto``'s, where the caller keeps it (``cards`` summed alone).
    """
    added = len(onto)
    size = len(cards) + added
    if size > MELD_CARDS_MAX:
        return _new(
            MeldCheck,
            (
                False,
                None,
                None,
                size >= rules.book_size,
                size,
                0,
                0,
                0,
                (
                    Problem(
                        "meld_too_large",
                        f"a meld holds at most {MELD_CARDS_MAX} cards (the engine counts no more); this one has {size}",
                        ("cards",),
                    ),
                ),
            ),
        )
    if onto_composition is not None:
        comp = onto_composition + sum(map(_composition_of, cards))
    else:
        comp = sum(map(_composition_of, [*onto, *cards] if onto else cards))
    if not comp & THREE_FIELD:  # meld_of's own look-up, without two calls more
        global _made_last
        made = _made_last
        if made[0] is not rules:
            made = _made_last = (rules, checks_kept(rules))
        check = made[1].get((comp, size, added if cards else 0))
        if check is not None:
            return check
    return meld_of(comp, size, cards, onto, rules, meld_rules(rules))


#: The rule set :func:`validate_meld` last read its checks of (:func:`checks_kept`), and those checks.
_made_last: tuple[RuleSet | None, dict[tuple[int, ...], MeldCheck]] = (None, {})


# -- the meld rules: decided as bits (``meld_of``), explained from the bits (``meld_problems``) ----
# Each bit is one rule broken; 0 is a valid meld. A check decides with a few integer tests on the
# meld's composition, and words and paths are built only for a meld that breaks a rule.

#: A red three, or a black three where ``black_three_books`` is false (``rank_not_meldable``).
THREE_NOT_MELDABLE = 1 << 0
#: Naturals of more than one rank (``mixed_ranks``).
MIXED_RANKS = 1 << 1
#: Fewer cards than ``meld_min`` (``meld_too_small``).
TOO_SMALL = 1 << 2
#: Cards added onto a completed book that the rules close (``book_closed``).
BOOK_CLOSED = 1 << 3
#: More cards than ``book_max_size`` (``meld_too_large``).
TOO_LARGE = 1 << 4
#: Wild cards only, without ``all_wild_melds`` (``all_wild_not_allowed``).
ALL_WILD = 1 << 5
#: Black threes with wild cards (``too_many_wilds``).
THREES_WITH_WILDS = 1 << 6
#: The wild-card limits (:func:`wild_faults`), in their own bits.
WILD_RATIO = 1 << 7
FEW_NATURALS = 1 << 8
FEW_NATURALS_IN_BOOK = 1 << 9
NATURAL_SHARE = 1 << 10
WILDS_IN_BOOK = 1 << 11

_THREE_SHIFT, _TWO_SHIFT, _JOKER_SHIFT = RANK_BITS * _THREE, RANK_BITS * _TWO, RANK_BITS * _JOKER


class MeldRules(NamedTuple):
    """The meld rules of one rule set as the meld check reads them, made once per rule set
    (:func:`meld_rules`): ``meld_min``, ``book_size``, ``max_size`` (``book_max_size``; ``None``: no
    limit), ``clean_max_size`` (the same, or ``None`` where ``clean_books_grow``, D26),
    ``black_three_books``, ``all_wild_melds``, ``points`` (on the table: :func:`table_points`),
    ``book_closes`` (``book_max_size`` is ``book_size``: cards added onto a book are ``book_closed``),
    ``red_three_extra`` (what a red three standing in a meld counts beyond a black three: where
    ``threes_count_against``, ``red_three_caught_points`` in place of the black three's value, D74)."""

    meld_min: int
    book_size: int
    max_size: int | None
    clean_max_size: int | None
    black_three_books: bool
    all_wild_melds: bool
    points: tuple[int, ...]
    book_closes: bool
    red_three_extra: int


@per_rules
def meld_rules(rules: RuleSet) -> MeldRules:
    """The :class:`MeldRules` of ``rules`` (made once per rule set)."""
    return MeldRules(
        rules.meld_min,
        rules.book_size,
        rules.book_max_size,
        None if rules.clean_books_grow else rules.book_max_size,
        rules.black_three_books,
        rules.all_wild_melds,
        table_points(rules),
        rules.book_max_size == rules.book_size,
        rules.red_three_caught_points + rules.black_three_points if rules.threes_count_against else 0,
    )


@per_rules
def checks_kept(rules: RuleSet) -> dict[tuple[int, ...], MeldCheck]:
    """The meld checks :func:`meld_of` has made under ``rules``, by ``(composition, size, cards
    added onto a meld of this many)``, with threes then the cards' and ``onto``'s ``Card.key``."""
    return {}


_CHECKS_KEPT = 4096  # a game meets a few hundred compositions; past this many, start again


def meld_of(
    comp: int, size: int, cards: Sequence[Card], onto: Sequence[Card], rules: RuleSet, mr: MeldRules
) -> MeldCheck:
    """The :class:`MeldCheck` of a meld of ``size`` cards (at most ``MELD_CARDS_MAX``) whose
    composition is ``comp``: ``cards`` added ``onto`` a meld (``onto`` empty for a meld taken whole),
    ``mr`` the meld rules of ``rules`` (:func:`meld_rules`, read once per table by the caller). The
    check depends on the composition, the size, how many cards ``onto`` holds and, with threes, the
    cards (their colours; a refusal names each three's place): it is made once per rule set (tables,
    the step, the listing and the mask check the same melds again and again)."""
    key: tuple[int, ...] = (comp, size, len(onto) if onto and cards else 0)
    if comp & THREE_FIELD:
        key += (*map(key_of, cards), -1, *map(key_of, onto))
    made = checks_kept(rules)
    check = made.get(key)
    if check is None:
        if len(made) >= _CHECKS_KEPT:
            made.clear()
        check = made[key] = _meld_of(comp, size, cards, onto, rules, mr)
    return check


def _meld_of(
    comp: int, size: int, cards: Sequence[Card], onto: Sequence[Card], rules: RuleSet, mr: MeldRules
) -> MeldCheck:
    """:func:`meld_of`, made: the rules as bits, then the problems in words where one is broken."""
    (
        meld_min,
        book_size,
        max_size,
        clean_max_size,
        black_three_books,
        all_wild_melds,
        points_by_rank,
        closes,
        red_extra,
    ) = mr
    twos = comp >> _TWO_SHIFT & MELD_CARDS_MAX
    jokers = comp >> _JOKER_SHIFT
    wilds = twos + jokers
    n = size - wilds  # naturals
    natural_fields = comp & _NATURAL_FIELDS
    top = (natural_fields.bit_length() - 1) // RANK_BITS  # the highest natural rank (-1: none)
    faults = 0
    if n and natural_fields >> RANK_BITS * top != n:  # naturals of more than one rank
        faults = MIXED_RANKS
        points = sum(points_by_rank[r] * (comp >> RANK_BITS * r & MELD_CARDS_MAX) for r in range(len(_RANKS)))
    else:
        points = n * points_by_rank[top] if n else 0
        if wilds:
            points += twos * points_by_rank[_TWO] + jokers * points_by_rank[_JOKER]
    threes = comp >> _THREE_SHIFT & MELD_CARDS_MAX
    if threes:
        reds = (
            sum(map(_is_red_three, cards)) + sum(map(_is_red_three, onto)) if onto else sum(map(_is_red_three, cards))
        )
        if reds or not black_three_books:
            faults |= THREE_NOT_MELDABLE
        points += reds * red_extra
    if size < meld_min:
        faults |= TOO_SMALL
    # clean_books_grow: a clean meld has no size limit of its own (a dirty one still closes at it)
    limit = max_size if wilds else clean_max_size
    if onto and cards and closes and limit is not None and len(onto) >= book_size:
        faults |= BOOK_CLOSED
    elif limit is not None and size > limit:
        faults |= TOO_LARGE
    complete = size >= book_size
    if not wilds:
        kind: BookKind | None = _CLEAN if n else None
    elif not n:
        kind = _WILD
        if not all_wild_melds:
            faults |= ALL_WILD
    else:
        kind = _DIRTY
        if threes:
            faults |= THREES_WITH_WILDS
        faults |= wild_faults(n, wilds, complete, rules)
    mixed = faults & MIXED_RANKS
    return _new(
        MeldCheck,
        (
            not faults,
            None if mixed else kind,
            RANK_TEXT[top] if n and not mixed else None,
            complete,
            size,
            n,
            wilds,
            points,
            meld_problems(faults, comp, size, cards, onto, rules) if faults else (),
        ),
    )


_CLEAN, _DIRTY, _WILD = BookKind.CLEAN, BookKind.DIRTY, BookKind.WILD
_is_red_three = attrgetter("is_red_three")
_composition_of = attrgetter("composition")


def meld_problems(
    faults: int, comp: int, size: int, cards: Sequence[Card], onto: Sequence[Card], rules: RuleSet
) -> tuple[Problem, ...]:
    """The problems of the meld rules broken (``faults``, from :func:`meld_of`), in words, with
    their paths: ``("cards",)``, ``("onto",)``, or ``("cards", i)`` / ``("onto", i)`` for a three."""
    problems: list[Problem] = []
    if faults & THREE_NOT_MELDABLE:
        for group, name in ((onto, "onto"), (cards, "cards")):
            for i, card in enumerate(group):
                if card.is_red_three:
                    problems.append(
                        Problem(
                            "rank_not_meldable",
                            f"{card.code}: red threes are never melded (they are laid out or held)",
                            (name, i),
                        )
                    )
                elif card.is_black_three and not rules.black_three_books:
                    problems.append(
                        Problem(
                            "rank_not_meldable",
                            f"{card.code}: black threes cannot be "
                            "melded under these rules (black_three_books is false)",
                            (name, i),
                        )
                    )
    if faults & MIXED_RANKS:
        natural_fields = comp & _NATURAL_FIELDS
        ranks = [r for r in range(len(Rank)) if natural_fields >> RANK_BITS * r & MELD_CARDS_MAX]
        problems.append(
            Problem(
                "mixed_ranks",
                "a meld is cards of one rank (plus wild cards); this one "
                f"has {', '.join(sorted(_RANKS[r].value for r in ranks))}",
                ("cards",),
            )
        )
    if faults & TOO_SMALL:
        problems.append(
            Problem(
                "meld_too_small",
                f"a meld needs at least {rules.meld_min} cards (meld_min); this one has {size}",
                ("cards",),
            )
        )
    grow = ", clean_books_grow: only a clean book grows" if rules.clean_books_grow else ""
    if faults & BOOK_CLOSED:
        problems.append(
            Problem(
                "book_closed",
                f"the meld is a completed book of {len(onto)}; no card "
                f"may be added (book_max_size {rules.book_max_size}{grow})",
                ("onto",),
            )
        )
    if faults & TOO_LARGE:
        problems.append(
            Problem(
                "meld_too_large",
                f"a meld holds at most {rules.book_max_size} cards "
                f"(book_max_size{grow.replace(',', ';', 1)}); this one has {size}",
                ("cards",),
            )
        )
    if faults & ALL_WILD:
        problems.append(
            Problem("all_wild_not_allowed", "these rules have no all-wild melds (all_wild_melds is false)", ("cards",))
        )
    if faults & THREES_WITH_WILDS:
        problems.append(Problem("too_many_wilds", "a meld of black threes holds natural cards only", ("cards",)))
    if faults & _WILD_FAULTS:
        wilds = (comp >> _TWO_SHIFT & MELD_CARDS_MAX) + (comp >> _JOKER_SHIFT)
        problems += wild_card_problems(size - wilds, wilds, size >= rules.book_size, rules)
    return tuple(problems)


def wild_faults(naturals: int, wilds: int, complete: bool, rules: RuleSet) -> int:
    """The wild-card limits broken by a meld of ``naturals`` natural and ``wilds`` (at least one)
    wild cards, ``complete`` when a book, as bits (0: none; :func:`wild_card_problems` explains):
    ``wild_ratio`` (``WILD_RATIO``), ``min_naturals_with_wilds`` (``FEW_NATURALS``) and, for a
    book, ``min_naturals_dirty_book`` (``FEW_NATURALS_IN_BOOK``), ``min_natural_share`` as a
    percentage of the meld's cards (seed 004's 'a certain percentage of the cards in a meld at any
    given time to be non-wild'; ``NATURAL_SHARE``), ``max_wilds_per_book`` (``WILDS_IN_BOOK``).
    Also what :func:`handfoot.engine.rule_consistency.consistency_problems` asks of a dirty book, so a
    rule set that forbids every dirty book is refused by these same limits."""
    _words, times, more = _RATIOS[rules.wild_ratio]
    faults = 0 if naturals >= times * wilds + more else WILD_RATIO
    if naturals < rules.min_naturals_with_wilds:
        faults |= FEW_NATURALS
    if complete and naturals < rules.min_naturals_dirty_book:
        faults |= FEW_NATURALS_IN_BOOK
    if naturals * 100 < rules.min_natural_share * (naturals + wilds):
        faults |= NATURAL_SHARE
    if rules.max_wilds_per_book is not None and wilds > rules.max_wilds_per_book:
        faults |= WILDS_IN_BOOK
    return faults


_WILD_FAULTS = WILD_RATIO | FEW_NATURALS | FEW_NATURALS_IN_BOOK | NATURAL_SHARE | WILDS_IN_BOOK


def wild_card_problems(naturals: int, wilds: int, complete: bool, rules: RuleSet) -> list[Problem]:
    """The wild-card limits that :func:`wild_faults` finds broken, in words (codes
    ``too_many_wilds``, ``too_few_naturals``, ``wild_limit_in_book``; path ``("cards",)``)."""
    faults = wild_faults(naturals, wilds, complete, rules)
    problems: list[Problem] = []
    if faults & WILD_RATIO:
        words = _RATIOS[rules.wild_ratio][0]
        problems.append(
            Problem(
                "too_many_wilds",
                f"{naturals} natural and {wilds} wild cards break the rule {words} (wild_ratio {rules.wild_ratio})",
                ("cards",),
            )
        )
    if faults & FEW_NATURALS:
        problems.append(
            Problem(
                "too_few_naturals",
                f"a meld with wild cards needs at least "
                f"{rules.min_naturals_with_wilds} natural cards "
                f"(min_naturals_with_wilds); this one has {naturals}",
                ("cards",),
            )
        )
    if faults & FEW_NATURALS_IN_BOOK:
        problems.append(
            Problem(
                "too_few_naturals",
                f"a dirty book needs at least "
                f"{rules.min_naturals_dirty_book} natural cards "
                f"(min_naturals_dirty_book); this one has {naturals}",
                ("cards",),
            )
        )
    if faults & NATURAL_SHARE:
        problems.append(
            Problem(
                "too_many_wilds",
                f"{naturals} natural cards of {naturals + wilds} are "
                f"below the least share of naturals, {rules.min_natural_share}% "
                "(min_natural_share)",
                ("cards",),
            )
        )
    if faults & WILDS_IN_BOOK:
        problems.append(
            Problem(
                "wild_limit_in_book",
                f"at most {rules.max_wilds_per_book} wild cards in a meld (max_wilds_per_book); this one has {wilds}",
                ("cards",),
            )
        )
    return problems


#: wild_ratio → (the rule in words, ``a``, ``b``): ``naturals`` and ``wilds`` keep it when
#: ``naturals >= a * wilds + b`` (``none``: any naturals, 0 included).
_RATIOS: dict[str, tuple[str, int, int]] = {
    "twice": ("naturals >= 2 x wilds", 2, 0),
    "more": ("more naturals than wilds", 1, 1),
    "equal": ("no more wilds than naturals", 1, 0),
    "none": ("", 0, 0),
}
