"""An Idempotency-Key never brings back a game that is gone: replaying an append to a deleted game
(or to a game the caller cannot see) is a 404, like any request to it."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.app.test_problems import assert_problem
from tests.helpers.games import TEAMS, create_game, out_round


def test_replay_of_an_append_to_a_deleted_game_is_404(flask_client: FlaskClient) -> None:
    game_id = create_game(flask_client)["id"]
    body = {"teams": out_round(*[t["name"] for t in TEAMS])}
    headers = {"Idempotency-Key": '"k-1"'}
    first = flask_client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers)
    assert first.status_code == 201
    replay = flask_client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers.get("Idempotent-Replayed") == "true"
    assert flask_client.delete(f"/v1/games/{game_id}").status_code == 204
    assert_problem(flask_client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers), 404, "not-found")


def test_replay_of_a_game_creation_whose_game_was_deleted_is_404(flask_client: FlaskClient) -> None:
    body = {"name": "Friday", "preset": "pagat", "teams": TEAMS}
    headers = {"Idempotency-Key": '"create-1"'}
    first = flask_client.post("/v1/games", json=body, headers=headers)
    assert first.status_code == 201
    replay = flask_client.post("/v1/games", json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers["Location"] == first.headers["Location"]
    assert flask_client.delete(first.headers["Location"]).status_code == 204
    gone = flask_client.post("/v1/games", json=body, headers=headers)
    assert_problem(gone, 404, "not-found")
    assert "Location" not in gone.headers
    assert flask_client.get(first.headers["Location"]).status_code == 404
