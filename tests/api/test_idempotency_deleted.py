"""An Idempotency-Key never brings back a game that is gone: replaying an append to a deleted game
(or to a game the caller cannot see) is a 404, like any request to it."""

from __future__ import annotations

from flask.testing import FlaskClient
from games_util import TEAMS, create_game, out_round
from test_problems import assert_problem


def test_replay_of_an_append_to_a_deleted_game_is_404(client: FlaskClient) -> None:
    game_id = create_game(client)["id"]
    body = {"teams": out_round(*[t["name"] for t in TEAMS])}
    headers = {"Idempotency-Key": '"k-1"'}
    first = client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers)
    assert first.status_code == 201
    replay = client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers.get("Idempotent-Replayed") == "true"
    assert client.delete(f"/v1/games/{game_id}").status_code == 204
    assert_problem(client.post(f"/v1/games/{game_id}/rounds", json=body, headers=headers), 404, "not-found")
