"""Helpers of the keeper's browser tests: a live server in a thread, the request log, screenshots.

``HANDFOOT_SCREENSHOTS=docs/screenshots`` makes the tests save screenshots of the main screens
there (desktop 1280 px and phone 390 px wide).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from werkzeug.serving import WSGIRequestHandler

from handfoot.server import create_app
from handfoot.server.db import get_db
from tests.conftest import served, served_url

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT_DIR = os.environ.get("HANDFOOT_SCREENSHOTS") or None
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def launch(playwright: Any, profile: Path, **options: Any) -> Any:
    """Headless Chromium (Debian's) with a fresh user-data-dir `profile`; `options` go to Playwright."""
    ctx = playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=DESKTOP,
        locale="en-US",
        **options,
    )
    ctx.set_default_timeout(15_000)
    return ctx


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass


class LiveServer:
    """The app on 127.0.0.1:<free port>, in a thread."""

    def __init__(self, db_url: str, **config: Any) -> None:
        self.app = create_app({"TESTING": True, "DATABASE_URL": db_url, **config})
        self.serving = served(self.app, QuietHandler)

    def __enter__(self) -> LiveServer:
        self.url = served_url(self.serving.__enter__())
        return self

    def __exit__(self, *exc: object) -> None:
        self.serving.__exit__(None, None, None)
        get_db(self.app).dispose()


class Requests:
    """Every URL the page asked for, to check nothing left 127.0.0.1."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def external(self) -> list[str]:
        out = []
        for url in self.urls:
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob", "about"):
                continue
            if parts.hostname != "127.0.0.1":
                out.append(url)
        return out


def screenshot(page: Any, name: str, *, full_page: bool = True, dark: bool = False, at: str | None = None) -> None:
    """Save ``<name>-desktop.png`` and ``<name>-phone.png`` when HANDFOOT_SCREENSHOTS is set; with
    ``dark``, also ``<name>-dark-desktop.png`` and ``<name>-dark-phone.png`` (prefers-color-scheme: dark).
    ``at``: a selector to scroll to the top of the screen (one screenful, not the full page)."""
    if not SCREENSHOT_DIR:
        return
    out = Path(SCREENSHOT_DIR)
    out.mkdir(parents=True, exist_ok=True)
    original = page.viewport_size
    for scheme in ("light", "dark") if dark else ("light",):
        page.emulate_media(color_scheme=scheme)
        suffix = "-dark" if scheme == "dark" else ""
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            if at:
                page.locator(at).first.evaluate("el => el.scrollIntoView({block: 'start'})")
            elif not full_page:
                page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(150)
            page.screenshot(path=str(out / f"{name}{suffix}-{label}.png"), full_page=full_page and not at)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(original)


class Actions:
    """A person's input, counted: each ``tap`` is one click (or tap), each typed character and each
    ``press`` one key press. The click-count test drives the page only through this."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks = 0
        self.keys = 0

    def tap(self, locator: Any, times: int = 1) -> None:
        for _ in range(times):
            locator.click()
            self.clicks += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    @property
    def total(self) -> int:
        return self.clicks + self.keys
