"""Helpers for the games tests: tally bodies, a game factory, and the SQL a request runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from handfoot import engine
from handfoot.server.db import get_db
from handfoot.server.models import Game
from handfoot.server.services import games as games_svc

TEAMS = [{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}]


def tally(
    name: str,
    *,
    out: bool = False,
    clean: int = 0,
    dirty: int = 0,
    wild: int = 0,
    red: int = 0,
    caught: int = 0,
    table: int = 0,
    left: int = 0,
) -> dict[str, Any]:
    return {
        "name": name,
        "went_out": out,
        "tally": {
            "clean_books": clean,
            "dirty_books": dirty,
            "wild_books": wild,
            "red_threes_on_table": red,
            "red_threes_caught": caught,
            "table_points": table,
            "points_left": left,
        },
    }


#: Seed 000's worked round as tallies: Team 1 3,740, Team 2 1,075.
SEED_ROUND_1 = [
    tally("Team 1", out=True, clean=2, dirty=2, wild=1, red=1, table=465, left=25),
    tally("Team 2", clean=1, dirty=2, caught=1, table=260, left=185),
]

# A round where `winner` goes out with 2 clean, 2 dirty, 1 wild and 500 on the table
# (1000 + 600 + 1500 + 100 + 500 = 3700) and the other side has one clean book, 200 on the table
# and 50 left (500 + 200 - 50 = 650).


def out_round(winner: str, other: str) -> list[dict[str, Any]]:
    return [tally(winner, out=True, clean=2, dirty=2, wild=1, table=500), tally(other, clean=1, table=200, left=50)]


def create_game(
    flask_client: FlaskClient,
    preset: str = "pagat",
    *,
    name: str = "Friday",
    teams: Any = None,
    rules: Any = None,
    headers: Any = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "preset": preset, "teams": teams or TEAMS}
    if rules is not None:
        body["rules"] = rules
    response = flask_client.post("/v1/games", json=body, headers=headers or {})
    assert response.status_code == 201, response.get_json()
    game: dict[str, Any] = response.get_json()
    return game


def append(
    flask_client: FlaskClient,
    game_id: int,
    teams: list[dict[str, Any]],
    headers: Any = None,
    expect: int = 201,
    **extra: Any,
) -> dict[str, Any]:
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": teams, **extra}, headers=headers or {})
    assert response.status_code == expect, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


@contextmanager
def recorded_statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements ``app``'s engine runs inside the block, in order, whitespace collapsed."""
    statements: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()))

    engine = get_db(app).engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def replayed_state(game: Game) -> engine.GameState:
    """The game's state recomputed by the engine from its stored rounds' totals (rounds loaded)."""
    rules, sides = engine.rules_from_mapping(game.rules_snapshot), games_svc.side_names(game)
    return engine.game_state(rules, sides, [[b["total"] for b in r.teams] for r in game.rounds])
