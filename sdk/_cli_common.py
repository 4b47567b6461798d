"""What every ``handfoot`` command shares: exit codes, the usage error, reading a round's JSON, and
printing a result (its JSON with ``--json``, else how it prints)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from ._loader import Result

__all__ = [
    "EXIT_OK",
    "EXIT_PROBLEM",
    "EXIT_UNAVAILABLE",
    "EXIT_USAGE",
    "GAME",
    "UsageError",
    "add_rule_option",
    "confirmed",
    "house_rules",
    "print_json",
    "read_body",
    "round_number",
    "show",
]

EXIT_OK = 0
EXIT_PROBLEM = 1
EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3


#: The metavar of every argument that takes a stored game's id: shell completion offers the
#: server's game ids there (``handfoot.client._completion``).
GAME = "GAME"


class UsageError(Exception):
    """Bad input on our side (unreadable file, missing preset): exit code 2."""


def add_rule_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--rule KEY=VALUE`` (repeat): a house rule, the one spelling of every command that takes
    them (``score``, ``create-game``, ``play``, ``arena``). ``what``: whose rules, for the help."""
    parser.add_argument(
        "--rule",
        action="append",
        metavar="KEY=VALUE",
        help=f"a house rule of {what} (repeat), e.g. going_out_bonus=200 or rounds=2; "
        "VALUE is read as JSON where it parses ({...}, [...], numbers, true), else as text",
    )


def house_rules(items: Sequence[str] | None) -> dict[str, Any]:
    """``--rule`` items as a house-rules object; raises ``UsageError`` for an item without ``=``."""
    rules: dict[str, Any] = {}
    for item in items or ():
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--rule {item!r}: expected KEY=VALUE (e.g. going_out_bonus=200)")
        try:
            rules[key.strip()] = json.loads(text)
        except ValueError:
            rules[key.strip()] = text
    return rules


def confirmed(question: Callable[[], str], args: argparse.Namespace, stdin: TextIO, err: TextIO) -> bool:
    """Whether to go on with a delete: ``--yes``, or ``y`` typed at the prompt. Only a terminal is
    asked (``question()`` is called then alone, so it may read what it names): in a script
    (standard input not a terminal) the command line is the confirmation."""
    if getattr(args, "yes", False) or not stdin.isatty():
        return True
    err.write(f"{question()} [y/N] ")
    err.flush()
    return stdin.readline().strip().lower() in ("y", "yes")


def print_json(value: Result | Sequence[Result], out: TextIO) -> None:
    """The server's JSON for a result (or a list of results): ``to_dict()``."""
    data = value.to_dict() if isinstance(value, Result) else [item.to_dict() for item in value]
    json.dump(data, out, indent=2, ensure_ascii=False)
    out.write("\n")


def show(result: Result, args: argparse.Namespace, out: TextIO) -> int:
    """One result: its JSON with ``--json``, else how it prints (``handfoot.client.display``)."""
    if args.json:
        print_json(result, out)
    else:
        out.write(f"{result}\n")
    return EXIT_OK


def read_body(path: str, stdin: TextIO) -> dict[str, Any]:
    """A round's body from ``path`` (``-``: standard input): the object of POST /v1/rounds/score, a
    bare ``teams`` list, or a shared case file (its ``request``). Raises ``UsageError`` when the file
    cannot be read, is not JSON or has no ``teams``, and when standard input is a terminal (nobody is
    piping a round in: waiting on it silently would look like a hang)."""
    try:
        if path == "-":
            if stdin.isatty():
                raise UsageError(
                    "the round is read from standard input, which is a terminal: "
                    "give a FILE, --tally flags, or pipe the JSON in"
                )
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
        raise UsageError("the round must be a JSON object with a `teams` list (the body of POST /v1/rounds/score)")
    return data


def round_number(body: Mapping[str, Any]) -> int:
    """The body's ``round`` (default 1); raises ``UsageError`` when it is not an integer."""
    number = body.get("round", 1)
    if not isinstance(number, int):
        raise UsageError("`round` must be an integer")
    return number
