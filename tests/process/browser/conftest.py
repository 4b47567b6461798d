"""Browser tests of the score keeper page: real headless Chromium driven by Playwright.

Chromium is Debian's ``chromium`` package (``.ci/run`` installs it), started through Playwright's
``executable_path``: Playwright never downloads a browser of its own. Without ``chromium`` on the
PATH, or without the ``playwright`` package, every test here that starts a browser (through the
``playwright`` fixture) is skipped, not failed; the tests that read the keeper's files do not need one.

The app is served by werkzeug in a thread on 127.0.0.1 (a free port), on a temp SQLite database
migrated with alembic, fresh for each test; each test gets its own Chromium with a fresh
user-data-dir. See ``keeper_util.py`` for screenshots (``HANDFOOT_SCREENSHOTS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from handfoot.server import migrate
from tests.process.browser.keeper_util import CHROMIUM, LiveServer, Requests, launch

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the environment
    sync_playwright = None

if sync_playwright is None:
    SKIP_REASON: str | None = "the playwright package is not installed (pip install -e '.[dev]')"
elif CHROMIUM is None:
    SKIP_REASON = "chromium is not installed (apt-get install -y chromium; .ci/run does)"
else:
    SKIP_REASON = None

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if SKIP_REASON is None:
        return
    for item in items:
        needs_browser = "playwright" in getattr(item, "fixturenames", ())
        if needs_browser and HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    db_url = f"sqlite:///{tmp_path / 'keeper.sqlite3'}"
    migrate.upgrade(db_url)
    with LiveServer(db_url) as server:
        yield server


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    assert sync_playwright is not None
    with sync_playwright() as p:
        yield p


@pytest.fixture
def requests_seen() -> Requests:
    return Requests()


@pytest.fixture
def context(playwright: Any, tmp_path: Path, requests_seen: Requests) -> Iterator[Any]:
    """Headless Chromium with a fresh user-data-dir for this test."""
    ctx = launch(playwright, tmp_path / "chromium-profile", accept_downloads=True)
    ctx.on("request", lambda request: requests_seen.urls.append(request.url))
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: Any, live_server: LiveServer) -> Iterator[Any]:
    p = context.pages[0] if context.pages else context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    # A Content-Security-Policy refusal is only a console message: count it as an error too.
    p.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    yield p
    assert not errors, f"JavaScript or CSP errors on the page: {errors}"
