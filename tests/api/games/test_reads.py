"""A game's reads cost what they show (issue 18, "the next scale").

``GET /v1/games/{id}`` once loaded every stored round (its request and Breakdowns) and dumped them;
the score sheet loaded them too, though the game row holds the running totals. Now the score sheet
reads the game row alone, and the game read summarises each round from it (scores, running totals,
a link to the round), reading of the rounds only their numbers and revisions: a 50-round game's
reads run the statements of a 1-round game's and read no request or Breakdown.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask, jsonify
from flask.testing import FlaskClient

from handfoot.server.auth import ANONYMOUS
from handfoot.server.db import get_db
from handfoot.server.resources.games import serializers
from handfoot.server.resources.games.schemas import GameSchema
from handfoot.server.services import games as svc
from tests.helpers.games import TEAMS, create_game, out_round, recorded_statements, tally

pytestmark = pytest.mark.db

NAMES = [t["name"] for t in TEAMS]


def _game(flask_client: FlaskClient, rounds: int) -> int:
    game_id: int = create_game(flask_client, rules={"rounds": 50})["id"]
    for k in range(rounds):
        winner, other = (NAMES[0], NAMES[1]) if k % 3 else (NAMES[1], NAMES[0])
        response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round(winner, other)})
        assert response.status_code == 201, response.get_json()
    return game_id


def _shape(statements: list[str]) -> list[str]:
    return [re.sub(r"\d+", "N", s) for s in statements]


def _reads(app: Flask, flask_client: FlaskClient, path: str, **kw: Any) -> tuple[Any, list[str]]:
    with recorded_statements(app) as statements:
        response = flask_client.get(path, **kw)
    assert response.status_code == 200
    return response, statements


def _round_columns(statements: list[str]) -> set[str]:
    """The columns of ``rounds`` the statements select."""
    return {m.group(1) for s in statements if "FROM rounds" in s for m in re.finditer(r"rounds\.(\w+)", s)}


def test_a_50_round_games_read_loads_no_breakdown(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    one, fifty = _game(flask_client, 1), _game(flask_client, 50)
    small, small_sql = _reads(app, flask_client, f"/v1/games/{one}")
    large, large_sql = _reads(app, flask_client, f"/v1/games/{fifty}")
    assert _shape(small_sql) == _shape(large_sql)
    assert _round_columns(large_sql) <= {"id", "game_id", "number", "revision"}, large_sql
    assert not any("round_revisions" in s for s in large_sql)
    game = large.get_json()
    assert game["rounds_played"] == 50 and [r["number"] for r in game["rounds"]] == list(range(1, 51))
    assert "lines" not in large.get_data(as_text=True) and "request" not in game["rounds"][0]


def test_the_score_sheet_reads_the_game_row_alone(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    one, fifty = _game(flask_client, 1), _game(flask_client, 50)
    _, small_sql = _reads(app, flask_client, f"/v1/games/{one}/scoresheet")
    sheet, large_sql = _reads(app, flask_client, f"/v1/games/{fifty}/scoresheet")
    csv, csv_sql = _reads(app, flask_client, f"/v1/games/{fifty}/scoresheet", headers={"Accept": "text/csv"})
    assert _shape(small_sql) == _shape(large_sql) == _shape(csv_sql)
    assert not any("FROM rounds" in s for s in large_sql + csv_sql), large_sql
    assert len(sheet.get_json()["rows"]) == 50 and len(csv.get_data(as_text=True).splitlines()) == 51


def test_the_summaries_and_the_sheet_agree_with_each_rounds_breakdowns(
    flask_client: FlaskClient, db_backend: str
) -> None:
    game_id = _game(flask_client, 6)
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/3").headers["ETag"]
    corrected = [
        tally(NAMES[0], out=True, clean=3, dirty=2, wild=1, table=610, red=2),
        tally(NAMES[1], clean=0, dirty=1, table=90, left=240, caught=1),
    ]
    response = flask_client.put(f"/v1/games/{game_id}/rounds/3", json={"teams": corrected}, headers={"If-Match": etag})
    assert response.status_code == 200, response.get_json()

    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    sheet = flask_client.get(f"/v1/games/{game_id}/scoresheet").get_json()
    full = [flask_client.get(r["href"]).get_json() for r in game["rounds"]]
    assert [r["number"] for r in full] == list(range(1, 7))
    assert [r["revision"] for r in game["rounds"]] == [r["revision"] for r in full] == [1, 1, 2, 1, 1, 1]
    assert [r["scores"] for r in game["rounds"]] == [
        [{"name": b["name"], "total": b["total"]} for b in r["teams"]] for r in full
    ]
    assert [r["totals_after"] for r in game["rounds"]] == [r["totals_after"] for r in full]
    assert [row["scores"] for row in sheet["rows"]] == [[b["total"] for b in r["teams"]] for r in full]
    assert [row["totals"] for row in sheet["rows"]] == [[t["total"] for t in r["totals_after"]] for r in full]
    assert sheet["totals"] == [t["total"] for t in game["totals"]] == sheet["rows"][-1]["totals"]


def test_the_game_read_is_the_schemas_dump(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    """The game read is sent ready (no marshmallow dump of its rounds): byte for byte what
    GameSchema's dump of the same game would send."""
    game_id = _game(flask_client, 3)
    response = flask_client.get(f"/v1/games/{game_id}")
    assert response.status_code == 200
    with app.test_request_context():
        game, numbers = svc.read_game(get_db(app), ANONYMOUS, game_id)
        assert numbers == [(1, 1), (2, 1), (3, 1)]
        assert response.data == jsonify(GameSchema().dump(serializers.game_doc(game, numbers))).get_data()
