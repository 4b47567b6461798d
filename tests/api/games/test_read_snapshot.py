"""Every games read answers as of one moment: a write committed while the read runs, between its
statements (the game's row, then its rounds, a round's revisions, a numbered list's count and
page), shows in none of them; the keyset list and the score sheet read in one statement.

Found by a tester on PostgreSQL: with one thread appending while others read, the scoresheet
sometimes failed with a 500 (more rounds than the running totals it had read) and a game came back
with round 1 but ``rounds_played`` 0. Each statement of a read transaction had its own snapshot
(READ COMMITTED). Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from handfoot.server.auth import ANONYMOUS
from handfoot.server.db import get_db
from handfoot.server.services import rounds as rounds_svc
from tests.helpers.game_routes import GAME_OPERATIONS, call
from tests.helpers.games import SEED_ROUND_1, append, create_game, tally

pytestmark = pytest.mark.db

READS = sorted(op for op in GAME_OPERATIONS if op[0] == "get")
CORRECTED = [tally("Team 1", out=True, clean=2, dirty=2, wild=1, table=700),
             tally("Team 2", clean=1, table=150, left=20)]


#: A numbered page of the list (the deprecated ``page``): a count, then the page.
NUMBERED_LIST = ("get", "/v1/games?page=1")


class _Read:
    """A read's status, ETag and body (JSON, or a stream's NDJSON lines), the stream read to its end."""

    def __init__(self, response: Any) -> None:
        with response:  # closed even if reading fails: an open stream holds a database session
            self.status_code, self.headers = response.status_code, response.headers
            text = response.get_data(as_text=True)
            self.body = ([json.loads(line) for line in text.splitlines()]
                         if response.mimetype == "application/x-ndjson" else response.get_json())

    def get_json(self) -> Any:
        return self.body


def _send(flask_client: FlaskClient, op: tuple[str, str], game_id: int) -> _Read:
    if op == NUMBERED_LIST:
        return _Read(flask_client.get("/v1/games", query_string={"page": 1}))
    return _Read(call(flask_client, op, game_id=game_id))


@pytest.mark.parametrize("op", [*READS, NUMBERED_LIST], ids=lambda op: f"GET {op[1]}")
def test_a_write_during_a_read_shows_in_none_of_it(app: Flask, flask_client: FlaskClient, db_backend: str,
                                                    op: tuple[str, str]) -> None:
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
