"""A stored round whose breakdown carries warnings (rule ``illegal_melds_stand``, the Hodges family
rules' "what's layed is played", D31) is answered, not a 500, by every operation that returns a stored
breakdown: the append, the round read, the correction and the revisions list.

Stored breakdowns are plain JSON (``breakdown_data``), while ``BreakdownSchema``'s warnings dumped only
the engine's ``Problem`` objects; the warning read back must be the one the score endpoint gave.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.helpers.games import create_game

SIDES = [{"name": "North", "players": ["Ann", "Bo"]}, {"name": "South", "players": ["Cy", "Di"]}]
ILLEGAL = ["4S", "2H", "2D"]  # one natural, two wilds: more wilds than naturals


def _side(name: str, players: list[str], melds: list[list[str]]) -> dict[str, Any]:
    return {"name": name, "went_out": False, "melds": melds, "burn": [],
            "players": [{"name": players[0], "hand": ["8S"]}, {"name": players[1], "hand": []}]}


def _teams(extra_meld: list[str]) -> list[dict[str, Any]]:
    books = [["KS", "KH", "KD", "KC", "KS", "KH", "KD"], ["5S", "5H", "5D", "5C", "5S", "5H", "5D"]]
    return [_side("North", ["Ann", "Bo"], [*books, extra_meld]), _side("South", ["Cy", "Di"], [["9S", "9H", "9D"]])]


def _warnings(breakdowns: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [b["warnings"] for b in breakdowns]


def test_every_stored_breakdown_with_warnings_is_answered(flask_client: FlaskClient) -> None:
    scored = flask_client.post("/v1/rounds/score", json={"preset": "hodges", "round": 1, "teams": _teams(ILLEGAL)})
    assert scored.status_code == 200, scored.get_json()
    expected = _warnings(scored.get_json()["teams"])
    assert [(w["code"], w["pointer"]) for w in expected[0]] == [("too_many_wilds", "/teams/0/melds/2")]
    assert expected[1] == []

    game_id = create_game(flask_client, "hodges", teams=SIDES)["id"]
    appended = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": _teams(ILLEGAL)})
    assert appended.status_code == 201, appended.get_data(as_text=True)[:500]
    assert _warnings(appended.get_json()["teams"]) == expected

    read = flask_client.get(f"/v1/games/{game_id}/rounds/1")
    assert read.status_code == 200
    assert _warnings(read.get_json()["teams"]) == expected

    # A correction that keeps an illegal meld (now a different one) and the revisions of both.
    other = ["6S", "JK", "2C"]
    corrected = flask_client.put(f"/v1/games/{game_id}/rounds/1", json={"teams": _teams(other)},
                           headers={"If-Match": read.headers["ETag"]})
    assert corrected.status_code == 200, corrected.get_data(as_text=True)[:500]
    now = _warnings(corrected.get_json()["teams"])
    assert now[0] and now[0][0]["pointer"] == "/teams/0/melds/2"

    revisions = flask_client.get(f"/v1/games/{game_id}/rounds/1/revisions")
    assert revisions.status_code == 200, revisions.get_data(as_text=True)[:500]
    body = revisions.get_json()
    items = body["items"] if isinstance(body, dict) else body
    assert [_warnings(r["teams"]) for r in items] == [expected, now]


def test_the_reads_of_a_game_with_warnings_answer(flask_client: FlaskClient) -> None:
    """The game, its score sheet (JSON and CSV) and the statistics read the stored rounds."""
    game_id = create_game(flask_client, "hodges", teams=SIDES)["id"]
    assert flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": _teams(ILLEGAL)}).status_code == 201
    for path, accept in ((f"/v1/games/{game_id}", "application/json"),
                         (f"/v1/games/{game_id}/scoresheet", "application/json"),
                         (f"/v1/games/{game_id}/scoresheet", "text/csv"),
                         ("/v1/games/stats", "application/json")):
        response = flask_client.get(path, headers={"Accept": accept})
        assert response.status_code == 200, (path, accept, response.get_data(as_text=True)[:300])
