"""Database faults: unreachable or locked → 503 problem+json with Retry-After on every games
operation (never a 500), /health says which, and no error body carries SQL, a driver message or a
stack trace. The SDK side (it retries 503) is in tests/sdk/test_retries.py."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import make_url, text

from handfoot.server import create_app
from handfoot.server.db import get_db
from handfoot.server.services import games as svc
from handfoot.server.services import history as history_svc
from handfoot.server.services import rounds as rounds_svc
from tests.helpers.game_routes import GAME_OPERATIONS, WRITES, call
from tests.helpers.games import SEED_ROUND_1, append, create_game

OPERATIONS = sorted(GAME_OPERATIONS)
IDS = [f"{m.upper()} {p}" for m, p in OPERATIONS]

#: Words that must never reach a client: SQL, driver and Python internals.
LEAKS = (
    "SELECT",
    "INSERT",
    "UPDATE ",
    "sqlite3",
    "psycopg",
    "OperationalError",
    "ProgrammingError",
    "Traceback",
    'File "',
    "sqlalchemy",
    "nobody",
    "127.0.0.1:1",
    "secret internals",
    "RuntimeError",
)


def assert_no_leak(response: Any) -> None:
    text_ = response.get_data(as_text=True)
    for word in LEAKS:
        assert word not in text_, (word, text_)


def assert_503(response: Any) -> dict[str, Any]:
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    assert int(response.headers["Retry-After"]) > 0
    body: dict[str, Any] = response.get_json()
    assert body["type"] == "https://handfoot.dev/problems/service-unavailable"
    assert_no_leak(response)
    return body


# --- unreachable --------------------------------------------------------------------------------


@pytest.fixture(params=["postgresql", "sqlite"])
def unreachable_app(request: pytest.FixtureRequest, tmp_path: Any) -> Flask:
    """An app whose database cannot be reached: nothing listens on port 1 (PostgreSQL), or the
    SQLite file's directory does not exist and cannot be made (a path under a regular file)."""
    if request.param == "postgresql":
        url = "postgresql+psycopg://nobody@127.0.0.1:1/none"
    else:
        blocker = tmp_path / "not-a-directory"
        blocker.write_text("")
        url = f"sqlite:///{blocker / 'db.sqlite3'}"
    return create_app({"TESTING": True, "DATABASE_URL": url})


@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_unreachable_database_is_503_on_every_games_operation(unreachable_app: Flask, op: tuple[str, str]) -> None:
    flask_client = unreachable_app.test_client()
    body = assert_503(call(flask_client, op))
    assert body["detail"] == "The database is unreachable or busy; retry later."


def test_health_reports_an_unreachable_database(unreachable_app: Flask) -> None:
    response = unreachable_app.test_client().get("/health")
    body = assert_503(response)
    assert body["database"] == "unreachable"


# --- locked (SQLite) ------------------------------------------------------------------------------


@contextmanager
def _sqlite_write_lock(path: str) -> Iterator[Callable[[], None]]:
    holder = sqlite3.connect(path, isolation_level=None)

    def take() -> None:
        holder.execute("BEGIN IMMEDIATE")

    yield take
    if holder.in_transaction:
        holder.execute("ROLLBACK")
    holder.close()


@pytest.fixture
def lock(db_url: str) -> Iterator[Callable[[], None]]:
    """``lock()`` blocks writers until the test ends: SQLite's write lock taken from another
    connection (as another process, or another worker in the middle of a write, would)."""
    path = make_url(db_url).database
    assert path
    with _sqlite_write_lock(path) as take:
        yield take


@pytest.fixture
def locked_client(make_app: Callable[..., Flask]) -> FlaskClient:
    return make_app(SQLITE_BUSY_TIMEOUT=0.2).test_client()


@pytest.mark.parametrize("op", sorted(WRITES), ids=lambda op: f"{op[0].upper()} {op[1]}")
def test_locked_database_is_503_on_every_write(
    locked_client: FlaskClient, lock: Callable[[], None], op: tuple[str, str]
) -> None:
    game_id = create_game(locked_client)["id"]
    append(locked_client, game_id, SEED_ROUND_1)
    etag = locked_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]
    before = locked_client.get(f"/v1/games/{game_id}").get_json()
    lock()
    assert_503(call(locked_client, op, game_id=game_id, etag=etag))
    # reads go on under the write lock (WAL), and nothing was half-written
    assert locked_client.get(f"/v1/games/{game_id}").get_json() == before


