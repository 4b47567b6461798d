"""Every precondition problem (428 without If-Match, 412 with a stale one) names the If-Match header,
says what to do, and, for a stale ETag, which ETag is current; on every route that takes If-Match."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.app.test_problems import assert_problem
from tests.helpers.games import TEAMS, append, create_game, out_round


@pytest.fixture
def game(flask_client: FlaskClient) -> dict[str, Any]:
    game_id = create_game(flask_client)["id"]
    names = [t["name"] for t in TEAMS]
    append(flask_client, game_id, out_round(*names))
    return {"id": game_id, "body": {"teams": out_round(*reversed(names))}}


def test_correction_without_if_match_names_the_header(flask_client: FlaskClient, game: dict[str, Any]) -> None:
    problem = assert_problem(
        flask_client.put(f"/v1/games/{game['id']}/rounds/1", json=game["body"]), 428, "precondition-required"
    )
    assert problem["errors"] == [
        {"parameter": "If-Match", "code": "required", "detail": problem["errors"][0]["detail"]}
    ]
    assert "ETag" in problem["errors"][0]["detail"]


@pytest.mark.parametrize(("method", "path"), [("PUT", "/rounds/1"), ("DELETE", "")])
def test_stale_if_match_names_the_header_and_the_current_etag(
    flask_client: FlaskClient, game: dict[str, Any], method: str, path: str
) -> None:
    url = f"/v1/games/{game['id']}{path}"
    current = flask_client.get(url if method == "PUT" else f"/v1/games/{game['id']}").headers["ETag"]
    response = flask_client.open(
        url, method=method, json=game["body"] if method == "PUT" else None, headers={"If-Match": '"stale"'}
    )
    problem = assert_problem(response, 412, "precondition-failed")
    (item,) = problem["errors"]
    assert item["parameter"] == "If-Match" and item["code"] == "etag_mismatch"
    assert current in item["detail"]
