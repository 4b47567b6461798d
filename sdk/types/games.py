"""Stored games (docs/games-api.md): games, their rounds and revisions, and score sheets.

Every number is points unless said otherwise. ``etag`` fields come from the response's ``ETag``
header, not from the body; pass them back as ``if_match=``.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from .._loader import Result, wire
from .checks import Books
from .rounds import Breakdown

__all__ = [
    "GAME_STATUSES",
    "Game",
    "GameStatus",
    "GameSummary",
    "GameTeam",
    "Revision",
    "Round",
    "RoundSummary",
    "Scoresheet",
    "ScoresheetRound",
    "TeamTotal",
]

_ETAG = wire(in_body=False)

#: A game's status: ``in_progress``; ``tiebreaker`` (level at the top after the end, so one more
#: round); ``finished``. The enum of ``GET /v1/games``' ``status`` filter in openapi/openapi.json
#: (tests/contract/test_sdk_coverage.py compares the two).
GameStatus = Literal["in_progress", "tiebreaker", "finished"]
GAME_STATUSES: tuple[GameStatus, ...] = typing.get_args(GameStatus)


@dataclass(frozen=True, slots=True)
class TeamTotal(Result):
    """A side's running total."""

    name: str
    total: int


@dataclass(frozen=True, slots=True)
class GameTeam(Result):
    """A side of a stored game and its players' names."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Round(Result):
    """A stored round of a game: the ``request`` as sent, a ``Breakdown`` per side, and the running
    totals after it. ``revision`` increments on each correction; ``etag`` is what
    ``correct_round(..., if_match=...)`` sends."""

    number: int
    revision: int
    request: Mapping[str, object] = field(repr=False)
    teams: tuple[Breakdown, ...]
    totals_after: tuple[TeamTotal, ...]
    created_at: datetime
    updated_at: datetime
    etag: str | None = field(default=None, metadata=_ETAG)

    @property
    def totals(self) -> dict[str, int]:
        """Side name → this round's score."""
        return {team.name: team.total for team in self.teams}


@dataclass(frozen=True, slots=True)
class RoundSummary(Result):
    """A round as ``GET /v1/games/{id}`` summarises it: each side's ``scores`` in it and the running
    totals after it (points). ``href`` is the round's URL: ``Client.round(game_id, number)`` fetches
    its request as sent and its Breakdowns. ``revision`` above 1: the round was corrected."""

    number: int
    revision: int
    scores: tuple[TeamTotal, ...]
    totals_after: tuple[TeamTotal, ...]
    href: str

    @property
    def totals(self) -> dict[str, int]:
        """Side name → this round's score (as ``Round.totals``)."""
        return {team.name: team.total for team in self.scores}


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSummary(Result):
    """One item of ``GET /v1/games`` (newest first). ``status`` is ``in_progress``,
    ``tiebreaker`` or ``finished``; ``leaders`` are the sides with the highest total."""

    id: int
    name: str
    preset: str
    status: GameStatus
    teams: tuple[GameTeam, ...]
    totals: tuple[TeamTotal, ...]
    leaders: tuple[str, ...]
    winner: str | None
    tie: bool
    rounds_played: int
    created_at: datetime
    updated_at: datetime

    @property
    def finished(self) -> bool:
        return self.status == "finished"


@dataclass(frozen=True, slots=True, kw_only=True)
class Game(GameSummary):
    """A stored game (``GET /v1/games/{id}``): the summary's members, plus its rules snapshot,
    its rounds summarised (``RoundSummary``: scores and running totals; ``Client.round`` gives a
    round's Breakdowns), and what the next round needs."""

    rules: Mapping[str, object] = field(repr=False)
    rules_overridden: tuple[str, ...]
    house_rules: Mapping[str, object]
    next_round: int | None
    next_opening_minimum: int | None
    next_opening_minimums: Mapping[str, int] | None = field(metadata=wire(keyed=("name", "minimum")))
    """Side name → its opening minimum next round (they differ only under score thresholds)."""
    next_contract: Books | None
    end_reason: str | None
    rounds: tuple[RoundSummary, ...] = field(repr=False)
    version: int
    etag: str | None = field(default=None, metadata=_ETAG)

    def round(self, number: int) -> RoundSummary | None:
        """The summary of stored round ``number`` (1-based), or ``None``."""
        return next((r for r in self.rounds if r.number == number), None)


@dataclass(frozen=True, slots=True)
class Revision(Result):
    """One revision of a stored round (``GET .../rounds/{n}/revisions``, oldest first)."""

    revision: int
    current: bool
    request: Mapping[str, object] = field(repr=False)
    teams: tuple[Breakdown, ...]
    created_at: datetime
    replaced_at: datetime | None
    author: str | None


@dataclass(frozen=True, slots=True)
class ScoresheetRound(Result):
    """One line of a score sheet: each side's score in ``round`` and the running ``totals``."""

    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Scoresheet(Result):
    """A game's score sheet: rounds × sides with running totals (``GET .../scoresheet``).

    ``rounds`` is the JSON member ``rows``; ``rows()`` gives plain dicts that
    ``pandas.DataFrame(sheet.rows())`` takes as is.
    """

    game_id: int
    name: str
    teams: tuple[str, ...]
    rounds: tuple[ScoresheetRound, ...] = field(metadata=wire(member="rows"))
    totals: tuple[int, ...]
    status: GameStatus
    leaders: tuple[str, ...]
    winner: str | None
    tie: bool

    def columns(self) -> list[str]:
        """The column names of ``rows()``: ``round``, then ``<side>`` and ``<side> total`` per side
        (the same header as the CSV form)."""
        return ["round", *(col for name in self.teams for col in (name, f"{name} total"))]

    def rows(self) -> list[dict[str, int]]:
        """One dict per round, keyed by ``columns()``: ready for ``pandas.DataFrame(rows)``."""
        out = []
        for r in self.rounds:
            row = {"round": r.round}
            for name, score, total in zip(self.teams, r.scores, r.totals, strict=False):
                row[name] = score
                row[f"{name} total"] = total
            out.append(row)
        return out

    def running_totals(self) -> dict[str, list[int]]:
        """Side name → its running total after each round (for plotting)."""
        return {name: [r.totals[i] for r in self.rounds if i < len(r.totals)] for i, name in enumerate(self.teams)}
