"""Game reads: one snapshot per read, a cost that follows what is shown, the CSV score sheet, stored
warnings read back.

Every games read answers as of one moment: a write committed while the read runs, between its
statements (the game's row, then its rounds, a round's revisions, a numbered list's count and
page), shows in none of them; the keyset list and the score sheet read in one statement.

Found by a tester on PostgreSQL: with one thread appending while others read, the scoresheet
sometimes failed with a 500 (more rounds than the running totals it had read) and a game came back
with round 1 but ``rounds_played`` 0. Each statement of a read transaction had its own snapshot
(READ COMMITTED). Runs on SQLite and PostgreSQL.

A game's reads cost what they show (issue 18, "the next scale").

``GET /v1/games/{id}`` once loaded every stored round (its request and Breakdowns) and dumped them;
the score sheet loaded them too, though the game row holds the running totals. Now the score sheet
reads the game row alone, and the game read summarises each round from it (scores, running totals,
a link to the round), reading of the rounds only their numbers and revisions: a 50-round game's
reads run the statements of a 1-round game's and read no request or Breakdown.

The CSV score sheet never carries a live spreadsheet formula (issue 18, defect 4; OWASP "CSV
Injection"): a text cell that begins with ``=``, ``+``, ``-``, ``@``, tab or carriage return is
written with a leading ``'``; numbers (negative totals too) stay numbers; the JSON form is exact.

A stored round whose breakdown carries warnings (rule ``illegal_melds_stand``, the Hodges family
rules' "what's layed is played", D31) is answered, not a 500, by every operation that returns a stored
breakdown: the append, the round read, the correction and the revisions list.

Stored breakdowns are plain JSON (``breakdown_data``), while ``BreakdownSchema``'s warnings dumped only
the engine's ``Problem`` objects; the warning read back must be the one the score endpoint gave.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
import unicodedata
from typing import Any

import pytest
from flask import Flask, jsonify
from flask.testing import FlaskClient
from hypothesis import example, given
from hypothesis import strategies as st
from sqlalchemy import event

from handfoot.server.auth import ANONYMOUS
from handfoot.server.db import get_db
from handfoot.server.resources.games import serializers
from handfoot.server.resources.games.schemas import GameSchema
from handfoot.server.resources.games.serializers import csv_cell, scoresheet_csv
from handfoot.server.services import games as svc
from handfoot.server.services import rounds as rounds_svc
from tests.helpers.game_routes import GAME_OPERATIONS, call
from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game, out_round, recorded_statements, tally

READS = sorted(op for op in GAME_OPERATIONS if op[0] == "get")
CORRECTED = [
    tally("Team 1", out=True, clean=2, dirty=2, wild=1, table=700),
    tally("Team 2", clean=1, table=150, left=20),
]


#: A numbered page of the list (the deprecated ``page``): a count, then the page.
NUMBERED_LIST = ("get", "/v1/games?page=1")


class _Read:
    """A read's status, ETag and body (JSON, or a stream's NDJSON lines), the stream read to its end."""

    def __init__(self, response: Any) -> None:
        with response:  # closed even if reading fails: an open stream holds a database session
            self.status_code, self.headers = response.status_code, response.headers
            text = response.get_data(as_text=True)
            self.body = (
                [json.loads(line) for line in text.splitlines()]
                if response.mimetype == "application/x-ndjson"
                else response.get_json()
            )

    def get_json(self) -> Any:
        return self.body


def _send(flask_client: FlaskClient, op: tuple[str, str], game_id: int) -> _Read:
    if op == NUMBERED_LIST:
        return _Read(flask_client.get("/v1/games", query_string={"page": 1}))
    return _Read(call(flask_client, op, game_id=game_id))


@pytest.mark.db
@pytest.mark.parametrize("op", [*READS, NUMBERED_LIST], ids=lambda op: f"GET {op[1]}")
def test_a_write_during_a_read_shows_in_none_of_it(
    app: Flask, flask_client: FlaskClient, db_backend: str, op: tuple[str, str]
) -> None:
    """A read of several statements sees none of a write committed between them; a read of one
    statement (the keyset list, the score sheet: the game row alone) has nothing in between."""
    game_id = create_game(flask_client)["id"]
    append(flask_client, game_id, SEED_ROUND_1)
    before = _send(flask_client, op, game_id)
    assert before.status_code == 200

    reader = threading.get_ident()
    selects: list[str] = []
    written: list[bool] = []

    def write() -> None:  # a correction of round 1: new totals, a new revision, the game's state
        try:
            with app.app_context():
                body = {"teams": CORRECTED}
                rounds_svc.correct_round(get_db(), ANONYMOUS, game_id, 1, body, body)
            written.append(True)
        except Exception as err:  # noqa: BLE001 - reported by the assertion below
            selects.append(repr(err))

    def between(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if threading.get_ident() != reader or not statement.lstrip().upper().startswith("SELECT"):
            return
        selects.append(statement)
        if len(selects) == 3:  # the API-key check, the read's first statement, then this one
            worker = threading.Thread(target=write)
            worker.start()
            worker.join(30)

    engine = get_db(app).engine
    event.listen(engine, "before_cursor_execute", between)
    try:
        during = _send(flask_client, op, game_id)
    finally:
        event.remove(engine, "before_cursor_execute", between)
    if op in ONE_STATEMENT:
        assert written == [] and len(selects) == 2, selects  # the key check and the one read
        rounds_svc.correct_round(get_db(app), ANONYMOUS, game_id, 1, {"teams": CORRECTED}, {"teams": CORRECTED})
    else:
        assert written == [True], selects  # the read made a second statement, and the write landed
    assert during.status_code == 200, during.get_json()
    assert during.get_json() == before.get_json()
    assert during.headers.get("ETag") == before.headers.get("ETag")
    after = _send(flask_client, op, game_id)
    assert after.get_json() != before.get_json()  # the write shows in the next read


#: The reads made of one statement past the API-key check.
ONE_STATEMENT = {("get", "/v1/games"), ("get", "/v1/games/{game_id}/scoresheet")}


SIDE_NAMES = [t["name"] for t in TEAMS]


def _game(flask_client: FlaskClient, rounds: int) -> int:
    game_id: int = create_game(flask_client, rules={"rounds": 50})["id"]
    for k in range(rounds):
        winner, other = (SIDE_NAMES[0], SIDE_NAMES[1]) if k % 3 else (SIDE_NAMES[1], SIDE_NAMES[0])
        response = flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": out_round(winner, other)})
        assert response.status_code == 201, response.get_json()
    return game_id


def _shape(statements: list[str]) -> list[str]:
    return [re.sub(r"\d+", "N", s) for s in statements]


def _reads(app: Flask, flask_client: FlaskClient, path: str, **kw: Any) -> tuple[Any, list[str]]:
    with recorded_statements(app) as statements:
        response = flask_client.get(path, **kw)
    assert response.status_code == 200
    return response, statements


def _round_columns(statements: list[str]) -> set[str]:
    """The columns of ``rounds`` the statements select."""
    return {m.group(1) for s in statements if "FROM rounds" in s for m in re.finditer(r"rounds\.(\w+)", s)}


@pytest.mark.db
def test_a_50_round_games_read_loads_no_breakdown(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    """GET /v1/games/{id} once loaded and dumped every stored round (issue 18): its cost must not grow with rounds."""
    one, fifty = _game(flask_client, 1), _game(flask_client, 50)
    _small, small_sql = _reads(app, flask_client, f"/v1/games/{one}")
    large, large_sql = _reads(app, flask_client, f"/v1/games/{fifty}")
    assert _shape(small_sql) == _shape(large_sql)
    assert _round_columns(large_sql) <= {"id", "game_id", "number", "revision"}, large_sql
    assert not any("round_revisions" in s for s in large_sql)
    game = large.get_json()
    assert game["rounds_played"] == 50 and [r["number"] for r in game["rounds"]] == list(range(1, 51))
    assert "lines" not in large.get_data(as_text=True) and "request" not in game["rounds"][0]


@pytest.mark.db
def test_the_score_sheet_reads_the_game_row_alone(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    """The score sheet once loaded every round though the game row holds the running totals."""
    one, fifty = _game(flask_client, 1), _game(flask_client, 50)
    _, small_sql = _reads(app, flask_client, f"/v1/games/{one}/scoresheet")
    sheet, large_sql = _reads(app, flask_client, f"/v1/games/{fifty}/scoresheet")
    csv, csv_sql = _reads(app, flask_client, f"/v1/games/{fifty}/scoresheet", headers={"Accept": "text/csv"})
    assert _shape(small_sql) == _shape(large_sql) == _shape(csv_sql)
    assert not any("FROM rounds" in s for s in large_sql + csv_sql), large_sql
    assert len(sheet.get_json()["rows"]) == 50 and len(csv.get_data(as_text=True).splitlines()) == 51


@pytest.mark.db
def test_the_summaries_and_the_sheet_agree_with_each_rounds_breakdowns(
    flask_client: FlaskClient, db_backend: str
) -> None:
    """Reading less must not answer differently: the summaries equal what the stored breakdowns say."""
    game_id = _game(flask_client, 6)
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/3").headers["ETag"]
    corrected = [
        tally(SIDE_NAMES[0], out=True, clean=3, dirty=2, wild=1, table=610, red=2),
        tally(SIDE_NAMES[1], clean=0, dirty=1, table=90, left=240, caught=1),
    ]
    response = flask_client.put(f"/v1/games/{game_id}/rounds/3", json={"teams": corrected}, headers={"If-Match": etag})
    assert response.status_code == 200, response.get_json()

    game = flask_client.get(f"/v1/games/{game_id}").get_json()
    sheet = flask_client.get(f"/v1/games/{game_id}/scoresheet").get_json()
    full = [flask_client.get(r["href"]).get_json() for r in game["rounds"]]
    assert [r["number"] for r in full] == list(range(1, 7))
    assert [r["revision"] for r in game["rounds"]] == [r["revision"] for r in full] == [1, 1, 2, 1, 1, 1]
    assert [r["scores"] for r in game["rounds"]] == [
        [{"name": b["name"], "total": b["total"]} for b in r["teams"]] for r in full
    ]
    assert [r["totals_after"] for r in game["rounds"]] == [r["totals_after"] for r in full]
    assert [row["scores"] for row in sheet["rows"]] == [[b["total"] for b in r["teams"]] for r in full]
    assert [row["totals"] for row in sheet["rows"]] == [[t["total"] for t in r["totals_after"]] for r in full]
    assert sheet["totals"] == [t["total"] for t in game["totals"]] == sheet["rows"][-1]["totals"]


HOSTILE = [
    '=HYPERLINK("http://evil.example/","ok")',
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    " =1+1",  # after whitespace
    "\u00a0=1+1",  # after a no-break space
    "\uff1d1+1",  # a full-width equals sign
    "|calc",  # a DDE call
]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("name", HOSTILE)
def test_side_names_that_look_like_formulas_are_neutralised(flask_client: FlaskClient, name: str) -> None:
    """CSV injection (issue 18, defect 4): a side name opened as a live spreadsheet formula."""
    teams = [{"name": name, "players": ["a", "b"]}, {"name": "Them", "players": ["c", "d"]}]
    game = create_game(flask_client, name=name, teams=teams)
    response = flask_client.post(
        f"/v1/games/{game['id']}/rounds",
        json={
            "teams": [
                tally(name, clean=1, table=200, left=1000),
                tally("Them", out=True, clean=2, dirty=2, wild=1, table=500),
            ]
        },
    )
    assert response.status_code == 201, response.get_json()
    sheet = flask_client.get(f"/v1/games/{game['id']}/scoresheet", headers={"Accept": "text/csv"}).get_data(
        as_text=True
    )
    header, row = _rows(sheet)
    assert header[1:3] == ["'" + name, f"'{name} total"]
    assert not any(_runs(cell) for cell in header if cell)
    assert int(row[1]) < 0 and row[1].startswith("-")  # a negative score is a number, not neutralised
    assert flask_client.get(f"/v1/games/{game['id']}/scoresheet").get_json()["teams"][0] == name  # JSON exact


@pytest.mark.parametrize("text", ["\tx", "\rx", "=1", "+", "-", "@", "|x", " @x", "\u3000=x", "\uff0bx"])
def test_every_dangerous_first_character_is_neutralised(text: str) -> None:
    """Every first character a spreadsheet reads as a formula gets the leading quote, not only =."""
    assert csv_cell(text) == "'" + text
    sheet = {"teams": [text, "B"], "rows": [{"round": 1, "scores": [-5, 5], "totals": [-5, 5]}]}
    assert _rows(scoresheet_csv(sheet))[0][1] == "'" + text


def _runs(cell: str) -> bool:
    """Whether a spreadsheet would read ``cell`` as a formula: its first character past any
    whitespace, full-width forms read as their ASCII ones, or a leading tab or carriage return."""
    seen = unicodedata.normalize("NFKC", cell).lstrip()
    return cell.startswith(("\t", "\r")) or seen.startswith(("=", "+", "-", "@", "|"))


#: A side's name: any text a name may be (control characters and lone surrogates are refused).
NAME_TEXT = st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=12)


def _guarded(name: str) -> str:
    """``name`` as the sheet writes it: a ``'`` before its start and before each part after a ``;``
    that would run."""
    return ";".join(("'" + part) if _runs(part) else part for part in name.split(";"))


@given(st.lists(NAME_TEXT, min_size=2, max_size=3, unique=True))
@example(["0", ";|"])
@example(["a", "1;=1+1"])
def test_no_text_cell_runs_in_any_spreadsheet(names: list[str]) -> None:
    """The whole kind: any side names, in the score sheet's CSV read back with `,` (as written) or
    with `;` (a spreadsheet whose list separator it is, which splits the line at every `;`, quoted
    or not): no cell runs, and every text cell is quoted."""
    sheet = {"teams": names, "rows": [{"round": 1, "scores": [-5] * len(names), "totals": [-5] * len(names)}]}
    text = scoresheet_csv(sheet)
    header = _rows(text)[0]
    assert header[1::2] == [_guarded(name) for name in names]
    assert text.split("\r\n")[0] == ",".join('"' + cell.replace('"', '""') + '"' for cell in header)
    for delimiter in (",", ";"):
        for line in csv.reader(io.StringIO(text), delimiter=delimiter):
            assert not any(_runs(cell) and not cell.lstrip("-").isdigit() for cell in line), line


@pytest.mark.parametrize("value", ["ok", "a=b", "", 0, -50, 12])
def test_other_cells_are_unchanged(value: object) -> None:
    """The guard must not alter numbers (negative totals too) or text a spreadsheet reads as text."""
    assert csv_cell(value) == value


SIDES = [{"name": "North", "players": ["Ann", "Bo"]}, {"name": "South", "players": ["Cy", "Di"]}]
ILLEGAL = ["4S", "2H", "2D"]  # one natural, two wilds: more wilds than naturals


def _side(name: str, players: list[str], melds: list[list[str]]) -> dict[str, Any]:
    return {
        "name": name,
        "went_out": False,
        "melds": melds,
        "burn": [],
        "players": [{"name": players[0], "hand": ["8S"]}, {"name": players[1], "hand": []}],
    }


def _teams(extra_meld: list[str]) -> list[dict[str, Any]]:
    """North's books and ``extra_meld``; South's five aces: 100, the Hodges family rules' round-1 minimum."""
    books = [["KS", "KH", "KD", "KC", "KS", "KH", "KD"], ["5S", "5H", "5D", "5C", "5S", "5H", "5D"]]
    aces = ["AS", "AH", "AD", "AC", "AS"]
    return [_side("North", ["Ann", "Bo"], [*books, extra_meld]), _side("South", ["Cy", "Di"], [aces])]