def test_health_reports_a_locked_database(locked_client: FlaskClient, lock: Callable[[], None]) -> None:
    """When the write lock is held, /health says so (a load balancer must not see "ok")."""
    assert locked_client.get("/health").status_code == 200
    lock()
    body = assert_503(locked_client.get("/health"))
    assert body["database"] == "locked"


def test_a_writer_waits_for_the_lock_then_writes(make_app: Callable[..., Flask], db_url: str) -> None:
    """A write that finds SQLite's write lock taken waits for it (``BEGIN IMMEDIATE`` on the busy
    timeout), and goes ahead once it is released: a 201, the round stored once."""
    flask_client = make_app(SQLITE_BUSY_TIMEOUT=5).test_client()
    game_id = create_game(flask_client)["id"]
    path = make_url(db_url).database
    assert path
    answers: list[int] = []
    with _sqlite_write_lock(path) as take:
        take()
        writer = threading.Thread(
            target=lambda: answers.append(
                flask_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}).status_code
            )
        )
        writer.start()
        time.sleep(0.3)
        assert writer.is_alive() and not answers  # waiting for the lock
    writer.join(5)
    assert answers == [201]
    assert flask_client.get(f"/v1/games/{game_id}").get_json()["rounds_played"] == 1


def test_the_busy_timeout_bounds_the_wait(locked_client: FlaskClient, lock: Callable[[], None]) -> None:
    """Past the busy timeout (0.2 s here) a write is a 503, not a longer wait."""
    game_id = create_game(locked_client)["id"]
    lock()
    started = time.monotonic()
    assert_503(locked_client.post(f"/v1/games/{game_id}/rounds", json={"teams": SEED_ROUND_1}))
    assert time.monotonic() - started < 5


def test_writes_work_again_once_the_lock_is_released(locked_client: FlaskClient, db_url: str) -> None:
    path = make_url(db_url).database
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    assert_503(locked_client.post("/v1/games", json=GAME_OPERATIONS[("post", "/v1/games")]["json"]))
    holder.execute("ROLLBACK")
    holder.close()
    assert locked_client.post("/v1/games", json=GAME_OPERATIONS[("post", "/v1/games")]["json"]).status_code == 201
    assert locked_client.get("/health").status_code == 200


# --- other errors: a generic body, nothing internal ----------------------------------------------------


@pytest.mark.db
def test_a_database_error_leaks_no_sql(make_app: Callable[..., Flask], db_backend: str) -> None:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    flask_client = app.test_client()
    game_id = create_game(flask_client)["id"]
    with get_db(app).engine.begin() as connection:
        connection.execute(text("DROP TABLE game_players"))
    assert flask_client.get(f"/v1/games/{game_id}").status_code == 200  # reads no player rows
    create = GAME_OPERATIONS[("post", "/v1/games")]["json"]
    for response in (flask_client.get("/v1/games?player=North"), flask_client.post("/v1/games", json=create)):
        assert response.status_code in (500, 503), response.get_data(as_text=True)
        assert response.content_type == "application/problem+json"
        assert_no_leak(response)
        assert "game_players" not in response.get_data(as_text=True)


@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_an_unexpected_exception_is_a_generic_500(
    make_app: Callable[..., Flask], op: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    flask_client = app.test_client()
    game_id = create_game(flask_client)["id"]
    append(flask_client, game_id, SEED_ROUND_1)
    etag = flask_client.get(f"/v1/games/{game_id}/rounds/1").headers["ETag"]

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals: SELECT * FROM api_keys")

    for name in ("list_games", "create_game", "get_game", "read_game", "delete_game"):
        monkeypatch.setattr(svc, name, boom)
    for name in ("append_round", "get_round", "correct_round", "delete_round", "round_revisions"):
        monkeypatch.setattr(rounds_svc, name, boom)
    for name in ("game_batches", "statistics"):
        monkeypatch.setattr(history_svc, name, boom)
    response = call(flask_client, op, game_id=game_id, etag=etag)
    assert response.status_code == 500
    assert response.content_type == "application/problem+json"
    body = response.get_json()
    assert body["type"] == "https://handfoot.dev/problems/internal-error"
    assert body["detail"] == "The server hit an unexpected error. It has been logged."
    assert_no_leak(response)
