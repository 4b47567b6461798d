"""A side's table: its melds validated together, books counted by kind, the rules between melds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

from handfoot.engine.cards import Card, Rank, composition, composition_count
from handfoot.engine.errors import Path, Problem
from handfoot.engine.melds import BookKind, MeldCheck, meld_check
from handfoot.engine.rules import RuleSet, per_rules


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


#: How many meld checks :func:`_checked` keeps per RuleSet: the valid melds of a preset number a few
#: thousand compositions; the bound keeps a stream of odd melds from growing the memory.
_CHECKED_MAX = 8192


@per_rules
def _checked(rules: RuleSet) -> dict[int, MeldCheck]:
    """``meld_check(meld, rules)`` of every table meld seen under ``rules``, by the meld's composition:
    melds without threes only, whose answer depends on nothing else (see ``meld_check``)."""
    return {}


def _check(meld: Sequence[Card], comp: int, rules: RuleSet, checked: dict[int, MeldCheck]) -> MeldCheck:
    check = meld_check(meld, rules)
    if not composition_count(comp, Rank.THREE) and len(checked) < _CHECKED_MAX:
        checked[comp] = check
    return check


def analyse_table(melds: Sequence[Sequence[Card]], rules: RuleSet, path: Path = ("melds",)) -> Table:
    """Validate every meld of one side and the rules between melds.

    Each meld is checked by :func:`~handfoot.engine.melds.meld_check`, once per composition and
    RuleSet (the answer is kept). Between melds: two unfinished melds of one rank
    (``duplicate_open_meld``, when ``one_open_meld_per_rank``); another meld of a rank whose book is
    complete where the rules burn instead (``second_book_of_rank``, when ``after_book`` is ``burn``).
    """
    checked = _checked(rules)
    comps = list(map(composition, melds))
    found = list(map(checked.get, comps))
    checks = tuple([check if check is not None else _check(meld, comp, rules, checked)
                    for check, meld, comp in zip(found, melds, comps, strict=True)])
    ranks = [c.rank for c in checks if c.rank is not None]
    between = len(set(ranks)) < len(ranks)  # the rules between melds concern two melds of one rank
    one_open = between and rules.one_open_meld_per_rank
    burn = between and rules.after_book == "burn"
    problems: list[Problem] = []
    clean = dirty = wild = 0
    open_seen: dict[str, int] = {}
    complete_seen: dict[str, int] = {}
    for j, check in enumerate(checks):
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
        rank = check.rank
        if not between or rank is None:
            continue
        if not check.complete:
            if one_open and rank in open_seen:
                problems.append(Problem("duplicate_open_meld", f"meld {j}: a second unfinished meld "
                                        f"of {rank}s (meld {open_seen[rank]} is one); one "
                                        "open meld per rank (one_open_meld_per_rank)", (*path, j)))
            open_seen.setdefault(rank, j)
        if burn:
            if rank in complete_seen and complete_seen[rank] != j:
                problems.append(_second(rank, j, complete_seen[rank], path))
            elif check.complete:
                problems.extend(_second(rank, k, j, path) for k, c in enumerate(checks[:j]) if c.rank == rank)
                complete_seen[rank] = j
    books = {BookKind.CLEAN: clean, BookKind.DIRTY: dirty, BookKind.WILD: wild}
    return Table(checks, books, sum(map(_points_of, checks)), tuple(problems))


_points_of = attrgetter("points")


def _second(rank: str, j: int, book: int, path: Path) -> Problem:
    return Problem("second_book_of_rank", f"meld {j}: the {rank}s already have a completed book "
                   f"(meld {book}); further {rank}s go to the burn pile (after_book burn)", (*path, j))
