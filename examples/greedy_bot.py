"""A greedy bot for one seat at a table: it melds what it can and discards its least useful card.

    HANDFOOT_URL=http://127.0.0.1:8000 python examples/greedy_bot.py TABLE TOKEN [--seed 1]

TABLE and TOKEN come from ``POST /v1/tables`` (``client.create_table(...)``: each seat's token is
shown once). The bot's mind is the engine's greedy policy (``handfoot.engine.play.bots``): openings,
additions to its side's melds, burns and wild books; it asks the partner to go out once nothing
else stands in the way, always says yes when asked, and discards threes first, then cards of ranks
it holds least, wild cards last. The SDK's ``Bot`` does the rest: it waits for the seat's move,
sends the candidates in order until the table accepts one, and plays round after round to the end.
"""

from __future__ import annotations

import argparse

from handfoot.client import Client
from handfoot.client.bots import Bot, BotSummary, Choose, policy_choose


def greedy(seed: int | None = None) -> Choose:
    """The greedy ``choose``, under the rules the seat's view names (its game's preset and house rules)."""
    return policy_choose("greedy", seed=seed)


def play(client: Client, table: int, token: str, seed: int | None = None) -> BotSummary:
    return Bot(client, table, token, greedy(seed)).play()


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
