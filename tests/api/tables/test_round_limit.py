"""A table never plays a round its game cannot store: a game holds at most ``MAX_ROUNDS_PER_GAME``
rounds (50), so no table is dealt for a game that holds them all, and a table whose game takes its
last storable round finishes there instead of dealing one more. Either way the game is the keeper's
again. Before, a table dealt round 51, its round-ending action was refused (409 ``round_limit``) and
the table stayed ``playing``, refusing every write to the game (409 ``table_open``).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from handfoot.server.schemas import MAX_ROUNDS_PER_GAME
from tests.helpers.tables import TEAMS, play_round

#: A round where nobody went out (counts only), and a game that no number of such rounds ends.
TALLY = {"clean_books": 1, "dirty_books": 2, "red_threes_caught": 1, "table_points": 260, "points_left": 185}
ROUND = [{"name": "North-South", "tally": TALLY}, {"name": "East-West", "tally": TALLY}]
ENDLESS = {"rounds": None, "target_score": 1_000_000}


def _game_with_rounds(flask_client: FlaskClient, rounds: int) -> dict[str, Any]:
    game = flask_client.post(
        "/v1/games", json={"name": "Long", "preset": "pagat", "teams": TEAMS, "rules": ENDLESS}
    ).get_json()
    for _ in range(rounds):
        response = flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": ROUND})
        assert response.status_code == 201, response.get_json()
    stored: dict[str, Any] = flask_client.get(f"/v1/games/{game['id']}").get_json()
    assert stored["rounds_played"] == rounds and stored["status"] != "finished"
    return stored


def _keepers_again(flask_client: FlaskClient, game_id: int) -> None:
    """No table holds the game: its last round can be taken back by the keeper."""
    game = flask_client.get(f"/v1/games/{game_id}")
    number = game.get_json()["rounds_played"]
    response = flask_client.delete(f"/v1/games/{game_id}/rounds/{number}", headers={"If-Match": game.headers["ETag"]})
    assert response.status_code == 204, response.get_json()


def test_no_table_is_dealt_for_a_game_that_holds_the_most_rounds(flask_client: FlaskClient) -> None:
    game = _game_with_rounds(flask_client, MAX_ROUNDS_PER_GAME)
    response = flask_client.post("/v1/tables", json={"game": game["id"], "seed": 3})
    assert response.status_code == 409, response.get_json()
    assert [(e["pointer"], e["code"]) for e in response.get_json()["errors"]] == [("/game", "round_limit")]
    assert flask_client.get(f"/v1/games/{game['id']}").get_json() == game  # nothing written
    _keepers_again(flask_client, game["id"])


def test_a_table_finishes_at_its_games_last_storable_round(app: Flask, flask_client: FlaskClient) -> None:
    game = _game_with_rounds(flask_client, MAX_ROUNDS_PER_GAME - 1)
    table = flask_client.post("/v1/tables", json={"game": game["id"], "seed": 3}).get_json()
    assert table["round"] == MAX_ROUNDS_PER_GAME
    ended = play_round(flask_client, app, table, check=False)
    assert ended["status"] == "finished", ended
    assert ended["round"] == MAX_ROUNDS_PER_GAME and ended["view"]["phase"] == "ended"
    stored = flask_client.get(f"/v1/games/{game['id']}").get_json()
    assert stored["rounds_played"] == MAX_ROUNDS_PER_GAME
    _keepers_again(flask_client, game["id"])
