"""``handfoot play``: seat bots at a new table (or a stored game's), play the game to its end, and
print the score sheet and who won.

    handfoot play --preset pagat --bots greedy,random,greedy,random [--seed N] [--side 'NS=N,S' ...]
    handfoot play --game ID --bots greedy,random,greedy,random      # continue a stored game
    handfoot play --policy mybot:policy [--seat 0] [--others planner]   # your policy at one seat

``--bots`` names one policy per seat, in turn order (the table's seats: the sides' players
alternating): one of the engine's reference policies, or ``module:attribute`` for a policy of your
own (``handfoot.client.policies.load_policy``; a table bot's ``choose`` loads too). ``--policy``
seats one policy at seat ``--seat`` (default 0) and fills every other seat with the reference
policy ``--others`` (default greedy). Each bot plays in a thread of its own with its own connection and
only its seat's token. ``--seed`` fixes the table's shuffles and the bots' random choices (bot ``i``
draws from ``seed + i``), so a run repeats. ``--json``: the summary as JSON (table, game, bots,
scoresheet).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ._cli_common import GAME, UsageError, add_rule_option, house_rules
from ._client import Client
from .bots import BotSummary, Choose, play_seats
from .params import GameTeamInput
from .policies import LoadedPolicy, PolicyLoadError, load_policy

__all__ = ["DEFAULT_SIDES", "PlayUsageError", "add_play_command"]

EXIT_OK = 0
#: Two sides of two, as the contract's example.
DEFAULT_SIDES = "North-South=North,South", "East-West=East,West"
#: The policies ``--bots`` may name (``handfoot.engine.play.arena.POLICIES``).
POLICY_NAMES = ("greedy", "random", "planner")


class PlayUsageError(ValueError):
    """A ``--bots``, ``--side`` or ``--rules`` the command cannot use (exit code 2)."""


def _sides(texts: list[str] | None) -> list[GameTeamInput]:
    out: list[GameTeamInput] = []
    for text in texts or DEFAULT_SIDES:
        name, sep, players = text.partition("=")
        names = [p.strip() for p in players.split(",") if p.strip()]
        if not sep or not name.strip() or not names:
            raise PlayUsageError(f"--side {text!r}: expected NAME=PLAYER,PLAYER")
        out.append({"name": name.strip(), "players": names})
    return out


def _bots(text: str) -> list[str]:
    """``--bots``: the names (each loaded once by :func:`_loaded`; ``PlayUsageError`` for none)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise PlayUsageError(
            f"--bots: unknown bot (none); choose among {', '.join(POLICY_NAMES)} or module:attribute, "
            "one per seat, comma-separated"
        )
    _loaded(names, "--bots")
    return names


def _loaded(names: list[str], option: str) -> dict[str, LoadedPolicy]:
    """Each distinct name loaded (``PlayUsageError`` naming the one that does not load)."""
    out: dict[str, LoadedPolicy] = {}
    for name in names:
        if name in out:
            continue
        try:
            out[name] = load_policy(name)
        except PolicyLoadError as exc:
            unknown = f"unknown bot {name}; " if ":" not in name else ""
            raise PlayUsageError(f"{option}: {unknown}{exc}") from exc
    return out


def _play_all(
    client: Client, table_id: int, tokens: list[str], bots: list[str], seed: int | None, wait: int
) -> list[BotSummary]:
    """Each bot in a thread with its own client (the rules in force are its view's): ``play_seats``."""
    loaded = _loaded(bots, "--bots")
    chooses: list[Choose] = [
        loaded[bot].for_table(seed=None if seed is None else seed + i) for i, bot in enumerate(bots)
    ]
    return play_seats(client, table_id, tokens, chooses, wait)


def _seated(args: argparse.Namespace, seats: int) -> list[str]:
    """The bot of each of ``seats`` seats: ``--bots``, or ``--policy`` at ``--seat`` and ``--others``."""
    if args.bots is not None:
        return _bots(args.bots)
    if not 0 <= args.seat < seats:
        raise PlayUsageError(f"--seat {args.seat}: the table has seats 0 to {seats - 1}")
    bots = [args.others] * seats
    bots[args.seat] = args.policy.strip()
    return bots


def _rules(text: str | None, items: list[str] | None) -> dict[str, object] | None:
    """``--rules JSON`` (the whole object) and ``--rule KEY=VALUE`` items (which win), or ``None``."""
    if text is None and not items:
        return None
    rules: dict[str, object] = {}
    if text is not None:
        try:
            rules = json.loads(text)
        except ValueError as exc:
            raise PlayUsageError(f"--rules is not JSON: {exc}") from exc
        if not isinstance(rules, dict):
            raise PlayUsageError("--rules: expected a JSON object of house rules")
    try:
        return {**rules, **house_rules(items)}
    except UsageError as exc:
        raise PlayUsageError(str(exc)) from exc


