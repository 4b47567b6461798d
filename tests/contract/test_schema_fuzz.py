"""Schema fuzzing: schemathesis against the served OpenAPI document, every operation.

Each operation gets ``HANDFOOT_FUZZ_EXAMPLES`` generated requests (default 12: the bounded run
inside ``make test``; ``make fuzz`` runs many more), valid ones and invalid ones, from a fixed seed
(``HANDFOOT_FUZZ_SEED``, default 20261129), against the WSGI app on a migrated temp SQLite database,
and on a fresh PostgreSQL schema when ``TEST_DATABASE_URL`` is set, with no API keys (so the games
operations are open). Every response must pass:

- ``not_a_server_error``: no 5xx;
- ``status_code_conformance``: the status is documented for the operation;
- ``content_type_conformance``: the Content-Type is one documented for that status;
- ``response_schema_conformance``: the body matches the documented schema.

The run reaches stored games (issue 18, defect 6: once 75% of its requests were 404s and about 1 in
48,000 game creations succeeded). Every other case of a games operation is *steered* (:class:`Steer`):
its ids are those of games the run created, followed from the ``Location`` of each 201, its body
the operation's documented example, a correction's ``If-Match`` the round's ETag; the rest is
generated as schemathesis makes it. The tables operations are steered the same way (issue 29: the
fuzz never reached the seat operations, having no token): a live table the run created, the token
of the seat whose turn it is as ``Seat-Token``, an action the seat may take (a draw), a long-poll
that does not wait and the shortest event stream. Each answer is counted per operation, and the
last test prints the share of 2xx answers per operation and requires every games operation and
every tables operation but a round's log (which needs a round played to its end) to have some.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import make_url, text

from handfoot.server import create_app, migrate
from handfoot.server.config import normalize_database_url
from handfoot.server.db import get_db, make_engine
from handfoot.server.resources.games import examples as ex
from handfoot.server.resources.tables import examples as tables_ex

EXAMPLES = int(os.environ.get("HANDFOOT_FUZZ_EXAMPLES", "12"))
# One worker runs every case (make test's --dist loadfile): the per-operation 2xx check counts them all.
pytestmark = pytest.mark.fuzz  # one module: `make test` runs pytest --dist loadfile, so its cases share a process

SEED = int(os.environ.get("HANDFOOT_FUZZ_SEED", "20261129"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None


def _fuzz_target(url: str) -> tuple[Any, Any]:
    app = create_app({"DATABASE_URL": url})
    return app, schemathesis.openapi.from_wsgi("/openapi.json", app, config=schemathesis.Config(seed=SEED))


# The apps are built at import (they touch no database), so that schemathesis makes one test per
# operation; their databases are made and migrated before the first test and dropped after the last.
_TMP = Path(tempfile.gettempdir()) / f"handfoot-fuzz-{uuid.uuid4().hex[:12]}"
_SQLITE_URL = f"sqlite:///{_TMP / 'fuzz.sqlite3'}"
SQLITE_APP, sqlite_schema = _fuzz_target(_SQLITE_URL)
_PG_SCHEMA = f"fuzz_{uuid.uuid4().hex[:12]}"
_PG_URL = (
    make_url(normalize_database_url(TEST_DATABASE_URL))
    .update_query_dict({"options": f"-csearch_path={_PG_SCHEMA}"})
    .render_as_string(hide_password=False)
    if TEST_DATABASE_URL
    else None
)
PG_APP, pg_schema = _fuzz_target(_PG_URL) if _PG_URL else _fuzz_target(_SQLITE_URL)


@pytest.fixture(scope="module")
def sqlite_database() -> Iterator[None]:
    _TMP.mkdir(parents=True, exist_ok=True)
    migrate.upgrade(_SQLITE_URL)
    yield
    get_db(SQLITE_APP).dispose()
    shutil.rmtree(_TMP, ignore_errors=True)


@pytest.fixture(scope="module")
def postgresql_database() -> Iterator[None]:
    if _PG_URL is None:
        pytest.skip("TEST_DATABASE_URL not set: PostgreSQL not fuzzed")
    assert TEST_DATABASE_URL is not None
    admin = make_engine(normalize_database_url(TEST_DATABASE_URL))
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{_PG_SCHEMA}"'))
    try:
        migrate.upgrade(_PG_URL)
        yield
    finally:
        get_db(PG_APP).dispose()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{_PG_SCHEMA}" CASCADE'))
        admin.dispose()


FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

#: Every games operation (method, path template): each must answer 2xx at least once per run.
GAMES_OPERATIONS = (
    ("GET", "/v1/games"),
    ("POST", "/v1/games"),
    ("GET", "/v1/games/{game_id}"),
    ("DELETE", "/v1/games/{game_id}"),
    ("POST", "/v1/games/{game_id}/rounds"),
    ("GET", "/v1/games/{game_id}/rounds/{number}"),
    ("PUT", "/v1/games/{game_id}/rounds/{number}"),
    ("DELETE", "/v1/games/{game_id}/rounds/{number}"),
    ("GET", "/v1/games/{game_id}/rounds/{number}/revisions"),
    ("GET", "/v1/games/{game_id}/scoresheet"),
    ("GET", "/v1/games/export"),
    ("GET", "/v1/games/stats"),
)
#: Every tables operation a run must answer 2xx at least once: the seat operations included, steered
#: to a live table with one of its Seat-Tokens (the hook that gives the fuzz a seat's token).
TABLES_OPERATIONS = (
    ("POST", "/v1/tables"),
    ("GET", "/v1/tables/{table_id}"),
    ("GET", "/v1/tables/{table_id}/view"),
    ("GET", "/v1/tables/{table_id}/events"),
    ("POST", "/v1/tables/{table_id}/actions"),
)
STEERED = GAMES_OPERATIONS + TABLES_OPERATIONS
_ROUND = {k: v for k, v in ex.ROUND_REQUEST.items() if k != "round"}


class Steer:
    """The run's state on one app: the games it created (from ``Location``), and each operation's
    answers by status class."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        self.games: list[int] = []
        self.tables: list[dict[str, Any]] = []  # as created: id and every seat's token
        self.counter: dict[tuple[str, str], itertools.count[int]] = {}
        self.answers: dict[tuple[str, str], dict[str, int]] = {}

    def _new_game(self, rounds: int = 0) -> int:
        created = self.client.post("/v1/games", json=ex.GAME_CREATE_REQUEST)
        assert created.status_code == 201, created.get_json()
        game_id = int(created.headers["Location"].rsplit("/", 1)[1])
        for _ in range(rounds):
            assert self.client.post(f"/v1/games/{game_id}/rounds", json=_ROUND).status_code == 201
        return game_id

    def _new_table(self) -> dict[str, Any]:
        created = self.client.post("/v1/tables", json=tables_ex.TABLE_CREATE_REQUEST)
        assert created.status_code == 201, created.get_json()
        table: dict[str, Any] = created.get_json()
        self.tables.append(table)
        return table

    def steer_table(self, case: Any, method: str, path: str) -> None:
        """A steered case of a tables operation: the documented body; a live table (a fresh one for
        an action) and, for a seat operation, the token of the seat whose turn it is; no long wait."""
        headers = {k: v for k, v in (case.headers or {}).items() if k.lower() not in ("idempotency-key", "seat-token")}
        if method == "POST" and path == "/v1/tables":
            case.body, case.media_type, case.headers = tables_ex.TABLE_CREATE_REQUEST, "application/json", headers
            return
        table = self._new_table() if method == "POST" or not self.tables else self.tables[-1]
        params = case.path_parameters if case.path_parameters is not None else {}
        params["table_id"] = table["id"]
        case.path_parameters = params
        shown = self.client.get(f"/v1/tables/{table['id']}").get_json()
        if path != "/v1/tables/{table_id}":
            headers["Seat-Token"] = table["seats"][shown["turn"]]["token"]
        if method == "POST":
            case.body = {"version": shown["version"], "action": {"type": "draw"}}
            case.media_type = "application/json"
        elif path.endswith("/view"):
            case.query = {"version": shown["version"], "wait": 0}
        elif path.endswith("/events"):
            headers = {k: v for k, v in headers.items() if k.lower() != "last-event-id"}
            case.query = {"wait": 1}  # the shortest stream: the view, then the end
        else:
            case.query = {}
        case.headers = headers

    def steer(self, case: Any) -> None:
        """Every other case of a games or tables operation: live ids, the documented body, the ETag,
        a seat's token."""
        key = (case.method.upper(), case.path)
        n = next(self.counter.setdefault(key, itertools.count()))
        if key not in STEERED or n % 2:
            return
        method, path = key
        if key in TABLES_OPERATIONS:
            self.steer_table(case, method, path)
            return
        params = case.path_parameters if case.path_parameters is not None else {}
        if "{game_id}" in path:
            # a fresh game where the operation changes it (appends end a game; deletes remove it)
            if method in ("POST", "DELETE", "PUT") or not self.games:
                params["game_id"] = self._new_game(rounds=0 if method == "POST" else 1)
            else:
                params["game_id"] = self.games[n // 2 % len(self.games)]
                if (
                    "{number}" in path
                    and self.client.get(f"/v1/games/{params['game_id']}").get_json()["rounds_played"] < 1
                ):
                    self.client.post(f"/v1/games/{params['game_id']}/rounds", json=_ROUND)
        if "{number}" in path:
            params["number"] = 1
        case.path_parameters = params
        if method == "POST":
            case.body = ex.GAME_CREATE_REQUEST if path == "/v1/games" else _ROUND
            case.media_type = "application/json"
            case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "idempotency-key"}
        if method == "PUT":
            case.body = ex.ROUND_UPDATE_REQUEST
            case.media_type = "application/json"
            etag = self.client.get(f"/v1/games/{params['game_id']}/rounds/1").headers["ETag"]
            case.headers = {**(case.headers or {}), "If-Match": etag}
        if method == "DELETE" and "{number}" in path:  # the last round, If-Match the game's ETag
            etag = self.client.get(f"/v1/games/{params['game_id']}").headers["ETag"]
            case.headers = {**(case.headers or {}), "If-Match": etag}
        elif method == "DELETE":
            case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "if-match"}
        if method == "GET":
            case.query = {}
            case.headers = {
                k: v
                for k, v in (case.headers or {}).items()
                if k.lower() not in ("if-none-match", "accept", "authorization")
            }

    def record(self, case: Any, response: Any) -> None:
        key = (case.method.upper(), case.path)
        if key[0] != case.operation.method.upper():
            return  # schemathesis trying a method the path does not have (a 405): not an operation
        kind = f"{response.status_code // 100}xx"
        counts = self.answers.setdefault(key, {})
        counts[kind] = counts.get(kind, 0) + 1
        location = response.headers.get("Location")
        if key == ("POST", "/v1/games") and response.status_code == 201 and location:
            self.games.append(int(str(location[0] if isinstance(location, list) else location).rsplit("/", 1)[1]))

    def run(self, case: Any) -> None:
        self.steer(case)
        response = case.call_and_validate(checks=CHECKS)
        self.record(case, response)

    def report(self, backend: str) -> str:
        lines = [f"2xx share per operation ({backend}, {EXAMPLES} examples each):"]
        for (method, path), counts in sorted(self.answers.items(), key=lambda item: item[0][::-1]):
            total = sum(counts.values())
            lines.append(f"  {counts.get('2xx', 0) / total:6.1%} of {total:4d}  {method:6s} {path}")
        return "\n".join(lines)

    def check(self, backend: str, capsys: pytest.CaptureFixture[str]) -> None:
        if not self.answers:
            pytest.skip(f"no fuzz run on {backend}")
        with capsys.disabled():
            print("\n" + self.report(backend))
        missing = [op for op in STEERED if not self.answers.get(op, {}).get("2xx")]
        assert not missing, f"operations never answered 2xx: {missing}\n{self.report(backend)}"


SQLITE_STEER, PG_STEER = Steer(SQLITE_APP), Steer(PG_APP)


@pytest.mark.usefixtures("sqlite_database")
@sqlite_schema.parametrize()
@FUZZ
def test_every_operation_sqlite(case: Any) -> None:
    SQLITE_STEER.run(case)


@pytest.mark.usefixtures("postgresql_database")
@pg_schema.parametrize()
@FUZZ
def test_every_operation_postgresql(case: Any) -> None:
    PG_STEER.run(case)


@pytest.mark.usefixtures("sqlite_database")
def test_every_games_operation_answered_2xx_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    SQLITE_STEER.check("SQLite", capsys)


@pytest.mark.usefixtures("postgresql_database")
def test_every_games_operation_answered_2xx_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    PG_STEER.check("PostgreSQL", capsys)
