"""A game's rounds after they are stored: deleting the last one, and a round's revisions.

Deleting a game's last round (issue 21: undo of a newly saved round).

``DELETE /v1/games/{id}/rounds/{n}`` takes back the last round only, with If-Match on the game's
ETag; any other round is a 409 naming the rule (``not_last_round``). The game's state follows the
rounds left (a finished game plays on), what the round was is kept (``round_deletions``), and a
repeat of the same request answers 204 again while nothing else changed. On both databases.

A round's history is bounded and costs a read nothing (issue 18, defect 5).

After many corrections a round read once loaded every revision without returning them, and the
revisions list came in one answer. Now a round read runs the same statements whatever the round's
history (none reads ``round_revisions``), the revisions list is paginated, and a round takes at
most ``MAX_REVISIONS_PER_ROUND`` revisions: the next correction is a 409 naming ``revision_limit``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from handfoot.server.db import get_db
from handfoot.server.models import RoundDeletion, RoundRevision
from handfoot.server.services import rounds as rounds_svc
from tests.api.app.test_problems import assert_problem
from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game, out_round, recorded_statements, tally

NAMES = [t["name"] for t in TEAMS]


def _game(flask_client: FlaskClient, rounds: int, **create: Any) -> int:
    game_id: int = create_game(flask_client, **create)["id"]
    for _ in range(rounds):
        append(flask_client, game_id, out_round(*NAMES))
    return game_id


def _etag(flask_client: FlaskClient, game_id: int) -> str:
    return str(flask_client.get(f"/v1/games/{game_id}").headers["ETag"])


def _delete(flask_client: FlaskClient, game_id: int, number: int, etag: str | None) -> Any:
    headers = {"If-Match": etag} if etag is not None else {}
    return flask_client.delete(f"/v1/games/{game_id}/rounds/{number}", headers=headers)


@pytest.mark.db
def test_the_last_round_goes_and_the_game_follows(flask_client: FlaskClient) -> None:
    game_id = _game(flask_client, 2)
    before = flask_client.get(f"/v1/games/{game_id}").get_json()
    response = _delete(flask_client, game_id, 2, _etag(flask_client, game_id))
    assert response.status_code == 204, response.get_data(as_text=True)
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["rounds_played"] == 1 and game["next_round"] == 2
    assert [r["number"] for r in game["rounds"]] == [1]
    assert game["totals"] == [{"name": NAMES[0], "total": 3700}, {"name": NAMES[1], "total": 650}]
    assert game["version"] == before["version"] + 1
    assert_problem(flask_client.get(f"/v1/games/{game_id}/rounds/2"), 404)
    # Round 2 is played again, with other scores: the number is free and the totals are its own.
    append(
        flask_client,
        game_id,
        [tally(NAMES[0], clean=1, table=100), tally(NAMES[1], out=True, clean=2, dirty=2, wild=1, table=500)],
        round=2,
    )
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["totals"][1]["total"] == 650 + 3700


@pytest.mark.db
def test_a_finished_game_whose_last_round_goes_plays_on(flask_client: FlaskClient) -> None:
    game_id = _game(flask_client, 1, rules={"rounds": 1})
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["status"] == "finished"
    assert _delete(flask_client, game_id, 1, _etag(flask_client, game_id)).status_code == 204
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert (game["status"], game["rounds_played"], game["next_round"], game["winner"]) == ("in_progress", 0, 1, None)
    assert [t["total"] for t in game["totals"]] == [0, 0]


@pytest.mark.db
def test_only_the_last_round_can_be_deleted(flask_client: FlaskClient) -> None:
    game_id = _game(flask_client, 3)
    etag = _etag(flask_client, game_id)
    for number in (1, 2):
        body = assert_problem(_delete(flask_client, game_id, number, etag), 409, "not-last-round")
        assert body["last_round"] == 3
        assert [e["code"] for e in body["errors"]] == ["not_last_round"]
        assert "only the last round (3)" in body["detail"].lower(), body["detail"]
    assert_problem(_delete(flask_client, game_id, 4, etag), 404)
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 3, "nothing deleted"
    assert _etag(flask_client, game_id) == etag, "nothing written"


@pytest.mark.db
def test_if_match_on_the_game_is_required(flask_client: FlaskClient) -> None:
    game_id = _game(flask_client, 1)
    assert_problem(_delete(flask_client, game_id, 1, None), 428)
    round_etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    assert_problem(_delete(flask_client, game_id, 1, round_etag), 412)  # the round's ETag is not the game's
    stale = _etag(flask_client, game_id)
    append(flask_client, game_id, out_round(*NAMES))
    assert_problem(_delete(flask_client, game_id, 2, stale), 412)
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 2


@pytest.mark.db
def test_a_repeated_delete_answers_the_same_while_nothing_else_changed(flask_client: FlaskClient) -> None:
    game_id = _game(flask_client, 2)
    etag = _etag(flask_client, game_id)
    assert _delete(flask_client, game_id, 2, etag).status_code == 204
    after = _etag(flask_client, game_id)
    repeat = _delete(flask_client, game_id, 2, etag)
    assert repeat.status_code == 204, repeat.get_data(as_text=True)
    assert _etag(flask_client, game_id) == after, "a repeat writes nothing"
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1, "round 1 stays"
    assert_problem(_delete(flask_client, game_id, 2, after), 404)  # not a repeat: there is no round 2
    append(flask_client, game_id, out_round(*NAMES))  # round 2 again: the old deletion is history now
    assert_problem(_delete(flask_client, game_id, 2, etag), 412)


@pytest.mark.db
def test_the_deleted_round_and_its_revisions_are_kept(app: Flask, flask_client: FlaskClient) -> None:
    game_id = _game(flask_client, 0)
    append(flask_client, game_id, SEED_ROUND_1)
    round_etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    corrected = flask_client.put(
        f"/v1/games/{game_id}/rounds/1", json={"teams": out_round(*NAMES)}, headers={"If-Match": round_etag}
    )
    assert corrected.status_code == 200
    assert _delete(flask_client, game_id, 1, _etag(flask_client, game_id)).status_code == 204
    with get_db(app).session() as session:
        kept = session.scalars(select(RoundDeletion).where(RoundDeletion.game_id == game_id)).one()
        assert (kept.number, kept.revision) == (1, 2)
        assert [b["total"] for b in kept.teams] == [3700, 650]
        assert [r["revision"] for r in kept.revisions] == [1]
        assert [b["total"] for b in kept.revisions[0]["teams"]] == [3740, 1075]
        assert kept.revisions[0]["request"]["teams"][0]["tally"]["table_points"] == 465
        assert session.scalars(select(RoundRevision)).all() == [], "the revisions' rows went with the round"
    assert flask_client.delete(f"/v1/games/{game_id}").status_code == 204
    with get_db(app).session() as session:
        assert session.scalars(select(RoundDeletion)).all() == [], "deleted with the game"


@pytest.mark.db
def test_a_replayed_append_of_a_deleted_round_is_not_found(flask_client: FlaskClient) -> None:
    game_id = _game(flask_client, 0)
    key = {"Idempotency-Key": '"undo-me"'}
    first = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round(*NAMES)}, headers=key)
    assert first.status_code == 201
    replay = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round(*NAMES)}, headers=key)
    assert replay.status_code == 201 and replay.get_json() == first.get_json()
    assert _delete(flask_client, game_id, 1, _etag(flask_client, game_id)).status_code == 204
    again = {"teams": out_round(*NAMES)}
    assert_problem(flask_client.post(f"/v1/games/{game_id}/rounds", json=again, headers=key), 404)
    append(flask_client, game_id, out_round(*NAMES))  # round 1 played again: still not the key's round
    assert_problem(
        flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round(*NAMES)}, headers=key), 404
    )


def _correct(flask_client: FlaskClient, game_id: int, times: int) -> None:
    for i in range(times):
        etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
        teams = [
            tally(NAMES[0], out=True, clean=2, dirty=2, wild=1, table=500 + 5 * i),
            tally(NAMES[1], clean=1, table=200, left=50),
        ]
        response = flask_client.put(f"/v1/games/{game_id}/rounds/1", json={"teams": teams}, headers={"If-Match": etag})
        assert response.status_code == 200, response.get_json()


def _game_with_round(flask_client: FlaskClient) -> int:
    game_id: int = create_game(flask_client)["id"]
    assert flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round(*NAMES)}).status_code == 201
    return game_id


def _shape(statements: list[str]) -> list[str]:
    return [re.sub(r"\d+", "N", s) for s in statements]


def test_a_round_read_costs_the_same_whatever_its_history(app: Flask, flask_client: FlaskClient) -> None:
    """A round read once loaded every revision without returning them (issue 18, defect 5)."""
    fresh, corrected = _game_with_round(flask_client), _game_with_round(flask_client)
    _correct(flask_client, corrected, 12)
    reads = {}
    for game_id in (fresh, corrected):
        with recorded_statements(app) as statements:
            response = flask_client.get(f"/v1/games/{game_id}/rounds/1")
        assert response.status_code == 200
        reads[game_id] = statements
    assert _shape(reads[fresh]) == _shape(reads[corrected])
    assert not any("round_revisions" in s for s in reads[corrected]), reads[corrected]
    assert flask_client.get(f"/v1/games/{corrected}/rounds/1").get_json()["revision"] == 13


def test_revisions_are_paginated(flask_client: FlaskClient) -> None:
    """The revisions list came in one answer however long (issue 18, defect 5): it is paginated now."""
    game_id = _game_with_round(flask_client)
    _correct(flask_client, game_id, 6)  # revisions 1..6 earlier, 7 current
    first = flask_client.get(f"/v1/games/{game_id}/rounds/1/revisions", query_string={"page_size": 3})
    assert first.status_code == 200
    assert [(r["revision"], r["current"]) for r in first.get_json()] == [(1, False), (2, False), (3, False)]
    assert json.loads(first.headers["X-Pagination"])["total"] == 7
    assert 'rel="next"' in first.headers["Link"]
    last = flask_client.get(f"/v1/games/{game_id}/rounds/1/revisions", query_string={"page_size": 3, "page": 3})
    assert [(r["revision"], r["current"]) for r in last.get_json()] == [(7, True)]
    assert last.get_json()[0]["replaced_at"] is None
    whole = flask_client.get(f"/v1/games/{game_id}/rounds/1/revisions").get_json()  # the default page holds them all
    assert [r["revision"] for r in whole] == list(range(1, 8))
    assert [r["current"] for r in whole] == [False] * 6 + [True]
    assert whole[0]["replaced_at"] == whole[1]["created_at"]


def test_a_correction_past_the_limit_is_refused_by_name(
    flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round's history had no bound (issue 18, defect 5): past the limit a correction is a 409
    naming revision_limit."""
    monkeypatch.setattr(rounds_svc, "MAX_REVISIONS_PER_ROUND", 4)
    game_id = _game_with_round(flask_client)
    _correct(flask_client, game_id, 3)  # revision 4: the limit
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    response = flask_client.put(
        f"/v1/games/{game_id}/rounds/1", json={"teams": out_round(*NAMES)}, headers={"If-Match": etag}
    )
    problem = assert_problem(response, 409, "conflict")
    assert [e["code"] for e in problem["errors"]] == ["revision_limit"]
    assert "4" in problem["detail"]
    assert flask_client.get(f"/v1/games/{game_id}/rounds/1").get_json()["revision"] == 4  # nothing stored


def test_the_limit_is_documented() -> None:
    """The revision limit must be the one docs/reliability.md states (the README's limits moved there)."""
    from pathlib import Path

    reliability = (Path(__file__).resolve().parents[3] / "docs" / "reliability.md").read_text(encoding="utf-8")
    assert f"{rounds_svc.MAX_REVISIONS_PER_ROUND} revisions per round" in reliability
