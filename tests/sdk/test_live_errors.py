"""The SDK's error classes that only a misbehaving server provokes, against a real server.

``ServerError``: the database stays locked, so every try of an append gets 503 and the SDK gives up
after its retries, carrying the problem, its ``code`` and the server's request id. ``RateLimitError``:
the server's rate limit is exceeded, and the 429's ``Retry-After`` reaches the exception.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import make_url

from handfoot.client import Client, RateLimitError, ServerError
from handfoot.client._transport import Transport
from handfoot.server.db import get_db
from tests.conftest import make_test_app, served, served_url

TEAMS = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
TALLY = {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes_on_table": 0, "red_threes_caught": 0,
         "table_points": 0, "points_left": 0}


@pytest.fixture
def serve(db_url: str) -> Iterator[Callable[..., str]]:
    apps: list[Flask] = []
    with contextlib.ExitStack() as servers:

        def start(**config: Any) -> str:
            app = make_test_app(db_url, **config)
            apps.append(app)
            return served_url(servers.enter_context(served(app)))

        yield start
    for app in apps:
        get_db(app).dispose()


def test_server_error_after_the_retries(serve: Callable[..., str], db_url: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    base = serve(SQLITE_BUSY_TIMEOUT=0.2)
    waits: list[float] = []
    monkeypatch.setattr(Transport, "_sleep", staticmethod(lambda retry, wait, reason: waits.append(wait)))
    holder = sqlite3.connect(make_url(db_url).database, isolation_level=None)
    with Client(base, max_retries=2) as hf:
        game = hf.create_game(name="Locked for good", preset="pagat", teams=TEAMS)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(ServerError) as info:
                hf.add_round(game.id, teams=[{"name": "Us", "tally": TALLY}, {"name": "Them", "tally": TALLY}])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert info.value.status == 503
        assert info.value.problem.type.endswith("/service-unavailable")
        assert info.value.code == "service_unavailable"
        assert info.value.request_id is not None and len(info.value.request_id) == 32  # the server's own id
        assert len(waits) == 2  # two retries, each after the 503's Retry-After
        assert hf.game(game.id).rounds_played == 0  # nothing half-written


def test_rate_limit_error_carries_retry_after(serve: Callable[..., str], monkeypatch: pytest.MonkeyPatch) -> None:
    base = serve(RATE_LIMIT="3/minute")
    monkeypatch.setattr(Transport, "_sleep", staticmethod(lambda retry, wait, reason: None))
    with Client(base, max_retries=0) as hf:
        for _ in range(3):
            hf.presets()
        with pytest.raises(RateLimitError) as info:
            hf.presets()
    assert (info.value.status, info.value.code) == (429, "too_many_requests")
    assert info.value.retry_after is not None and 0 < info.value.retry_after <= 60
