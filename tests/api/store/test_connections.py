"""A request holds at most one pooled connection at a time, so requests beyond the pool's size wait
their turn instead of starving one another; and a pool that stays exhausted is a 503, not a 500.

Found by a tester: under 48 threads a request held one read connection (taken by the API-key check)
while checking out a second one for its read session; once every connection of the pool was held
that way, every request waited for a second one until the pool's 30 s timeout, which answered 500.
A request now has one session (``Database.session``), holding one connection at a time. Runs on
SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from tests.conftest import served, served_url
from tests.helpers.game_routes import GAME_OPERATIONS, WRITES, call, spec_game_operations
from tests.helpers.games import SEED_ROUND_1, append, create_game, tally

pytestmark = pytest.mark.db

OPERATIONS = sorted(GAME_OPERATIONS)


@pytest.fixture
def most_held(app: Flask) -> Iterator[Callable[[], int]]:
    """The most connections checked out of the pool at once, since the last call."""
    pool = get_db(app).engine.pool
    state = {"now": 0, "most": 0}

    def out(*_: Any) -> None:
        state["now"] += 1
        state["most"] = max(state["most"], state["now"])

    def back(*_: Any) -> None:
        state["now"] -= 1

    def read() -> int:
        most, state["most"] = state["most"], state["now"]
        return most

    event.listen(pool, "checkout", out)
    event.listen(pool, "checkin", back)
    yield read
    event.remove(pool, "checkout", out)
    event.remove(pool, "checkin", back)


def test_every_games_operation_is_covered(app: Flask, db_backend: str) -> None:
    assert spec_game_operations(app) == set(GAME_OPERATIONS)


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: f"{op[0].upper()} {op[1]}")
@pytest.mark.parametrize("who", ["anonymous", "anonymous+idempotency", "key", "key+idempotency"])
def test_a_request_holds_one_connection_at_a_time(app: Flask, flask_client: FlaskClient, db_backend: str,
                                                  op: tuple[str, str], who: str,
                                                  most_held: Callable[[], int]) -> None:
    headers: dict[str, str] = {}
    if who.startswith("key"):
        _, token = create_key(get_db(app), "alice")
        headers["Authorization"] = f"Bearer {token}"
    game_id = create_game(flask_client, headers=headers)["id"]
    append(flask_client, game_id, SEED_ROUND_1, headers=headers)
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1", headers=headers).headers["ETag"]
    if who.endswith("idempotency") and op in WRITES and op[0] == "post":
        headers["Idempotency-Key"] = f"k-{op[1]}"
    most_held()
    response = call(flask_client, op, game_id=game_id, headers=headers, etag=etag)
    assert response.status_code < 300, response.get_json()
    assert most_held() == 1


def test_an_exhausted_pool_is_a_503(app: Flask, flask_client: FlaskClient, db_backend: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = create_game(flask_client)["id"]
    pool = get_db(app).engine.pool

    def exhausted(*_: Any, **__: Any) -> Any:
        raise PoolTimeoutError("QueuePool limit of size 5 overflow 10 reached, connection timed out")

    monkeypatch.setattr(pool, "connect", exhausted)
    for response in (
        flask_client.get(f"/v1/games/{game_id}"),
        flask_client.post("/v1/games", json=GAME_OPERATIONS[("post", "/v1/games")]["json"]),
        flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}),
    ):
        assert response.status_code == 503, response.get_json()
        assert response.content_type == "application/problem+json"
        assert response.headers["Retry-After"]
        assert "QueuePool" not in response.get_data(as_text=True)


def test_three_times_the_pool_in_threads_all_answer(app: Flask, db_backend: str) -> None:
    """48 threads against a pool of 15 (5 + 10 overflow): reads, appends with and without an
    Idempotency-Key, and new games, all at once; every answer is a 2xx, well inside the timeout."""
    with served(app) as srv:
        base = served_url(srv)
        games = [
            requests.post(f"{base}/v1/games", json=GAME_OPERATIONS[("post", "/v1/games")]["json"], timeout=30).json()[
                "id"
            ]
            for _ in range(8)
        ]

        def work(i: int) -> int:
            game = games[i % len(games)]
            kind = i % 4
            if kind == 0:
                return requests.get(f"{base}/v1/games/{game}", timeout=25).status_code
            if kind == 1:
                return requests.post(
                    f"{base}/v1/games", json=GAME_OPERATIONS[("post", "/v1/games")]["json"], timeout=25
                ).status_code
            body = {"teams": [tally("Team 1", clean=1, table=100), tally("Team 2", clean=1, table=90)]}
            headers = {"Idempotency-Key": f"t-{i}"} if kind == 2 else {}
            status = requests.post(f"{base}/v1/games/{game}/rounds", json=body, headers=headers, timeout=25).status_code
            return 201 if status == 409 else status  # 409 Write conflict: the game moved too often meanwhile

        with ThreadPoolExecutor(48) as pool:
            statuses = list(pool.map(work, range(192)))
    assert all(s < 300 for s in statuses), sorted(set(statuses))
