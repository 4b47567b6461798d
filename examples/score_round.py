"""Score the worked round of Pagat's rules through the handfoot API and print the breakdown.

    HANDFOOT_URL=http://127.0.0.1:8000 python examples/score_round.py

Expected: Team 1 3,740 and Team 2 1,075. The round is ``worked_round.json`` beside this file:
the body of ``POST /v1/rounds/score`` (every meld on the table, red threes, and each player's
cards left; ``foot`` only for a foot never picked up).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from handfoot.client import Client, HandFootError, TeamInput

ROUND_FILE = Path(__file__).with_name("worked_round.json")


def main() -> int:
    body = json.loads(ROUND_FILE.read_text(encoding="utf-8"))
    teams: list[TeamInput] = body["teams"]
    with Client() as hf:  # base URL from $HANDFOOT_URL (default http://127.0.0.1:8000)
        try:
            score = hf.score_round(preset=body["preset"], round=body["round"], teams=teams)
        except HandFootError as exc:  # a 422 lists every rule broken, each with a JSON pointer
            print(f"could not score the round: {exc}", file=sys.stderr)
            return 1
    print(score)
    print()
    for team, total in score.totals.items():
        print(f"{team}: {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
