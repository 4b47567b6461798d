"""Transactions per request on the tables routes, counted with SQLAlchemy's engine events.

An accepted action is one commit; a refused action (the rules, a stale version) and every read
(the summary, a seat's view, a long-poll, an event stream, an ended round's log) commit nothing and
write nothing, a due answer included: it is shown as given and written by the next action.
Counted on every backend (``@pytest.mark.db``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from handfoot.server.db import get_db
from handfoot.server.models import IdempotencyKey, Table, TableAction
from handfoot.server.services import tables as tables_svc
from tests.helpers.counting import counted
from tests.helpers.tables import create, play_round, seat_headers, true_table

pytestmark = pytest.mark.db


def _act(
    flask_client: FlaskClient, created: dict[str, Any], seat: int, version: int, action: dict[str, Any], **headers: str
) -> Any:
    return flask_client.post(
        f"/v1/tables/{created['id']}/actions",
        headers={**seat_headers(created, seat), **headers},
        json={"version": version, "action": action},
    )


def _rows(app: Flask, model: Any) -> int:
    with get_db(app).session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_an_accepted_action_is_one_commit(app: Flask, flask_client: FlaskClient) -> None:
    """The action's log line, the table's row and the answer are one transaction: a second commit
    (a read transaction committed, a due answer written apart) would show here."""
    created = create(flask_client)
    with counted(app) as seen:
        assert _act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 200
    assert seen.commits == 1, seen.statements
    # the same statements on both databases, the log line first (the lock order of every writer:
    # test_lock_order.py)
    assert [" ".join(s.split(" ", 3)[:3]) for s in seen.writes()] == ["INSERT INTO table_actions", "UPDATE tables SET"]


def test_an_action_reads_the_table_once(app: Flask, flask_client: FlaskClient) -> None:
    """The Seat-Token's check reads only the seats' hashes and the table's owner (whose waits and
    allowance a seat's are), once a request; the action's unit reads the table's row
    (its round) once: not once for the token and again for the state."""
    created = create(flask_client)
    with counted(app) as seen:
        assert _act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 200
    selects = [s for s in seen.statements if s.startswith("SELECT") and " FROM tables" in s]
    assert len([s for s in selects if "tables.state" in s]) == 1, seen.statements
    assert [s.split(" FROM ")[0] for s in selects if "tables.state" not in s] == [
        "SELECT tables.seat_hashes, tables.owner_id"
    ]


def test_an_action_with_an_idempotency_key_is_one_commit_with_its_claim_and_answer(
    app: Flask, flask_client: FlaskClient
) -> None:
    """The key's claim, the action and the key's stored answer are one transaction, committed once:
    the action is never stored without its answer, nor the key claimed apart."""
    created = create(flask_client)
    with counted(app) as seen:
        assert _act(flask_client, created, 0, 0, {"type": "draw"}, **{"Idempotency-Key": '"k-1"'}).status_code == 200
    with get_db(app).session() as session:
        assert session.scalars(select(IdempotencyKey)).one().status == 200
    assert seen.commits == 1, seen.statements
    swept = "DELETE FROM idempotency_keys"  # expired keys, swept now and then in a claim's transaction
    assert [" ".join(s.split(" ", 3)[:3]) for s in seen.writes() if not s.startswith(swept)] == [
        "INSERT INTO idempotency_keys",
        "INSERT INTO table_actions",
        "UPDATE tables SET",
        "UPDATE idempotency_keys SET",  # the answer, built after the write
    ]


@pytest.mark.parametrize("key", [None, '"moved-1"'])
def test_an_action_whose_row_moved_since_its_read_runs_again_and_is_stored_once(
    app: Flask, flask_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, key: str | None
) -> None:
    """The row's update is guarded by the version read: a row read at another version writes
    nothing, and the action runs again on the row read anew (locked), stored once, with its
    answer."""
    created = create(flask_client)
    load, runs = tables_svc._load, []

    def stale(*args: Any, **kwargs: Any) -> tables_svc.TableData:
        data = load(*args, **kwargs)
        runs.append(kwargs.get("lock", False))
        return replace(data, row_version=data.row_version + 7) if len(runs) == 1 else data

    monkeypatch.setattr(tables_svc, "_load", stale)
    headers = {} if key is None else {"Idempotency-Key": key}
    answer = _act(flask_client, created, 0, 0, {"type": "draw"}, **headers)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["version"] == 1
    assert _rows(app, TableAction) == 1 and true_table(app, created["id"]).version == 1
    assert runs[:2] == [False, True]  # run again, it locks the table as it reads it
    if key is not None:
        again = _act(flask_client, created, 0, 0, {"type": "draw"}, **headers)
        assert again.headers["Idempotent-Replayed"] == "true" and again.get_data() == answer.get_data()


@pytest.mark.parametrize("key", [None, '"one-1"'])
def test_an_action_is_one_transaction_from_the_token_read_to_its_commit(
    app: Flask, flask_client: FlaskClient, key: str | None
) -> None:
    """Every statement of an accepted action is part of the one commit: the key's claim, the table's
    read (which the action is checked on), the action and the stored answer (and the Seat-Token's
    check before them: on SQLite its read transaction ends on the same connection)."""
    created = create(flask_client)
    headers = {} if key is None else {"Idempotency-Key": key}
    with counted(app) as seen:
        assert _act(flask_client, created, 0, 0, {"type": "draw"}, **headers).status_code == 200
    assert seen.committed == [seen.statements], seen.statements


def test_a_replayed_action_commits_nothing_and_answers_the_first_bytes(app: Flask, flask_client: FlaskClient) -> None:
    """An action sent again with its Idempotency-Key gets the first answer, byte for byte (stored as
    sent), and its transaction (the claim that found the stored answer) is rolled back."""
    created = create(flask_client)
    first = _act(flask_client, created, 0, 0, {"type": "draw"}, **{"Idempotency-Key": '"again-1"'})
    with counted(app) as seen:
        again = _act(flask_client, created, 0, 0, {"type": "draw"}, **{"Idempotency-Key": '"again-1"'})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert seen.commits == 0, seen.statements
    assert _rows(app, TableAction) == 1 and _rows(app, IdempotencyKey) == 1
    assert true_table(app, created["id"]).version == 1


@pytest.mark.parametrize("key", [None, '"refused-1"'])
def test_a_refused_action_writes_nothing(app: Flask, flask_client: FlaskClient, key: str | None) -> None:
    """An action the rules refuse is answered before the table is written: no log line, no version
    moved, no Idempotency-Key kept, not one commit; without a key, not one write statement (a key's
    claim is rolled back with the refusal)."""
    created = create(flask_client)
    headers = {} if key is None else {"Idempotency-Key": key}
    with counted(app) as seen:
        refused = _act(flask_client, created, 0, 0, {"type": "discard", "card": "JK"}, **headers)
    assert refused.status_code == 422
    assert _rows(app, TableAction) == 0 and _rows(app, IdempotencyKey) == 0
    assert true_table(app, created["id"]).version == 0
    assert seen.commits == 0, seen.statements
    assert not [s for s in seen.writes() if "idempotency_keys" not in s], seen.statements


def test_a_stale_version_commits_nothing(app: Flask, flask_client: FlaskClient) -> None:
    """A 409 version_moved is answered from the row read: nothing is written."""
    created = create(flask_client)
    assert _act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 200
    with counted(app) as seen:
        assert _act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 409
    assert seen.commits == 0 and not seen.writes(), seen.statements


def _reads(flask_client: FlaskClient, created: dict[str, Any]) -> list[Any]:
    """The summary, a seat's view, a long-poll that waits (on the version shown) and an event stream."""
    table = f"/v1/tables/{created['id']}"
    seat = seat_headers(created, 1)
    summary = flask_client.get(table)
    return [
        summary,
        flask_client.get(f"{table}/view", headers=seat),
        flask_client.get(f"{table}/view?version={summary.get_json()['version']}&wait=1", headers=seat),
        flask_client.get(f"{table}/events?wait=1", headers=seat),
    ]


