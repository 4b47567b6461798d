"""The state of a game from its rounds: running totals, leaders, and whether (and how) it has ended.

The end of a game is rule logic, so it lives here (docs/games-api.md "End of a game"):

- A game reaches its *regular end* after ``rules.rounds`` rounds, or at the end of the first round
  after which a side has ``rules.target_score`` points or more, whichever comes first.
- At the regular end (and after every round played past it), the side with the top total wins.
  When two or more sides share the top total, ``rules.tie_rule`` decides: ``stands`` finishes the
  game as a tie; ``tiebreaker_round`` puts it in status ``tiebreaker`` and asks for one more round
  (opening minimum ``rules.tiebreaker_opening_minimum``), repeated while the top stays level
  (docs/rules-decisions.md D13).
- Every round given counts toward the totals, even one past the point where the game ended (only
  a correction of an earlier round can make that happen; D14).

:func:`game_state` is pure: the API stores rounds and calls it after every change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import add
from typing import Literal

from handfoot.engine.rules import Contract, RuleSet

GameStatus = Literal["in_progress", "tiebreaker", "finished"]

#: The statuses a game can have, in the order a game goes through them.
GAME_STATUSES: tuple[GameStatus, ...] = ("in_progress", "tiebreaker", "finished")


@dataclass(frozen=True, slots=True)
class SideTotal:
    """A side's name and its total (points)."""

    name: str
    total: int


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands after the rounds played.

    ``totals``: every side's total after the last round, in the game's side order.
    ``running``: the totals after each round (``running[k]`` after round ``k + 1``), same order.
    ``leaders``: every side with the top total (two or more when level; empty before any round).
    ``winner``: the side that won, once finished without a tie. ``tie``: finished level, and the
    rules let the tie stand. ``next_round``, ``next_opening_minimum`` and ``next_contract``: the
    round to play next, ``None`` once finished. ``next_opening_minimums``: the opening minimum per
    side (they differ only under ``opening_thresholds``). ``end_reason``: why the game ended, in
    words (``None`` until finished). ``tiebreaker_rounds``: rounds played past the regular end.
    """

    status: GameStatus
    rounds_played: int
    totals: tuple[SideTotal, ...]
    running: tuple[tuple[int, ...], ...]
    leaders: tuple[str, ...]
    winner: str | None
    tie: bool
    next_round: int | None
    next_opening_minimum: int | None
    next_opening_minimums: tuple[SideTotal, ...] | None
    next_contract: Contract | None
    end_reason: str | None
    regular_end_round: int | None
    tiebreaker_rounds: int

    @property
    def finished(self) -> bool:
        return self.status == "finished"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def regular_end(rules: RuleSet, running: Sequence[Sequence[int]]) -> tuple[int, str] | None:
    """The round at which the game reaches its regular end, and why; ``None`` if not yet.

    The first round ``k`` (1-based) that is the last of ``rules.rounds``, or after which a side has
    ``rules.target_score`` or more points.
    """
    target, rounds = rules.target_score, rules.rounds  # read once: a game may run to 50 rounds
    for k, totals in enumerate(running, start=1):
        if target is not None and totals and max(totals) >= target:
            return k, "reached"
        if rounds is not None and k >= rounds:
            return k, "rounds"
    return None


def game_state(rules: RuleSet, team_names: Sequence[str], round_totals: Sequence[Sequence[int]]) -> GameState:
    """The state of a game under ``rules`` with sides ``team_names`` after rounds ``round_totals``.

    ``round_totals[k]`` holds each side's score in round ``k + 1``, in the order of ``team_names``.
    Raises ``ValueError`` when a round does not have one score per side, or there are no sides.
    """
    names = tuple(team_names)
    if not names:
        raise ValueError("a game needs at least one side")
    if len(set(names)) != len(names):
        raise ValueError("side names must be unique")
    running: list[tuple[int, ...]] = []
    current = (0,) * len(names)
    sides = len(names)
    for k, scores in enumerate(round_totals, start=1):
        if len(scores) != sides:
            raise ValueError(f"round {k} has {len(scores)} scores for {sides} sides")
        current = tuple(map(add, current, map(int, scores)))  # built-ins: this runs per round per append
        running.append(current)
    played = len(running)
    totals = tuple(SideTotal(n, t) for n, t in zip(names, current, strict=True))
    top = max(current)
    leaders = tuple(n for n, t in zip(names, current, strict=True) if t == top) if played else ()

    end = regular_end(rules, running)
    if end is None:
        return _next(rules, names, running, totals, leaders, "in_progress", None, 0)

    end_round, why = end
    if why == "reached":
        reached = [n for n, t in zip(names, running[end_round - 1], strict=True) if t >= (rules.target_score or 0)]
        base = f"{_join(reached)} reached {rules.target_score}"
    else:
        base = f"{_plural(end_round, 'round')} played"
    extra = played - end_round

    if len(leaders) == 1:
        reason = base if extra == 0 else f"{base}; {leaders[0]} won after {_plural(extra, 'tiebreaker round')}"
        return GameState(
            "finished",
            played,
            totals,
            tuple(running),
            leaders,
            leaders[0],
            False,
            None,
            None,
            None,
            None,
            reason,
            end_round,
            extra,
        )
    if rules.tie_rule == "stands":
        reason = f"{base}; tie stands" if extra == 0 else f"{base} and {_plural(extra, 'more round')}; tie stands"
        return GameState(
            "finished",
            played,
            totals,
            tuple(running),
            leaders,
            None,
            True,
            None,
            None,
            None,
            None,
            reason,
            end_round,
            extra,
        )
    return _next(rules, names, running, totals, leaders, "tiebreaker", end_round, extra)


def _next(
    rules: RuleSet,
    names: tuple[str, ...],
    running: list[tuple[int, ...]],
    totals: tuple[SideTotal, ...],
    leaders: tuple[str, ...],
    status: GameStatus,
    end_round: int | None,
    extra: int,
) -> GameState:
    number = len(running) + 1
    if status == "tiebreaker" and rules.tiebreaker_opening_minimum is not None:
        minimums = tuple(SideTotal(t.name, rules.tiebreaker_opening_minimum) for t in totals)
    else:
        minimums = tuple(SideTotal(t.name, rules.opening_minimum_for(number, t.total)) for t in totals)
    return GameState(
        status,
        len(running),
        totals,
        tuple(running),
        leaders,
        None,
        False,
        number,
        min(m.total for m in minimums),
        minimums,
        rules.contract_for(number),
        None,
        end_round,
        extra,
    )
