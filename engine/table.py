"""A side's table: its melds validated together, books counted by kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.errors import Path, Problem
from engine.melds import BookKind, MeldCheck, meld_check, rank_points
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
