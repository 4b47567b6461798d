"""Histories in bulk (docs/games-api.md): statistics per player and per side across games.

The export's NDJSON lines are :class:`~handfoot.client.types.Game` results; its CSV is text (see
``Client.export_csv``). Every number is points unless said otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .._loader import Result

__all__ = ["PlayerStatistics", "SideStatistics", "Statistics"]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Figures(Result):
    """Figures across games: ``games`` played, ``finished`` of them, ``wins`` (finished games won;
    a tie is none), ``rounds`` played, ``points`` (their sum), ``average_round`` and ``best_round``
    (``None`` before any round), ``went_out`` (rounds the side went out) and ``books`` by kind
    (``clean``, ``dirty``, ``wild`` always; other kinds when the stored breakdowns hold them)."""

    names: tuple[str, ...]
    games: int
    finished: int
    wins: int
    rounds: int
    points: int
    average_round: float | None
    best_round: int | None
    went_out: int
    books: Mapping[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStatistics(_Figures):
    """One player across games: ``name`` as written in their most recent game (players are matched
    by name ignoring case; ``names`` lists every spelling used)."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SideStatistics(_Figures):
    """One side across games: its ``players`` (the same partners, in any order, are one side);
    ``names`` are the side names it played under."""

    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Statistics(Result):
    """``GET /v1/games/stats``: how many ``games`` and ``rounds`` were counted, then the figures
    per player and per side (most games first)."""

    games: int
    rounds: int
    players: tuple[PlayerStatistics, ...]
    sides: tuple[SideStatistics, ...]

    def player(self, name: str) -> PlayerStatistics | None:
        """The player of this name, ignoring case (as the server matches them)."""
        key = name.casefold()
        return next((p for p in self.players if any(n.casefold() == key for n in p.names)), None)

    def rows(self) -> list[dict[str, object]]:
        """One flat dict per player (books as ``clean_books``, ...), for ``pandas.DataFrame``."""
        return [
            {
                "name": p.name,
                "games": p.games,
                "finished": p.finished,
                "wins": p.wins,
                "rounds": p.rounds,
                "points": p.points,
                "average_round": p.average_round,
                "best_round": p.best_round,
                "went_out": p.went_out,
                **{f"{kind}_books": n for kind, n in p.books.items()},
            }
            for p in self.players
        ]
