"""The games resource (docs/games-api.md): create, list, get, delete, append, correct, audit, score sheets.

Every test is marked ``db``: it runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from handfoot.engine import PRESETS
from tests.conftest import WORKED_CASES
from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game, out_round, replayed_state, tally

pytestmark = pytest.mark.db

PROBLEMS = "https://handfoot.dev/problems/"

# Seed 000's four Pagat rounds as tallies (pagat: clean 500, dirty 300, wild 1500, going out 100,
# red three +100 on the table / -100 caught). Round 1 is seed 000's worked round; rounds 2-4 and
# every total below are computed by hand.
SEED_GAME = [
    SEED_ROUND_1,  # Team 1: 1000 + 600 + 1500 + 100 + 100 + 465 - 25 = 3740
    #              Team 2:  500 + 600 - 100 + 260 - 185 = 1075
    [
        tally("Team 1", clean=1, dirty=2, red=1, table=400, left=60),  # 500 + 600 + 100 + 400 - 60 = 1540
        tally("Team 2", out=True, clean=2, dirty=2, wild=1, table=520),
    ],  # 1000 + 600 + 1500 + 100 + 520 = 3720
    [
        tally("Team 1", out=True, clean=3, dirty=2, wild=1, red=2, table=610, left=15),
        # 1500 + 600 + 1500 + 100 + 200 + 610 - 15 = 4495
        tally("Team 2", dirty=1, caught=1, table=180, left=230),
    ],  # 300 - 100 + 180 - 230 = 150
    [
        tally("Team 1", clean=1, dirty=1, caught=2, table=250, left=145),  # 500 + 300 - 200 + 250 - 145 = 705
        tally("Team 2", out=True, clean=2, dirty=3, wild=1, red=1, table=700),
    ],
    # 1000 + 900 + 1500 + 100 + 100 + 700 = 4300
]
SEED_SCORES = [[3740, 1075], [1540, 3720], [4495, 150], [705, 4300]]
SEED_RUNNING = [[3740, 1075], [5280, 4795], [9775, 4945], [10480, 9245]]


def play_seed_game(flask_client: FlaskClient) -> int:
    game_id = int(create_game(flask_client)["id"])
    for teams in SEED_GAME:
        append(flask_client, game_id, teams)
    return game_id


def test_create_game(flask_client: FlaskClient, db_backend: str) -> None:
    response = flask_client.post(
        "/v1/games", json={"name": "Friday", "preset": "pagat", "rules": {"clean_book_bonus": 400}, "teams": TEAMS}
    )
    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["Location"] == f"/v1/games/{game['id']}"
    assert response.headers["ETag"]
    assert game["name"] == "Friday" and game["preset"] == "pagat"
    assert game["rules"]["clean_book_bonus"] == 400 and game["rules"]["rounds"] == 4
    assert game["rules_overridden"] == ["clean_book_bonus"] and game["house_rules"] == {"clean_book_bonus": 400}
    assert game["teams"] == TEAMS
    assert game["status"] == "in_progress" and game["rounds_played"] == 0 and game["rounds"] == []
    assert game["next_round"] == 1 and game["next_opening_minimum"] == 50
    assert game["next_contract"] == {"clean_books": 2, "dirty_books": 2, "wild_books": 1}
    assert game["totals"] == [{"name": "Team 1", "total": 0}, {"name": "Team 2", "total": 0}]
    assert game["leaders"] == [] and game["winner"] is None and game["tie"] is False
    assert game["version"] == 1
    assert flask_client.get(response.headers["Location"]).get_json() == game


@pytest.mark.parametrize(
    ("body", "pointer", "code"),
    [
        ({"teams": [TEAMS[0]]}, "/teams", "team_count"),
        ({"teams": [TEAMS[0], {"name": "Team 1", "players": ["A", "B"]}]}, "/teams/1/name", "duplicate_side"),
        (
            {"teams": [TEAMS[0], {"name": "Team 2", "players": ["north", "B"]}]},
            "/teams/1/players/0",
            "duplicate_player",
        ),
        ({"teams": [TEAMS[0], {"name": "Team 2", "players": ["A"]}]}, "/teams/1/players", "team_count"),
        ({"name": "x" * 101}, "/name", "invalid_value"),
        ({"preset": "nope"}, "/preset", "unknown_preset"),
        ({"rules": {"clean_book_bonus": "a lot"}}, "/rules/clean_book_bonus", "invalid_type"),
        ({"teams": [{"name": "A", "players": []}, TEAMS[1]]}, "/teams/0/players", "invalid_value"),
    ],
)
def test_create_game_refuses_bad_bodies(
    flask_client: FlaskClient, db_backend: str, body: dict, pointer: str, code: str
) -> None:
    response = flask_client.post("/v1/games", json={"name": "F", "preset": "pagat", "teams": TEAMS, **body})
    assert response.status_code == 422, response.get_json()
    assert response.content_type == "application/problem+json"
    errors = response.get_json()["errors"]
    assert {"pointer": pointer, "code": code} in [{"pointer": e.get("pointer"), "code": e["code"]} for e in errors]


def test_seed_game_score_sheet(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = play_seed_game(flask_client)
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert [[t["total"] for t in r["scores"]] for r in game["rounds"]] == SEED_SCORES
    assert [[t["total"] for t in r["totals_after"]] for r in game["rounds"]] == SEED_RUNNING
    full = [flask_client.get(r["href"]).get_json() for r in game["rounds"]]  # each summary links its round
    assert [[b["total"] for b in r["teams"]] for r in full] == SEED_SCORES
    assert [r["totals_after"] for r in full] == [r["totals_after"] for r in game["rounds"]]
    assert game["totals"] == [{"name": "Team 1", "total": 10480}, {"name": "Team 2", "total": 9245}]
    assert game["status"] == "finished" and game["winner"] == "Team 1" and game["tie"] is False
    assert game["leaders"] == ["Team 1"] and game["end_reason"] == "4 rounds played"
    assert game["next_round"] is None and game["next_contract"] is None and game["next_opening_minimum"] is None

    sheet = flask_client.get(f"/v1/games/{game_id}/scoresheet").get_json()
    assert sheet == {
        "game_id": game_id,
        "name": "Friday",
        "teams": ["Team 1", "Team 2"],
        "rows": [
            {"round": n, "scores": s, "totals": t}
            for n, s, t in zip(range(1, 5), SEED_SCORES, SEED_RUNNING, strict=True)
        ],
        "totals": [10480, 9245],
        "status": "finished",
        "leaders": ["Team 1"],
        "winner": "Team 1",
        "tie": False,
    }

    response = flask_client.get(f"/v1/games/{game_id}/scoresheet", headers={"Accept": "text/csv"})
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows == [
        ["round", "Team 1", "Team 1 total", "Team 2", "Team 2 total"],
        ["1", "3740", "3740", "1075", "1075"],
        ["2", "1540", "5280", "3720", "4795"],
        ["3", "4495", "9775", "150", "4945"],
        ["4", "705", "10480", "4300", "9245"],
    ]
    assert flask_client.get(f"/v1/games/{game_id}/scoresheet", headers={"Accept": "image/png"}).status_code == 406


def test_round_answer(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"round": 1, "teams": SEED_ROUND_1[::-1]})
    assert response.status_code == 201
    assert response.headers["Location"] == f"/v1/games/{game_id}/rounds/1"
    rnd = response.get_json()
    assert rnd["number"] == 1 and rnd["revision"] == 1
    assert rnd["request"] == {"round": 1, "teams": SEED_ROUND_1[::-1]}  # as sent
    assert [b["name"] for b in rnd["teams"]] == ["Team 1", "Team 2"]  # the game's side order
    assert rnd["totals_after"] == [{"name": "Team 1", "total": 3740}, {"name": "Team 2", "total": 1075}]
    lines = {line["code"]: line["points"] for line in rnd["teams"][0]["lines"]}
    assert lines["wild_books"] == 1500 and lines["points_left"] == -25
    got = flask_client.get(f"/v1/games/{game_id}/rounds/1")
    assert got.get_json() == rnd and got.headers["ETag"] == response.headers["ETag"]
    assert flask_client.get(f"/v1/games/{game_id}/rounds/2").status_code == 404
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["version"] == 2 and game["next_round"] == 2 and game["next_opening_minimum"] == 90


def test_cards_form_round(flask_client: FlaskClient, db_backend: str) -> None:
    request = json.loads((WORKED_CASES / "s0-worked-round-cards.json").read_text())["request"]
    game_id = create_game(flask_client)["id"]
    rnd = append(flask_client, game_id, request["teams"])
    assert [b["total"] for b in rnd["teams"]] == [3740, 1075]


@pytest.mark.parametrize(
    ("teams", "pointer", "code"),
    [
        ([SEED_ROUND_1[0]], "/teams", "missing_side"),
        ([SEED_ROUND_1[0], {**SEED_ROUND_1[1], "name": "Team 3"}], "/teams/1/name", "unknown_side"),
        ([SEED_ROUND_1[0], SEED_ROUND_1[1], {**SEED_ROUND_1[1], "went_out": False}], "/teams/2/name", "duplicate_side"),
    ],
)
def test_round_sides_must_match(
    flask_client: FlaskClient, db_backend: str, teams: list, pointer: str, code: str
) -> None:
    game_id = create_game(flask_client)["id"]
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": teams})
    assert response.status_code == 422
    assert (pointer, code) in [(e["pointer"], e["code"]) for e in response.get_json()["errors"]]
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 0


def test_round_breaking_the_rules_is_422_and_stores_nothing(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    teams = [tally("Team 1", out=True, clean=1, table=100), tally("Team 2", out=True, clean=2, table=100)]
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": teams})
    assert response.status_code == 422
    codes = {e["code"] for e in response.get_json()["errors"]}
    assert {"two_sides_out", "contract_not_met"} <= codes
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["version"] == 1


def test_round_number_must_be_next(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"round": 2, "teams": SEED_ROUND_1})
    assert response.status_code == 409
    problem = response.get_json()
    assert problem["type"] == PROBLEMS + "round-number" and problem["next_round"] == 1
    append(flask_client, game_id, SEED_ROUND_1, round=1)


def test_appending_past_the_end_is_409(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = play_seed_game(flask_client)
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1})
    assert response.status_code == 409
    problem = response.get_json()
    assert problem["type"] == PROBLEMS + "game-finished"
    assert "4 rounds played" in problem["detail"] and problem["end_reason"] == "4 rounds played"
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 4


TIE_ROUNDS = [out_round("Team 1", "Team 2"), out_round("Team 2", "Team 1")] * 2


def test_pagat_tie_stands(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client, "pagat")["id"]
    for teams in TIE_ROUNDS:
        append(flask_client, game_id, teams)
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["totals"] == [{"name": "Team 1", "total": 8700}, {"name": "Team 2", "total": 8700}]
    assert game["status"] == "finished" and game["tie"] is True and game["winner"] is None
    assert game["leaders"] == ["Team 1", "Team 2"]
    assert game["end_reason"] == "4 rounds played; tie stands"
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": TIE_ROUNDS[0]})
    assert response.status_code == 409 and response.get_json()["type"] == PROBLEMS + "game-finished"
    assert flask_client.get(f"/v1/games/{game_id}/scoresheet").get_json()["tie"] is True


def test_online_tie_calls_for_a_tiebreaker_round(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client, "online-11-13")["id"]
    for teams in TIE_ROUNDS:
        append(flask_client, game_id, teams)
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["status"] == "tiebreaker" and game["tie"] is False and game["winner"] is None
    assert game["leaders"] == ["Team 1", "Team 2"]
    assert game["next_round"] == 5 and game["next_opening_minimum"] == 150
    assert flask_client.get("/v1/games?status=tiebreaker").get_json()[0]["id"] == game_id

    rnd = append(flask_client, game_id, out_round("Team 2", "Team 1"))
    assert rnd["number"] == 5
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["status"] == "finished" and game["winner"] == "Team 2" and game["tie"] is False
    assert game["end_reason"] == "4 rounds played; Team 2 won after 1 tiebreaker round"
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": TIE_ROUNDS[0]})
    assert response.status_code == 409 and response.get_json()["type"] == PROBLEMS + "game-finished"


def test_target_score_game(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client, rules={"rounds": None, "target_score": 7000})["id"]
    append(flask_client, game_id, out_round("Team 1", "Team 2"))
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["status"] == "in_progress"
    append(flask_client, game_id, out_round("Team 1", "Team 2"))
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["status"] == "finished" and game["winner"] == "Team 1" and game["end_reason"] == "Team 1 reached 7000"


def test_correct_a_round(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = play_seed_game(flask_client)
    before = flask_client.get(f"/v1/games/{game_id}").get_json()
    got = flask_client.get(f"/v1/games/{game_id}/rounds/2")
    etag = got.headers["ETag"]
    body = {
        "teams": [
            tally("Team 1", clean=1, dirty=2, red=1, table=400, left=60),
            tally("Team 2", out=True, clean=2, dirty=2, wild=1, table=620),
        ]
    }  # 100 more: 3820

    assert flask_client.put(f"/v1/games/{game_id}/rounds/2", json=body).status_code == 428
    assert (
        flask_client.put(f"/v1/games/{game_id}/rounds/2", json=body, headers={"If-Match": '"stale"'}).status_code == 412
    )
    response = flask_client.put(f"/v1/games/{game_id}/rounds/2", json=body, headers={"If-Match": etag})
    assert response.status_code == 200, response.get_json()
    rnd = response.get_json()
    assert rnd["revision"] == 2 and response.headers["ETag"] != etag
    assert [t["total"] for t in rnd["totals_after"]] == [5280, 4895]
    # the same correction again on the ETag it replaced: its retry, answered as done (no revision)
    again = flask_client.put(f"/v1/games/{game_id}/rounds/2", json=body, headers={"If-Match": etag})
    assert again.status_code == 200 and again.get_json() == rnd
    other = {"teams": [body["teams"][0], tally("Team 2", out=True, clean=2, dirty=2, wild=1, table=600)]}
    stale = flask_client.put(f"/v1/games/{game_id}/rounds/2", json=other, headers={"If-Match": etag})
    assert stale.status_code == 412 and stale.get_json()["type"] == PROBLEMS + "precondition-failed"

    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert [[t["total"] for t in r["totals_after"]] for r in game["rounds"]] == [
        [3740, 1075],
        [5280, 4895],
        [9775, 5045],
        [10480, 9345],
    ]
    assert game["version"] > before["version"]

    revisions = flask_client.get(f"/v1/games/{game_id}/rounds/2/revisions").get_json()
    assert [(r["revision"], r["current"]) for r in revisions] == [(1, False), (2, True)]
    assert revisions[0]["request"]["teams"][1]["tally"]["table_points"] == 520
    assert revisions[0]["teams"][1]["total"] == 3720 and revisions[0]["replaced_at"] is not None
    assert revisions[1]["request"] == {**body, "round": 2} and revisions[1]["replaced_at"] is None
    assert revisions[1]["created_at"] == revisions[0]["replaced_at"]
    assert flask_client.get(f"/v1/games/{game_id}/rounds/9/revisions").status_code == 404


def test_a_correction_can_change_the_outcome(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client, "online-11-13")["id"]
    rounds = [
        out_round("Team 1", "Team 2"),
        out_round("Team 2", "Team 1"),
        out_round("Team 1", "Team 2"),
        out_round("Team 1", "Team 2"),
    ]
    for teams in rounds:
        append(flask_client, game_id, teams)
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["winner"] == "Team 1"
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/4").headers["ETag"]
    response = flask_client.put(
        f"/v1/games/{game_id}/rounds/4", json={"teams": out_round("Team 2", "Team 1")}, headers={"If-Match": etag}
    )
    assert response.status_code == 200
    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    assert game["status"] == "tiebreaker" and game["next_round"] == 5 and game["winner"] is None


def _stored_and_recomputed(app: Flask, game_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's stored state, and the state recomputed from every stored round."""
    from handfoot.server.auth import Actor
    from handfoot.server.db import get_db
    from handfoot.server.services import games as svc

    with app.app_context():
        game = svc.get_game(get_db(), Actor(key_id=None, name=None), game_id)
        return game.state, svc.state_mapping(replayed_state(game))


