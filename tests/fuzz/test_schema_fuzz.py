"""Schema fuzzing: schemathesis against the served OpenAPI document, every operation.

Each operation gets ``HANDFOOT_FUZZ_EXAMPLES`` generated requests (default 12: the bounded run
inside ``make test``; ``make fuzz`` runs many more), valid ones and invalid ones, from a fixed seed
(``HANDFOOT_FUZZ_SEED``, default 20261129), against the WSGI app on a migrated temp SQLite database
with no API keys (so the games operations are open). Every response must pass:

- ``not_a_server_error``: no 5xx;
- ``status_code_conformance``: the status is documented for the operation;
- ``content_type_conformance``: the Content-Type is one documented for that status;
- ``response_schema_conformance``: the body matches the documented schema.
"""

from __future__ import annotations

import os
import shutil
import tempfile
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

from api import create_app, migrate
from api.db import get_db

EXAMPLES = int(os.environ.get("HANDFOOT_FUZZ_EXAMPLES", "12"))
SEED = int(os.environ.get("HANDFOOT_FUZZ_SEED", "20261129"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


# The app is built at import (it touches no database), so that schemathesis makes one test per
# operation; its temp SQLite file is migrated before the first test and removed after the last.
_TMP = Path(tempfile.mkdtemp(prefix="handfoot-fuzz-"))
_URL = f"sqlite:///{_TMP / 'fuzz.sqlite3'}"
APP = create_app({"DATABASE_URL": _URL})
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=schemathesis.Config(seed=SEED))


@pytest.fixture(scope="module", autouse=True)
def _migrated_database() -> Iterator[None]:
    migrate.upgrade(_URL)
    yield
    get_db(APP).dispose()
    shutil.rmtree(_TMP, ignore_errors=True)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)
