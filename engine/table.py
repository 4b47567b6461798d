"""A side's table: its melds validated together, books counted by kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import rshift

from engine.cards import RANK_SHIFT, Card, Rank
from engine.errors import Path, Problem
from engine.melds import (
    BOOK_BITS,
    BOOK_FIELDS,
    POINTS_SHIFT,
    BookKind,
    MeldCheck,
    MeldTable,
    meld_check,
    rank_points,
)
from engine.rules import RuleSet


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
_BOOK_MASK = (1 << BOOK_BITS) - 1


def quick_table(melds: Sequence[Sequence[Card]], sums: Sequence[int], table: MeldTable,
                closed: bool = False) -> tuple[dict[BookKind, int], int, set[str]] | None:
    """``(books, points, closed ranks)`` as :func:`analyse_table` gives them, for a side whose every
    meld is valid and breaks no rule between melds; ``None`` for any other (then ask
    :func:`analyse_table`, which names every problem). ``closed`` ranks (canonical text) are only
    worked out when asked for; else the set is empty.

    ``sums``: ``sum(card.counts for card in meld)`` of each meld; ``table``: ``meld_table(rules)``.
    Each meld is looked up by its composition in ``table`` (C-level ``map``), so a valid side costs
    no Python code per meld unless two melds share a rank.
    """
    if not melds:
        return {BookKind.CLEAN: 0, BookKind.DIRTY: 0, BookKind.WILD: 0}, 0, set()
    if max(map(len, melds)) > table.max_size or len(melds) > _BOOK_MASK:
        return None  # not in the table, or more books than a field counts
    comps = list(map(rshift, sums, repeat(RANK_SHIFT, len(sums))))
    try:
        total = sum(map(table.info.__getitem__, comps))
    except KeyError:  # a meld that is not valid (or of threes)
        return None
    ranks = list(map(table.rank.__getitem__, comps))
    wild_melds = ranks.count(-1)
    if len(set(ranks)) != len(ranks) - max(wild_melds - 1, 0) and not _between_melds_ok(ranks, comps, table):
        return None
    books = total & BOOK_FIELDS
    by_kind = {BookKind.CLEAN: books & _BOOK_MASK, BookKind.DIRTY: books >> BOOK_BITS & _BOOK_MASK,
               BookKind.WILD: books >> 2 * BOOK_BITS}
    closed_ranks = {_RANK_TEXT[r] for r, c in zip(ranks, comps, strict=True)
                    if r >= 0 and table.info[c] & BOOK_FIELDS} if closed else set()
    return by_kind, total >> POINTS_SHIFT, closed_ranks


def _between_melds_ok(ranks: Sequence[int], comps: Sequence[int], table: MeldTable) -> bool:
    """No ``duplicate_open_meld`` nor ``second_book_of_rank`` (see :func:`analyse_table`) among
    valid melds of these ranks (``-1``: a wild meld) and compositions."""
    open_seen: set[int] = set()
    seen: set[int] = set()
    complete_seen: set[int] = set()
    for r, comp in zip(ranks, comps, strict=True):
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
