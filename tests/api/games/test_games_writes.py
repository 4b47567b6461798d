"""Game writes: the names a game and its sides take, a deleted game's id, and the If-Match preconditions.

Side names are told apart the same way everywhere: two names that differ only by case or by
Unicode composition (NFC "Zoë" and NFD "Zoë") are the same side, in a scored round and in a game.

A name must show something: names made only of spaces or invisible characters are refused
wherever a name is taken (game, side, player; in games and in scored rounds).

A deleted game's id is never given to another game, on any backend.

An id is a game's name in every URL, its ETag is made of (id, version) and a round's of (game, round,
revision), and Idempotency-Keys are bound to the path. On SQLite, whose rowids reuse the largest id
once that row is deleted, a new game took the deleted newest game's id: it had the old game's ETag
(an If-Match made for the old game deleted the new one), and a key used on the old game's rounds
replayed the old game's round for the new one (found by a tester).

Every precondition problem (428 without If-Match, 412 with a stale one) names the If-Match header,
says what to do, and, for a stale ETag, which ETag is current; on every route that takes If-Match.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from handfoot import engine
from handfoot.server.schemas import NAME_PATTERN
from tests.api.app.test_problems import assert_problem
from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game, out_round

TALLY = {
    "clean_books": 0,
    "dirty_books": 0,
    "wild_books": 0,
    "red_threes_on_table": 0,
    "red_threes_caught": 0,
    "table_points": 0,
    "points_left": 0,
}
SAME = [("A", "A"), ("A", "a"), ("Zo\u00eb", "Zoe\u0308"), ("STRASSE", "straße")]


@pytest.mark.parametrize(("first", "second"), SAME)
def test_scored_round_refuses_two_sides_with_one_name(flask_client: FlaskClient, first: str, second: str) -> None:
    body = {"preset": "pagat", "teams": [{"name": first, "tally": TALLY}, {"name": second, "tally": TALLY}]}
    with pytest.raises(engine.RoundError) as info:
        engine.score_round_request(body)
    assert [(p.code, p.path) for p in info.value.problems] == [("duplicate_side", ("teams", 1, "name"))]
    problem = assert_problem(flask_client.post("/v1/rounds/score", json=body), 422)
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [("/teams/1/name", "duplicate_side")]


@pytest.mark.parametrize(("first", "second"), SAME)
def test_game_refuses_two_sides_with_one_name(flask_client: FlaskClient, first: str, second: str) -> None:
    body = {
        "name": "G",
        "preset": "pagat",
        "teams": [{"name": first, "players": ["Ann", "Bo"]}, {"name": second, "players": ["Cy", "Di"]}],
    }
    problem = assert_problem(flask_client.post("/v1/games", json=body), 422)
    assert any(e.get("pointer") == "/teams/1/name" and e["code"] == "duplicate_side" for e in problem["errors"])


def test_players_are_told_apart_the_same_way(flask_client: FlaskClient) -> None:
    body = {
        "name": "G",
        "preset": "pagat",
        "teams": [{"name": "A", "players": ["Zo\u00eb", "Bo"]}, {"name": "B", "players": ["Cy", "zoe\u0308"]}],
    }
    problem = assert_problem(flask_client.post("/v1/games", json=body), 422)
    assert any(e.get("pointer") == "/teams/1/players/1" and e["code"] == "duplicate_player" for e in problem["errors"])


def test_player_filter_finds_either_spelling(flask_client: FlaskClient) -> None:
    body = {
        "name": "G",
        "preset": "pagat",
        "teams": [{"name": "A", "players": ["Zo\u00eb", "Bo"]}, {"name": "B", "players": ["Cy", "Di"]}],
    }
    assert flask_client.post("/v1/games", json=body).status_code == 201
    for query in ("Zo\u00eb", "zoe\u0308", "ZOË"):
        found = flask_client.get("/v1/games", query_string={"player": query}).get_json()
        assert [g["name"] for g in found] == ["G"], query


@pytest.mark.parametrize(("first", "second"), SAME)
def test_appends_and_corrections_match_sides_the_same_way(flask_client: FlaskClient, first: str, second: str) -> None:
    """A round names a game's side in any spelling the duplicate check calls the same: it is that
    side, stored and answered under the game's spelling; the two spellings of one side are one."""
    game = {
        "name": "G",
        "preset": "pagat",
        "teams": [{"name": first, "players": ["Ann", "Bo"]}, {"name": "Other", "players": ["Cy", "Di"]}],
    }
    game_id = flask_client.post("/v1/games", json=game).get_json()["id"]
    teams = [
        {"name": "OTHER", "tally": {**TALLY, "table_points": 90}},
        {"name": second, "tally": {**TALLY, "clean_books": 1, "table_points": 100}},
    ]
    for response in (
        flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": teams}),
        flask_client.put(
            f"/v1/games/{game_id}/rounds/1",
            json={"teams": teams},
            headers={"If-Match": flask_client.get(f"/v1/games/{game_id}/rounds/1").headers.get("ETag", '"none"')},
        ),
    ):
        assert response.status_code in (200, 201), response.get_json()
        answer = response.get_json()
        assert [b["name"] for b in answer["teams"]] == [first, "Other"]  # the game's order and spelling
        assert [t["name"] for t in answer["totals_after"]] == [first, "Other"]
        assert answer["request"]["teams"][1]["name"] == second  # the request as sent
    both = [{"name": first, "tally": TALLY}, {"name": second, "tally": TALLY}]
    problem = assert_problem(flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": both}), 422)
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [
        ("/teams/1/name", "duplicate_side"),
        ("/teams", "missing_side"),
    ]


BLANK = ["   ", "\u200b", " \u00a0 ", "\u2060\ufeff", "\u3000"]
NAME_TEAMS = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]


