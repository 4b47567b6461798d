"""Examples for the tables operations in the OpenAPI document."""

from __future__ import annotations

from typing import Any

TS = "2026-12-01T12:00:00+00:00"

TABLE_CREATE_REQUEST: dict[str, Any] = {
    "name": "Bots at noon",
    "preset": "pagat",
    "rules": {},
    "teams": [
        {"name": "North-South", "players": ["North", "South"]},
        {"name": "East-West", "players": ["East", "West"]},
    ],
    "seed": 7,
    "play": {"ask_partner": True},
    "answer_timeout": 60,
}

_SEATS = [("North", 0), ("East", 1), ("South", 0), ("West", 1)]

TABLE_CREATED: dict[str, Any] = {
    "id": 3,
    "game": 12,
    "href": "/v1/tables/3",
    "status": "playing",
    "round": 1,
    "version": 0,
    "practice": True,
    "seats": [
        {"seat": i, "name": name, "side": side, "token": f"hf_seat_{'x' * 42}{i}"}
        for i, (name, side) in enumerate(_SEATS)
    ],
}

TABLE: dict[str, Any] = {
    "id": 3,
    "game": 12,
    "href": "/v1/tables/3",
    "status": "playing",
    "round": 1,
    "version": 5,
    "practice": True,
    "phase": "play",
    "turn": 1,
    "seats": [
        {"seat": i, "name": name, "side": side, "hand_size": 11 + (i == 1), "foot_size": 11}
        for i, (name, side) in enumerate(_SEATS)
    ],
    "sides": [{"name": "North-South", "score": 0}, {"name": "East-West", "score": 0}],
    "created_at": TS,
    "updated_at": TS,
}

ACTION_REQUEST: dict[str, Any] = {"version": 5, "action": {"type": "meld", "melds": [["KS", "KH", "KD"]]}}

SEAT_VIEW: dict[str, Any] = {
    "table": 3,
    "game": 12,
    "status": "playing",
    "version": 6,
    "round": 1,
    "rounds": 4,
    "preset": "pagat",
    "rules": {"clean_book_bonus": 400},
    "view": {
        "seat": 1,
        "side": 1,
        "round": 1,
        "step": 6,
        "phase": "play",
        "turn": 1,
        "hand": ["4C", "7D", "9H", "JS", "QC", "QD", "AS", "2H", "JK"],
        "foot_size": 11,
        "played_from_foot": False,
        "stock_size": 140,
        "actions": [{"type": "discard", "cards": ["4C"], "goes_out": False}],
    },
    "last_round": None,
}

TABLE_ROUND: dict[str, Any] = {
    "round": 1,
    "seed": 5871348761187239481,
    "ended": "went_out",
    "out_side": 0,
    "actions": [{"type": "draw", "seat": 0}, {"type": "discard", "card": "4C", "seat": 0}],
    "score": [{"name": "North-South", "total": 1250, "lines": []}, {"name": "East-West", "total": 340, "lines": []}],
    "game_round_href": "/v1/games/12/rounds/1",
}
