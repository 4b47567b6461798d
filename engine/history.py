"""What a stored round says about a side, for histories (exports and statistics across games).

A stored round keeps each side's :class:`~handfoot.engine.breakdown.Breakdown` as plain data
(``{"name", "total", "lines": [{"code", "label", "count", "points_each", "points"}, ...]}``). The
facts a history needs are read from it here, by the engine that wrote it, so the API counts books
and goings out without knowing how a breakdown is laid out:

- the side's score for the round: ``total`` (points);
- whether the side went out: the ``going_out`` line's ``count`` (1 or 0, :func:`scoring.breakdown`);
- its books by kind: every ``<kind>_books`` line's ``count`` (clean, dirty, wild today; a kind a later
  rule set adds to the breakdown is counted under its own name).

A player is the same player across games when :func:`~handfoot.engine.sides.name_key` of the
names agree (Unicode NFC, case-folded): the rule that keeps two players of one game apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from handfoot.engine.sides import name_key

__all__ = ["BOOK_KINDS", "SideRoundFacts", "player_key", "side_key", "side_round_facts"]

#: The book kinds every breakdown has, in the order its lines give them (``melds.BookKind``).
BOOK_KINDS: tuple[str, ...] = ("clean", "dirty", "wild")

_BOOKS_SUFFIX = "_books"
_GOING_OUT = "going_out"


@dataclass(frozen=True, slots=True)
class SideRoundFacts:
    """One side's round as a history counts it: ``score`` (points), ``went_out``, and ``books``
    (kind → how many books of it the side made that round; every kind of :data:`BOOK_KINDS` is
    present, 0 when none)."""

    score: int
    went_out: bool
    books: Mapping[str, int]


def side_round_facts(breakdown: Mapping[str, Any]) -> SideRoundFacts:
    """The facts of one stored Breakdown (plain data, as ``Breakdown`` is stored and sent).

    Raises ``KeyError`` / ``TypeError`` when ``breakdown`` is not a Breakdown's plain data.
    """
    books = dict.fromkeys(BOOK_KINDS, 0)
    went_out = False
    for line in breakdown["lines"]:
        code = line["code"]
        if code.endswith(_BOOKS_SUFFIX):
            kind = code[: -len(_BOOKS_SUFFIX)]
            books[kind] = books.get(kind, 0) + int(line["count"] or 0)
        elif code == _GOING_OUT:
            went_out = bool(line["count"])
    return SideRoundFacts(int(breakdown["total"]), went_out, books)


def player_key(name: str) -> str:
    """A player's identity across games: :func:`~handfoot.engine.sides.name_key` of the name."""
    return name_key(name)


def side_key(players: Iterable[str]) -> tuple[str, ...]:
    """A side's identity across games: its players' keys, sorted (the side's name is not part of
    it: "Team 1" is a different side in each game; the same partners are the same side)."""
    return tuple(sorted(player_key(p) for p in players))
