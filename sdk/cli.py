"""``handfoot``: the SDK as a shell command.

    handfoot score round.json [--preset ID] [--json]   score a round (FILE or - for stdin)
    handfoot presets [--json]                          list presets
    handfoot preset ID [--json]                        one preset's rules and provenance
    handfoot games [--status S] [--player P] [--preset ID] [--limit N] [--json]
    handfoot game ID [--json]                          a stored game

Exit codes: 0 ok, 1 the server refused the request (4xx; its problems go to stderr), 2 usage
(bad arguments, unreadable input file), 3 no answer or a server error (connection, timeout, 5xx).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, TextIO

from ._client import ENV_API_KEY, ENV_BASE_URL, Client
from ._errors import APIConnectionError, APIResponseValidationError, APIStatusError, ServerError
from ._loader import Result
from ._transport import DEFAULT_BASE_URL
from ._version import __version__
from .display import score_plain, text_table
from .types import GameSummary

__all__ = ["EXIT_OK", "EXIT_PROBLEM", "EXIT_UNAVAILABLE", "EXIT_USAGE", "main"]

EXIT_OK = 0
EXIT_PROBLEM = 1
EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3

EPILOG = f"""\
settings:
  --url defaults to ${ENV_BASE_URL}, then {DEFAULT_BASE_URL}; --api-key to ${ENV_API_KEY}.

exit codes:
  0 ok; 1 the server refused the request (4xx, problems on stderr); 2 usage;
  3 no answer or a server error (connection, timeout, 5xx).

server administration (on the server host, with the server extra installed):
  handfoot-server migrate             create or migrate the database (DATABASE_URL)
  handfoot-server keys create NAME    create an API key for game writes
  handfoot-server serve               migrate, then serve on 127.0.0.1:8000
"""


class UsageError(Exception):
    """Bad input on our side (unreadable file, missing preset): exit code 2."""


def _print_json(value: Result | Sequence[Result], out: TextIO) -> None:
    """The server's JSON for a result (or a list of results): ``to_dict()``."""
    data = value.to_dict() if isinstance(value, Result) else [item.to_dict() for item in value]
    json.dump(data, out, indent=2, ensure_ascii=False)
    out.write("\n")


def _read_body(path: str, stdin: TextIO) -> dict[str, Any]:
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{'stdin' if path == '-' else path} is not JSON: {exc}") from exc
    if isinstance(data, dict) and "teams" not in data and isinstance(data.get("request"), dict):
        data = data["request"]  # a shared case file: {"id", "request": {...}, "expect": ...}
    if isinstance(data, list):
        data = {"teams": data}
    if not isinstance(data, dict) or not isinstance(data.get("teams"), list):
        raise UsageError(
            "the round must be a JSON object with a `teams` list (the body of POST /v1/rounds/score)"
        )
    return data


