"""A leaderboard file: openskill ratings kept across arena runs (``handfoot arena --leaderboard FILE``).

    from handfoot.client.leaderboard import Leaderboard
    board = Leaderboard.load("board.json", "pagat")  # a new board when the file does not exist
    board.record(result)                              # the run's deals, rated from the file's ratings
    board.save("board.json")
    print(board.table())

Each run's ratings start from the file's (a run's prior is the board as the last run left it;
a policy new to the board starts at openskill's 25 and 25/3). The board is fed by *deals*: the
arena plays each deal once per rotation of the policies over the sides (with two policies, twice
with the sides swapped), and a deal is one rated match, the policies ranked by their points over
the deal's games added up. The games of a deal share their cards, so counting each game as a
match of its own would count the same luck twice and shrink ``sigma`` too fast.

A board holds one rule set: its ``preset``, house ``rules`` and play options ``play``, fixed by its
first run; a run under other rules is refused (:class:`LeaderboardError`). It also keeps the
seeds of its runs: a seed played again replays the same deals (:attr:`Leaderboard.replayed`).
Needs ``openskill`` (``pip install 'handfoot[arena]'``).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from handfoot.engine.play.arena import ArenaResult

from .display import text_table

__all__ = ["FORMAT", "Leaderboard", "LeaderboardError", "Standing"]

#: The file's ``format`` member: a file of another format is refused.
FORMAT = "handfoot-leaderboard/1"


class LeaderboardError(ValueError):
    """A leaderboard file that cannot be read or does not match the run (other rules, another
    format), or openskill missing. The message names the file and what is wrong."""


@dataclass(slots=True)
class Standing:
    """One policy on the board: its rating (``mu``, ``sigma``: openskill's Plackett-Luce) and what
    it was rated on: ``games`` and ``deals`` played, over ``runs`` runs."""

    name: str
    mu: float
    sigma: float
    games: int = 0
    deals: int = 0
    runs: int = 0

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the rating the policy surely has (the board's order)."""
        return self.mu - 3 * self.sigma


@dataclass(slots=True)
class Leaderboard:
    """Ratings across runs under one rule set (see the module's docstring)."""

    preset: str
    rules: dict[str, Any]
    play: dict[str, Any]
    standings: dict[str, Standing] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)
    #: Set by :meth:`record`: the run's seed had been played on this board before.
    replayed: bool = False

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        preset: str,
        rules: Mapping[str, Any] | None = None,
        play: Mapping[str, Any] | None = None,
    ) -> Leaderboard:
        """The board in ``path`` for runs of ``preset`` with house ``rules`` and play options
        ``play`` (a new one when the file does not exist). Raises :class:`LeaderboardError` for a
        file that is not a board or rates other rules."""
        file = Path(path)
        if not file.exists():
            return cls(preset, dict(rules or {}), dict(play or {}))
        try:
            doc = json.loads(file.read_text(encoding="utf-8"))
            if not isinstance(doc, dict) or doc.get("format") != FORMAT:
                raise LeaderboardError(f"{file}: not a leaderboard (its format is not {FORMAT})")
            board = cls(
                str(doc["preset"]),
                dict(doc["rules"]),
                dict(doc["play"]),
                {p["name"]: Standing(**p) for p in doc["policies"]},
                [int(s) for s in doc["seeds"]],
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, LeaderboardError):
                raise
            raise LeaderboardError(f"{file}: cannot read the leaderboard ({type(exc).__name__}: {exc})") from exc
        mine = (board.preset, board.rules, board.play)
        theirs = (preset, dict(rules or {}), dict(play or {}))
        if mine != theirs:
            raise LeaderboardError(
                f"{file} rates {_rules_text(*mine)}; this run plays {_rules_text(*theirs)}: "
                "ratings under other rules do not mix (use another file)"
            )
        return board

    def record(self, result: ArenaResult) -> None:
        """Rate ``result``'s deals in the order played, from the board's ratings; count each
        policy's games, deals and the run. Raises :class:`LeaderboardError` without openskill
        or for a run under other rules than the board's."""
        if (result.preset, dict(result.rules), dict(result.play)) != (self.preset, self.rules, self.play):
            raise LeaderboardError(
                f"the board rates {_rules_text(self.preset, self.rules, self.play)}; the run played "
                f"{_rules_text(result.preset, result.rules, result.play)}"
            )
        try:
            from openskill.models import PlackettLuce
        except ImportError as exc:
            raise LeaderboardError("the leaderboard needs openskill: pip install 'handfoot[arena]'") from exc
        model = PlackettLuce()
        for name in result.policies:
            if name not in self.standings:
                fresh = model.rating()
                self.standings[name] = Standing(name, fresh.mu, fresh.sigma)
        rated = {n: model.rating(mu=s.mu, sigma=s.sigma, name=n) for n, s in self.standings.items()}
        deals: dict[int, dict[str, int]] = {}
        for match in result.matches:
            points = deals.setdefault(match.deal, dict.fromkeys(result.policies, 0))
            for name, total in zip(match.sides, match.totals, strict=True):
                points[name] += total
        for points in deals.values():
            names = list(points)
            teams = model.rate([[rated[n]] for n in names], scores=[points[n] for n in names])
            for name, (player,) in zip(names, teams, strict=True):
                rated[name] = player
        for name in result.policies:
            standing = self.standings[name]
            standing.mu, standing.sigma = rated[name].mu, rated[name].sigma
            standing.games += result.entry(name).games
            standing.deals += len(deals)
            standing.runs += 1
        self.replayed = result.seed in self.seeds
        self.seeds.append(result.seed)

    def ranked(self) -> list[Standing]:
        """The standings, highest ``ordinal`` first."""
        return sorted(self.standings.values(), key=lambda s: (-s.ordinal, s.name))

    def to_dict(self) -> dict[str, Any]:
        """The file's JSON: ``format``, the rule set, ``seeds`` and ``policies`` (ranked)."""
        return {
            "format": FORMAT,
            "model": "openskill Plackett-Luce, one player a policy, one match a deal",
            "preset": self.preset,
            "rules": self.rules,
            "play": self.play,
            "seeds": self.seeds,
            "policies": [asdict(s) for s in self.ranked()],
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the board to ``path`` at once (a temporary file renamed over it: a reader never
        sees half a board)."""
        file = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{file.name}.", dir=file.parent or ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.to_dict(), out, indent=2, ensure_ascii=False)
                out.write("\n")
            os.replace(tmp, file)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def table(self) -> str:
        """The board as a terminal table: rank, policy, rating (mu ± sigma), ordinal, games,
        deals and runs, under a line naming its rules and runs."""
        rows = [("#", "policy", "rating", "ordinal", "games", "deals", "runs")]
        for rank, s in enumerate(self.ranked(), 1):
            rows.append(
                (
                    str(rank),
                    s.name,
                    f"{s.mu:.1f} ± {s.sigma:.1f}",
                    f"{s.ordinal:.1f}",
                    str(s.games),
                    str(s.deals),
                    str(s.runs),
                )
            )
        head = f"Leaderboard: {_rules_text(self.preset, self.rules, self.play)}, {len(self.seeds)} runs"
        return "\n".join([head, text_table(rows, (True, False, True, True, True, True, True))])


def _rules_text(preset: str, rules: Mapping[str, Any], play: Mapping[str, Any]) -> str:
    extra = ", ".join(f"{k}={json.dumps(v)}" for k, v in {**rules, **play}.items())
    return f"{preset}{f' ({extra})' if extra else ''}"
