"""One session per request (``Database.session`` and ``Database.write_session``): every read and
write of an app context on its one ``Session``, connections returned when it ends, a failed
statement rolled back (the next read works), a write transaction committed or rolled back whole,
and outside an app context a session of its own per block (one connection at a time per request:
below). Runs on SQLite and PostgreSQL.

A request holds at most one pooled connection at a time, so requests beyond the pool's size wait
their turn instead of starving one another; and a pool that stays exhausted is a 503, not a 500.

Found by a tester: under 48 threads a request held one read connection (taken by the API-key check)
while checking out a second one for its read session; once every connection of the pool was held
that way, every request waited for a second one until the pool's 30 s timeout, which answered 500.
A request now has one session (``Database.session``), holding one connection at a time. Runs on
SQLite and PostgreSQL.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from handfoot.server.models import ApiKey
from tests.conftest import served, served_url
from tests.helpers.game_routes import GAME_OPERATIONS, WRITES, call, spec_game_operations
from tests.helpers.games import SEED_ROUND_1, append, create_game, recorded_statements, tally

pytestmark = pytest.mark.db


def test_requests_return_their_connections(app: Flask, flask_client: FlaskClient, db_backend: str) -> None:
    game_id = create_game(flask_client)["id"]
    for i in range(3):
        append(
            flask_client,
            game_id,
            SEED_ROUND_1 if i == 0 else [tally("Team 1", clean=1, table=100), tally("Team 2", clean=1, table=90)],
        )
        assert flask_client.get(f"/v1/games/{game_id}").status_code == 200
    assert flask_client.post(f"/v1/games/{game_id + 1000}/rounds", json={"teams": SEED_ROUND_1}).status_code == 404
    assert get_db(app).engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_one_session_an_app_context(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with app.app_context():
        with db.session() as first:
            first.execute(text("SELECT 1"))
        with db.write_session() as writer:
            assert writer is first
        with db.session() as again:
            assert again is first
    with app.app_context(), db.session() as other:
        assert other is not first
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_a_failed_statement_rolls_back_and_the_next_read_works(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with app.app_context():
        with pytest.raises(DBAPIError), db.session() as session:
            session.execute(text("SELECT * FROM no_such_table"))
        with db.session() as session:
            assert session.execute(text("SELECT 1")).scalar() == 1
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_outside_an_app_context_each_block_has_its_own_session(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with db.write_session() as one:
        one.add(ApiKey(name="cli", key_hash="h-cli"))
    with db.session() as two:
        assert two is not one
        assert two.scalars(select(ApiKey.name)).all() == ["cli"]  # committed by its block
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_a_write_after_reads_in_one_request(app: Flask, db_backend: str) -> None:
    """SQLite: the reads' transaction ends, and the write begins with BEGIN IMMEDIATE (the write lock
    before its first statement). PostgreSQL: the write continues the request's transaction."""
    db = get_db(app)
    with app.app_context(), recorded_statements(app) as statements:
        with db.session() as session:
            session.execute(select(ApiKey.id)).all()
        with db.write_session() as session:
            session.add(ApiKey(name="w", key_hash="h-w"))
    begins = [s for s in statements if s.startswith("BEGIN")]
    assert begins == (["BEGIN", "BEGIN IMMEDIATE"] if db_backend == "sqlite" else []), statements
    with db.session() as session:
        assert session.scalars(select(ApiKey.name)).all() == ["w"]


@pytest.mark.parametrize("flush_in_body", [True, False])
def test_a_failed_write_session_rolls_back_and_returns_its_connection(
    app: Flask, db_backend: str, flush_in_body: bool
) -> None:
    """The database's error reaches the caller whether the session flushes inside the block or at
    its end; nothing of the transaction is kept, and the connection goes back to the pool."""
    db = get_db(app)
    with app.app_context():
        with db.write_session() as session:
            session.add(ApiKey(name="first", key_hash="same"))
        with pytest.raises(IntegrityError), db.write_session() as session:
            session.add(ApiKey(name="kept?", key_hash="other"))
            session.add(ApiKey(name="second", key_hash="same"))
            if flush_in_body:
                session.flush()
        with db.session() as session:
            names = session.execute(select(ApiKey.name).order_by(ApiKey.id)).scalars().all()
    assert names == ["first"]
    assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_each_request_has_its_own_session_inside_one_app_context(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    """Flask reuses an app context pushed around a request; the request's session (and its
    snapshot) still ends with the request, so the next request reads what was committed meanwhile."""
    game_id = create_game(flask_client)["id"]

    def other_request() -> None:
        append(app.test_client(), game_id, SEED_ROUND_1)

    with app.app_context():
        assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 0
        worker = threading.Thread(target=other_request)  # its own app context
        worker.start()
        worker.join(30)
        assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1
    assert get_db(app).engine.pool.checkedout() == 0  # type: ignore[attr-defined]


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
def test_a_request_holds_one_connection_at_a_time(
    app: Flask, flask_client: FlaskClient, db_backend: str, op: tuple[str, str], who: str, most_held: Callable[[], int]
) -> None:
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


def test_an_exhausted_pool_is_a_503(
    app: Flask, flask_client: FlaskClient, db_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
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
