"""``handfoot``: the SDK as a shell command.

    handfoot score FILE [--preset ID] [--offline] [--json]   score a round (FILE or - for stdin);
                                                    --offline: with the engine, no server
    handfoot compare FILE --preset A --preset B [--json]     one round under several presets
    handfoot validate --preset ID CARD... [--onto CARD...]   is this meld legal? (exit 1 if not)
    handfoot presets | preset ID                    the rule presets / one preset's rules
    handfoot games [--status S] [--player P] [--preset ID] [--limit N] | game ID
    handfoot create-game --name N --preset ID --side 'Us=Ann,Bob' --side 'Them=Cy,Di' [--quiet]
    handfoot add-round GAME [FILE] [--tally 'Us:clean_books=2,table_points=465'] [--went-out Us] [--quiet]
    handfoot correct-round GAME N [FILE] [--tally ...] [--went-out SIDE]
    handfoot round GAME N | revisions GAME N | delete-round GAME N [--if-match ETAG]
    handfoot delete-game GAME [--if-match ETAG]
    handfoot scoresheet GAME [--csv]
    handfoot export [--ndjson | --csv] [--since DATE] [--until DATE] [--preset ID]
    handfoot stats [--since DATE] [--until DATE] [--preset ID]   per player and per side
    handfoot play --bots greedy,random,greedy,random [--preset ID] [--seed N]   bots play a game
    handfoot arena --policies greedy,planner [--preset ID] [--matches N] [--rule K=V] [--seed S]
                                                    policies play each other in process (no server)
    handfoot completion bash|zsh|fish               print a shell completion script

Every command takes ``--json`` (print the API's JSON answer). Under ``--json`` an error from the
server (or, with ``--offline``, from the engine) is printed to stdout as its problem document.

``--url``, ``--api-key`` and ``--timeout`` go before or after the command. ``--quiet`` prints only
the new id (or round number), for scripts.

Exit codes: 0 ok, 1 the server refused the request (4xx; its problems go to stderr) or the meld
``validate`` checked is not legal, 2 usage (bad arguments, unreadable input file, a round expected
on standard input that is a terminal), 3 no answer or a server error (connection, timeout, 5xx).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, TextIO, cast

from ._cli_arena import add_arena_command
from ._cli_common import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    GAME,
    UsageError,
    add_rule_option,
    confirmed,
    house_rules,
    print_json,
    read_body,
    round_number,
    show,
)
from ._cli_history import add_history_commands
from ._cli_play import PlayUsageError, add_play_command
from ._cli_rounds import add_round_commands
from ._client import ENV_API_KEY, ENV_BASE_URL, Client
from ._completion import SHELLS, completion_script
from ._errors import APIConnectionError, APIResponseValidationError, APIStatusError, APITimeoutError, ServerError
from ._transport import DEFAULT_BASE_URL
from ._version import __version__
from .bots import BotError
from .display import score_plain, text_table
from .offline import OfflineProblemError, score_round_offline
from .params import GameTeamInput
from .types import GameSummary, PresetId, ProblemDetails

__all__ = ["EXIT_OK", "EXIT_PROBLEM", "EXIT_UNAVAILABLE", "EXIT_USAGE", "main"]

EPILOG = f"""\
settings:
  --url defaults to ${ENV_BASE_URL}, then {DEFAULT_BASE_URL}; --api-key to ${ENV_API_KEY}.

exit codes:
  0 ok; 1 the server refused the request (4xx, problems on stderr) or validate's meld is not legal;
  2 usage; 3 no answer or a server error (connection, timeout, 5xx).

server administration (on the server host, with the server extra installed):
  handfoot-server migrate             create or migrate the database (DATABASE_URL)
  handfoot-server keys create NAME    create an API key for game writes
  handfoot-server serve               migrate, then serve on 127.0.0.1:8000
