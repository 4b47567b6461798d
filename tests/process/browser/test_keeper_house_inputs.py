"""The round entry shows issue 19's remaining inputs and outputs: the books of a rank with a bonus of
its own (rule ``rank_book_bonuses``, D30) as steppers in the counts, and the meld rules a side's table
breaks that stand all the same (rule ``illegal_melds_stand``, the Hodges family rules, D31) as warnings
beside that side's breakdown.

Expected scores are worked out by hand here, not asked of the engine.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests

from tests.process.browser.keeper_pages import SEED_T1, SEED_T2, api_get, enter_tally, fmt, lines_of, settle, team_entry
from tests.process.browser.keeper_util import LiveServer

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

SIDES = [{"name": "Team 1", "players": ["Ann", "Bo"]}, {"name": "Team 2", "players": ["Cy", "Di"]}]
#: The printed five-deck sheet's house rule (D30): a book of sevens 1,500, a book of black threes 2,000.
RANK_RULES = {
    "black_three_books": True,
    "rank_book_bonuses": [{"rank": "7", "bonus": 1500}, {"rank": "3", "bonus": 2000}],
}


def api_game(server: LiveServer, preset: str, rules: dict[str, Any] | None = None) -> int:
    body: dict[str, Any] = {"name": "House", "preset": preset, "teams": SIDES}
    if rules:
        body["rules"] = rules
    response = requests.post(f"{server.url}/v1/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def open_round(page: Any, server: LiveServer, game_id: int, number: int = 1, *, stored: bool = False) -> None:
    path = f"rounds/{number}" if stored else "round"
    page.goto(f"{server.url}/#/games/{game_id}/{path}")
    page.wait_for_selector(f"form.entry[data-round='{number}']")
    settle(page)


def test_a_book_of_sevens_is_entered_with_steppers_and_scores_its_own_bonus(page: Any, live_server: LiveServer) -> None:
    game_id = api_game(live_server, "pagat", RANK_RULES)
    open_round(page, live_server, game_id)
    entry = team_entry(page, 0)
    expect(entry.get_by_role("group", name="Books of sevens")).to_be_visible()
    expect(entry.get_by_role("group", name="Books of black threes")).to_be_visible()
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T2, False)
    settle(page)
    # Pagat: 1000+600+1500+100+100+465-25 = 3740, no book of sevens yet.
    assert page.locator(".preview [data-total='Team 1']").inner_text() == fmt(3740)
    assert lines_of(page, "Team 1")["books_of_7"][2] == "0"
    entry.get_by_role("button", name="One more: clean books of sevens, Team 1").click()
    settle(page)
    # One of the two clean books is of sevens: 1,500 in place of 500, so 3740 - 500 + 1500.
    assert lines_of(page, "Team 1")["books_of_7"][1:] == (f"1 × {fmt(1500)}", fmt(1500))
    assert lines_of(page, "Team 1")["clean_books"][2] == fmt(500)
    assert page.locator(".preview [data-total='Team 1']").inner_text() == fmt(4740)
    # More books of sevens than clean books is refused, at the books of a rank.
    for _ in range(2):
        entry.get_by_role("button", name="One more: clean books of sevens, Team 1").click()
    entry.locator("[data-pointer='/teams/0/tally/rank_books'] .field-error").wait_for()
    entry.get_by_role("button", name="One fewer: clean books of sevens, Team 1").click()
    entry.get_by_role("button", name="One fewer: clean books of sevens, Team 1").click()
    settle(page)
    page.get_by_role("button", name="Save round 1").click()
    page.wait_for_selector(".scoreboard ~ .sheet-card table.sheet tr[data-round='1']")
    stored = api_get(live_server, f"/v1/games/{game_id}/rounds/1")
    sent = stored["request"]["teams"]
    assert sent[0]["tally"]["rank_books"] == [{"rank": "7", "clean_books": 1, "dirty_books": 0}]
    assert sent[1]["tally"]["rank_books"] == []  # only ranks with a count are sent
    line = next(li for li in stored["teams"][0]["lines"] if li["code"] == "books_of_7")
    assert (line["count"], line["points"]) == (1, 1500)
    assert stored["teams"][0]["total"] == 4740
    # The correction reads the stored count back into its stepper.
    open_round(page, live_server, game_id, stored=True)
    assert team_entry(page, 0).get_by_label("Clean books of sevens", exact=True).input_value() == "1"
    assert lines_of(page, "Team 1")["books_of_7"][2] == fmt(1500)


def test_no_books_of_a_rank_where_the_rules_give_none_a_bonus(page: Any, live_server: LiveServer) -> None:
    game_id = api_game(live_server, "pagat")
    open_round(page, live_server, game_id)
    expect(page.locator(".rank-books")).to_have_count(0)


MELDS_ONE_ILLEGAL = [
    ["KS", "KH", "KD", "KC", "KS", "KH", "KD"],
    ["5S", "5H", "5D", "5C", "5S", "5H", "5D"],
    ["4S", "2H", "2D"],  # one natural, two wilds: more wilds than naturals
]


def fill_cards(entry: Any, melds: list[list[str]], hand: str, player: str) -> None:
    entry.get_by_text("Cards", exact=True).click()
    entry.get_by_label("Melds on the table, one per line").fill(json.dumps(melds))
    entry.get_by_label(f"Cards left in {player}'s hand").fill(hand)


def test_an_illegal_meld_under_the_hodges_rules_stands_with_a_warning(page: Any, live_server: LiveServer) -> None:
    game_id = api_game(live_server, "hodges")
    open_round(page, live_server, game_id)
    first, second = team_entry(page, 0), team_entry(page, 1)
    fill_cards(first, MELDS_ONE_ILLEGAL, "8S", "Ann")
    fill_cards(second, [["AS", "AH", "AD", "AC", "AS"]], "8S", "Cy")  # 100: the round's opening minimum
    settle(page)
    # It stands and scores: 2 clean books 1000, cards 70+35+5+20+20 = 150, an 8 left -5.
    assert page.locator(".preview [data-total='Team 1']").inner_text() == fmt(1145)
    warning = page.locator(".preview .breakdown[data-team='Team 1'] .breakdown-warnings")
    expect(warning).to_be_visible()
    title = "Warning for Team 1: this meld breaks the meld rules, but stands and scores"
    expect(page.get_by_role("note", name=title)).to_be_visible()
    expect(warning.locator("li[data-code='too_many_wilds']")).to_contain_text("meld 2")
    expect(page.locator(".preview .breakdown[data-team='Team 2'] .breakdown-warnings")).to_have_count(0)
    assert page.locator(".error-summary").is_hidden()  # a warning, not a refusal
    page.get_by_role("button", name="Save round 1").click()
    page.wait_for_selector(".scoreboard ~ .sheet-card table.sheet tr[data-round='1']")
    # The stored round's breakdown shows it too.
    open_round(page, live_server, game_id, stored=True)
    expect(page.locator(".preview .breakdown[data-team='Team 1'] li[data-code='too_many_wilds']")).to_be_visible()
    # Corrected with another illegal meld: the round's history shows each revision's warnings.
    fill_cards(team_entry(page, 0), [*MELDS_ONE_ILLEGAL[:2], ["6S", "JK", "2C"]], "8S", "Ann")
    settle(page)
    page.get_by_role("button", name="Save the correction of round 1").click()
    page.get_by_role("button", name="History of round 1 (corrected, revision 2)").click()
    revisions = page.locator("dialog#history li.revision")
    expect(revisions).to_have_count(2)
    for i in range(2):
        side = revisions.nth(i).locator(".revision-teams li[data-team='Team 1']")
        expect(side.get_by_role("note")).to_contain_text("Warning")
        expect(side.locator("li[data-code='too_many_wilds']")).to_be_visible()


def test_the_same_meld_under_pagat_is_refused_not_warned(page: Any, live_server: LiveServer) -> None:
    game_id = api_game(live_server, "pagat")
    open_round(page, live_server, game_id)
    first = team_entry(page, 0)
    fill_cards(first, MELDS_ONE_ILLEGAL, "8S", "Ann")
    first.locator("[data-pointer='/teams/0/melds'] .field-error").first.wait_for()
    expect(page.locator(".breakdown-warnings")).to_have_count(0)
