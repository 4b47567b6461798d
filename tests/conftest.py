"""Shared fixtures.

Database choice: every test that uses ``app`` (or ``db_url``) runs on a fresh temp SQLite file.
Mark a test ``@pytest.mark.db`` to run it on every backend: SQLite always, and PostgreSQL too when
``TEST_DATABASE_URL`` is set (e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432/handfoot_ci``);
each PostgreSQL test gets a database of its own on that server, dropped afterwards. The test ids say which:
``test_x[sqlite]``, ``test_x[postgresql]``. ``db_backend`` is the name of the backend in use.

Tables are created by the alembic migrations (``alembic upgrade head``), as in production, once per
backend per pytest process (per xdist worker) into a template database; each test gets a copy (a
file copy on SQLite, ``CREATE DATABASE ... TEMPLATE`` on PostgreSQL). ``empty_db_url`` is for the
tests of the migrations themselves, which run alembic on an empty database.

Worked cases: the project's own copy is ``tests/cases/worked`` (:data:`WORKED_CASES`), so a clone
with nothing beside it tests itself; ``tests/cases/test_case_copy.py`` keeps it equal to
``../shared/cases`` wherever that folder exists.

Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (default ``ci`` under ``CI=true``, else ``dev``):

- ``ci`` (``make test``, ``.ci/run``): every property test runs its own number of examples, the one
  it passes to :func:`examples` (150 to 400), and a test that names none runs Hypothesis's 100.
- ``dev`` (``make check``, and a bare ``pytest``): 20 examples a test, for the loop run after each change.

Both turn the deadline off (a loaded machine is not a slow rule). The schema fuzz has its own count
(``HANDFOOT_FUZZ_EXAMPLES``, tests/contract/test_schema_fuzz.py).

Skips are loud on CI: with ``CI=true`` a skipped test fails (a missing PostgreSQL, Chromium or
package is a red run naming what is missing, never a quiet green one).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import threading
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from sqlalchemy import make_url, pool, text
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server
from werkzeug.test import TestResponse

from handfoot.server import create_app, migrate
from handfoot.server.config import normalize_database_url
from handfoot.server.db import get_db, make_engine
from tests.helpers.live import LiveServer, start_server
from tests.helpers.session_end import pytest_sessionfinish  # noqa: F401 - a hook, registered with this conftest

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None
BACKENDS = ("sqlite", "postgresql")
ON_CI = os.environ.get("CI", "").lower() == "true"

HYPOTHESIS_PROFILES = {"ci": 100, "dev": 20}  # examples a property test runs unless it says otherwise
for _name, _count in HYPOTHESIS_PROFILES.items():
    settings.register_profile(_name, max_examples=_count, deadline=None)
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if ON_CI else "dev")
settings.load_profile(HYPOTHESIS_PROFILE)


def examples(count: int) -> int:
    """A property test's number of examples: ``count`` under the ``ci`` profile, at most the
    profile's own number under any other (``dev``: 20)."""
    if HYPOTHESIS_PROFILE == "ci":
        return count
    return min(count, HYPOTHESIS_PROFILES.get(HYPOTHESIS_PROFILE, count))


#: The project's copy of the worked cases (one ``*.json`` a case; see tests/cases/worked/README.md).
WORKED_CASES = Path(__file__).resolve().parent / "cases" / "worked"
#: The project's own cases of rules the worked cases leave out (issue 30: each rule item allowed and
#: refused, per preset where presets differ), in the worked cases' format.
RULE_CASES = Path(__file__).resolve().parent / "cases" / "rules"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Under ``CI=true`` a skip is a failure that names what was missing."""
    outcome = yield
    report = outcome.get_result()
    if ON_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, which allows no skip: {reason}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that uses the session's gunicorn (``live_server``) is marked ``process``, so that
    ``make check`` (``-m "not process and not fuzz"``) leaves it to ``make test``.

    schemathesis's items (one per operation) are named after their operation but share their
    function's node id under pytest 9; pytest-xdist schedules and reports by node id, so under it all
    but one of them were lost. Each gets the id its name gives."""
    for item in items:
        if "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.process)
        if type(item).__name__ == "SchemathesisFunction" and not item.nodeid.endswith("]"):
            item._id = item.parent.id.child(item.name)  # type: ignore[union-attr]  # an item has a parent


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
    except Exception as error:  # noqa: BLE001 - any driver or network error means the same thing here
        pytest.exit(f"CI=true but PostgreSQL at TEST_DATABASE_URL is not reachable: {error}", returncode=1)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("db"):
        skip_pg = pytest.mark.skipif(
            TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL not set: PostgreSQL not tested"
        )
        backends = [pytest.param("postgresql", marks=skip_pg)]
        if not metafunc.definition.get_closest_marker("postgresql"):
            backends.insert(0, pytest.param("sqlite"))
        metafunc.parametrize("db_backend", backends, indirect=True)


