"""Score the same round with no server: the ``engine`` package, from the same install.

    python examples/offline_score.py

``handfoot.engine.score_round_request`` takes the very body ``POST /v1/rounds/score`` takes and returns
the engine's ``RoundScore`` (a ``Breakdown`` per team). A round that breaks the rules raises
``handfoot.engine.HandFootError`` with a stable ``code``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from handfoot import engine

ROUND_FILE = Path(__file__).with_name("worked_round.json")


def main() -> int:
    body = json.loads(ROUND_FILE.read_text(encoding="utf-8"))
    try:
        score = engine.score_round_request(body)
    except engine.HandFootError as exc:
        print(f"could not score the round: {exc}", file=sys.stderr)
        return 1
    for team in score.teams:
        print(team.name)
        for line in team.lines:
            print(f"  {line.label:<36}{line.points:>6}")
        print(f"  {'Total':<36}{team.total:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