@pytest.mark.parametrize("blank", BLANK)
def test_blank_names_are_refused(flask_client: FlaskClient, blank: str) -> None:
    """Names of spaces or invisible characters showed nothing in a score sheet: refused wherever a name is taken."""
    cases = [
        ({"name": blank, "preset": "pagat", "teams": NAME_TEAMS}, "/name"),
        (
            {"name": "G", "preset": "pagat", "teams": [{"name": blank, "players": ["Ann", "Bo"]}, NAME_TEAMS[1]]},
            "/teams/0/name",
        ),
        (
            {"name": "G", "preset": "pagat", "teams": [{"name": "Us", "players": ["Ann", blank]}, NAME_TEAMS[1]]},
            "/teams/0/players/1",
        ),
    ]
    for body, pointer in cases:
        problem = assert_problem(flask_client.post("/v1/games", json=body), 422)
        assert any(e.get("pointer") == pointer for e in problem["errors"]), problem
        assert not re.fullmatch(NAME_PATTERN, blank)
    score = {"preset": "pagat", "teams": [{"name": blank, "tally": TALLY}, {"name": "B", "tally": TALLY}]}
    problem = assert_problem(flask_client.post("/v1/rounds/score", json=score), 422)
    assert any(e.get("pointer") == "/teams/0/name" for e in problem["errors"]), problem


@pytest.mark.parametrize("name", ["Zoë 🂡 北", " Ann ", "A", "x\u200by"])
def test_names_with_something_visible_are_kept_as_sent(flask_client: FlaskClient, name: str) -> None:
    """The blank-name rule must not refuse or alter a name that shows something."""
    response = flask_client.post("/v1/games", json={"name": name, "preset": "pagat", "teams": NAME_TEAMS})
    assert response.status_code == 201 and response.get_json()["name"] == name
    assert re.fullmatch(NAME_PATTERN, name)


@pytest.mark.db
def test_a_new_game_never_takes_a_deleted_games_id(flask_client: FlaskClient, db_backend: str) -> None:
    """SQLite reused a deleted newest game's rowid for the next game (found by a tester): ids are AUTOINCREMENT."""
    seen: set[int] = set()
    for name in ("first", "second", "third"):
        created = flask_client.post("/v1/games", json={"name": name, "preset": "pagat", "teams": TEAMS})
        assert created.status_code == 201, created.get_json()
        game_id = created.get_json()["id"]
        assert game_id not in seen
        seen.add(game_id)
        etag = created.headers["ETag"]
        assert flask_client.delete(f"/v1/games/{game_id}", headers={"If-Match": etag}).status_code == 204


@pytest.mark.db
def test_a_deleted_games_etag_and_idempotency_key_do_not_reach_a_new_game(
    flask_client: FlaskClient, db_backend: str
) -> None:
    """A reused id once let an old game's ETag delete the new game and its key replay the old round."""
    old = flask_client.post("/v1/games", json={"name": "old", "preset": "pagat", "teams": TEAMS})
    old_id, old_etag = old.get_json()["id"], old.headers["ETag"]
    key = {"Idempotency-Key": '"reused-after-delete"'}
    assert flask_client.post(f"/v1/games/{old_id}/rounds", json={"teams": SEED_ROUND_1}, headers=key).status_code == 201
    old_etag = flask_client.get(f"/v1/games/{old_id}").headers["ETag"]
    assert flask_client.delete(f"/v1/games/{old_id}", headers={"If-Match": old_etag}).status_code == 204

    new = flask_client.post("/v1/games", json={"name": "new", "preset": "pagat", "teams": TEAMS})
    new_id = new.get_json()["id"]
    assert new_id != old_id and new.headers["ETag"] != old_etag
    assert flask_client.delete(f"/v1/games/{new_id}", headers={"If-Match": old_etag}).status_code == 412
    replay = flask_client.post(f"/v1/games/{old_id}/rounds", json={"teams": SEED_ROUND_1}, headers=key)
    assert replay.status_code == 404
    assert flask_client.get(f"/v1/games/{new_id}").get_json()["rounds_played"] == 0


@pytest.fixture
def game(flask_client: FlaskClient) -> dict[str, Any]:
    game_id = create_game(flask_client)["id"]
    names = [t["name"] for t in TEAMS]
    append(flask_client, game_id, out_round(*names))
    return {"id": game_id, "body": {"teams": out_round(*reversed(names))}}


def test_correction_without_if_match_names_the_header(flask_client: FlaskClient, game: dict[str, Any]) -> None:
    """A 428 must say which header is missing and what to send, not only the status."""
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
    """A 412 must give the current ETag, so a client can re-read and retry without guessing."""
    url = f"/v1/games/{game['id']}{path}"
    current = flask_client.get(url if method == "PUT" else f"/v1/games/{game['id']}").headers["ETag"]
    response = flask_client.open(
        url, method=method, json=game["body"] if method == "PUT" else None, headers={"If-Match": '"stale"'}
    )
    problem = assert_problem(response, 412, "precondition-failed")
    (item,) = problem["errors"]
    assert item["parameter"] == "If-Match" and item["code"] == "etag_mismatch"
    assert current in item["detail"]
