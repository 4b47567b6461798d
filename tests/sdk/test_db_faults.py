"""The SDK against a real server whose SQLite database is locked: the append gets 503 with
Retry-After, the SDK waits that long and retries with the same Idempotency-Key, and once the lock
is gone the round is stored exactly once."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import make_url

from handfoot.client import Client
from handfoot.client._transport import Transport
from handfoot.server.db import get_db
from tests.conftest import make_test_app, served, served_url

TEAMS = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
ROUND = [
    {"name": "Us", "went_out": True, "tally": {"clean_books": 2, "dirty_books": 2, "wild_books": 1,
                                               "red_threes_on_table": 1, "red_threes_caught": 0,
                                               "table_points": 465, "points_left": 25}},
    {"name": "Them", "tally": {"clean_books": 1, "dirty_books": 2, "wild_books": 0, "red_threes_on_table": 0,
                               "red_threes_caught": 1, "table_points": 260, "points_left": 185}},
]


@pytest.fixture
def live(db_url: str) -> Iterator[tuple[str, str]]:
    app = make_test_app(db_url, SQLITE_BUSY_TIMEOUT=0.2)
    with served(app) as server:
        yield served_url(server), db_url
    get_db(app).dispose()


def test_sdk_retries_a_locked_database_and_stores_the_round_once(live: tuple[str, str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    base, db_url = live
    holder = sqlite3.connect(make_url(db_url).database, isolation_level=None)
    waits: list[float] = []

    def sleep(retry: int, seconds: float, reason: str) -> None:  # the first wait releases the lock, as another
        waits.append(seconds)  # writer finishing would
        if holder.in_transaction:
            holder.execute("ROLLBACK")

    monkeypatch.setattr(Transport, "_sleep", staticmethod(sleep))
    with Client(base, max_retries=3) as hf:
        game = hf.create_game(name="Locked", preset="pagat", teams=TEAMS)
        holder.execute("BEGIN IMMEDIATE")
        rnd = hf.add_round(game.id, teams=ROUND)
        assert rnd.number == 1
        assert waits == [2.0]  # the 503's Retry-After, once
        stored: Any = hf.game(game.id)
        assert stored.rounds_played == 1 and [r.number for r in stored.rounds] == [1]
    holder.close()
