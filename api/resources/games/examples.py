"""Examples for the games operations in the OpenAPI document (seed 000's worked round as round 1)."""

from __future__ import annotations

from typing import Any

from handfoot.engine import score_round_request
from handfoot.server.resources.games.serializers import scoresheet_csv
from handfoot.server.schemas import breakdown_data

TS = "2026-11-29T12:00:00+00:00"

GAME_CREATE_REQUEST: dict[str, Any] = {
    "name": "Friday",
    "preset": "pagat",
    "rules": {},
    "teams": [{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}],
}

ROUND_REQUEST: dict[str, Any] = {
    "round": 1,
    "teams": [
        {
            "name": "Team 1",
            "went_out": True,
            "tally": {
                "clean_books": 2,
                "dirty_books": 2,
                "wild_books": 1,
                "red_threes_on_table": 1,
                "red_threes_caught": 0,
                "table_points": 465,
                "points_left": 25,
            },
        },
        {
            "name": "Team 2",
            "went_out": False,
            "tally": {
                "clean_books": 1,
                "dirty_books": 2,
                "wild_books": 0,
                "red_threes_on_table": 0,
                "red_threes_caught": 1,
                "table_points": 260,
                "points_left": 185,
            },
        },
    ],
}

ROUND_UPDATE_REQUEST: dict[str, Any] = {"teams": ROUND_REQUEST["teams"]}


#: The round's Breakdowns, computed by the engine, so the documented answer never drifts from the code.
BREAKDOWNS: list[dict[str, Any]] = [
    breakdown_data(b) for b in score_round_request({"preset": "pagat", **ROUND_REQUEST}).teams
]

TOTALS = [{"name": "Team 1", "total": 3740}, {"name": "Team 2", "total": 1075}]

ROUND_RESPONSE: dict[str, Any] = {
    "number": 1,
    "revision": 1,
    "request": ROUND_REQUEST,
    "teams": BREAKDOWNS,
    "totals_after": TOTALS,
    "created_at": TS,
    "updated_at": TS,
}

ROUND_SUMMARY: dict[str, Any] = {
    "number": 1,
    "revision": 1,
    "scores": TOTALS,
    "totals_after": TOTALS,
    "href": "/v1/games/12/rounds/1",
}

_STATE: dict[str, Any] = {
    "id": 12,
    "name": "Friday",
    "preset": "pagat",
    "status": "in_progress",
    "teams": [{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}],
    "totals": TOTALS,
    "leaders": ["Team 1"],
    "winner": None,
    "tie": False,
    "rounds_played": 1,
    "created_at": TS,
    "updated_at": TS,
}

GAME_SUMMARY: dict[str, Any] = dict(_STATE)

GAME_RESPONSE: dict[str, Any] = {
    **_STATE,
    "rules": {"rounds": 4, "target_score": None, "tie_rule": "stands", "clean_book_bonus": 500, "...": "..."},
    "rules_overridden": [],
    "house_rules": {},
    "next_round": 2,
    "next_opening_minimum": 90,
    "next_opening_minimums": [{"name": "Team 1", "minimum": 90}, {"name": "Team 2", "minimum": 90}],
    "next_contract": {"clean_books": 2, "dirty_books": 2, "wild_books": 1},
    "end_reason": None,
    "rounds": [ROUND_SUMMARY],
    "version": 2,
}

REVISIONS_RESPONSE: list[dict[str, Any]] = [
    {
        "revision": 1,
        "current": False,
        "request": ROUND_REQUEST,
        "teams": BREAKDOWNS,
        "created_at": TS,
        "replaced_at": "2026-11-29T12:05:00+00:00",
        "author": "kitchen-table",
    },
    {
        "revision": 2,
        "current": True,
        "request": ROUND_REQUEST,
        "teams": BREAKDOWNS,
        "created_at": "2026-11-29T12:05:00+00:00",
        "replaced_at": None,
        "author": "kitchen-table",
    },
]

SCORESHEET_RESPONSE: dict[str, Any] = {
    "game_id": 12,
    "name": "Friday",
    "teams": ["Team 1", "Team 2"],
    "rows": [
        {"round": 1, "scores": [3740, 1075], "totals": [3740, 1075]},
        {"round": 2, "scores": [-200, 2300], "totals": [3540, 3375]},
    ],
    "totals": [3540, 3375],
    "status": "in_progress",
    "leaders": ["Team 1"],
    "winner": None,
    "tie": False,
}

#: What the score sheet's CSV writer makes of :data:`SCORESHEET_RESPONSE`.
SCORESHEET_CSV = scoresheet_csv(SCORESHEET_RESPONSE)
