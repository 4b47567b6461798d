"""A game a table is playing takes no round written straight on it (D51): an append, a correction and a
deletion are each a 409 ``table_open`` naming the table, and change nothing; once the table is finished
they are open again."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers.tables import TEAMS, play_round

pytestmark = pytest.mark.db

OUT = {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "red_threes_on_table": 1, "table_points": 465,
       "points_left": 25}
OTHER = {"clean_books": 1, "dirty_books": 2, "red_threes_caught": 1, "table_points": 260, "points_left": 185}
ROUND = [{"name": "North-South", "went_out": True, "tally": OUT}, {"name": "East-West", "tally": OTHER}]


def assert_table_open(response: Any, table: dict[str, Any]) -> None:
    assert response.status_code == 409, response.get_json()
    assert response.content_type == "application/problem+json"
    problem = response.get_json()
    assert problem["type"].endswith("/table-open")
    assert problem["table"] == table["id"] and problem["href"] == table["href"] == f"/v1/tables/{table['id']}"
    assert [(e.get("parameter"), e["code"]) for e in problem["errors"]] == [("game_id", "table_open")]
    assert table["href"] in problem["errors"][0]["detail"]


def test_round_writes_on_a_game_at_a_table_are_refused_until_it_is_finished(app: Flask,
                                                                            flask_client: FlaskClient) -> None:
    game = flask_client.post("/v1/games", json={"name": "Kept", "preset": "pagat", "teams": TEAMS,
                                          "rules": {"rounds": 2}}).get_json()
    assert flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": ROUND}).status_code == 201
    table = flask_client.post("/v1/tables", json={"game": game["id"], "seed": 11}).get_json()
    assert table["round"] == 2
    before = flask_client.get(f"/v1/games/{game['id']}")
    round_1 = flask_client.get(f"/v1/games/{game['id']}/rounds/1")

    assert_table_open(flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": ROUND}), table)
    assert_table_open(flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": ROUND, "round": 2},
                                  headers={"Idempotency-Key": "k-append"}), table)
    corrected = [{**ROUND[0], "tally": {**OUT, "table_points": 470}}, ROUND[1]]
    assert_table_open(flask_client.put(f"/v1/games/{game['id']}/rounds/1", json={"teams": corrected},
                                 headers={"If-Match": round_1.headers["ETag"]}), table)
    assert_table_open(
        flask_client.delete(f"/v1/games/{game['id']}/rounds/1", headers={"If-Match": before.headers["ETag"]}), table
    )
    after = flask_client.get(f"/v1/games/{game['id']}")
    assert after.get_json() == before.get_json() and after.headers["ETag"] == before.headers["ETag"]
    assert flask_client.get(f"/v1/games/{game['id']}/rounds/1").get_json() == round_1.get_json()

    ended = play_round(flask_client, app, table, check=False)  # the table's own append is not refused
    assert ended["status"] == "finished"
    finished = flask_client.get(f"/v1/games/{game['id']}")
    assert finished.get_json()["rounds_played"] == 2
    deleted = flask_client.delete(f"/v1/games/{game['id']}/rounds/2", headers={"If-Match": finished.headers["ETag"]})
    assert deleted.status_code == 204  # the table is finished: the game is the keeper's again