@pytest.mark.parametrize("preset", ["pagat", "online-11-13"])
def test_appended_state_equals_a_full_recompute(
    app: Flask, flask_client: FlaskClient, db_backend: str, preset: str
) -> None:
    """Appends compute the new state from the running totals on the game row, not from every round;
    after every append (through ties, a tiebreaker, the end, and after a correction) it must be what
    recomputing from all the rounds gives."""
    game_id = create_game(flask_client, preset)["id"]
    for k, teams in enumerate(SEED_GAME[:2] + TIE_ROUNDS + [out_round("Team 2", "Team 1")] * 2):
        if PRESETS[preset].rules.red_threes_automatic:  # no red three is caught there (D76)
            teams = [{**t, "tally": {**t["tally"], "red_threes_caught": 0}} for t in teams]
        response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": teams})
        assert response.status_code in (201, 409), response.get_json()
        stored, recomputed = _stored_and_recomputed(app, game_id)
        assert stored == recomputed, k
        if k == 1:
            etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
            assert (
                flask_client.put(
                    f"/v1/games/{game_id}/rounds/1",
                    json={"teams": out_round("Team 2", "Team 1")},
                    headers={"If-Match": etag},
                ).status_code
                == 200
            )
            stored, recomputed = _stored_and_recomputed(app, game_id)
            assert stored == recomputed


