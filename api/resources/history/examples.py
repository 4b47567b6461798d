"""Examples for the history operations in the OpenAPI document (seed 000's worked round as round 1)."""

from __future__ import annotations

import io
from typing import Any

from handfoot.server.resources.games import examples as games_ex
from handfoot.server.resources.games.serializers import CSVWriter
from handfoot.server.resources.history.serializers import CSV_COLUMNS

#: One NDJSON line: a game as GET /v1/games/{id} gives it.
EXPORT_LINE: dict[str, Any] = games_ex.GAME_RESPONSE


def _csv(rows: list[Any]) -> str:
    out = io.StringIO()
    CSVWriter(out).writerows(rows)
    return out.getvalue()


GAME = [12, "Friday", "pagat", "2026-11-29T12:00:00+00:00", "in_progress"]
#: The header and two rows (one round, both sides), as the export's writer writes them.
EXPORT_CSV = _csv(
    [
        CSV_COLUMNS,
        [*GAME, 1, "Team 1", "North; South", 3740, 3740, 1, 0, 2, 2, 1, 1000, 600, 1500, 100, 100, 0, "", 465, "", -25],
        [*GAME, 1, "Team 2", "East; West", 1075, 1075, 0, 0, 1, 2, 0, 500, 600, 0, 0, 0, -100, "", 260, "", -185],
    ]
)


def _figures(games: int, wins: int, points: int, best: int, out: int, books: tuple[int, int, int]) -> dict[str, Any]:
    return {
        "games": games,
        "finished": 1,
        "wins": wins,
        "rounds": 2,
        "points": points,
        "average_round": points / 2,
        "best_round": best,
        "went_out": out,
        "books": dict(zip(("clean", "dirty", "wild"), books, strict=True)),
    }


STATISTICS: dict[str, Any] = {
    "games": 1,
    "rounds": 2,
    "players": [
        {"name": "North", "names": ["North"], **_figures(1, 1, 3540, 3740, 1, (2, 2, 1))},
        {"name": "South", "names": ["South"], **_figures(1, 1, 3540, 3740, 1, (2, 2, 1))},
        {"name": "East", "names": ["East"], **_figures(1, 0, 3375, 2300, 1, (2, 3, 0))},
        {"name": "West", "names": ["West"], **_figures(1, 0, 3375, 2300, 1, (2, 3, 0))},
    ],
    "sides": [
        {"players": ["North", "South"], "names": ["Team 1"], **_figures(1, 1, 3540, 3740, 1, (2, 2, 1))},
        {"players": ["East", "West"], "names": ["Team 2"], **_figures(1, 0, 3375, 2300, 1, (2, 3, 0))},
    ],
}
