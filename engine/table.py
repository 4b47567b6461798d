"""A side's table: its melds validated together, books counted by kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import and_

from handfoot.engine.cards import CARD_COUNT_MAX, RANK_FIELDS, Card, Rank
from handfoot.engine.errors import Path, Problem
from handfoot.engine.melds import (
    BOOK_BITS,
    BOOK_FIELDS,
    BOOK_MASK,
    INFO_MELDS_MAX,
    LOW_FIELDS,
    POINTS_SHIFT,
    PRESENCE_TWICE,
    SIZE_SHIFT,
    BookKind,
    MeldCheck,
    MeldTable,
    meld_check,
    rank_points,
)
from handfoot.engine.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Table:
    """``checks`` (one per meld, in order), ``books`` (complete melds by kind), ``points`` (card
    points of every melded card), ``problems`` (paths ``path + (meld index, card index?)``)."""

    checks: tuple[MeldCheck, ...]
    books: dict[BookKind, int]
    points: int
    problems: tuple[Problem, ...]

    def closed_ranks(self) -> set[str]:
        """Ranks (canonical text) that have a completed book on this table."""
        return {c.rank for c in self.checks if c.complete and c.rank is not None}

    def open_ranks(self) -> set[str]:
        """Ranks that have an unfinished meld on this table."""
        return {c.rank for c in self.checks if not c.complete and c.rank is not None}


def analyse_table(melds: Sequence[Sequence[Card]], rules: RuleSet, path: Path = ("melds",),
                  points_by_rank: tuple[int, ...] | None = None) -> Table:
    """Validate every meld of one side and the rules between melds.

    Between melds: two unfinished melds of one rank (``duplicate_open_meld``, when
    ``one_open_meld_per_rank``); another meld of a rank whose book is complete where the rules burn
    instead (``second_book_of_rank``, when ``after_book`` is ``burn``).

    ``points_by_rank``: ``rank_points(rules)``, when the caller has it already.
    """
    if points_by_rank is None:
        points_by_rank = rank_points(rules)
    checks: list[MeldCheck] = []
    problems: list[Problem] = []
    clean = dirty = wild = 0
    open_seen: dict[str, int] = {}
    complete_seen: dict[str, int] = {}
    one_open = rules.one_open_meld_per_rank
    burn = rules.after_book == "burn"
    for j, meld in enumerate(melds):
        check = meld_check(meld, rules, (), points_by_rank)
        checks.append(check)
        if check.problems:
            for p in check.problems:
                problems.append(Problem(p.code, f"meld {j}: {p.detail}", (*path, j, *p.path[1:])))
        elif check.complete:  # valid and complete: a book of its kind
            kind = check.kind
            if kind is BookKind.CLEAN:
                clean += 1
            elif kind is BookKind.DIRTY:
                dirty += 1
            elif kind is BookKind.WILD:
                wild += 1
        if check.rank is None:
            continue
        if not check.complete:
            if one_open and check.rank in open_seen:
                problems.append(Problem("duplicate_open_meld", f"meld {j}: a second unfinished meld "
                                        f"of {check.rank}s (meld {open_seen[check.rank]} is one); one "
                                        "open meld per rank (one_open_meld_per_rank)", (*path, j)))
            open_seen.setdefault(check.rank, j)
        if burn:
            if check.rank in complete_seen and complete_seen[check.rank] != j:
                problems.append(_second(check.rank, j, complete_seen[check.rank], path))
            elif check.complete:
                others = [k for k, c in enumerate(checks[:-1]) if c.rank == check.rank]
                problems.extend(_second(check.rank, k, j, path) for k in others)
                complete_seen[check.rank] = j
    books = {BookKind.CLEAN: clean, BookKind.DIRTY: dirty, BookKind.WILD: wild}
    points = sum([c.points for c in checks])
    return Table(tuple(checks), books, points, tuple(problems))


def _second(rank: str, j: int, book: int, path: Path) -> Problem:
    return Problem("second_book_of_rank", f"meld {j}: the {rank}s already have a completed book "
                   f"(meld {book}); further {rank}s go to the burn pile (after_book burn)", (*path, j))


_RANK_TEXT = tuple(rank.value for rank in Rank)


def quick_table(sums: Sequence[int], cards: int, table: MeldTable, closed: bool = False,
                *, compositions: bool = False) -> tuple[int, int, int, int, set[str]] | None:
    """``(clean books, dirty books, wild books, points, closed ranks)`` as :func:`analyse_table`
    gives them, for a side whose every meld is valid and breaks no rule between melds; ``None`` for
    any other (then ask :func:`analyse_table`, which names every problem). ``closed`` ranks
    (canonical text) are only worked out when asked for; else the set is empty.

    ``sums``: ``sum(card.counts for card in meld)`` of each meld; ``cards``: the number of melded
    cards; ``table``: ``meld_table(rules)``. Each meld is looked up by its composition (C-level
    ``map``) and the infos summed, so a valid side costs no Python code per meld unless two of its
    melds share a rank. ``compositions``: the ``sums`` are sums of rank fields only (already
    compositions, or above ``RANK_FIELDS`` where a field overflowed: no such meld is in the table).
    """
    if len(sums) > INFO_MELDS_MAX or cards > CARD_COUNT_MAX:
        return None  # more than the info fields count exactly
    comps = sums if compositions else list(map(and_, sums, repeat(RANK_FIELDS, len(sums))))
    try:
        total = sum(map(table.info.__getitem__, comps))
    except KeyError:  # a meld that is not valid (or of threes)
        return None
    low = total & LOW_FIELDS  # the book counts and the size: a small int, cheap to take apart
    if low >> SIZE_SHIFT != cards:
        return None  # a meld too large for its rank fields (it can alias a smaller one)
    if total & PRESENCE_TWICE and not _between_melds_ok(comps, table):
        return None
    closed_ranks = {_RANK_TEXT[table.rank[c]] for c in comps
                    if table.info[c] & BOOK_FIELDS and table.rank[c] >= 0} if closed else set()
    return (low & BOOK_MASK, low >> BOOK_BITS & BOOK_MASK, low >> 2 * BOOK_BITS & BOOK_MASK,
            total >> POINTS_SHIFT, closed_ranks)


def _between_melds_ok(comps: Sequence[int], table: MeldTable) -> bool:
    """No ``duplicate_open_meld`` nor ``second_book_of_rank`` (see :func:`analyse_table`) among
    valid melds of these compositions."""
    open_seen: set[int] = set()
    seen: set[int] = set()
    complete_seen: set[int] = set()
    for comp in comps:
        r = table.rank[comp]
        if r < 0:
            continue
        complete = bool(table.info[comp] & BOOK_FIELDS)
        if not complete:
            if table.one_open and r in open_seen:
                return False
            open_seen.add(r)
        if table.burn and (r in complete_seen or (complete and r in seen)):
            return False
        seen.add(r)
        if complete:
            complete_seen.add(r)
    return True
