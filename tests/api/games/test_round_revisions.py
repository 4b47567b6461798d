"""A round's history is bounded and costs a read nothing (issue 18, defect 5).

After many corrections a round read once loaded every revision without returning them, and the
revisions list came in one answer. Now a round read runs the same statements whatever the round's
history (none reads ``round_revisions``), the revisions list is paginated, and a round takes at
most ``MAX_REVISIONS_PER_ROUND`` revisions: the next correction is a 409 naming ``revision_limit``.
"""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from handfoot.server.services import rounds as rounds_svc
from tests.api.app.test_problems import assert_problem
from tests.helpers.games import TEAMS, create_game, out_round, recorded_statements, tally

NAMES = [t["name"] for t in TEAMS]


def _correct(flask_client: FlaskClient, game_id: int, times: int) -> None:
    for i in range(times):
        etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
        teams = [tally(NAMES[0], out=True, clean=2, dirty=2, wild=1, table=500 + 5 * i),
                 tally(NAMES[1], clean=1, table=200, left=50)]
        response = flask_client.put(f"/v1/games/{game_id}/rounds/1", json={"teams": teams}, headers={"If-Match": etag})
        assert response.status_code == 200, response.get_json()


def _game_with_round(flask_client: FlaskClient) -> int:
    game_id: int = create_game(flask_client)["id"]
    assert flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round(*NAMES)}).status_code == 201
    return game_id


def _shape(statements: list[str]) -> list[str]:
    return [re.sub(r"\d+", "N", s) for s in statements]


def test_a_round_read_costs_the_same_whatever_its_history(app: Flask, flask_client: FlaskClient) -> None:
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
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    assert f"{rounds_svc.MAX_REVISIONS_PER_ROUND} revisions per round" in readme