def _warnings(breakdowns: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [b["warnings"] for b in breakdowns]


def test_every_stored_breakdown_with_warnings_is_answered(flask_client: FlaskClient) -> None:
    """A stored breakdown with warnings (D31) was a 500 on reads: BreakdownSchema dumped only Problem objects."""
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
    corrected = flask_client.put(
        f"/v1/games/{game_id}/rounds/1", json={"teams": _teams(other)}, headers={"If-Match": read.headers["ETag"]}
    )
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
    for path, accept in (
        (f"/v1/games/{game_id}", "application/json"),
        (f"/v1/games/{game_id}/scoresheet", "application/json"),
        (f"/v1/games/{game_id}/scoresheet", "text/csv"),
        ("/v1/games/stats", "application/json"),
    ):
        response = flask_client.get(path, headers={"Accept": accept})
        assert response.status_code == 200, (path, accept, response.get_data(as_text=True)[:300])


def test_the_game_read_is_the_schemas_dump(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    """The game read is sent ready (no marshmallow dump of its rounds): byte for byte what
    GameSchema's dump of the same game would send."""
    game_id = _game(flask_client, 3)
    response = flask_client.get(f"/v1/games/{game_id}")
    assert response.status_code == 200
    with app.test_request_context():
        game, numbers = svc.read_game(get_db(app), ANONYMOUS, game_id)
        assert numbers == [(1, 1), (2, 1), (3, 1)]
        assert response.data == jsonify(GameSchema().dump(serializers.game_doc(game, numbers))).get_data()
