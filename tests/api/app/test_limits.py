"""Limits at their edges (the largest accepted, one more refused by name) and Unicode names kept intact."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from handfoot.server.resources.games.schemas import MAX_PAGE_SIZE
from handfoot.server.schemas import MAX_NAME_LENGTH, MAX_PLAYERS_PER_TEAM
from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game

UNICODE = "Zoë 🂡 北"


@pytest.mark.db
def test_unicode_names_are_stored_and_returned_intact(flask_client: FlaskClient, db_backend: str) -> None:
    decomposed = "Zoe\u0308"  # NFD: not normalised either
    teams = [{"name": UNICODE, "players": [decomposed, "Ålesund 🃏"]}, {"name": "Team 2", "players": ["東", "ج"]}]
    game = create_game(flask_client, name=UNICODE, teams=teams)
    rnd = append(flask_client, game["id"], [{**SEED_ROUND_1[0], "name": UNICODE}, SEED_ROUND_1[1]])
    assert rnd["teams"][0]["name"] == UNICODE and rnd["request"]["teams"][0]["name"] == UNICODE
    again = flask_client.get(f"/v1/games/{game['id']}").get_json()
    assert again["name"] == UNICODE
    assert again["teams"][0] == {"name": UNICODE, "players": [decomposed, "Ålesund 🃏"]}
    assert again["totals"][0] == {"name": UNICODE, "total": 3740}
    listed = flask_client.get("/v1/games", query_string={"player": "zoe\u0308"}).get_json()
    assert [g["name"] for g in listed] == [UNICODE]
    csv = flask_client.get(f"/v1/games/{game['id']}/scoresheet", headers={"Accept": "text/csv"}).get_data(as_text=True)
    assert csv.splitlines()[0] == f"round,{UNICODE},{UNICODE} total,Team 2,Team 2 total"


@pytest.mark.db
def test_name_length_is_counted_in_characters(flask_client: FlaskClient, db_backend: str) -> None:
    longest = "🂡" * MAX_NAME_LENGTH  # 100 characters, 400 bytes in UTF-8
    assert create_game(flask_client, name=longest)["name"] == longest
    response = flask_client.post("/v1/games", json={"name": longest + "x", "preset": "pagat", "teams": TEAMS})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/name"


def test_players_per_side_limit(flask_client: FlaskClient) -> None:
    players = [f"p{i}" for i in range(MAX_PLAYERS_PER_TEAM + 1)]
    response = flask_client.post("/v1/games", json={"name": "x", "preset": "bga", "teams": [
        {"name": "A", "players": players}, TEAMS[1]]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/teams/0/players"


def test_page_size_limit(flask_client: FlaskClient) -> None:
    assert flask_client.get("/v1/games", query_string={"page_size": MAX_PAGE_SIZE}).status_code == 200
    response = flask_client.get("/v1/games", query_string={"page_size": MAX_PAGE_SIZE + 1})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["parameter"] == "page_size"


def test_limits_are_in_the_spec(flask_client: FlaskClient) -> None:
    spec = flask_client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    team = schemas["Team"]["properties"] if "Team" in schemas else None
    assert team is not None
    assert team["melds"]["maxItems"] == 60 and team["melds"]["items"]["maxItems"] == 200
    assert team["players"]["maxItems"] == MAX_PLAYERS_PER_TEAM
    assert team["name"]["maxLength"] == MAX_NAME_LENGTH and "pattern" in team["name"]
    assert schemas["GameCreate"]["properties"]["teams"]["maxItems"] == 12
    params = {p["name"]: p for p in spec["paths"]["/v1/games"]["get"]["parameters"]}
    assert params["page_size"]["schema"]["maximum"] == MAX_PAGE_SIZE
    assert params["page"]["schema"]["maximum"] == 1_000_000
    item = {p["name"]: p for p in spec["paths"]["/v1/games/{game_id}/rounds/{number}"]["parameters"]}
    assert item["game_id"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
    assert item["number"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 50}
