"""Ties in the keeper: a tie that stands (Pagat), a tiebreaker round (Online 11/13), and the games
list's filter for each status."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests

from tests.process.browser.keeper_pages import api_get, enter_tally, fmt, open_entry, save, settle, stored_game, tally
from tests.process.browser.keeper_util import LiveServer

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def _tied_game(server: LiveServer, preset: str) -> int:
    """A game whose four rounds leave both sides level: 500 + 100 = 600 each per round."""
    teams = [{"name": "A", "players": ["Ann", "Bo"]}, {"name": "B", "players": ["Cy", "Di"]}]
    body = {"name": f"Level ({preset})", "preset": preset, "teams": teams}
    game = requests.post(f"{server.url}/v1/games", json=body, timeout=10).json()
    level = tally(clean=1, table=100)
    for _ in range(4):
        round_body = {"teams": [{"name": "A", "tally": level}, {"name": "B", "tally": level}]}
        response = requests.post(f"{server.url}/v1/games/{game['id']}/rounds", json=round_body, timeout=10)
        assert response.status_code == 201, response.text
    return int(game["id"])


def test_tie_stands_or_goes_to_a_tiebreaker_round(page: Any, live_server: LiveServer) -> None:
    # Pagat: a tie after the last round stands.
    page.goto(f"{live_server.url}/#/games/{_tied_game(live_server, 'pagat')}")
    expect(page.get_by_test_id("result")).to_have_text("Tie: A and B with 2,400 points")
    assert page.get_by_role("link", name=re.compile("^Enter ")).count() == 0

    # Online 11/13: a tie calls for a tiebreaker round, with its own opening minimum.
    detail = api_get(live_server, "/v1/presets/online-11-13")
    page.goto(f"{live_server.url}/#/games/{_tied_game(live_server, 'online-11-13')}")
    expect(page.get_by_test_id("result")).to_have_text("Level at the top (A and B): play tiebreaker round 5.")
    open_entry(page, 5)
    assert page.locator("#entry-title").inner_text() == "Round 5: tiebreaker"
    minimum = detail["rules"]["tiebreaker_opening_minimum"]
    assert page.get_by_test_id("opening-minimum").inner_text() == fmt(minimum)
    enter_tally(page, 0, tally(clean=2, table=150), False)
    enter_tally(page, 1, tally(clean=1, table=100), False)
    settle(page)
    save(page, 5)
    expect(page.get_by_test_id("result")).to_have_text(re.compile(r"^Winner: A with "))


def test_every_status_has_its_filter(page: Any, live_server: LiveServer) -> None:
    """A game in a tiebreaker is found under its own filter (it showed only under "All games")."""
    level = _tied_game(live_server, "online-11-13")
    ongoing = stored_game(live_server, 0, name="Tonight")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".game-card")
    for label, game_id in (("Tiebreaker", level), ("In progress", ongoing)):
        page.get_by_label(label, exact=True).check()
        expect(page.locator(".game-card")).to_have_count(1)
        expect(page.locator(".game-card")).to_have_attribute("data-game-id", str(game_id))
    page.get_by_label("All games").check()
    expect(page.locator(".game-card")).to_have_count(2)
