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

import one_seat

from handfoot.client.bots import Choose, policy_choose


def greedy(seed: int | None = None) -> Choose:
    """The greedy ``choose``, under the rules the seat's view names (its game's preset and house rules)."""
    return policy_choose("greedy", seed=seed)


if __name__ == "__main__":
    one_seat.main(greedy, __doc__)