def _cmd_play(client: Client, args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    if (args.bots is None) == (args.policy is None):
        raise PlayUsageError("give --bots (one policy a seat) or --policy (one seat, --others at the rest)")
    if args.policy is not None:
        if args.others not in POLICY_NAMES:
            raise PlayUsageError(f"--others {args.others}: choose among {', '.join(POLICY_NAMES)}")
        _loaded([args.policy.strip()], "--policy")
        if args.seat < 0:
            raise PlayUsageError(f"--seat {args.seat}: seats count from 0")
    sides = None if args.game is not None else _sides(args.side)
    players = None if sides is None else sum(len(side["players"]) for side in sides)
    bots = _seated(args, players if players is not None else args.seat + 1)
    if players is not None and len(bots) != players:
        raise PlayUsageError(f"--bots names {len(bots)} bots for {players} players")
    rules = _rules(args.rules, args.rule)
    if args.game is not None:
        if rules is not None or args.side is not None:
            raise PlayUsageError("--game brings its own preset, rules and sides: leave out --rule and --side")
        table = client.create_table(game=args.game, seed=args.seed)
    else:
        name = args.name or f"Bots: {', '.join(bots)}"[:100]
        table = client.create_table(preset=args.preset, teams=sides, rules=rules, name=name, seed=args.seed)
    if args.policy is not None:
        bots = _seated(args, len(table.seats))  # a stored game's seats are known now
    if len(bots) != len(table.seats):
        raise PlayUsageError(
            f"--bots names {len(bots)} bots for the table's {len(table.seats)} seats (table {table.id} stays open)"
        )
    summaries = _play_all(client, table.id, table.tokens, bots, args.seed, args.wait)
    preset = summaries[0].last.preset  # the game's, as its seats saw it
    sheet = client.scoresheet(table.game)
    if args.json:
        doc: dict[str, Any] = {
            "table": table.id,
            "game": table.game,
            "bots": [
                {"seat": s.seat, "name": s.name, "bot": b, "actions": r.actions, "refused": r.refused}
                for s, b, r in zip(table.seats, bots, summaries, strict=True)
            ],
            "scoresheet": sheet.to_dict(),
        }
        json.dump(doc, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return EXIT_OK
    out.write(f"Table {table.id}, game #{table.game} ({preset}):\n")
    for seat, bot, summary in zip(table.seats, bots, summaries, strict=True):
        out.write(f"  seat {seat.seat} {seat.name} ({bot}): {summary.actions} actions\n")
    out.write(f"{sheet}\n")
    out.write(f"Winner: {sheet.winner}\n" if sheet.winner else f"No winner ({sheet.status}).\n")
    return EXIT_OK


def add_play_command(sub: Any) -> None:
    """Add ``play`` to the ``handfoot`` subcommands (``sub``: argparse's subparsers)."""
    p = sub.add_parser("play", help="seat bots at a table and play a game to its end (needs --api-key once keys exist)")
    p.add_argument("--preset", default="pagat", help="preset id of a new game (default pagat)")
    p.add_argument(
        "--bots",
        metavar="BOT,BOT,...",
        help=f"one bot per seat in turn order: {', '.join(POLICY_NAMES)}, or module:attribute (your own)",
    )
    p.add_argument("--policy", metavar="MODULE:ATTR", help="your policy at one seat (--seat); --others at the rest")
    p.add_argument("--seat", type=int, default=0, help="the seat of --policy (default 0)")
    p.add_argument(
        "--others",
        default="greedy",
        help=f"the reference bot at every other seat with --policy: {', '.join(POLICY_NAMES)}",
    )
    p.add_argument(
        "--side",
        action="append",
        metavar="NAME=P1,P2",
        help="a side and its players (repeat; default North-South=North,South and East-West=East,West)",
    )
    add_rule_option(p, "a new game")
    p.add_argument("--rules", metavar="JSON", help="house rules of a new game as one JSON object (--rule wins)")
    p.add_argument("--name", help="the new game's name (default: Bots: and the bots)")
    p.add_argument("--game", type=int, metavar=GAME, help="continue this stored game instead of a new one")
    p.add_argument("--seed", type=int, help="the table's seed and the bots' (a run repeats)")
    p.add_argument("--wait", type=int, default=30, help="seconds of each bot's long-poll (default 30)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(run=_cmd_play)
