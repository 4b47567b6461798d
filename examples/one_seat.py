"""What the one-seat bots (greedy_bot.py, random_bot.py) share: the command line and the loop.

    HANDFOOT_URL=http://127.0.0.1:8000 python examples/greedy_bot.py TABLE TOKEN [--seed 1]

TABLE and TOKEN come from ``POST /v1/tables`` (``client.create_table(...)``: each seat's token is
shown once). The SDK's ``Bot`` waits for the seat's move (long-poll), sends the bot's candidates in
order until the table accepts one, and plays round after round to the end of the game.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from handfoot.client import Client
from handfoot.client.bots import Bot, BotSummary, Choose


def play(client: Client, table: int, token: str, choose: Choose) -> BotSummary:
    """Play seat ``token`` of table ``table`` to the game's end, choosing by ``choose``."""
    return Bot(client, table, token, choose).play()


def main(mind: Callable[[int | None], Choose], doc: str | None) -> None:
    """The bot's command line: ``TABLE TOKEN [--seed N]``; ``mind(seed)`` gives its ``choose``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", type=int, help="the table's id")
    parser.add_argument("token", help="this seat's token")
    parser.add_argument("--seed", type=int, help="seed of the bot's random choices")
    args = parser.parse_args()
    with Client() as client:
        summary = play(client, args.table, args.token, mind(args.seed))
    totals = ", ".join(f"{name} {points}" for name, points in summary.totals.items())
    print(f"seat {summary.seat}: {summary.actions} actions over {summary.rounds} rounds; final {totals}")
