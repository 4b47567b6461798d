"""The rounds of a stored game, from the shell.

    handfoot add-round GAME [FILE] [--tally 'Us:clean_books=2,table_points=465'] [--went-out Us] [--quiet]
    handfoot correct-round GAME N [FILE] [--tally ...] [--went-out SIDE] [--if-match ETAG]
    handfoot round GAME N                    one stored round: its sides, breakdown and revision
    handfoot revisions GAME N                the round's audit trail, oldest first
    handfoot delete-round GAME N [--if-match ETAG]   take back the game's last round

A round's sides come from FILE (JSON; ``-`` or nothing: standard input, refused when it is a
terminal) or from ``--tally`` flags, one a side.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from typing import Any, TextIO

from ._cli_common import EXIT_OK, EXIT_PROBLEM, GAME, UsageError, confirmed, print_json, read_body, show
from ._client import Client
from .params import TeamInput, side, tally

__all__ = ["add_round_commands"]


def _parse_tally(text: str) -> TeamInput:
    """``'Us:clean_books=2,table_points=465'`` → that side with its tally (counts left out are 0)."""
    name, sep, members = text.partition(":")
    if not sep or not name.strip():
        raise UsageError(f"--tally {text!r}: expected SIDE:count=N,... (e.g. 'Us:clean_books=2,table_points=465')")
    counts: dict[str, int] = {}
    for member in filter(None, (m.strip() for m in members.split(","))):
        key, eq, value = member.partition("=")
        if not eq or not value.strip().lstrip("-").isdigit():
            raise UsageError(f"--tally {text!r}: {member!r} is not count=INTEGER")
        counts[key.strip()] = int(value)
    try:
        return side(name.strip(), tally(**counts))  # type: ignore[arg-type]  # names checked just below
    except TypeError:
        known = ", ".join(inspect.signature(tally).parameters)
        raise UsageError(f"--tally {text!r}: the counts are {known}") from None


def _round_teams(args: argparse.Namespace, stdin: TextIO) -> tuple[list[TeamInput], int | None]:
    """The sides of a round to store: from ``FILE`` / stdin, or from ``--tally`` flags."""
    if args.tally:
        if args.file is not None:
            raise UsageError("give a round FILE or --tally flags, not both")
        teams = [_parse_tally(text) for text in args.tally]
        for team in teams:
            team["went_out"] = team["name"] in (args.went_out or ())
        return teams, None
    if args.went_out:
        raise UsageError("--went-out goes with --tally (a round FILE says `went_out` per side)")
    body = read_body(args.file or "-", stdin)
    number = body.get("round")
    return body["teams"], number if isinstance(number, int) else None


def _cmd_add_round(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    teams, number = _round_teams(args, stdin)
    stored = client.add_round(args.game, teams=teams, round=args.round or number)
    if args.quiet:  # the new round's number alone, for scripts
        out.write(f"{stored.number}\n")
        return EXIT_OK
    return show(stored, args, out)


def _cmd_correct_round(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    teams, _ = _round_teams(args, stdin)
    return show(client.correct_round(args.game, args.number, teams=teams, if_match=args.if_match), args, out)


def _cmd_round(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    return show(client.round(args.game, args.number), args, out)


def _cmd_revisions(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    revisions = client.revisions(args.game, args.number)
    if args.json:
        print_json(revisions, out)
    else:
        out.write("".join(f"{revision}\n" for revision in revisions))
    return EXIT_OK


def _cmd_delete_round(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    if not confirmed(lambda: f"Take back round {args.number} of game #{args.game}?", args, stdin, sys.stderr):
        sys.stderr.write("handfoot: nothing deleted\n")
        return EXIT_PROBLEM
    client.delete_round(args.game, args.number, if_match=args.if_match)
    if args.json:
        out.write(json.dumps({"game": args.game, "deleted_round": args.number}) + "\n")
    else:
        out.write(f"round {args.number} of game {args.game} deleted\n")
    return EXIT_OK


def _game_and_number(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar=GAME, type=int, help="game id")
    p.add_argument("number", metavar="N", type=int, help="round number")


def add_round_commands(sub: Any) -> None:
    """Add the round commands to the ``handfoot`` subcommands (``sub``: argparse's subparsers)."""
    p = sub.add_parser("add-round", help="score the next round and append it to a game")
    p.add_argument("game", metavar=GAME, type=int, help="game id")
    p.add_argument("--round", type=int, help="the round number expected next")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the new round's number")
    _sides(p, _cmd_add_round)

    p = sub.add_parser("correct-round", help="replace a stored round's sides (the old revision is kept)")
    _game_and_number(p)
    p.add_argument("--if-match", help="the round's ETag (default: read it first)")
    _sides(p, _cmd_correct_round)

    p = sub.add_parser("round", help="one stored round: its sides, breakdown and revision")
    _game_and_number(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_round)

    p = sub.add_parser("revisions", help="a stored round's revisions, oldest first")
    _game_and_number(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_revisions)

    p = sub.add_parser("delete-round", help="take back a game's last round")
    _game_and_number(p)
    p.add_argument("--if-match", help="refuse if the game changed since this ETag (default: read it first)")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask (a terminal is asked to confirm)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_delete_round)


def _sides(p: argparse.ArgumentParser, run: Any) -> None:
    """The round's sides (FILE or --tally) and ``--json``, shared by add-round and correct-round."""
    p.add_argument("file", metavar="FILE", nargs="?", help="the round's `teams` as JSON (default -: stdin)")
    p.add_argument("--tally", action="append", metavar="SIDE:count=N,...", help="a side's tally (repeat)")
    p.add_argument("--went-out", action="append", metavar="SIDE", help="with --tally: the side that went out")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)