"""


def _cmd_score(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    body = read_body(args.file, stdin)
    preset = args.preset or body.get("preset")
    if not isinstance(preset, str) or not preset:
        raise UsageError("no preset: give --preset ID or a `preset` member in the file")
    rules = body.get("rules")
    if args.rule:  # --rule KEY=VALUE over the file's own `rules`
        rules = {**(rules if isinstance(rules, Mapping) else {}), **house_rules(args.rule)}
    number = round_number(body)
    if args.offline:  # the engine, as the server would answer: no request is sent
        score = score_round_offline({**body, "preset": preset, "round": number, "rules": rules or {}})
    else:
        score = client.score_round(
            preset=cast(PresetId, preset),  # as typed: the server answers an unknown id (a 422 naming it)
            teams=body["teams"],
            round=number,
            rules=rules if isinstance(rules, Mapping) else None,
        )
    if args.json:
        print_json(score, out)
    else:
        out.write(score_plain(score))
    return EXIT_OK


def _cmd_presets(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    presets = client.presets()
    if args.json:
        print_json(presets, out)
        return EXIT_OK
    rows = [("id", "name", "source", "summary")]
    rows.extend((p.id, p.name, p.source, p.summary) for p in presets)
    out.write(text_table(rows, (False, False, False, False)) + "\n")
    return EXIT_OK


def _cmd_preset(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    return show(client.preset(args.id), args, out)


def _cmd_games(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    games: Iterator[GameSummary] = client.games(
        status=args.status, player=args.player, preset=args.preset, page_size=min(args.limit or 100, 100)
    )
    if args.limit:
        games = islice(games, args.limit)
    if args.ids:
        out.writelines(f"{g.id}\n" for g in games)
        return EXIT_OK
    if args.json:
        print_json(list(games), out)
        return EXIT_OK
    rows = [("id", "name", "preset", "rounds", "status", "totals")]
    for g in games:
        totals = ", ".join(f"{t.name} {t.total}" for t in g.totals)
        rows.append((str(g.id), g.name, g.preset, str(g.rounds_played), g.status, totals))
    out.write(text_table(rows, (True, False, False, True, False, False)) + "\n")
    return EXIT_OK


def _cmd_game(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    return show(client.game(args.id), args, out)


def _cmd_compare(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    body = read_body(args.file, stdin)
    rules = body.get("rules")
    result = client.compare_presets(
        presets=args.preset,
        teams=body["teams"],
        round=round_number(body),
        rules=rules if isinstance(rules, Mapping) else None,
    )
    if args.json:
        return show(result, args, out)
    rows = [("preset", "valid", "totals")]
    for item in result.results:
        totals = item.totals
        shown = (
            ", ".join(f"{name} {total}" for name, total in totals.items())
            if totals
            else "; ".join(p.detail for p in item.problems)
        )
        rows.append((item.preset, "yes" if item.valid else "no", shown))
    out.write(text_table(rows, (False, False, False)) + "\n")
    return EXIT_OK


def _cmd_validate(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Exit 1 when the meld is not legal, so a script can branch on the answer."""
    result = client.validate_meld(preset=args.preset, cards=args.cards, onto=args.onto)
    show(result, args, out)
    return EXIT_OK if result.valid else EXIT_PROBLEM


def _parse_side(text: str) -> GameTeamInput:
    name, sep, players = text.partition("=")
    if not sep or not name.strip():
        raise UsageError(f"--side {text!r}: expected NAME=PLAYER,PLAYER (e.g. 'Us=Ann,Bob')")
    return {"name": name.strip(), "players": [p.strip() for p in players.split(",") if p.strip()]}


