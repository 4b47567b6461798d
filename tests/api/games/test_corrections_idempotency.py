"""A correction's retry after a lost answer (``PUT /v1/games/{id}/rounds/{n}``) stores nothing twice.

With ``Idempotency-Key``, as an append: the first answer again (``Idempotent-Replayed: true``),
byte for byte, whatever the If-Match of the retry (the first request moved the ETag on); the same
key with another body or another round is a 422. Without one: the same body from the same caller
on the ETag the correction replaced answers 200 with the round as it stands, no new revision (the
retry's If-Match is one version behind), and so does ``If-Match: *``: neither burns one of the
round's revisions.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers.games import SEED_ROUND_1, append, create_game, out_round

PROBLEMS = "https://handfoot.dev/problems/"
CORRECTED = out_round("Team 1", "Team 2")


def _game(flask_client: FlaskClient) -> tuple[int, str]:
    game_id = create_game(flask_client)["id"]
    append(flask_client, game_id, SEED_ROUND_1)
    append(flask_client, game_id, SEED_ROUND_1)
    return game_id, flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]


def _put(flask_client: FlaskClient, game_id: int, if_match: str, body: Any = None, key: str | None = None) -> Any:
    headers = {"If-Match": if_match}
    if key is not None:
        headers["Idempotency-Key"] = key
    return flask_client.put(f"/v1/games/{game_id}/rounds/1", json={"teams": body or CORRECTED}, headers=headers)


def _revision(flask_client: FlaskClient, game_id: int, number: int = 1) -> int:
    revision: int = flask_client.get(f"/v1/games/{game_id}/rounds/{number}").get_json()["revision"]
    return revision


@pytest.mark.db
@pytest.mark.parametrize("if_match", ["etag", "*"])
def test_a_keyed_retry_replays_the_first_answer(flask_client: FlaskClient, db_backend: str, if_match: str) -> None:
    game_id, etag = _game(flask_client)
    sent = etag if if_match == "etag" else "*"
    first = _put(flask_client, game_id, sent, key="fix-1")
    assert first.status_code == 200, first.get_data(as_text=True)
    assert "Idempotent-Replayed" not in first.headers
    assert first.get_json()["revision"] == 2
    for _ in range(3):  # the answer was lost: the client sends the same request again
        again = _put(flask_client, game_id, sent, key="fix-1")
        assert again.status_code == 200, again.get_data(as_text=True)
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.data == first.data
        assert again.headers["ETag"] == first.headers["ETag"]
    assert _revision(flask_client, game_id) == 2
    revisions = flask_client.get(f"/v1/games/{game_id}/rounds/1/revisions").get_json()
    assert [r["revision"] for r in revisions] == [1, 2]
    # a new key is a new correction
    assert _put(flask_client, game_id, "*", body=SEED_ROUND_1, key="fix-2").get_json()["revision"] == 3


@pytest.mark.db
def test_the_same_key_with_another_body_or_round_is_422(flask_client: FlaskClient, db_backend: str) -> None:
    game_id, etag = _game(flask_client)
    assert _put(flask_client, game_id, etag, key="k").status_code == 200
    other = _put(flask_client, game_id, "*", body=SEED_ROUND_1, key="k")
    assert other.status_code == 422
    assert other.get_json()["type"] == PROBLEMS + "idempotency-key-reused"
    round_2 = flask_client.put(
        f"/v1/games/{game_id}/rounds/2", json={"teams": CORRECTED}, headers={"If-Match": "*", "Idempotency-Key": "k"}
    )
    assert round_2.status_code == 422
    assert _revision(flask_client, game_id) == 2 and _revision(flask_client, game_id, 2) == 1


@pytest.mark.db
def test_a_refused_correction_releases_its_key(flask_client: FlaskClient, db_backend: str) -> None:
    """A 412 (or any refusal) stores no answer: with the right ETag, the key's request runs."""
    game_id, etag = _game(flask_client)
    assert _put(flask_client, game_id, '"stale"', key="k").status_code == 412
    done = _put(flask_client, game_id, etag, key="k")
    assert done.status_code == 200 and "Idempotent-Replayed" not in done.headers
    assert _revision(flask_client, game_id) == 2


@pytest.mark.db
def test_a_keyed_replay_of_a_deleted_game_is_404(flask_client: FlaskClient, db_backend: str) -> None:
    game_id, etag = _game(flask_client)
    assert _put(flask_client, game_id, etag, key="k").status_code == 200
    assert flask_client.delete(f"/v1/games/{game_id}").status_code == 204
    assert _put(flask_client, game_id, etag, key="k").status_code == 404


@pytest.mark.db
def test_a_retry_on_the_replaced_etag_answers_as_done(flask_client: FlaskClient, db_backend: str) -> None:
    """No key: the same body again on the ETag it replaced is the correction's retry (its answer
    lost): 200, the round as it stands, its current ETag, no new revision."""
    game_id, etag = _game(flask_client)
    first = _put(flask_client, game_id, etag)
    assert first.status_code == 200 and first.get_json()["revision"] == 2
    for _ in range(3):
        again = _put(flask_client, game_id, etag)
        assert again.status_code == 200, again.get_data(as_text=True)
        assert again.get_json() == first.get_json()
        assert again.headers["ETag"] == first.headers["ETag"]
        assert "Idempotent-Replayed" not in again.headers
    assert _revision(flask_client, game_id) == 2
    # If-Match: * with the body the round holds: done already, no revision burnt
    assert _put(flask_client, game_id, "*").get_json()["revision"] == 2
    assert _revision(flask_client, game_id) == 2


@pytest.mark.db
def test_another_body_on_the_replaced_etag_is_still_412(flask_client: FlaskClient, db_backend: str) -> None:
    game_id, etag = _game(flask_client)
    assert _put(flask_client, game_id, etag).status_code == 200
    assert _put(flask_client, game_id, etag, body=SEED_ROUND_1).status_code == 412
    # two versions behind is not a retry of the last correction
    current = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    assert _put(flask_client, game_id, current, body=SEED_ROUND_1).get_json()["revision"] == 3
    assert _put(flask_client, game_id, etag, body=SEED_ROUND_1).status_code == 412
    assert _put(flask_client, game_id, etag).status_code == 412
    assert _revision(flask_client, game_id) == 3
