"""A deleted game's id is never given to another game, on any backend.

An id is a game's name in every URL, its ETag is made of (id, version) and a round's of (game, round,
revision), and Idempotency-Keys are bound to the path. On SQLite, whose rowids reuse the largest id
once that row is deleted, a new game took the deleted newest game's id: it had the old game's ETag
(an If-Match made for the old game deleted the new one), and a key used on the old game's rounds
replayed the old game's round for the new one (found by a tester).
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.helpers.games import SEED_ROUND_1, TEAMS

pytestmark = pytest.mark.db


def test_a_new_game_never_takes_a_deleted_games_id(flask_client: FlaskClient, db_backend: str) -> None:
    seen: set[int] = set()
    for name in ("first", "second", "third"):
        created = flask_client.post("/v1/games", json={"name": name, "preset": "pagat", "teams": TEAMS})
        assert created.status_code == 201, created.get_json()
        game_id = created.get_json()["id"]
        assert game_id not in seen
        seen.add(game_id)
        etag = created.headers["ETag"]
        assert flask_client.delete(f"/v1/games/{game_id}", headers={"If-Match": etag}).status_code == 204


def test_a_deleted_games_etag_and_idempotency_key_do_not_reach_a_new_game(flask_client: FlaskClient,
                                                                         db_backend: str) -> None:
    old = flask_client.post("/v1/games", json={"name": "old", "preset": "pagat",
                                         "teams": TEAMS})
    old_id, old_etag = old.get_json()["id"], old.headers["ETag"]
    key = {"Idempotency-Key": '"reused-after-delete"'}
    assert flask_client.post(f"/v1/games/{old_id}/rounds", json={"teams": SEED_ROUND_1}, headers=key).status_code == 201
    old_etag = flask_client.get(f"/v1/games/{old_id}").headers["ETag"]
    assert flask_client.delete(f"/v1/games/{old_id}", headers={"If-Match": old_etag}).status_code == 204

    new = flask_client.post("/v1/games", json={"name": "new", "preset": "pagat",
                                         "teams": TEAMS})
    new_id = new.get_json()["id"]
    assert new_id != old_id and new.headers["ETag"] != old_etag
    assert flask_client.delete(f"/v1/games/{new_id}", headers={"If-Match": old_etag}).status_code == 412
    replay = flask_client.post(f"/v1/games/{old_id}/rounds", json={"teams": SEED_ROUND_1}, headers=key)
    assert replay.status_code == 404
    assert flask_client.get(f"/v1/games/{new_id}").get_json()["rounds_played"] == 0
