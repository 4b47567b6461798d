"""A chat bot's scoring step on asyncio: ``AsyncClient`` answers several questions at once.

    pip install 'handfoot[async]'
    HANDFOOT_URL=http://127.0.0.1:8000 python examples/async_bot.py

Scores the worked round of Pagat's rules (``worked_round.json``) and checks two melds concurrently, the way a
discord.py or aiogram handler would, without pushing calls into a thread. Expected: Team 1 3,740,
Team 2 1,075; the dirty meld of 9s is valid, the meld with three wild cards is not.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from handfoot.client import HandFootError, MeldCheck, RoundScore, TeamInput
from handfoot.client.aio import AsyncClient

ROUND_FILE = Path(__file__).with_name("worked_round.json")


async def answer(hf: AsyncClient, teams: list[TeamInput]) -> tuple[RoundScore, MeldCheck, MeldCheck]:
    """What the bot replies to "score this", "can I lay 9D 2S on my nines?" and "is 9D 2S 2C JK a meld?"."""
    return await asyncio.gather(
        hf.score_round(preset="pagat", teams=teams),
        hf.validate_meld(preset="pagat", cards=["9D", "2S"], onto=["9S", "9H", "9C"]),
        hf.validate_meld(preset="pagat", cards=["9D", "2S", "2C", "JK"]),
    )


async def main() -> int:
    body = json.loads(ROUND_FILE.read_text(encoding="utf-8"))
    async with AsyncClient() as hf:  # base URL from $HANDFOOT_URL (default http://127.0.0.1:8000)
        try:
            score, onto, greedy = await answer(hf, body["teams"])
        except HandFootError as exc:
            print(f"could not answer: {exc}", file=sys.stderr)
            return 1
    print(", ".join(f"{name} {total}" for name, total in score.totals.items()))
    for check in (onto, greedy):
        print(check)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
