"""``handfoot export`` and ``handfoot stats``: histories in bulk, from the shell.

    handfoot export [--ndjson | --csv] [--since DATE] [--until DATE] [--preset ID]   > games.ndjson
    handfoot stats [--since DATE] [--until DATE] [--preset ID] [--json]

``export`` writes NDJSON (one game a line, as ``handfoot game ID --json`` gives it, compact) by
default, CSV (one row per side per round) with ``--csv``. ``stats`` prints a table per player and
per side, or the API's JSON.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ._client import Client

__all__ = ["add_history_commands"]

EXIT_OK = 0


def _filters(args: argparse.Namespace) -> dict[str, Any]:
    return {"since": args.since, "until": args.until, "preset": args.preset}


def _cmd_export(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    if args.csv:
        out.write(client.export_csv(**_filters(args)))
        return EXIT_OK
    for game in client.export_games(**_filters(args)):
        out.write(json.dumps(game.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n")
    return EXIT_OK


def _cmd_stats(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    stats = client.stats(**_filters(args))
    if args.json:
        json.dump(stats.to_dict(), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(f"{stats}\n")
    return EXIT_OK


def _add_filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--since", metavar="DATE", help="only games created at or after this date (UTC) or ISO date-time")
    p.add_argument("--until", metavar="DATE", help="only games created before this date (UTC) or ISO date-time")
    p.add_argument("--preset", help="only games under this preset")


def add_history_commands(sub: Any) -> None:
    """Add ``export`` and ``stats`` to the ``handfoot`` subcommands (``sub``: argparse's subparsers)."""
    p = sub.add_parser("export", help="every game with its rounds: NDJSON (one game a line) or CSV (--csv)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--ndjson", action="store_true", help="one game a line, as JSON (the default)")
    form.add_argument("--csv", action="store_true", help="one row per side per round")
    _add_filters(p)
    p.set_defaults(run=_cmd_export)

    p = sub.add_parser("stats", help="statistics per player and per side across games")
    _add_filters(p)
    p.add_argument("--json", action="store_true", help="print the API's JSON")
    p.set_defaults(run=_cmd_stats)
