"""Histories in bulk: GET /v1/games/export (NDJSON, CSV) and GET /v1/games/stats.

On SQLite and PostgreSQL: every line is the game as GET /v1/games/{id} gives it, the CSV has a row
per side per round, the filters narrow and bad filters are 422s naming the parameter, an owner sees
only their own games, the export reads in batches, and the statistics add up from the rounds.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from handfoot.server.models import Game
from handfoot.server.resources.history.serializers import CSV_COLUMNS
from handfoot.server.services import history
from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game, out_round, recorded_statements, tally

pytestmark = pytest.mark.db


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# Each streamed answer is read inside ``with response:``, so it is closed even when an assertion
# fails first: an open export holds a database session (the ``client`` fixture closes any left).


def ndjson(response: Any) -> list[dict[str, Any]]:
    with response:
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.mimetype == "application/x-ndjson"
        text = response.get_data(as_text=True)
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def csv_rows(response: Any) -> list[dict[str, str]]:
    with response:
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.mimetype == "text/csv"
        text = response.get_data(as_text=True)
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
    return list(reader)


def set_created(app: Flask, game_id: int, when: str) -> None:
    from datetime import datetime

    with get_db(app).write_session() as session:
        session.execute(update(Game).where(Game.id == game_id).values(created_at=datetime.fromisoformat(when)))


def two_games(flask_client: FlaskClient, headers: dict[str, str] | None = None) -> tuple[int, int]:
    """A pagat game of two rounds (seed 000's round, then Team 2 goes out) and a BGA game of one."""
    first = create_game(flask_client, headers=headers)["id"]
    append(flask_client, first, SEED_ROUND_1, headers=headers)
    append(flask_client, first, out_round("Team 2", "Team 1"), headers=headers)
    second = create_game(
        flask_client,
        "bga",
        name="=cmd|' /C calc'!A0",
        headers=headers,
        teams=[{"name": "Us", "players": ["north", "East"]}, {"name": "Them", "players": ["Zoë", "Yan"]}],
    )["id"]
    append(flask_client, second, out_round("Us", "Them"), headers=headers)
    return first, second


# -- export ----------------------------------------------------------------------------------


def test_ndjson_lines_are_the_games_as_read(flask_client: FlaskClient, db_backend: str) -> None:
    first, second = two_games(flask_client)
    with flask_client.get("/v1/games/export") as response:
        assert response.is_streamed
        lines = ndjson(response)
    assert [line["id"] for line in lines] == [first, second]  # oldest first
    for line in lines:
        assert line == flask_client.get(f"/v1/games/{line['id']}").get_json()
    assert [r["scores"][0]["total"] for r in lines[0]["rounds"]] == [3740, 650]


def test_csv_has_one_row_per_side_per_round(flask_client: FlaskClient, db_backend: str) -> None:
    first, second = two_games(flask_client)
    rows = csv_rows(flask_client.get("/v1/games/export", headers={"Accept": "text/csv"}))
    assert len(rows) == 2 * 2 + 1 * 2
    assert [(int(r["game_id"]), int(r["round"]), r["side"]) for r in rows] == [
        (first, 1, "Team 1"),
        (first, 1, "Team 2"),
        (first, 2, "Team 1"),
        (first, 2, "Team 2"),
        (second, 1, "Us"),
        (second, 1, "Them"),
    ]
    seed = rows[0]
    assert (seed["score"], seed["total_after"], seed["went_out"]) == ("3740", "3740", "1")
    assert seed["players"] == "North; South"
    assert (seed["clean_books"], seed["dirty_books"], seed["wild_books"]) == ("2", "2", "1")
    assert (seed["wild_books_points"], seed["points_left_points"], seed["going_out_points"]) == ("1500", "-25", "100")
    assert rows[3]["total_after"] == str(1075 + 3700)
    assert rows[4]["game"].startswith("'=")  # a spreadsheet does not run it
    assert rows[4]["players"] == "north; East"
    # format= wins over Accept
    assert csv_rows(flask_client.get("/v1/games/export?format=csv", headers={"Accept": "application/x-ndjson"})) == rows


def test_won_game_marks_the_winner_of_a_finished_game(flask_client: FlaskClient, db_backend: str) -> None:
    game = create_game(flask_client, rules={"rounds": 1})["id"]
    append(flask_client, game, SEED_ROUND_1)
    rows = csv_rows(flask_client.get("/v1/games/export?format=csv"))
    assert [(r["side"], r["game_status"], r["won_game"]) for r in rows] == [
        ("Team 1", "finished", "1"),
        ("Team 2", "finished", "0"),
    ]


def test_empty_export(flask_client: FlaskClient, db_backend: str) -> None:
    assert ndjson(flask_client.get("/v1/games/export")) == []
    assert csv_rows(flask_client.get("/v1/games/export?format=csv")) == []


def test_filters_by_date_and_preset(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    first, second = two_games(flask_client)
    set_created(app, first, "2026-10-15T20:00:00+00:00")
    set_created(app, second, "2026-11-01T00:00:00+00:00")

    def ids(query: str) -> list[int]:
        return [line["id"] for line in ndjson(flask_client.get(f"/v1/games/export?{query}"))]

    assert ids("since=2026-11-01") == [second]  # at or after midnight UTC
    assert ids("until=2026-11-01") == [first]  # before: the range is half-open
    assert ids("since=2026-10-15T20:00:00Z&until=2026-10-15T20:00:01") == [first]
    assert ids("since=2026-10-15T21:00:00%2B01:00&until=2026-10-16") == [first]  # an offset is honoured
    assert ids("preset=bga") == [second]
    assert ids("preset=pagat&since=2026-11-01") == []
    stats = flask_client.get("/v1/games/stats?preset=bga").get_json()
    assert (stats["games"], stats["rounds"]) == (1, 1)


BAD_FILTERS = [
    ("since=yesterday", "since"),
    ("until=2026-13-01", "until"),
    ("since=2026-11-02&until=2026-11-01", "until"),
    ("since=2026-11-01&until=2026-11-01", "until"),
    ("preset=nosuch", "preset"),
]
BAD_CASES = [(path, q, p) for path in ("/v1/games/export", "/v1/games/stats") for q, p in BAD_FILTERS] + [
    ("/v1/games/export", "format=xlsx", "format")
]


@pytest.mark.parametrize(("path", "query", "parameter"), BAD_CASES, ids=[f"{p} {q}" for p, q, _ in BAD_CASES])
def test_bad_filters_are_422_naming_the_parameter(
    flask_client: FlaskClient, db_backend: str, path: str, query: str, parameter: str
) -> None:
    response = flask_client.get(f"{path}?{query}")
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    problem = response.get_json()
    assert [e.get("parameter") for e in problem["errors"]] == [parameter]
    assert parameter in json.dumps(problem)


def test_accept_without_ndjson_or_csv_is_406(flask_client: FlaskClient, db_backend: str) -> None:
    with flask_client.get("/v1/games/export", headers={"Accept": "application/xml"}) as response:
        assert response.status_code == 406
        assert response.content_type == "application/problem+json"


def test_export_reads_in_batches(
    app: Flask, flask_client: FlaskClient, db_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [create_game(flask_client, name=f"g{i}")["id"] for i in range(5)]
    for game in games:
        append(flask_client, game, SEED_ROUND_1)
    monkeypatch.setattr(history, "BATCH_SIZE", 2)
    with recorded_statements(app) as statements:
        lines = ndjson(flask_client.get("/v1/games/export"))
    assert [line["id"] for line in lines] == games
    game_queries = [s for s in statements if s.startswith("SELECT") and "FROM games" in s and "LIMIT" in s]
    assert len(game_queries) == 3  # 2 + 2 + 1, never all five at once


def test_an_export_left_unread_is_closed_by_the_client_fixture(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    """A stream nobody read (an assertion failed first) holds its own session; the ``client``
    fixture's close (tests/conftest.py, ClosingClient) gives its connection back before the database
    is dropped."""
    two_games(flask_client)
    pool = get_db(app).engine.pool
    response = flask_client.get("/v1/games/export")
    assert response.is_streamed
    assert pool.checkedout() == 1  # type: ignore[attr-defined]  # the export's own session, still open
    flask_client.close_streams()  # type: ignore[attr-defined]  # what the fixture does when the test ends
    assert pool.checkedout() == 0  # type: ignore[attr-defined]


# -- ownership --------------------------------------------------------------------------------


def test_an_owner_sees_only_their_own_games(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    anonymous = create_game(flask_client)["id"]  # made before any key: nobody's
    _, alice = create_key(get_db(app), "alice")
    _, bob = create_key(get_db(app), "bob")
    first, second = two_games(flask_client, bearer(alice))
    bobs = create_game(flask_client, headers=bearer(bob))["id"]
    append(flask_client, bobs, SEED_ROUND_1, headers=bearer(bob))

    assert [g["id"] for g in ndjson(flask_client.get("/v1/games/export", headers=bearer(alice)))] == [first, second]
    assert [g["id"] for g in ndjson(flask_client.get("/v1/games/export", headers=bearer(bob)))] == [bobs]
    assert {
        int(r["game_id"]) for r in csv_rows(flask_client.get("/v1/games/export?format=csv", headers=bearer(bob)))
    } == {bobs}
    stats = flask_client.get("/v1/games/stats", headers=bearer(bob)).get_json()
    assert (stats["games"], stats["rounds"]) == (1, 1)
    assert anonymous not in [g["id"] for g in ndjson(flask_client.get("/v1/games/export", headers=bearer(alice)))]
    for path in ("/v1/games/export", "/v1/games/stats"):
        response = flask_client.get(path)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert flask_client.get(path, headers=bearer(alice)).headers["Cache-Control"] == "no-store"


# -- statistics -------------------------------------------------------------------------------


def test_statistics_add_up_from_the_rounds(flask_client: FlaskClient, db_backend: str) -> None:
    two_games(flask_client)
    finished = create_game(
        flask_client,
        rules={"rounds": 1},
        teams=[{"name": "A", "players": ["NORTH", "South"]}, {"name": "B", "players": ["West", "East"]}],
    )["id"]
    append(
        flask_client,
        finished,
        [tally("A", clean=1, table=100, left=10), tally("B", out=True, clean=2, dirty=2, wild=1, table=300)],
    )
    stats = flask_client.get("/v1/games/stats").get_json()
    assert (stats["games"], stats["rounds"]) == (3, 4)
    players = {p["name"]: p for p in stats["players"]}
    # "North", "north" and "NORTH" are one player, shown as last written
    north = players["NORTH"]
    assert north["names"] == ["North", "north", "NORTH"]
    assert (north["games"], north["finished"], north["wins"], north["rounds"]) == (3, 1, 0, 4)
    assert north["points"] == 3740 + 650 + 3700 + 590
    assert north["best_round"] == 3740
    assert north["average_round"] == round((3740 + 650 + 3700 + 590) / 4, 1)
    assert north["went_out"] == 2
    assert north["books"] == {"clean": 2 + 1 + 2 + 1, "dirty": 2 + 0 + 2 + 0, "wild": 1 + 0 + 1 + 0}
    east = players["East"]
    assert (east["games"], east["finished"], east["wins"]) == (3, 1, 1)
    # sides: the same partners in any order are one side, whatever it was called
    sides = {tuple(s["players"]): s for s in stats["sides"]}
    west_east = sides[("West", "East")]
    assert west_east["names"] == ["Team 2", "B"]
    assert (west_east["games"], west_east["wins"], west_east["rounds"]) == (2, 1, 3)
    assert sides[("north", "East")]["games"] == 1
    assert stats["players"][0]["games"] >= stats["players"][-1]["games"]  # most games first


def _figures_from_export(flask_client: FlaskClient) -> dict[str, tuple[int, int, int, int, dict[str, int]]]:
    """Each player's (rounds, points, best round, went out, books) counted from every exported game's
    stored Breakdowns (each round as read), by the engine's reading of them: what the database's
    sums must agree with."""
    from handfoot.engine.history import player_key, side_round_facts

    out: dict[str, list[Any]] = {}
    for game in ndjson(flask_client.get("/v1/games/export")):
        for summary in game["rounds"]:
            rnd = flask_client.get(f"/v1/games/{game['id']}/rounds/{summary['number']}").get_json()
            for team, breakdown in zip(game["teams"], rnd["teams"], strict=True):
                facts = side_round_facts(breakdown)
                for player in team["players"]:
                    f = out.setdefault(player_key(player), [0, 0, None, 0, {"clean": 0, "dirty": 0, "wild": 0}])
                    f[0] += 1
                    f[1] += facts.score
                    f[2] = facts.score if f[2] is None else max(f[2], facts.score)
                    f[3] += facts.went_out
                    for kind, n in facts.books.items():
                        f[4][kind] += n
    return {key: tuple(f) for key, f in out.items()}  # type: ignore[misc]


def _figures_from_stats(flask_client: FlaskClient) -> dict[str, tuple[int, int, int, int, dict[str, int]]]:
    from handfoot.engine.history import player_key

    stats = flask_client.get("/v1/games/stats").get_json()
    return {
        player_key(p["name"]): (p["rounds"], p["points"], p["best_round"], p["went_out"], p["books"])
        for p in stats["players"]
        if p["rounds"]
    }


def test_statistics_follow_every_write_of_a_round(flask_client: FlaskClient, db_backend: str) -> None:
    """The database's sums (``round_sides``) agree with the stored Breakdowns after appends, a
    correction, a deletion of the last round and a game's deletion: every write keeps them."""
    first = create_game(flask_client, teams=TEAMS)["id"]
    for body in (out_round("Team 1", "Team 2"), SEED_ROUND_1, out_round("Team 2", "Team 1")):
        append(flask_client, first, body)
    second = create_game(flask_client, teams=TEAMS)["id"]
    append(flask_client, second, out_round("Team 2", "Team 1"))
    checked = [_figures_from_stats(flask_client)]
    assert checked[0] == _figures_from_export(flask_client) and checked[0]

    etag = flask_client.get(f"/v1/games/{first}/rounds/2").headers["ETag"]
    corrected = flask_client.put(
        f"/v1/games/{first}/rounds/2", json={"teams": out_round("Team 1", "Team 2")}, headers={"If-Match": etag}
    )
    assert corrected.status_code == 200
    checked.append(_figures_from_stats(flask_client))
    assert checked[-1] == _figures_from_export(flask_client)

    etag = flask_client.get(f"/v1/games/{first}").headers["ETag"]
    assert flask_client.delete(f"/v1/games/{first}/rounds/3", headers={"If-Match": etag}).status_code == 204
    checked.append(_figures_from_stats(flask_client))
    assert checked[-1] == _figures_from_export(flask_client)

    assert flask_client.delete(f"/v1/games/{second}").status_code == 204
    checked.append(_figures_from_stats(flask_client))
    assert checked[-1] == _figures_from_export(flask_client)
    assert len({repr(sorted(c.items())) for c in checked}) == 4  # each write changed the figures


def test_statistics_empty(flask_client: FlaskClient, db_backend: str) -> None:
    assert flask_client.get("/v1/games/stats").get_json() == {"games": 0, "rounds": 0, "players": [], "sides": []}


def test_statistics_of_a_game_without_rounds(flask_client: FlaskClient, db_backend: str) -> None:
    create_game(flask_client, teams=TEAMS)
    stats = flask_client.get("/v1/games/stats").get_json()
    north = next(p for p in stats["players"] if p["name"] == "North")
    assert (north["games"], north["rounds"], north["average_round"], north["best_round"]) == (1, 0, None, None)


# -- cost -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/games/export", "/v1/games/export?format=csv", "/v1/games/stats"])
def test_histories_leave_no_reference_cycles_per_game(flask_client: FlaskClient, db_backend: str, path: str) -> None:
    """The histories read plain rows and free them by reference counting alone: the cyclic garbage
    a request leaves (a few objects of Flask's and SQLAlchemy's own) does not grow with the games
    read, so no batch needs a full collection (``gc.collect`` costs 0.5 s+ in a big process)."""
    import gc

    def garbage() -> int:
        gc.collect()
        gc.disable()
        try:
            with flask_client.get(path) as response:
                assert response.status_code == 200
                response.get_data()
            return gc.collect()
        finally:
            gc.enable()

    two_games(flask_client)
    flask_client.get(path).close()  # warm: first-use caches (compiled statements, url maps) are not garbage
    few = garbage()
    for _ in range(3):
        two_games(flask_client)
    assert garbage() == few