def _cmd_score(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    body = _read_body(args.file, stdin)
    preset = args.preset or body.get("preset")
    if not isinstance(preset, str) or not preset:
        raise UsageError("no preset: give --preset ID or a `preset` member in the file")
    rules = body.get("rules")
    round_number = body.get("round", 1)
    if not isinstance(round_number, int):
        raise UsageError("`round` must be an integer")
    score = client.score_round(
        preset=preset,
        teams=body["teams"],
        round=round_number,
        rules=rules if isinstance(rules, Mapping) else None,
    )
    if args.json:
        _print_json(score, out)
    else:
        out.write(score_plain(score))
    return EXIT_OK


def _cmd_presets(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    presets = client.presets()
    if args.json:
        _print_json(presets, out)
        return EXIT_OK
    rows = [("id", "name", "source", "summary")]
    rows.extend((p.id, p.name, p.source, p.summary) for p in presets)
    out.write(text_table(rows, (False, False, False, False)) + "\n")
    return EXIT_OK


def _show(result: Result, args: argparse.Namespace, out: TextIO) -> int:
    """One result: its JSON with ``--json``, else how it prints (``handfoot.client.display``)."""
    if args.json:
        _print_json(result, out)
    else:
        out.write(f"{result}\n")
    return EXIT_OK


def _cmd_preset(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    return _show(client.preset(args.id), args, out)


def _cmd_games(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    games: Iterator[GameSummary] = client.games(
        status=args.status, player=args.player, preset=args.preset, page_size=min(args.limit or 100, 100)
    )
    if args.limit:
        games = islice(games, args.limit)
    if args.json:
        _print_json(list(games), out)
        return EXIT_OK
    rows = [("id", "name", "preset", "rounds", "status", "totals")]
    for g in games:
        totals = ", ".join(f"{t.name} {t.total}" for t in g.totals)
        rows.append((str(g.id), g.name, g.preset, str(g.rounds_played), g.status, totals))
    out.write(text_table(rows, (True, False, False, True, False, False)) + "\n")
    return EXIT_OK


def _cmd_game(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    return _show(client.game(args.id), args, out)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="handfoot",
        description="Hand and Foot rules, scoring and stored games, from the shell (the handfoot API's client).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"handfoot-sdk {__version__}")
    parser.add_argument("--url", help=f"API base URL (default ${ENV_BASE_URL}, then {DEFAULT_BASE_URL})")
    parser.add_argument("--api-key", help=f"API key, sent as a Bearer token (default ${ENV_API_KEY})")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for an answer (default 30)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("score", help="score one round from a JSON file (- for stdin)")
    p.add_argument("file", metavar="FILE", help="the body of POST /v1/rounds/score (JSON), or - for stdin")
    p.add_argument("--preset", help="preset id (overrides the file's `preset`)")
    p.add_argument("--json", action="store_true", help="print the API's answer as JSON")
    p.set_defaults(run=_cmd_score)

    p = sub.add_parser("presets", help="list the rule presets")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_presets)

    p = sub.add_parser("preset", help="one preset's rules, with where each value comes from")
    p.add_argument("id", metavar="ID", help="preset id, e.g. pagat")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_preset)

    p = sub.add_parser("games", help="list stored games, newest first")
    p.add_argument("--status", choices=("in_progress", "tiebreaker", "finished"), help="only games in this status")
    p.add_argument("--player", help="only games with this player")
    p.add_argument("--preset", help="only games under this preset")
    p.add_argument("--limit", type=int, default=None, help="at most this many games")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_games)

    p = sub.add_parser("game", help="one stored game: rounds, totals, status")
    p.add_argument("id", metavar="ID", type=int, help="game id")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_game)
    return parser


def _report_problem(exc: APIStatusError, err: TextIO) -> None:
    problem = exc.problem
    head = f"handfoot: {problem.status} {problem.title}"
    if problem.detail and problem.detail != problem.title:
        head += f": {problem.detail}"
    err.write(head + "\n")
    for item in problem.errors:
        err.write(f"  - {item}\n")


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit code (see the module doc)."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    inp = stdin if stdin is not None else sys.stdin
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command == "games" and args.limit is not None and args.limit < 1:
        err.write("handfoot: --limit must be at least 1\n")
        return EXIT_USAGE
    try:
        with Client(args.url, api_key=args.api_key, timeout=(3.05, args.timeout)) as client:
            code: int = args.run(client, args, out, inp)
            out.flush()
            return code
    except BrokenPipeError:
        # The reader went away (``handfoot games --json | head``): stop quietly, as other tools do.
        # Python's own flush at exit would fail again, so point stdout at /dev/null first.
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except UsageError as exc:
        err.write(f"handfoot: {exc}\n")
        return EXIT_USAGE
    except ServerError as exc:
        _report_problem(exc, err)
        return EXIT_UNAVAILABLE
    except APIStatusError as exc:
        _report_problem(exc, err)
        return EXIT_PROBLEM
    except APIConnectionError as exc:
        err.write(f"handfoot: no answer from the server: {exc}\n")
        return EXIT_UNAVAILABLE
    except APIResponseValidationError as exc:
        err.write(f"handfoot: unexpected answer from the server: {exc}\n")
        return EXIT_UNAVAILABLE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
