"""Examples for the tables operations in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from handfoot.engine import play

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


def _seat_view() -> dict[str, Any]:
    """A real view (the engine's, so the example cannot drift from what a seat sees): Pagat, seed 7,
    the first seat at its play after its draw."""
    state = play.new_round("pagat", [("North-South", ["North", "South"]), ("East-West", ["East", "West"])], 7)
    state = play.step(state, {"type": "draw", "seat": 0})
    return play.view(state, 0)


SEAT_VIEW: dict[str, Any] = {
    "table": 3,
    "game": 12,
    "status": "playing",
    "version": 1,
    "round": 1,
    "rounds": 4,
    "preset": "pagat",
    "rules": {"clean_book_bonus": 400},
    "view": _seat_view(),
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
