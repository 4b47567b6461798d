"""A random bot for one seat at a table: a random legal move each time.

    HANDFOOT_URL=http://127.0.0.1:8000 python examples/random_bot.py TABLE TOKEN [--seed 1]

TABLE and TOKEN come from ``POST /v1/tables`` (each seat's token is shown once). The bot's mind
is the engine's random policy (``handfoot.engine.play.bots``): the pile or the stock at random, a
random meld half the time, "May I go out?" now and then, a random answer when asked, and a random
discard; a random move the table refuses passes to the next candidate. The SDK's ``Bot`` waits for
the seat's move, acts, and plays round after round to the end.
"""

from __future__ import annotations

import one_seat

from handfoot.client.bots import Choose, policy_choose


def random_choose(seed: int | None = None) -> Choose:
    """The random ``choose``, under the rules the seat's view names (its game's preset and house rules)."""
    return policy_choose("random", seed=seed)


if __name__ == "__main__":
    one_seat.main(random_choose, __doc__)
