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
"""

from __future__ import annotations

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

EXAMPLES = int(os.environ.get("HANDFOOT_FUZZ_EXAMPLES", "12"))
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
    if TEST_DATABASE_URL else None
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


@pytest.mark.usefixtures("sqlite_database")
@sqlite_schema.parametrize()
@FUZZ
def test_every_operation_sqlite(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)


@pytest.mark.usefixtures("postgresql_database")
@pg_schema.parametrize()
@FUZZ
def test_every_operation_postgresql(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)
