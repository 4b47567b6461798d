"""Shared fixtures.

Database choice: every test that uses ``app`` (or ``db_url``) runs on a fresh temp SQLite file.
Mark a test ``@pytest.mark.db`` to run it on every backend: SQLite always, and PostgreSQL too when
``TEST_DATABASE_URL`` is set (e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432/handfoot_ci``);
each PostgreSQL test gets its own schema, dropped afterwards. The test ids say which:
``test_x[sqlite]``, ``test_x[postgresql]``. ``db_backend`` is the name of the backend in use.

Tables are created by running the alembic migrations (``alembic upgrade head``), as in production.

Worked cases: the project's own copy is ``tests/cases/worked`` (:data:`WORKED_CASES`), so a clone
with nothing beside it tests itself; ``tests/cases/test_case_copy.py`` keeps it equal to
``../shared/cases`` wherever that folder exists.

Skips are loud on CI: with ``CI=true`` a skipped test fails (a missing PostgreSQL, Chromium or
package is a red run naming what is missing, never a quiet green one).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import make_url, text
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server
from werkzeug.test import TestResponse

from handfoot.server import create_app, migrate
from handfoot.server.config import normalize_database_url
from handfoot.server.db import get_db, make_engine
from tests.helpers.live import LiveServer, start_server

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None
BACKENDS = ("sqlite", "postgresql")
ON_CI = os.environ.get("CI", "").lower() == "true"

#: The project's copy of the worked cases (one ``*.json`` a case; see tests/cases/worked/README.md).
WORKED_CASES = Path(__file__).resolve().parent / "cases" / "worked"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Under ``CI=true`` a skip is a failure that names what was missing."""
    outcome = yield
    report = outcome.get_result()
    if ON_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, which allows no skip: {reason}"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under ``CI=true`` PostgreSQL must be configured and reachable: say so once, before any test."""
    if not ON_CI:
        return
    if TEST_DATABASE_URL is None:
        pytest.exit("CI=true but TEST_DATABASE_URL is not set: PostgreSQL would not be tested", returncode=1)
    try:
        engine = make_engine(normalize_database_url(TEST_DATABASE_URL))
        with engine.connect():
            pass
        engine.dispose()
    except Exception as error:  # any driver or network error means the same thing here
        pytest.exit(f"CI=true but PostgreSQL at TEST_DATABASE_URL is not reachable: {error}", returncode=1)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("db"):
        skip_pg = pytest.mark.skipif(
            TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL not set: PostgreSQL not tested"
        )
        metafunc.parametrize(
            "db_backend",
            [pytest.param("sqlite"), pytest.param("postgresql", marks=skip_pg)],
            indirect=True,
        )


@pytest.fixture
def db_backend(request: pytest.FixtureRequest) -> str:
    """``"sqlite"`` unless the test is marked ``db`` (then each backend in turn)."""
    backend: str = getattr(request, "param", "sqlite")
    assert backend in BACKENDS
    return backend


@pytest.fixture
def empty_db_url(db_backend: str, tmp_path: Path) -> Iterator[str]:
    """URL of an empty database on ``db_backend``: a temp SQLite file, or a fresh PG schema."""
    if db_backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'handfoot-test.sqlite3'}"
        return
    assert TEST_DATABASE_URL is not None
    base_url = normalize_database_url(TEST_DATABASE_URL)
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = make_engine(base_url)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def db_url(empty_db_url: str) -> str:
    """URL of a database on ``db_backend`` with the migrations applied (``upgrade head``)."""
    migrate.upgrade(empty_db_url)
    return empty_db_url


def make_test_app(db_url: str, **config: Any) -> Flask:
    """``create_app`` for tests: TESTING on, the given database, extra config on top."""
    return create_app({"TESTING": True, "DATABASE_URL": db_url, **config})


@contextlib.contextmanager
def served(app: Flask, request_handler: type[WSGIRequestHandler] | None = None) -> Iterator[BaseWSGIServer]:
    """``app`` on a real socket (127.0.0.1, a free port), one thread a request, in a thread of this
    process, for tests that need concurrent clients or real HTTP framing; shut down on exit. The
    server's ``server_port`` is the port (``served_url`` gives the base URL)."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=request_handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        thread.join(10)


def served_url(server: BaseWSGIServer) -> str:
    """The base URL of a :func:`served` server."""
    return f"http://127.0.0.1:{server.server_port}"


T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own: a test before this one (the browser tests'
    sync Playwright API) may have left an event loop running in this thread."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.fixture
def threaded_server(app: Flask) -> Iterator[str]:
    """The base URL of ``app`` :func:`served` for this test."""
    with served(app) as server:
        yield served_url(server)


@pytest.fixture
def app_config() -> dict[str, Any]:
    """Extra config for the ``app`` fixture; override this fixture in a module to change it."""
    return {}


@pytest.fixture
def make_app(db_url: str) -> Iterator[Callable[..., Flask]]:
    """Factory: ``make_app(**config)`` builds an app on this test's migrated database."""
    apps: list[Flask] = []

    def factory(**config: Any) -> Flask:
        application = make_test_app(db_url, **config)
        apps.append(application)
        return application

    yield factory
    for application in apps:
        get_db(application).dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask], app_config: dict[str, Any]) -> Flask:
    """The app on a migrated database of ``db_backend`` (SQLite unless marked ``db``)."""
    return make_app(**app_config)


class ClosingClient(FlaskClient):
    """A test client that keeps each streamed response it gives (the export), so that the ``client``
    fixture closes every one, read or not: an open stream holds a database session of its own, and
    on PostgreSQL ``empty_db_url``'s DROP SCHEMA would wait for it (a failing assertion before the
    stream is read must not hang the run)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.streams: list[TestResponse] = []

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        if response.is_streamed:
            self.streams.append(response)
        return response

    def close_streams(self) -> None:
        """Close every streamed response given (closing a read one does nothing)."""
        while self.streams:
            self.streams.pop().close()


@pytest.fixture(scope="session")
def stateless_client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    """A test client of one app for the whole run, for the operations that touch no database
    (scoring, the checks, the presets, the documents): its database file is never created."""
    unused = tmp_path_factory.mktemp("stateless") / "unused.sqlite3"
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{unused}"}).test_client()


@pytest.fixture
def flask_client(app: Flask) -> Iterator[FlaskClient]:
    """The app's test client; every streamed response it gave is closed when the test ends, before
    the database is dropped (:class:`ClosingClient`)."""
    app.test_client_class = ClosingClient
    test_client = app.test_client()
    assert isinstance(test_client, ClosingClient)
    try:
        yield test_client
    finally:
        test_client.close_streams()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """gunicorn (2 workers) on a free port with a migrated SQLite file in a temp folder, shared by the
    session (the SDK's end-to-end tests and the examples)."""
    server = start_server(tmp_path_factory.mktemp("live-server"))
    try:
        yield server
    finally:
        server.stop()