def _cmd_create_game(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    teams = [_parse_side(side) for side in args.side]
    game = client.create_game(name=args.name, preset=args.preset, teams=teams, rules=house_rules(args.rule) or None)
    if args.quiet:  # the new game's id alone: GAME=$(handfoot create-game ... --quiet)
        out.write(f"{game.id}\n")
        return EXIT_OK
    return show(game, args, out)


def _cmd_delete_game(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    def question() -> str:
        return f"Delete game #{args.game} ({client.game(args.game).name}) and all its rounds?"

    if not confirmed(question, args, stdin, sys.stderr):
        sys.stderr.write("handfoot: nothing deleted\n")
        return EXIT_PROBLEM
    client.delete_game(args.game, if_match=args.if_match)
    if args.json:
        out.write(json.dumps({"deleted": args.game}) + "\n")
    else:
        out.write(f"game {args.game} deleted\n")
    return EXIT_OK


def _cmd_scoresheet(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    if args.csv:
        out.write(client.scoresheet_csv(args.game))
        return EXIT_OK
    return show(client.scoresheet(args.game), args, out)


def _cmd_completion(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    out.write(completion_script(build_parser(), args.shell))
    return EXIT_OK


def build_parser(stderr: TextIO | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="handfoot",
        description="Hand and Foot rules, scoring and stored games, from the shell (the handfoot API's client).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"handfoot {__version__}")
    _connection_options(parser, default=None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("score", help="score one round from a JSON file (- for stdin)")
    p.add_argument("file", metavar="FILE", help="the body of POST /v1/rounds/score (JSON), or - for stdin")
    p.add_argument("--preset", help="preset id (overrides the file's `preset`)")
    p.add_argument("--offline", action="store_true", help="score with the rules engine here, no server")
    add_rule_option(p, "the round (over the file's `rules`)")
    p.add_argument("--json", action="store_true", help="print the API's answer as JSON")
    p.set_defaults(run=_cmd_score)

    p = sub.add_parser("compare", help="one round (JSON file or -) scored under several presets")
    p.add_argument("file", metavar="FILE", help="the round's body (`teams`, `round`, `rules`), or - for stdin")
    p.add_argument("--preset", action="append", required=True, help="a preset id (repeat for each)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_compare)

    p = sub.add_parser("validate", help="is this meld legal (kind, book, card points, rules broken)?")
    p.add_argument("cards", metavar="CARD", nargs="+", help="the meld's cards, e.g. 9D 9S 2C")
    p.add_argument("--preset", required=True, help="preset id, e.g. pagat")
    p.add_argument("--onto", metavar="CARD", nargs="+", help="the meld already on the table the cards go onto")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_validate)

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
    p.add_argument("--ids", action="store_true", help="print only the games' ids, one a line (scripts, completion)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_games)

    p = sub.add_parser("game", help="one stored game: rounds, totals, status")
    p.add_argument("id", metavar=GAME, type=int, help="game id")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_game)

    p = sub.add_parser("create-game", help="start a stored game (needs --api-key once keys exist)")
    p.add_argument("--name", required=True, help="the game's name")
    p.add_argument("--preset", required=True, help="preset id")
    p.add_argument("--side", action="append", required=True, metavar="NAME=P1,P2", help="a side and its players")
    add_rule_option(p, "the game (kept with it)")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the new game's id")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_create_game)

    p = sub.add_parser("delete-game", help="delete a stored game")
    p.add_argument("game", metavar=GAME, type=int, help="game id")
    p.add_argument("--if-match", help="refuse if the game changed since this ETag")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask (a terminal is asked to confirm)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_delete_game)

    p = sub.add_parser("scoresheet", help="a game's score sheet: rounds x sides with running totals")
    p.add_argument("game", metavar=GAME, type=int, help="game id")
    p.add_argument("--csv", action="store_true", help='print CSV ("round","Us","Us total",...)')
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_scoresheet)

    add_round_commands(sub)  # add-round, correct-round, round, revisions, delete-round
    add_history_commands(sub)  # export, stats
    add_play_command(sub)  # play: bots at a table
    add_arena_command(sub, stderr if stderr is not None else sys.stderr)  # arena: policies in process

    p = sub.add_parser("completion", help='print a completion script: eval "$(handfoot completion bash)"')
    p.add_argument("shell", choices=SHELLS, help="the shell")
    p.set_defaults(run=_cmd_completion)
    for command in sub.choices.values():  # before or after the command: `handfoot games --url U` too
        _connection_options(command, default=argparse.SUPPRESS)
    return parser


def _connection_options(parser: argparse.ArgumentParser, default: Any) -> None:
    """``--url``, ``--api-key`` and ``--timeout``. On the commands their default is ``SUPPRESS``, so
    an option given after the command overrides the one before it and an absent one changes nothing."""
    parser.add_argument(
        "--url", default=default, help=f"API base URL (default ${ENV_BASE_URL}, then {DEFAULT_BASE_URL})"
    )
    parser.add_argument("--api-key", default=default, help=f"API key, sent as a Bearer token (default ${ENV_API_KEY})")
    parser.add_argument(
        "--timeout",
        type=float,
        default=default if default is not None else 30.0,
        help="seconds to wait for an answer (default 30)",
    )


def problem_json(problem: ProblemDetails) -> dict[str, Any]:
    """A problem as its RFC 9457 document (members the server added kept, ``errors`` as sent)."""
    doc: dict[str, Any] = {"type": problem.type, "title": problem.title, "status": problem.status}
    if problem.detail is not None:
        doc["detail"] = problem.detail
    if problem.instance is not None:
        doc["instance"] = problem.instance
    doc.update(problem.extra)
    if problem.errors:
        doc["errors"] = [item.to_dict() for item in problem.errors]
    return doc


def _report_problem(problem: ProblemDetails, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
    if getattr(args, "json", False):  # under --json: the problem document, for jq and programs
        json.dump(problem_json(problem), out, indent=2, ensure_ascii=False)
        out.write("\n")
        return
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
    parser = build_parser(err)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command == "games" and args.limit is not None and args.limit < 1:
        err.write("handfoot: --limit must be at least 1\n")
        return EXIT_USAGE
    client = Client(args.url, api_key=args.api_key, timeout=(3.05, args.timeout))
    try:
        with client:
            code: int = args.run(client, args, out, inp)
            out.flush()
            return code
    except BrokenPipeError:
        # The reader went away (``handfoot games --json | head``): stop quietly, as other tools do.
        # Python's own flush at exit would fail again, so point stdout at /dev/null first.
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except (UsageError, PlayUsageError) as exc:
        err.write(f"handfoot: {exc}\n")
        return EXIT_USAGE
    except ServerError as exc:
        _report_problem(exc.problem, args, out, err)
        return EXIT_UNAVAILABLE
    except APIStatusError as exc:
        _report_problem(exc.problem, args, out, err)
        return EXIT_PROBLEM
    except OfflineProblemError as exc:
        _report_problem(exc.problem, args, out, err)
        return EXIT_PROBLEM
    except APITimeoutError:
        err.write(
            f"handfoot: no answer from the handfoot server at {client.base_url} within {args.timeout:g} s (--timeout)\n"
        )
        return EXIT_UNAVAILABLE
    except APIConnectionError as exc:
        err.write(
            f"handfoot: no handfoot server at {client.base_url} ({_reason(exc)}); start one with "
            "`make run` or `handfoot-server serve`, or give --url\n"
        )
        return EXIT_UNAVAILABLE
    except APIResponseValidationError as exc:
        err.write(f"handfoot: unexpected answer from the server: {exc}\n")
        return EXIT_UNAVAILABLE
    except BotError as exc:  # handfoot play: the table refused every move a bot had
        err.write(f"handfoot: {exc}\n")
        return EXIT_PROBLEM


def _reason(exc: APIConnectionError) -> str:
    """The innermost cause's words ("Connection refused"), not the layers of requests' wrapping."""
    cause: BaseException = exc
    while cause.__cause__ is not None or cause.__context__ is not None:
        cause = cause.__cause__ or cause.__context__  # type: ignore[assignment]
    reason = getattr(cause, "strerror", None) or str(cause) or type(cause).__name__
    return str(reason)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