def test_every_get_commits_nothing(app: Flask, flask_client: FlaskClient) -> None:
    """Reads run in a read transaction that ends without a commit, and write nothing."""
    created = create(flask_client, rules={"rounds": 2})
    play_round(flask_client, app, created, check=False)
    with counted(app) as seen:
        answers = _reads(flask_client, created)
        answers.append(flask_client.get(f"/v1/tables/{created['id']}/rounds/1", headers=seat_headers(created, 0)))
        answers.append(flask_client.get(f"/v1/tables/{created['id']}/rounds/1"))
        for answer in answers:
            answer.get_data()
    assert [a.status_code for a in answers] == [200] * 6
    assert seen.commits == 0 and not seen.writes(), seen.statements


def test_a_due_answer_is_shown_by_reads_and_written_by_the_next_action(app: Flask, flask_client: FlaskClient) -> None:
    """A partner's answer that timed out is shown as given (phase play, permission yes, the version
    it will have) by every read, which writes nothing; the next action logs it, then itself, in
    one commit."""
    created = create(flask_client, answer_timeout=30)
    assert _act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 200
    assert _act(flask_client, created, 0, 1, {"type": "ask"}).status_code == 200
    with get_db(app).write_session() as session:  # the clock moved on past the timeout
        session.execute(
            update(Table)
            .where(Table.id == created["id"])
            .values(answer_due_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    with counted(app) as seen:
        answers = _reads(flask_client, created)
        for answer in answers:
            answer.get_data()
    assert seen.commits == 0 and not seen.writes(), seen.statements
    assert answers[0].get_json()["version"] == 3 and answers[0].get_json()["phase"] == "play"
    asker = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 0)).get_json()
    assert asker["version"] == 3 and asker["view"]["permission"] is True and asker["view"]["actions"]
    assert _rows(app, TableAction) == 2 and true_table(app, created["id"]).version == 2
    card = asker["view"]["hand"][0]
    with counted(app) as seen:
        assert _act(flask_client, created, 0, 3, {"type": "discard", "card": card}).status_code == 200
    assert seen.commits == 1, seen.statements
    assert seen.many == [], seen.many  # the two log lines are one INSERT (test_round_trips.py)
    with get_db(app).session() as session:
        logged = [
            (a.version, a.action)
            for a in session.scalars(
                select(TableAction).where(TableAction.table_id == created["id"]).order_by(TableAction.version)
            )
        ]
    assert logged[2:] == [
        (3, {"type": "answer", "yes": True, "seat": 2, "timed_out": True}),
        (4, {"type": "discard", "card": card, "seat": 0}),
    ]
