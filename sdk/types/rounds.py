"""Scoring: ``POST /v1/rounds/score`` (``RoundScore``) and ``POST /v1/rounds/compare``
(``RoundComparison``). Every number is points unless said otherwise."""

from __future__ import annotations

from dataclasses import dataclass

from .._loader import Result
from .problems import ProblemItem

__all__ = ["Breakdown", "Comparison", "Line", "RoundComparison", "RoundScore"]


@dataclass(frozen=True, slots=True)
class Line(Result):
    """One item of a breakdown (``code`` as in DESIGN §3: ``clean_books``, ``points_left``, ...):
    ``count`` × ``points_each`` = ``points`` where those apply, else ``count`` and
    ``points_each`` are ``None``."""

    code: str
    label: str
    count: int | None
    points_each: int | None
    points: int


@dataclass(frozen=True, slots=True)
class Breakdown(Result):
    """One team's score for a round: ``total`` and the ``lines`` that add up to it; ``warnings``:
    what is scored but breaks a rule: the meld rules its table breaks that stand and score all the
    same (rule ``illegal_melds_stand``, the Hodges family rules' "what's layed is played"), and
    ``table_below_opening_minimum`` (its card points on the table below the round's opening
    minimum); empty otherwise."""

    name: str
    total: int
    lines: tuple[Line, ...]
    warnings: tuple[ProblemItem, ...]

    def line(self, code: str) -> Line | None:
        """The line with this ``code`` (e.g. ``"clean_books"``), or ``None``."""
        return next((line for line in self.lines if line.code == code), None)

    def points(self, code: str) -> int:
        """Points of the line ``code``; 0 when absent (a line worth 0 may be omitted)."""
        line = self.line(code)
        return 0 if line is None else line.points


@dataclass(frozen=True, slots=True)
class RoundScore(Result):
    """The result of ``POST /v1/rounds/score``: one ``Breakdown`` per team, in request order."""

    preset: str
    round: int
    teams: tuple[Breakdown, ...]
    rules_overridden: tuple[str, ...]
    """The rule names whose values differ from the preset's (house rules)."""

    def team(self, name: str) -> Breakdown | None:
        """The breakdown of the team called ``name``, or ``None``."""
        return next((team for team in self.teams if team.name == name), None)

    @property
    def totals(self) -> dict[str, int]:
        """Team name → round total."""
        return {team.name: team.total for team in self.teams}


@dataclass(frozen=True, slots=True)
class Comparison(Result):
    """One preset's answer in ``compare_presets``: a breakdown per team when the round is legal
    under it (``valid``), else ``teams`` is ``None`` and ``problems`` names the rules broken."""

    preset: str
    valid: bool
    teams: tuple[Breakdown, ...] | None
    problems: tuple[ProblemItem, ...]

    @property
    def totals(self) -> dict[str, int] | None:
        """Team name → round total, or ``None`` when the round breaks this preset's rules."""
        return None if self.teams is None else {t.name: t.total for t in self.teams}


@dataclass(frozen=True, slots=True)
class RoundComparison(Result):
    """The result of ``POST /v1/rounds/compare``: one ``Comparison`` per preset, in request order."""

    round: int
    results: tuple[Comparison, ...]

    def result(self, preset: str) -> Comparison | None:
        """The answer for ``preset``, or ``None``."""
        return next((result for result in self.results if result.preset == preset), None)