def test_append_recomputes_when_the_stored_state_does_not_match(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    from sqlalchemy import update

    from handfoot.server.db import get_db
    from handfoot.server.models import Game

    game_id = play_seed_game(flask_client)
    with app.app_context(), get_db().write_session() as session:  # a state without its running totals
        session.execute(update(Game).where(Game.id == game_id).values(state={"status": "in_progress"}))
    rnd = append(flask_client, game_id, out_round("Team 1", "Team 2"))
    assert [t["total"] for t in rnd["totals_after"]] == [10480 + 3700, 9245 + 650]
    stored, recomputed = _stored_and_recomputed(app, game_id)
    assert stored == recomputed and stored["running"][:4] == SEED_RUNNING


def test_correction_refuses_bad_bodies(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = play_seed_game(flask_client)
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    response = flask_client.put(
        f"/v1/games/{game_id}/rounds/1", json={"teams": [SEED_ROUND_1[0]]}, headers={"If-Match": etag}
    )
    assert response.status_code == 422
    assert (
        flask_client.put(
            f"/v1/games/{game_id}/rounds/7", json={"teams": SEED_ROUND_1}, headers={"If-Match": etag}
        ).status_code
        == 404
    )
    assert flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"] == etag


def test_list_filters_and_pagination(flask_client: FlaskClient, db_backend: str) -> None:
    ids = [create_game(flask_client, name=f"g{i}")["id"] for i in range(5)]
    other = create_game(
        flask_client,
        "online-11-13",
        name="online",
        teams=[{"name": "A", "players": ["Ann", "Bo"]}, {"name": "B", "players": ["Cy", "Di"]}],
    )["id"]
    finished = play_seed_game(flask_client)

    response = flask_client.get("/v1/games")
    assert response.status_code == 200
    assert [g["id"] for g in response.get_json()] == [finished, other, *ids[::-1]]  # newest first
    summary = response.get_json()[0]
    assert set(summary) == {
        "id",
        "name",
        "preset",
        "status",
        "teams",
        "totals",
        "leaders",
        "winner",
        "tie",
        "rounds_played",
        "created_at",
        "updated_at",
    }

    page = flask_client.get("/v1/games?page=2&page_size=3")
    assert [g["id"] for g in page.get_json()] == [ids[3], ids[2], ids[1]]
    assert '"total": 7' in page.headers["X-Pagination"]
    assert 'rel="next"' in page.headers["Link"] and 'rel="prev"' in page.headers["Link"]
    assert flask_client.get("/v1/games?page_size=101").status_code == 422

    assert [g["id"] for g in flask_client.get("/v1/games?status=finished").get_json()] == [finished]
    assert [g["id"] for g in flask_client.get("/v1/games?preset=online-11-13").get_json()] == [other]
    assert [g["id"] for g in flask_client.get("/v1/games?player=ann").get_json()] == [other]
    assert len(flask_client.get("/v1/games?player=North").get_json()) == 6
    assert flask_client.get("/v1/games?player=Nobody").get_json() == []
    assert flask_client.get("/v1/games?status=paused").status_code == 422


def test_get_game_etag_and_not_modified(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    response = flask_client.get(f"/v1/games/{game_id}")
    etag = response.headers["ETag"]
    assert flask_client.get(f"/v1/games/{game_id}", headers={"If-None-Match": etag}).status_code == 304
    append(flask_client, game_id, SEED_ROUND_1)
    assert flask_client.get(f"/v1/games/{game_id}", headers={"If-None-Match": etag}).status_code == 200


def test_delete_game(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = play_seed_game(flask_client)
    etag = flask_client.get(f"/v1/games/{game_id}").headers["ETag"]
    etag1 = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    flask_client.put(f"/v1/games/{game_id}/rounds/1", json={"teams": SEED_ROUND_1}, headers={"If-Match": etag1})
    stale = flask_client.delete(f"/v1/games/{game_id}", headers={"If-Match": etag})
    assert stale.status_code == 412
    etag = flask_client.get(f"/v1/games/{game_id}").headers["ETag"]
    assert flask_client.delete(f"/v1/games/{game_id}", headers={"If-Match": etag}).status_code == 204
    assert flask_client.get(f"/v1/games/{game_id}").status_code == 404
    assert flask_client.delete(f"/v1/games/{game_id}").status_code == 404
    other = create_game(flask_client)["id"]
    assert flask_client.delete(f"/v1/games/{other}").status_code == 204  # If-Match is optional


def test_unknown_game_is_404_everywhere(flask_client: FlaskClient, db_backend: str) -> None:
    for method, path in [
        ("get", "/v1/games/99"),
        ("delete", "/v1/games/99"),
        ("post", "/v1/games/99/rounds"),
        ("get", "/v1/games/99/rounds/1"),
        ("get", "/v1/games/99/rounds/1/revisions"),
        ("get", "/v1/games/99/scoresheet"),
    ]:
        kwargs = {"json": {"teams": SEED_ROUND_1}} if method == "post" else {}
        response = getattr(flask_client, method)(path, **kwargs)
        assert response.status_code == 404, (method, path)
        assert response.get_json()["type"] == PROBLEMS + "not-found"


def test_round_limit(flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client, rules={"rounds": None, "target_score": 1_000_000})["id"]
    small = [tally("Team 1", clean=1, table=100), tally("Team 2", clean=1, table=100)]
    for _ in range(50):
        append(flask_client, game_id, small)
    response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": small})
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["code"] == "round_limit"