@pytest.fixture
def db_backend(request: pytest.FixtureRequest) -> str:
    """``"sqlite"`` unless the test is marked ``db`` (then each backend in turn)."""
    backend: str = getattr(request, "param", "sqlite")
    assert backend in BACKENDS
    return backend


#: This pytest process's name among xdist workers (``gw0``...; ``main`` without xdist) plus a random
#: token, so that runs sharing one PostgreSQL server never pick the same database names.
_RUN_TOKEN = f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{uuid.uuid4().hex[:8]}"


def _pg_url(database: str) -> str:
    """``TEST_DATABASE_URL`` pointed at another database of the same server."""
    assert TEST_DATABASE_URL is not None
    url = make_url(normalize_database_url(TEST_DATABASE_URL)).set(database=database)
    return url.render_as_string(hide_password=False)


@contextlib.contextmanager
def _pg_admin() -> Iterator[Any]:
    """An autocommit connection to ``TEST_DATABASE_URL`` (CREATE/DROP DATABASE run outside a
    transaction)."""
    assert TEST_DATABASE_URL is not None
    engine = make_engine(normalize_database_url(TEST_DATABASE_URL), poolclass=pool.NullPool)
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            yield connection
    finally:
        engine.dispose()


class _Templates:
    """One migrated template database per backend for this pytest process, made on first use:
    ``alembic upgrade head`` runs once here instead of once a test. A test's database is a copy
    (:meth:`sqlite_copy`, :meth:`pg_create`): a file copy for SQLite, ``CREATE DATABASE ...
    TEMPLATE`` for PostgreSQL."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.sqlite: Path | None = None
        self.postgresql: str | None = None
        self.made = 0  # PostgreSQL databases made by this process: the next name's number

    def sqlite_copy(self, target: Path) -> str:
        if self.sqlite is None:
            template = self.folder / "template.sqlite3"
            migrate.upgrade(f"sqlite:///{template}")
            # The file is in WAL mode; closing the last connection checkpointed it, so the main
            # file alone holds the schema (any -wal left is copied too).
            self.sqlite = template
        shutil.copyfile(self.sqlite, target)
        wal = self.sqlite.with_name(self.sqlite.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, target.with_name(target.name + "-wal"))
        return f"sqlite:///{target}"

    def pg_create(self, *, migrated: bool) -> str:
        """A new PostgreSQL database: a copy of the migrated template, or empty; its name."""
        if migrated and self.postgresql is None:
            name = f"hf_tpl_{_RUN_TOKEN}"
            with _pg_admin() as connection:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
            migrate.upgrade(_pg_url(name))
            self.postgresql = name
        self.made += 1
        name = f"hf_{_RUN_TOKEN}_{self.made}"
        template = f' TEMPLATE "{self.postgresql}"' if migrated else ""
        with _pg_admin() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"{template}'))
        return name

    @staticmethod
    def pg_drop(name: str) -> None:
        # FORCE: a connection a failed test left open must not keep the database (PostgreSQL 13+).
        with _pg_admin() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def close(self) -> None:
        if self.postgresql is not None:
            self.pg_drop(self.postgresql)


@pytest.fixture(scope="session")
def _templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Templates]:
    templates = _Templates(tmp_path_factory.mktemp("templates"))
    try:
        yield templates
    finally:
        templates.close()


@contextlib.contextmanager
def _database(db_backend: str, tmp_path: Path, templates: _Templates, *, migrated: bool) -> Iterator[str]:
    """The URL of a database of this test's own on ``db_backend``, dropped (PostgreSQL) at the end."""
    if db_backend == "sqlite":
        target = tmp_path / "handfoot-test.sqlite3"
        yield templates.sqlite_copy(target) if migrated else f"sqlite:///{target}"
        return
    name = templates.pg_create(migrated=migrated)
    try:
        yield _pg_url(name)
    finally:
        templates.pg_drop(name)


@pytest.fixture
def empty_db_url(db_backend: str, tmp_path: Path, _templates: _Templates) -> Iterator[str]:
    """URL of an empty database on ``db_backend`` (a temp SQLite file, or a fresh PostgreSQL
    database), for the tests of the migrations themselves."""
    with _database(db_backend, tmp_path, _templates, migrated=False) as url:
        yield url


@pytest.fixture
def db_url(db_backend: str, tmp_path: Path, _templates: _Templates) -> Iterator[str]:
    """URL of a database on ``db_backend`` at the migrations' head: a copy of this process's
    migrated template (see :class:`_Templates`)."""
    with _database(db_backend, tmp_path, _templates, migrated=True) as url:
        yield url


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
    on PostgreSQL the test's DROP DATABASE would wait for it (a failing assertion before the
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
