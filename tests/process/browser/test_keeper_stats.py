"""The keeper's statistics panel (#/stats, api/static/keeper/views/stats.js): it renders the figures
of GET /v1/games/stats per player and per side, filters by preset, downloads the export, and has no
serious or critical axe violation (light and dark, desktop and phone)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.process.browser.conftest import launch
from tests.process.browser.keeper_pages import api_get, stored_game
from tests.process.browser.keeper_util import DESKTOP, PHONE, LiveServer
from tests.process.browser.test_keeper_axe import violations


def cells(page: Any, caption: str) -> dict[str, list[str]]:
    """The table captioned `caption`: row header → the row's cells' text."""
    table = page.locator("table.stats", has=page.locator("caption", has_text=caption))
    rows: dict[str, list[str]] = {}
    for row in table.locator("tbody tr").all():
        rows[row.locator("th").inner_text().strip()] = [c.strip() for c in row.locator("td").all_inner_texts()]
    return rows


def test_statistics_panel_shows_players_and_sides(page: Any, live_server: LiveServer) -> None:
    stored_game(live_server, 4, name="Last week")
    stored_game(live_server, 2, name="Tonight")
    expected = api_get(live_server, "/v1/games/stats")
    page.goto(f"{live_server.url}/#/stats")
    page.wait_for_selector("table.stats")
    assert page.locator("h1").inner_text() == "Player statistics"
    assert page.locator('nav [data-nav="stats"]').get_attribute("aria-current") == "page"
    assert "2 games and 6 rounds" in page.locator("p.meta").inner_text()

    players = cells(page, "Per player")
    assert list(players) == [p["name"] for p in expected["players"]]
    ann = next(p for p in expected["players"] if p["name"] == "Ann")
    games, wins, rounds, _average, best, went_out, clean, dirty, wild = players["Ann"]
    assert (games, wins, rounds) == (str(ann["games"]), str(ann["wins"]), str(ann["rounds"]))
    assert best == f"{ann['best_round']:,}".replace("-", "\u2212")
    assert (went_out, clean, dirty, wild) == (
        str(ann["went_out"]),
        *(str(ann["books"][k]) for k in ("clean", "dirty", "wild")),
    )
    sides = cells(page, "Per side")
    assert set(sides) == {"Ann & Bo", "Cy & Di"}

    # A preset with no games: the panel says so.
    page.select_option("select[name=preset]", "bga")
    page.wait_for_selector("p.empty")
    assert "0 games" in page.locator("p.meta").inner_text()


def test_statistics_panel_downloads_the_export(page: Any, live_server: LiveServer) -> None:
    game = stored_game(live_server, 2)
    page.goto(f"{live_server.url}/#/stats")
    page.wait_for_selector("table.stats")
    with page.expect_download() as download:
        page.click('button[data-export="csv"]')
    text = Path(download.value.path()).read_text(encoding="utf-8")
    header, *rows = text.splitlines()
    assert header.startswith('"game_id","game","preset",')
    assert len(rows) == 2 * 2 and all(row.startswith(f"{game},") for row in rows)


@pytest.fixture
def axe_page(playwright: Any, tmp_path: Path) -> Iterator[Any]:
    ctx = launch(playwright, tmp_path / "axe-profile", bypass_csp=True)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    ctx.close()
    assert not errors, errors


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_statistics_panel_has_no_serious_or_critical_axe_violation(
    axe_page: Any, live_server: LiveServer, size: Any
) -> None:
    stored_game(live_server, 4, name="Last week")
    axe_page.set_viewport_size(size)
    axe_page.goto(f"{live_server.url}/#/stats")
    axe_page.wait_for_selector("table.stats")
    assert violations(axe_page) == []
