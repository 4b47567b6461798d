"""Lock order of a table action's writes on PostgreSQL: the log line first, then the table's row.

Every action inserts its log line, then updates the table's row. When an action that ended no
round updated the row first, two such actions on one version waited on each other (a deadlock, found after
PostgreSQL's ``deadlock_timeout``, 1 s by default) before the loser's retry
answered 409: racing a round-ending action against another action of the same seat on one version
(two app clients on one database), 4 of 7 races took ~1.03 s and ``pg_stat_database.deadlocks``
rose by 4.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from handfoot.server.db import get_db
from tests.conftest import TEST_DATABASE_URL
from tests.helpers.tables import create, seat_headers

#: PostgreSQL alone (SQLite locks the whole file); it runs wherever TEST_DATABASE_URL is set, as on CI.
pytestmark = [
    pytest.mark.skipif(TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL not set: PostgreSQL not tested"),
    pytest.mark.parametrize("db_backend", ["postgresql"], indirect=True),
]


def test_an_action_ending_no_round_takes_its_locks_in_the_logging_writers_order(
    app: Flask, flask_client: FlaskClient
) -> None:
    """A writer that has logged version 1 (as the round-ending path does first) and then updates
    the row is not deadlocked by an action on version 0 that ends no round: that action waits for
    the writer (its log line first, as the other path), and answers once the writer rolls back."""
    db = get_db(app)
    created = create(flask_client)
    table_id = created["id"]
    answer: dict[str, Any] = {}

    def act() -> None:
        client = app.test_client()
        answer["response"] = client.post(
            f"/v1/tables/{table_id}/actions",
            headers=seat_headers(created, 0),
            json={"version": 0, "action": {"type": "draw"}},
        )

    with db.engine.connect() as writer:
        writer.execute(
            text(
                "INSERT INTO table_actions (table_id, round, index, seat, action, version, created_at) "
                "VALUES (:t, 1, 0, 0, '{}', 1, :at)"
            ),
            {"t": table_id, "at": datetime.now(UTC)},
        )
        thread = threading.Thread(target=act)
        thread.start()
        time.sleep(0.3)  # the action's statement runs and waits
        started = time.monotonic()
        writer.execute(text("UPDATE tables SET updated_at = updated_at WHERE id = :t AND version = 0"), {"t": table_id})
        waited = time.monotonic() - started
        writer.rollback()
    thread.join(30)
    assert answer["response"].status_code == 200, answer["response"].get_json()
    assert waited < 0.5, f"the writer's row update waited {waited:.2f} s (a deadlock, resolved by its timeout)"
