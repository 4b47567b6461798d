"""The score keeper page in real headless Chromium (issue 8's "Done when", issue 21's flow): a game
from the new-game form to the winner, the live breakdown, rules broken shown at their inputs,
corrections and their history, the games list, ties, API keys, the phone layout and the keyboard.

Expected scores are worked out by hand (keeper_pages.py), not asked of the engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from handfoot.server.keeper import KEEPER_STATIC
from tests.process.browser.keeper_pages import (
    FOUR_ROUNDS,
    OPENING_MINIMUMS,
    SEED_T1,
    SEED_T2,
    api_get,
    enter_tally,
    fmt,
    lines_of,
    new_game,
    open_entry,
    play_round,
    running,
    save,
    settle,
    stored_game,
    tally,
    team_entry,
    total,
)
from tests.process.browser.keeper_util import LiveServer, Requests, screenshot

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def test_page_and_static_files_are_served(live_server: LiveServer) -> None:
    response = requests.get(live_server.url + "/", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert '<script type="module" src="/keeper/app.js"></script>' in response.text
    assert '<link rel="manifest" href="/keeper/manifest.webmanifest">' in response.text
    assert requests.get(f"{live_server.url}/keeper/icon.svg", timeout=10).status_code == 200
    manifest = requests.get(f"{live_server.url}/keeper/manifest.webmanifest", timeout=10)
    assert manifest.headers["Content-Type"].startswith("application/manifest+json")
    for icon in manifest.json()["icons"]:
        served = requests.get(live_server.url + icon["src"], timeout=10)
        assert served.status_code == 200 and served.headers["Content-Type"].startswith(icon["type"]), icon
    # Every ES module and stylesheet, views/ too, with its type: a browser refuses a module script, or a
    # stylesheet of a standards-mode page, served as anything else.
    served_as = {"*.js": "text/javascript", "*.css": "text/css"}
    names = {
        glob: sorted(p.relative_to(KEEPER_STATIC).as_posix() for p in KEEPER_STATIC.rglob(glob)) for glob in served_as
    }
    assert {"app.js", "api.js", "dom.js", "chart.js", "views/game.js", "views/round-entry.js"} <= set(names["*.js"])
    assert {"keeper.css", "views/game.css"} <= set(names["*.css"])
    for glob, content_type in served_as.items():
        for name in names[glob]:
            served = requests.get(f"{live_server.url}/keeper/{name}", timeout=10)
            assert served.status_code == 200, name
            assert served.headers["Content-Type"].startswith(content_type), (name, served.headers["Content-Type"])
    # The page is not an API operation: it stays out of the OpenAPI document.
    paths = requests.get(live_server.url + "/openapi.json", timeout=10).json()["paths"]
    assert "/" not in paths


def test_new_game_asks_names_and_a_preset_first_and_keeps_every_value_behind_house_rules(
    page: Any, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/#/new")
    page.wait_for_selector(".rule-row", state="attached")
    # The sides' names come first, the preset next; the rules are folded away.
    first_input = page.locator("form.new-game input, form.new-game select").first
    assert first_input.get_attribute("id") == "team-count" or first_input.get_attribute("name") == "teams.0.name"
    name_box = page.locator("input[name='teams.0.name']").bounding_box()
    assert name_box["y"] < 400, name_box
    assert not page.locator(".rule-row").first.is_visible()
    page.select_option("#preset", "bicycle")
    expect(page.locator("#preset-summary")).to_contain_text("Bicycle")
    page.locator("details.rules-details > summary").click()
    detail = api_get(live_server, "/v1/presets/bicycle")
    rows = page.locator(".rule-row")
    assert rows.count() == len(detail["fields"])
    filled = [f["name"] for f in detail["fields"] if f["provenance"]["kind"] == "filled"]
    assert filled, "bicycle fills values from pagat"
    for name in filled:
        badge = page.locator(f".rule-row[data-rule='{name}'] .badge.filled")
        assert badge.inner_text() == "Filled from Pagat", name
    unfilled = [f["name"] for f in detail["fields"] if f["provenance"]["kind"] != "filled"]
    assert page.locator(f".rule-row[data-rule='{unfilled[0]}'] .badge.filled").count() == 0
    assert "filled from Pagat" in page.locator(".filled-note").inner_text()
    groups = {f["group"] for f in detail["fields"]}
    assert page.locator("fieldset.rule-group").count() == len(groups)
    # A house rule is marked as such, and counted on the folded heading.
    page.get_by_label(re.compile("^Bonus per clean")).fill("400")
    assert page.locator(".rule-row[data-rule='clean_book_bonus'] .house-tag").is_visible()
    assert "clean book bonus" in page.locator(".changed-note").inner_text()
    expect(page.locator("details.rules-details > summary")).to_have_text("House rules (1 change)")
    # Searchable: words match the description or the rule's name.
    page.get_by_label("Find a rule").fill("wild")
    visible = page.locator(".rule-row:visible")
    assert 0 < visible.count() < rows.count()
    for i in range(visible.count()):
        row = visible.nth(i)
        assert "wild" in f"{row.get_attribute('data-label')} {row.get_attribute('data-rule')}".lower()
    expect(page.locator(".search-note")).to_contain_text(f"of {rows.count()} rule values shown")
    page.get_by_label("Find a rule").fill("")
    page.get_by_label("Only the values that differ from the preset").check()
    expect(page.locator(".rule-row:visible")).to_have_count(1)
    assert page.locator(".rule-row:visible").get_attribute("data-rule") == "clean_book_bonus"
    page.get_by_label("Only the values that differ from the preset").uncheck()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "new-game", full_page=False, dark=True)


def test_seed_000_worked_round_as_tallies_with_a_live_breakdown(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server)
    open_entry(page, 1)
    assert page.get_by_test_id("opening-minimum").inner_text() == "50"
    assert page.get_by_test_id("contract").inner_text() == "2 clean, 2 dirty and 1 wild books"
    for key in SEED_T1:
        assert team_entry(page, 0).locator(f"input[data-tally='{key}']").get_attribute("inputmode") == "numeric"
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T2, False)
    settle(page)  # no "Preview" button: the breakdown follows the inputs

    t1 = lines_of(page, "Team 1")
    assert t1 == {
        "clean_books": ("Clean books", "2 × 500", "1,000"),
        "dirty_books": ("Dirty books", "2 × 300", "600"),
        "wild_books": ("Wild books", "1 × 1,500", "1,500"),
        "going_out": ("Going out", "1 × 100", "100"),
        "red_threes_on_table": ("Red threes on the table", "1 × 100", "100"),
        "red_threes_caught": ("Red threes caught in hand or foot", "0 × \u2212100", "0"),
        "table_points": ("Cards on the table", "", "465"),
        "points_left": ("Cards left in hands and feet", "", "\u221225"),
    }
    t2 = lines_of(page, "Team 2")
    assert {code: pts for code, (_, _, pts) in t2.items()} == {
        "clean_books": "500",
        "dirty_books": "600",
        "wild_books": "0",
        "going_out": "0",
        "red_threes_on_table": "0",
        "red_threes_caught": "\u2212100",
        "table_points": "260",
        "points_left": "\u2212185",
    }
    assert page.locator(".preview [data-total='Team 1']").inner_text() == "3,740"
    assert page.locator(".preview [data-total='Team 2']").inner_text() == "1,075"
    # Lines worth 0 are folded away on screen (they stay in the table for screen readers' count).
    assert not page.locator(".preview .breakdown[data-team='Team 2'] tr[data-code='wild_books']").is_visible()
    page.locator(".breakdown-toggle").evaluate("b => b.click()")  # unfolded on a phone too (only shown there)
    screenshot(page, "round-preview", dark=True, at=".preview-card")

    # Nothing is stored by the live breakdown.
    assert api_get(live_server, f"/v1/games/{game_id}")["rounds_played"] == 0
    save(page, 1)
    assert total(page, "Team 1") == "3,740"
    assert total(page, "Team 2") == "1,075"
    assert "Leader: Team 1 with 3,740 points" in page.get_by_test_id("result").inner_text()
    game = api_get(live_server, f"/v1/games/{game_id}")
    assert [t["total"] for t in game["totals"]] == [3740, 1075]
    first = api_get(live_server, game["rounds"][0]["href"])
    assert first["request"]["teams"][0]["tally"] == SEED_T1, "saved what the breakdown showed"
    open_entry(page, 2)
    assert page.get_by_test_id("opening-minimum").inner_text() == "90"


def test_steppers_count_by_one_and_never_below_zero(page: Any, live_server: LiveServer) -> None:
    new_game(page, live_server)
    open_entry(page, 1)
    entry = team_entry(page, 0)
    more = entry.get_by_role("button", name="One more: clean books, Team 1")
    fewer = entry.get_by_role("button", name="One fewer: clean books, Team 1")
    more.click()
    more.click()
    assert entry.locator("input[data-tally='clean_books']").input_value() == "2"
    fewer.click()
    fewer.click()
    fewer.click()
    assert entry.locator("input[data-tally='clean_books']").input_value() == "0"
    more.click()
    # One clean book and no card points on the table: the card points, not entered yet, are not
    # refused while the steppers are tapped (issue 31); Save shows the rule broken at its input.
    table = entry.locator("[data-pointer='/teams/0/tally/table_points']")
    page.wait_for_selector(".preview .no-breakdown")
    assert table.locator(".field-error").count() == 0
    page.get_by_role("button", name="Save round 1").click()
    table.locator(".field-error").wait_for()
    assert "less than the cards of the books alone" in table.locator(".field-error").inner_text()
    entry.locator("input[data-tally='table_points']").fill("200")
    settle(page)
    line = page.locator(".preview .breakdown[data-team='Team 1'] tr[data-code='clean_books'] td.num")
    assert line.inner_text() == "500"
    assert table.locator(".field-error").count() == 0


def test_cards_pasted_score_the_same_as_the_tallies(page: Any, live_server: LiveServer) -> None:
    new_game(page, live_server)
    open_entry(page, 1)
    entry = team_entry(page, 0)
    entry.get_by_text("Cards", exact=True).click()
    melds = [
        ["2C", "2D", "2H", "2S", "2C", "2D", "2H"],
        ["KS", "KH", "KD", "KC", "KS", "KH", "KD"],
        ["5S", "5H", "5D", "5C", "5S", "5H", "5D"],
        ["AS", "AH", "AD", "AC", "AS", "2S", "2C"],
        ["6S", "6H", "6D", "6C", "6S", "2D", "2H"],
        ["4S", "4H", "4D"],
    ]
    entry.get_by_label("Melds on the table, one per line").fill(json.dumps(melds))
    entry.get_by_label("Red threes laid out").fill("3H")
    entry.get_by_label("Cards left in Bo's hand").fill("8S 8H 5C")
    entry.get_by_label(re.compile("went out$")).check()
    enter_tally(page, 1, SEED_T2, False)
    settle(page)
    assert page.locator(".preview [data-total='Team 1']").inner_text() == "3,740"
    assert page.locator(".preview [data-total='Team 2']").inner_text() == "1,075"
    # A bad card is named where it was typed, while typing.
    entry.get_by_label("Cards left in Bo's hand").fill("8S XX")
    error = entry.locator(".field-error")
    error.first.wait_for()
    assert "'XX' is not a card" in error.first.inner_text()
    assert entry.get_by_label("Cards left in Bo's hand").get_attribute("aria-invalid") == "true"
    expect(entry.get_by_label("Cards left in Bo's hand")).to_be_focused()  # the live check leaves the focus alone


def test_four_rounds_running_totals_and_winner(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server, name="Four rounds")
    totals = [0, 0]
    for number, (t1, out1, t2, out2, s1, s2) in enumerate(FOUR_ROUNDS, start=1):
        open_entry(page, number)
        assert page.get_by_test_id("opening-minimum").inner_text() == fmt(OPENING_MINIMUMS[number - 1])
        page.get_by_role("link", name="Back to the scores").click()
        page.wait_for_selector(".scoreboard")
        play_round(page, number, t1, out1, t2, out2)
        totals = [totals[0] + s1, totals[1] + s2]
        assert running(page, number, "Team 1") == fmt(totals[0])
        assert running(page, number, "Team 2") == fmt(totals[1])
    # By hand: 3740+850+3580+540 = 8710 ; 1075+3900-210+4220 = 8985.
    assert totals == [8710, 8985]
    assert total(page, "Team 1") == "8,710"
    assert total(page, "Team 2") == "8,985"
    assert page.get_by_test_id("result").inner_text() == "Winner: Team 2 with 8,985 points"
    expect(page.locator(".side-total[data-side='Team 2'] .lead-tag")).to_have_text("Winner")
    assert page.get_by_role("link", name=re.compile("^Enter ")).count() == 0, "no round to enter once the game is over"
    for team in ("Team 1", "Team 2"):
        assert page.locator(f"svg.chart g.series[data-team='{team}'] circle").count() == 5
    screenshot(page, "finished-game", dark=True)

    with page.expect_download() as info:
        page.get_by_role("button", name="Export CSV").click()
    download = info.value
    assert download.suggested_filename == "four-rounds-scoresheet.csv"
    lines = Path(download.path()).read_text(encoding="utf-8").strip().splitlines()
    assert lines[0] == '"round","Team 1","Team 1 total","Team 2","Team 2 total"'
    assert lines[-1].split(",") == ["4", "540", "8710", "4220", "8985"]

    game = api_get(live_server, f"/v1/games/{game_id}")
    assert game["status"] == "finished" and game["winner"] == "Team 2"
    # The finished game's entry address sends back to the scoreboard.
    page.goto(f"{live_server.url}/#/games/{game_id}/round")
    page.wait_for_selector(".scoreboard")
    expect(page.locator("#notice")).to_contain_text("This game is over")


def test_out_without_contract_shows_the_rule_and_stores_nothing(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server)
    open_entry(page, 1)
    # Team 1 marked out with no wild book: Pagat's contract is 2 clean + 2 dirty + 1 wild.
    enter_tally(page, 0, tally(clean=2, dirty=2, table=300), True)
    enter_tally(page, 1, tally(left=120), False)
    went_out = team_entry(page, 0).locator(".field.check")
    went_out.locator(".field-error").wait_for()
    message = went_out.locator(".field-error").inner_text()
    assert "needs 2 clean, 2 dirty and 1 wild books" in message and "missing 1 wild" in message
    assert team_entry(page, 0).get_by_label(re.compile("went out$")).get_attribute("aria-invalid") == "true"
    summary = page.locator("form.entry .error-summary")
    assert summary.is_visible()
    assert "Team 1, went out" in summary.inner_text()
    assert page.locator(".preview.stale").count() == 1, "no breakdown of a round the rules refuse"
    page.get_by_role("button", name="Save round 1").click()
    expect(summary.locator("h3")).to_be_focused()
    screenshot(page, "rule-error", at="form.entry .error-summary")

    # Two sides out: named on the second.
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T1, True)
    team_entry(page, 1).locator(".field.check .field-error").wait_for()
    assert "already went out" in team_entry(page, 1).locator(".field.check .field-error").inner_text()
    assert team_entry(page, 0).locator(".field-error").count() == 0

    # A negative count: named on its input.
    enter_tally(page, 1, {**SEED_T2, "clean_books": -1}, False)
    clean = team_entry(page, 1).locator("[data-pointer='/teams/1/tally/clean_books']")
    clean.locator(".field-error").wait_for()
    assert clean.locator("input").get_attribute("aria-invalid") == "true"

    game = api_get(live_server, f"/v1/games/{game_id}")
    assert game["rounds_played"] == 0 and game["rounds"] == []


def test_correct_round_2_changes_totals_keeps_history_and_undoes(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server)
    for number, (t1, out1, t2, out2, _, _) in enumerate(FOUR_ROUNDS[:2], start=1):
        play_round(page, number, t1, out1, t2, out2)
    assert total(page, "Team 1") == "4,590"  # 3740 + 850
    assert total(page, "Team 2") == "4,975"  # 1075 + 3900

    page.get_by_role("link", name="Correct round 2").first.click()
    page.wait_for_selector("form.entry[data-round='2']")
    settle(page)
    assert page.locator("#entry-title").inner_text().startswith("Correct round 2")
    table_points = team_entry(page, 0).locator("input[data-tally='table_points']")
    assert table_points.input_value() == "200", "the form starts from the stored round"
    assert page.get_by_test_id("opening-minimum").inner_text() == "90"
    table_points.fill("300")
    settle(page)
    assert page.locator(".preview [data-total='Team 1']").inner_text() == "950"  # 500+300+300-150
    page.get_by_role("button", name="Save the correction of round 2").click()
    page.wait_for_selector("table.sheet tr[data-round='2'] .badge.corrected")
    assert running(page, 2, "Team 1") == "4,690"
    assert total(page, "Team 1") == "4,690"
    assert total(page, "Team 2") == "4,975"
    assert "corrected" in page.locator(".notice").inner_text()

    page.get_by_role("button", name="History of round 2").click()
    dialog = page.locator("dialog#history")
    dialog.wait_for()
    revisions = dialog.locator("li.revision")
    assert revisions.count() == 2
    old, new = revisions.nth(0), revisions.nth(1)
    assert old.get_attribute("data-current") == "false"
    assert "replaced" in old.locator("h3").inner_text()
    assert "Team 1: 850" in old.locator("[data-team='Team 1']").inner_text()
    assert new.get_attribute("data-current") == "true"
    assert "Team 1: 950" in new.locator("[data-team='Team 1']").inner_text()
    screenshot(page, "round-history", full_page=False, dark=True)
    page.keyboard.press("Escape")
    assert not dialog.is_visible()

    # Undo, within the session, through a correction: round 2 is as it was, and the history says so.
    page.get_by_role("button", name="Undo the correction of round 2").click()
    expect(page.locator("#notice")).to_contain_text("Correction undone")
    assert total(page, "Team 1") == "4,590"
    assert page.get_by_role("button", name=re.compile("^Undo")).count() == 0, "one undo, of the last save"
    revs = api_get(live_server, f"/v1/games/{game_id}/rounds/2/revisions")
    assert [r["revision"] for r in revs] == [1, 2, 3]
    assert revs[-1]["teams"][0]["total"] == 850


def test_games_list_resume_and_finished(page: Any, live_server: LiveServer) -> None:
    finished = stored_game(live_server, 4, name="Last week")
    ongoing = stored_game(live_server, 0, name="Tonight")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".game-card")
    cards = page.locator(".game-card")
    assert cards.count() == 2
    assert cards.nth(0).locator("h2").inner_text() == "Tonight", "newest first"
    assert "Winner: Them" in page.locator(f".game-card[data-game-id='{finished}']").inner_text()
    screenshot(page, "games", dark=True)

    page.get_by_label("Finished").check()
    expect(page.locator(".game-card")).to_have_count(1)
    assert page.locator(".game-card h2").inner_text() == "Last week"

    page.get_by_label("All games").check()
    expect(page.locator(".game-card")).to_have_count(2)
    page.get_by_role("link", name="Resume Tonight").click()
    page.wait_for_selector(".scoreboard")
    assert page.url.endswith(f"#/games/{ongoing}")
    assert page.locator("h1").inner_text() == "Tonight"
    expect(page.get_by_role("link", name="Enter round 1")).to_be_visible()


def test_more_games_follows_the_cursor_past_the_first_page(
    page: Any, live_server: LiveServer, requests_seen: Requests
) -> None:
    """Ten games at a time: "More games" follows the list's Link rel="next" (a cursor, never the
    deprecated numbered ``page``) until the last game, newest first, each game once."""
    made = [stored_game(live_server, 0, name=f"Game {i:02d}") for i in range(23)]
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".game-card")
    cards = page.locator(".game-card")
    expect(cards).to_have_count(10)
    more = page.get_by_role("button", name="More games")
    more.click()
    expect(cards).to_have_count(20)
    assert page.evaluate("document.activeElement.textContent") == "Game 12", "focus on the first game added"
    more.click()
    expect(cards).to_have_count(23)
    expect(more).to_be_hidden()  # the last page sends no rel="next"
    shown = [int(cards.nth(i).get_attribute("data-game-id")) for i in range(23)]
    assert shown == made[::-1]  # newest first, none twice, none missed
    lists = [parse_qs(urlsplit(u).query) for u in requests_seen.urls if urlsplit(u).path == "/v1/games"]
    assert len(lists) == 3
    assert ["cursor" in q for q in lists] == [False, True, True]
    assert not any("page" in q for q in lists)


def test_phone_layout_and_keyboard_only(page: Any, live_server: LiveServer) -> None:
    new_game(page, live_server)
    page.set_viewport_size({"width": 390, "height": 844})
    open_entry(page, 1)
    first, second = team_entry(page, 0).bounding_box(), team_entry(page, 1).bounding_box()
    # Two sides side by side, so that the round fits one screen (issue 31).
    assert first["y"] == second["y"] and second["x"] >= first["x"] + first["width"], "two sides side by side"
    assert second["x"] + second["width"] <= 390
    for control in ("button.step", "input[data-tally]", "label.big-check"):
        boxes = team_entry(page, 0).locator(control)
        assert all(boxes.nth(i).bounding_box()["height"] >= 44 for i in range(boxes.count())), (
            f"large touch targets: {control}"
        )
    save_box = page.get_by_role("button", name="Save round 1").bounding_box()
    assert save_box["height"] >= 44
    assert save_box["y"] + save_box["height"] <= 844, "Save round stays in reach at the bottom of the screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    expect(team_entry(page, 0).locator("input[data-tally='table_points']")).to_be_focused()
    screenshot(page, "round-entry", full_page=False, dark=True)

    # Keyboard only: type into each field; Enter saves what the breakdown shows.
    for index, (values, out) in enumerate(((SEED_T1, True), (SEED_T2, False))):
        entry = team_entry(page, index)
        if out:
            entry.get_by_label(re.compile("went out$")).focus()
            page.keyboard.press("Space")
        for key, value in values.items():
            entry.locator(f"input[data-tally='{key}']").focus()
            page.keyboard.type(str(value))
    page.keyboard.press("Enter")
    page.wait_for_selector("table.sheet tr[data-round='1']")
    assert total(page, "Team 1") == "3,740"


def test_api_key_when_the_server_has_keys(page: Any, live_server: LiveServer) -> None:
    from handfoot.server.auth import create_key
    from handfoot.server.db import get_db

    _, token = create_key(get_db(live_server.app), "table")
    page.goto(f"{live_server.url}/")
    notice = page.locator("#notice")
    expect(notice).to_contain_text("This server needs an API key")
    key_input = page.get_by_label(re.compile("^API key"))
    expect(key_input).to_be_focused()
    key_input.fill(token)
    with page.expect_request(lambda r: "/v1/games" in r.url) as info:
        page.get_by_role("button", name="Save key").click()
    assert info.value.headers.get("authorization") == f"Bearer {token}"
    expect(page.locator("p.empty")).to_contain_text("No games yet")
    assert page.evaluate("localStorage.getItem('handfoot.apiKey')") == token

    page.reload()
    expect(page.get_by_label(re.compile("^API key"), exact=False)).to_have_value(token)
    game_id = new_game(page, live_server, name="With a key")
    mine = requests.get(
        f"{live_server.url}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert mine.status_code == 200 and mine.json()["name"] == "With a key"


def test_page_loads_no_external_resource(page: Any, live_server: LiveServer, requests_seen: Requests) -> None:
    new_game(page, live_server)
    play_round(page, 1, SEED_T1, True, SEED_T2, False)
    page.goto(f"{live_server.url}/#/games")
    page.wait_for_selector(".game-card")
    assert any(url.endswith("/keeper/app.js") for url in requests_seen.urls)
    assert any("/v1/games" in url for url in requests_seen.urls)
    assert requests_seen.external() == []
    resources = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert resources and all(url.startswith(live_server.url) for url in resources), resources


def test_page_without_games_api_loads_no_external_resource(
    page: Any, live_server: LiveServer, requests_seen: Requests
) -> None:
    """Runs whatever the games API's state: the new-game screen and its presets."""
    page.goto(f"{live_server.url}/#/new")
    page.wait_for_selector(".rule-row", state="attached")
    page.select_option("#preset", "wikipedia")
    expect(page.locator("#preset-summary")).to_contain_text("Wikipedia")
    assert requests_seen.urls and requests_seen.external() == []


@pytest.fixture(autouse=True)
def _no_external_requests(requests_seen: Requests) -> Any:
    """Every test: nothing the page asked for left 127.0.0.1."""
    yield
    assert requests_seen.external() == []
