"""A random bot for one seat at a table: a random legal move each time.

    HANDFOOT_URL=http://127.0.0.1:8000 python examples/random_bot.py TABLE TOKEN [--seed 1]

TABLE and TOKEN come from ``POST /v1/tables`` (each seat's token is shown once). The bot's mind
is the engine's random policy (``handfoot.engine.play.bots``): the pile or the stock at random, a
random meld half the time, "May I go out?" now and then, a random answer when asked, and a random
discard; a random move the table refuses passes to the next candidate. The SDK's ``Bot`` waits for
the seat's move, acts, and plays round after round to the end.
"""

from __future__ import annotations

import argparse

from handfoot.client import Client
from handfoot.client.bots import Bot, BotSummary, Choose, policy_choose


def random_choose(seed: int | None = None) -> Choose:
    """The random ``choose``, under the rules the seat's view names (its game's preset and house rules)."""
    return policy_choose("random", seed=seed)


def play(client: Client, table: int, token: str, seed: int | None = None) -> BotSummary:
    return Bot(client, table, token, random_choose(seed)).play()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", type=int, help="the table's id")
    parser.add_argument("token", help="this seat's token")
    parser.add_argument("--seed", type=int, help="seed of the bot's random choices")
    args = parser.parse_args()
    with Client() as client:
        summary = play(client, args.table, args.token, args.seed)
    totals = ", ".join(f"{name} {points}" for name, points in summary.totals.items())
    print(f"seat {summary.seat}: {summary.actions} actions over {summary.rounds} rounds; final {totals}")


if __name__ == "__main__":
    main()
