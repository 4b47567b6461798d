"""``handfoot arena``: policies measured against each other in process (no server), luck cancelled
by playing each deal once per rotation of the policies over the sides.

    handfoot arena --policies greedy,planner --preset pagat --matches 200 [--rule k=v] [--seed S] [--json]
    handfoot arena --policies mybot:policy,planner --leaderboard board.json --seed 2

``--policies`` names the engine's reference policies (random, greedy, planner) or a policy of your
own as ``module:attribute`` (``handfoot.client.policies.load_policy``: imported from sys.path and
the current directory; a table bot's ``choose`` loads too). ``--leaderboard FILE`` keeps openskill
ratings across runs (``handfoot.client.leaderboard``): the run's deals are rated from the file's
ratings, the file is written back and its table printed under the run's.

Prints a table (win rate with its 95% interval, points per round, rounds to go out, ratings), or
with ``--json`` the report of ``handfoot.client.arena.arena_report`` (with every game). Progress
goes to standard error (runs of 50 matches or more). ``--rule KEY=VALUE`` sets a house rule (the
value read as JSON where it is JSON, else as text); ``ask_partner`` and ``stock_out`` are the play
options of the table.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from handfoot.engine.errors import HandFootError
from handfoot.engine.play.arena import POLICIES, run_arena

from ._cli_common import EXIT_OK, EXIT_PROBLEM, UsageError, add_rule_option, house_rules
from ._client import Client
from .arena import arena_report, report_table
from .leaderboard import Leaderboard, LeaderboardError
from .policies import LoadedPolicy, PolicyLoadError, load_policy

__all__ = ["add_arena_command"]

#: House rules that are play options (``handfoot.engine.play.options``), not RuleSet fields.
PLAY_KEYS = ("ask_partner", "stock_out")


def _policies(text: str) -> list[LoadedPolicy]:
    """``--policies``: each name or ``module:attribute`` loaded (``UsageError`` naming the bad one)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise UsageError(
            f"--policies: two different policies or more, comma-separated, each once: among "
            f"{', '.join(POLICIES)}, or module:attribute for a policy of your own"
        )
    try:
        return [load_policy(name) for name in names]
    except PolicyLoadError as exc:
        raise UsageError(f"--policies {exc}") from exc


def _rules(items: list[str] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """``--rule`` items as (house rules, play options)."""
    rules: dict[str, Any] = {}
    play: dict[str, Any] = {}
    for key, value in house_rules(items).items():
        (play if key in PLAY_KEYS else rules)[key] = value
    return rules, play


#: Runs of fewer matches than this (seconds of CPU) print no progress.
PROGRESS_FROM = 50


class Progress:
    """``arena: N/M matches`` on standard error, every tenth of a run of :data:`PROGRESS_FROM`
    matches or more (and at its end)."""

    def __init__(self, err: TextIO) -> None:
        self.err = err

    def __call__(self, done: int, total: int) -> None:
        if total < PROGRESS_FROM:
            return
        step = max(1, total // 10)
        if done % step == 0 or done == total:
            self.err.write(f"arena: {done}/{total} matches\n")
            self.err.flush()


def _cmd_arena(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    loaded = _policies(args.policies)
    if args.matches < 1:
        raise UsageError("--matches must be at least 1")
    rules, play = _rules(args.rule)
    err: TextIO = args.stderr
    board = None if args.leaderboard is None else _board(args.leaderboard, args.preset, rules, play)
    try:
        chosen = {p.name: p.for_arena(args.preset, rules) for p in loaded}
        result = run_arena(chosen, args.preset, args.matches, args.seed, rules, play, Progress(err))
    except (HandFootError, ValueError) as exc:  # unknown preset, rules broken, sides the preset refuses
        problems = getattr(exc, "problems", None)
        err.write(f"handfoot: {exc}\n")
        for p in problems or ():
            err.write(f"  - {p.code}: {p.detail}\n")
        return EXIT_PROBLEM
    report = arena_report(result, with_games=args.json)
    if board is not None:
        _record(board, args.leaderboard, result, err)
    if args.json:
        if board is not None:
            report["leaderboard"] = board.to_dict()
        json.dump(report, out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(report_table(report) + "\n")
        if board is not None:
            out.write(f"\n{board.table()}\n")
    return EXIT_OK


def _board(path: str, preset: str, rules: dict[str, Any], play: dict[str, Any]) -> Leaderboard:
    """The board in ``path``, read before the run (``UsageError`` for a file that is not a board or
    rates other rules)."""
    try:
        return Leaderboard.load(path, preset, rules, play)
    except LeaderboardError as exc:
        raise UsageError(f"--leaderboard {exc}") from exc


def _record(board: Leaderboard, path: str, result: Any, err: TextIO) -> None:
    """``result`` recorded on ``board``, written back to ``path`` (``UsageError`` without openskill
    or for a file that cannot be written)."""
    try:
        board.record(result)
        board.save(path)
    except LeaderboardError as exc:
        raise UsageError(f"--leaderboard {exc}") from exc
    except OSError as exc:
        raise UsageError(f"--leaderboard {path}: cannot write it ({exc.strerror or exc})") from exc
    if board.replayed:
        err.write(f"arena: seed {result.seed} was played on {path} before: the same deals rated again\n")


def add_arena_command(sub: Any, stderr: TextIO) -> None:
    """Add ``arena`` to the ``handfoot`` subcommands (``sub``: argparse's subparsers); progress goes
    to ``stderr``."""
    p = sub.add_parser("arena", help="policies play each other in process (no server): win rates, intervals, ratings")
    p.add_argument(
        "--policies",
        required=True,
        metavar="P,P,...",
        help=f"one policy a side: {', '.join(POLICIES)}, or module:attribute (a policy of your own)",
    )
    p.add_argument("--preset", default="pagat", help="preset id (default pagat)")
    p.add_argument("--matches", type=int, default=100, help="games in all, rounded up to whole deals (default 100)")
    add_rule_option(p, "the matches (ask_partner and stock_out are play options)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0): a run repeats")
    p.add_argument("--json", action="store_true", help="print the report as JSON, every game included")
    p.add_argument(
        "--leaderboard",
        metavar="FILE",
        help="keep openskill ratings across runs in FILE (JSON; created if missing): rated by deal",
    )
    p.set_defaults(run=_cmd_arena, stderr=stderr)
