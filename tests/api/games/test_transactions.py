"""Transactions per request on the games routes, counted with SQLAlchemy's engine events.

A write is one transaction, committed once, with its Idempotency-Key claim and stored answer; a
refused write (422, 409, 412) and every read commit nothing. Counted on every backend: the commits
(the ``commit`` event) and the statements (``before_cursor_execute``) each request runs
(:func:`tests.helpers.counting.counted`).
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from tests.helpers.counting import counted
from tests.helpers.games import SEED_ROUND_1, append, create_game, out_round, tally

pytestmark = pytest.mark.db


def _game_with_round(flask_client: FlaskClient) -> int:
    game_id = int(create_game(flask_client)["id"])
    append(flask_client, game_id, SEED_ROUND_1)
    return game_id


def test_an_append_is_one_commit(app: Flask, flask_client: FlaskClient) -> None:
    """The hot path: the key check, the game's read, the round and the game row, committed once."""
    game_id = _game_with_round(flask_client)
    with counted(app) as seen:
        append(flask_client, game_id, SEED_ROUND_1)
    assert seen.commits == 1, seen.statements
    assert len(seen.statements) <= 8, seen.statements


def test_an_append_with_an_idempotency_key_is_one_commit(app: Flask, flask_client: FlaskClient) -> None:
    """The key's claim and its stored answer are written in the append's own transaction."""
    game_id = _game_with_round(flask_client)
    with counted(app) as seen:
        append(flask_client, game_id, SEED_ROUND_1, headers={"Idempotency-Key": '"k-1"'})
    assert seen.commits == 1, seen.statements
    with counted(app) as replay:
        response = flask_client.post(
            f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}, headers={"Idempotency-Key": '"k-1"'}
        )
    assert response.status_code == 201 and response.headers["Idempotent-Replayed"] == "true"
    assert replay.commits == 0, replay.statements


def test_an_append_with_an_api_key_is_one_commit(app: Flask, flask_client: FlaskClient) -> None:
    """The API key is checked in the request's own transaction, not one of its own."""
    with app.app_context():
        _key, token = create_key(get_db(app), "counter")
    headers = {"Authorization": f"Bearer {token}"}
    game_id = int(create_game(flask_client, headers=headers)["id"])
    with counted(app) as seen:
        append(flask_client, game_id, SEED_ROUND_1, headers=headers)
    assert seen.commits == 1, seen.statements


def test_a_correction_and_a_deletion_are_one_commit_each(app: Flask, flask_client: FlaskClient) -> None:
    """Corrections and deletions go through the same write path as appends: one commit each."""
    game_id = _game_with_round(flask_client)
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    with counted(app) as corrected:
        response = flask_client.put(
            f"/v1/games/{game_id}/rounds/1", json={"teams": out_round("Team 1", "Team 2")}, headers={"If-Match": etag}
        )
    assert response.status_code == 200, response.get_json()
    assert corrected.commits == 1, corrected.statements
    game_etag = flask_client.get(f"/v1/games/{game_id}").headers["ETag"]
    with counted(app) as deleted:
        response = flask_client.delete(f"/v1/games/{game_id}/rounds/1", headers={"If-Match": game_etag})
    assert response.status_code == 204, response.get_json()
    assert deleted.commits == 1, deleted.statements


@pytest.mark.parametrize("refused", ["rules", "number", "not-found", "precondition", "not-last"])
def test_a_refused_write_commits_nothing(app: Flask, flask_client: FlaskClient, refused: str) -> None:
    """A write the API refuses (422, 409, 404, 412) leaves the database as it was: no commit."""
    game_id = _game_with_round(flask_client)
    headers = {"Idempotency-Key": f'"refused-{refused}"'}
    with counted(app) as seen:
        if refused == "rules":
            response = flask_client.post(
                f"/v1/games/{game_id}/rounds",
                headers=headers,
                json={"teams": [tally("Team 1", out=True), tally("Team 2")]},
            )
            assert response.status_code == 422, response.get_json()
        elif refused == "number":
            response = flask_client.post(
                f"/v1/games/{game_id}/rounds", headers=headers, json={"teams": SEED_ROUND_1, "round": 7}
            )
            assert response.status_code == 409, response.get_json()
        elif refused == "not-found":
            response = flask_client.post(f"/v1/games/{game_id + 1}/rounds", json={"teams": SEED_ROUND_1})
            assert response.status_code == 404, response.get_json()
        elif refused == "precondition":
            response = flask_client.put(
                f"/v1/games/{game_id}/rounds/1", json={"teams": SEED_ROUND_1}, headers={"If-Match": '"stale"'}
            )
            assert response.status_code == 412, response.get_json()
        else:
            append(flask_client, game_id, SEED_ROUND_1)
            game_etag = flask_client.get(f"/v1/games/{game_id}").headers["ETag"]
            seen.commits = 0
            response = flask_client.delete(f"/v1/games/{game_id}/rounds/1", headers={"If-Match": game_etag})
            assert response.status_code == 409, response.get_json()
    assert seen.commits == 0, seen.statements


@pytest.mark.parametrize("path", ["", "/{id}", "/{id}/rounds/1", "/{id}/rounds/1/revisions", "/{id}/scoresheet"])
def test_a_read_commits_nothing(app: Flask, flask_client: FlaskClient, path: str) -> None:
    """Every GET reads in one transaction and writes nothing."""
    game_id = _game_with_round(flask_client)
    with counted(app) as seen:
        response = flask_client.get("/v1/games" + path.format(id=game_id))
    assert response.status_code == 200, response.get_json()
    assert seen.commits == 0, seen.statements
