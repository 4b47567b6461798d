"""The round entry offers the inputs the rules read (issue 19): whether each player played from the
foot (Pagat's going-out rule), and perfect cuts in the cards form where the rules score them."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.process.browser.keeper_pages import SEED_T2, enter_tally, new_game, open_entry, settle, team_entry
from tests.process.browser.keeper_util import LiveServer

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

MELDS = [
    ["2C", "2D", "2H", "2S", "2C", "2D", "2H"],
    ["KS", "KH", "KD", "KC", "KS", "KH", "KD"],
    ["5S", "5H", "5D", "5C", "5S", "5H", "5D"],
    ["AS", "AH", "AD", "AC", "AS", "2S", "2C"],
    ["6S", "6H", "6D", "6C", "6S", "2D", "2H"],
    ["4S", "4H", "4D"],
]


def test_played_from_the_foot_is_asked_and_sent(page: Any, live_server: LiveServer) -> None:
    new_game(page, live_server)
    open_entry(page, 1)
    entry = team_entry(page, 0)
    entry.get_by_text("Cards", exact=True).click()
    entry.get_by_label("Melds on the table, one per line").fill(json.dumps(MELDS))
    entry.get_by_label("Red threes laid out").fill("3H")
    entry.get_by_label("Cards left in Bo's hand").fill("8S 8H 5C")
    entry.get_by_label(re.compile("went out$")).check()
    enter_tally(page, 1, SEED_T2, False)
    played = entry.get_by_label("Bo played from the foot")
    assert played.input_value() == ""  # not asked: not sent, not refused (D17)
    played.select_option("false")
    field = entry.locator("[data-pointer='/teams/0/players/1/played_from_foot']")
    field.locator(".field-error").wait_for()
    assert "played from the foot" in field.locator(".field-error").inner_text()
    played.select_option("true")
    settle(page)
    assert page.locator(".preview [data-total='Team 1']").inner_text() == "3,740"
    # A foot never picked up is not played from: the question goes away with it.
    entry.get_by_label("Ann never picked up the foot").check()
    expect(entry.get_by_label("Ann played from the foot")).to_be_hidden()


def test_perfect_cuts_in_the_cards_form_where_the_rules_score_them(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/#/new")
    page.wait_for_selector(".rule-row", state="attached")
    page.get_by_label("Name of the game").fill("Cuts")
    for name, player in (
        ("teams.0.name", "Team 1"),
        ("teams.1.name", "Team 2"),
        ("teams.0.players.0", "Ann"),
        ("teams.0.players.1", "Bo"),
        ("teams.1.players.0", "Cy"),
        ("teams.1.players.1", "Di"),
    ):
        page.locator(f"input[name='{name}']").fill(player)
    page.locator("details.rules-details > summary").click()
    page.get_by_label(re.compile("^Bonus each time a player picks up exactly")).fill("100")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".scoreboard")
    open_entry(page, 1)
    entry = team_entry(page, 0)
    entry.get_by_text("Cards", exact=True).click()
    entry.get_by_label("Melds on the table, one per line").fill(json.dumps(MELDS))
    entry.get_by_label("Red threes laid out").fill("3H")
    entry.get_by_label("Cards left in Bo's hand").fill("8S 8H 5C")
    entry.get_by_label(re.compile("went out$")).check()
    entry.get_by_label("Bo played from the foot").select_option("true")
    entry.get_by_role("button", name="One more: perfect cuts, Team 1").click()
    enter_tally(page, 1, SEED_T2, False)
    settle(page)
    assert page.locator(".preview [data-total='Team 1']").inner_text() == "3,840"
