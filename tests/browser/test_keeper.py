"""The score keeper page in real headless Chromium (issue 8's "Done when").

Expected scores are worked out by hand here (Pagat: clean book 500, dirty 300, wild 1,500, going out
100, red three +100 on the table and -100 caught), not asked of the engine.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests
from keeper_util import LiveServer, Requests, screenshot

from handfoot.server.keeper import KEEPER_STATIC

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

Tally = dict[str, int]


def tally(
    clean: int = 0, dirty: int = 0, wild: int = 0, red: int = 0, caught: int = 0, table: int = 0, left: int = 0
) -> Tally:
    return {
        "clean_books": clean,
        "dirty_books": dirty,
        "wild_books": wild,
        "red_threes_on_table": red,
        "red_threes_caught": caught,
        "table_points": table,
        "points_left": left,
    }


#: Seed 000's worked round, as counted at the table: Team 1 went out.
SEED_T1 = tally(clean=2, dirty=2, wild=1, red=1, table=465, left=25)
SEED_T2 = tally(clean=1, dirty=2, caught=1, table=260, left=185)

#: Four rounds: (team 1 tally, team 1 out?, team 2 tally, team 2 out?) and each side's score by hand.
FOUR_ROUNDS: list[tuple[Tally, bool, Tally, bool, int, int]] = [
    # 1000+600+1500+100+100+465-25 = 3740 ; 500+600+260-185-100 = 1075
    (SEED_T1, True, SEED_T2, False, 3740, 1075),
    # 500+300+200-150 = 850 ; 1000+600+1500+100+200+500 = 3900
    (
        tally(clean=1, dirty=1, table=200, left=150),
        False,
        tally(clean=2, dirty=2, wild=1, red=2, table=500),
        True,
        850,
        3900,
    ),
    # 1000+600+1500+100+400-20 = 3580 ; 100-100+90-300 = -210
    (
        tally(clean=2, dirty=2, wild=1, table=400, left=20),
        True,
        tally(red=1, caught=1, table=90, left=300),
        False,
        3580,
        -210,
    ),
    # 500+100-60 = 540 ; 1000+900+1500+100+100+620 = 4220
    (tally(clean=1, table=100, left=60), False, tally(clean=2, dirty=3, wild=1, red=1, table=620), True, 540, 4220),
]
OPENING_MINIMUMS = [50, 90, 120, 150]


def fmt(n: int) -> str:
    """As the page writes points: 3,740 and −25 (a true minus sign)."""
    return f"{n:,}" if n >= 0 else f"\u2212{-n:,}"


# ---- page helpers ------------------------------------------------------------------------------------


def new_game(page: Any, server: LiveServer, *, preset: str = "pagat", name: str = "Friday") -> int:
    page.goto(f"{server.url}/#/new")
    page.wait_for_selector(".rule-row")
    if preset != "pagat":
        page.select_option("#preset", preset)
        page.wait_for_selector(".rule-row[data-rule='teams_min']")
    page.get_by_label("Name of the game").fill(name)
    page.locator("input[name='teams.0.players.0']").fill("Ann")
    page.locator("input[name='teams.0.players.1']").fill("Bo")
    page.locator("input[name='teams.1.players.0']").fill("Cy")
    page.locator("input[name='teams.1.players.1']").fill("Di")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("form.entry")
    match = re.search(r"#/games/(\d+)$", page.url)
    assert match, page.url
    return int(match.group(1))


def team_entry(page: Any, index: int) -> Any:
    return page.locator("fieldset.team-entry").nth(index)


def enter_tally(page: Any, index: int, values: Tally, went_out: bool) -> None:
    entry = team_entry(page, index)
    for key, value in values.items():
        entry.locator(f"input[data-tally='{key}']").fill(str(value))
    checkbox = entry.get_by_label(re.compile("went out$"))
    if went_out:
        checkbox.check()
    else:
        checkbox.uncheck()


def preview(page: Any) -> None:
    page.get_by_role("button", name="Preview the scores").click()
    page.wait_for_selector(".preview .breakdown")


def store(page: Any, number: int) -> None:
    page.get_by_role("button", name=f"Store round {number}").click()
    page.wait_for_selector(f"table.sheet tr[data-round='{number}']")


def play_round(page: Any, number: int, t1: Tally, out1: bool, t2: Tally, out2: bool) -> None:
    expect_title = page.locator("#entry-title")
    assert expect_title.inner_text().startswith(f"Round {number}")
    enter_tally(page, 0, t1, out1)
    enter_tally(page, 1, t2, out2)
    preview(page)
    store(page, number)


def lines_of(page: Any, team: str) -> dict[str, tuple[str, str, str]]:
    """code → (label, "count × each", points) of a team's previewed breakdown."""
    rows = page.locator(f".preview .breakdown[data-team='{team}'] tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.get_attribute("data-code")] = (
            row.locator("th").inner_text().strip(),
            row.locator("td.count").inner_text().strip(),
            row.locator("td.num").inner_text().strip(),
        )
    return out


def running(page: Any, number: int, team: str) -> str:
    cell = page.locator(f"table.sheet tr[data-round='{number}'] [data-running='{team}']")
    return cell.inner_text().strip()


def total(page: Any, team: str) -> str:
    return page.locator(f"table.sheet tfoot [data-total-for='{team}'] .value").inner_text().strip()


def api_get(server: LiveServer, path: str) -> Any:
    response = requests.get(server.url + path, timeout=10)
    response.raise_for_status()
    return response.json()


# ---- tests -------------------------------------------------------------------------------------------


def test_page_and_static_files_are_served(live_server: LiveServer) -> None:
    response = requests.get(live_server.url + "/", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert '<script type="module" src="/keeper/app.js"></script>' in response.text
    assert requests.get(f"{live_server.url}/keeper/icon.svg", timeout=10).status_code == 200
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


def test_new_game_shows_every_preset_value_and_labels_filled_ones(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/#/new")
    page.wait_for_selector(".rule-row")
    page.select_option("#preset", "bicycle")
    expect(page.locator("#preset-summary")).to_contain_text("Bicycle")
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
    # Groups, with a legend each.
    groups = {f["group"] for f in detail["fields"]}
    assert page.locator("fieldset.rule-group").count() == len(groups)
    # A house rule is marked as such.
    page.get_by_label(re.compile("^Bonus per clean")).fill("400")
    assert page.locator(".rule-row[data-rule='clean_book_bonus'] .house-tag").is_visible()
    assert "clean_book_bonus" in page.locator(".changed-note").inner_text()
    screenshot(page, "new-game", full_page=False)


def test_seed_000_worked_round_as_tallies(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server)
    assert page.get_by_test_id("opening-minimum").inner_text() == "50"
    assert page.get_by_test_id("contract").inner_text() == "2 clean, 2 dirty and 1 wild books"
    for key in SEED_T1:
        assert team_entry(page, 0).locator(f"input[data-tally='{key}']").get_attribute("inputmode") == "numeric"
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T2, False)
    preview(page)

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
    screenshot(page, "round-preview")

    # Nothing is stored by a preview.
    assert api_get(live_server, f"/v1/games/{game_id}")["rounds_played"] == 0
    store(page, 1)
    assert total(page, "Team 1") == "3,740"
    assert total(page, "Team 2") == "1,075"
    assert "Leader: Team 1 with 3,740 points" in page.get_by_test_id("result").inner_text()
    assert page.get_by_test_id("opening-minimum").inner_text() == "90"
    game = api_get(live_server, f"/v1/games/{game_id}")
    assert [t["total"] for t in game["totals"]] == [3740, 1075]


def test_cards_pasted_score_the_same_as_the_tallies(page: Any, live_server: LiveServer) -> None:
    new_game(page, live_server)
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
    preview(page)
    assert page.locator(".preview [data-total='Team 1']").inner_text() == "3,740"
    assert page.locator(".preview [data-total='Team 2']").inner_text() == "1,075"
    # A bad card is named where it was typed.
    entry.get_by_label("Cards left in Bo's hand").fill("8S XX")
    page.get_by_role("button", name="Preview the scores").click()
    error = entry.locator(".field-error")
    error.first.wait_for()
    assert "'XX' is not a card" in error.first.inner_text()
    assert entry.get_by_label("Cards left in Bo's hand").get_attribute("aria-invalid") == "true"


def test_four_rounds_running_totals_and_winner(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server, name="Four rounds")
    totals = [0, 0]
    for number, (t1, out1, t2, out2, s1, s2) in enumerate(FOUR_ROUNDS, start=1):
        assert page.get_by_test_id("opening-minimum").inner_text() == fmt(OPENING_MINIMUMS[number - 1])
        play_round(page, number, t1, out1, t2, out2)
        totals = [totals[0] + s1, totals[1] + s2]
        assert running(page, number, "Team 1") == fmt(totals[0])
        assert running(page, number, "Team 2") == fmt(totals[1])
    # By hand: 3740+850+3580+540 = 8710 ; 1075+3900-210+4220 = 8985.
    assert totals == [8710, 8985]
    assert total(page, "Team 1") == "8,710"
    assert total(page, "Team 2") == "8,985"
    assert page.get_by_test_id("result").inner_text() == "Winner: Team 2 with 8,985 points"
    assert page.locator("form.entry").count() == 0, "no entry form once the game is over"
    # The chart: one line per team, through the start and each round.
    for team in ("Team 1", "Team 2"):
        assert page.locator(f"svg.chart g.series[data-team='{team}'] circle").count() == 5
    screenshot(page, "finished-game")

    # CSV export, offered as a download.
    with page.expect_download() as info:
        page.get_by_role("button", name="Export CSV").click()
    download = info.value
    assert download.suggested_filename == "four-rounds-scoresheet.csv"
    lines = open(download.path(), encoding="utf-8").read().strip().splitlines()
    assert lines[0] == "round,Team 1,Team 1 total,Team 2,Team 2 total"
    assert lines[-1].split(",") == ["4", "540", "8710", "4220", "8985"]

    game = api_get(live_server, f"/v1/games/{game_id}")
    assert game["status"] == "finished" and game["winner"] == "Team 2"


def test_out_without_contract_shows_the_rule_and_stores_nothing(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server)
    # Team 1 marked out with no wild book: Pagat's contract is 2 clean + 2 dirty + 1 wild.
    enter_tally(page, 0, tally(clean=2, dirty=2, table=300), True)
    enter_tally(page, 1, tally(left=120), False)
    page.get_by_role("button", name="Preview the scores").click()
    went_out = team_entry(page, 0).locator(".field.check")
    went_out.locator(".field-error").wait_for()
    message = went_out.locator(".field-error").inner_text()
    assert "needs 2 clean, 2 dirty and 1 wild books" in message and "missing 1 wild" in message
    assert team_entry(page, 0).get_by_label(re.compile("went out$")).get_attribute("aria-invalid") == "true"
    summary = page.locator("form.entry .error-summary")
    assert summary.is_visible()
    assert "Team 1, went out" in summary.inner_text()
    store_button = page.get_by_role("button", name="Store round 1")
    assert store_button.is_disabled()
    assert page.locator(".preview .breakdown").count() == 0
    screenshot(page, "rule-error")

    # Two sides out: named on the second.
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T1, True)
    page.get_by_role("button", name="Preview the scores").click()
    team_entry(page, 1).locator(".field.check .field-error").wait_for()
    assert "already went out" in team_entry(page, 1).locator(".field.check .field-error").inner_text()
    assert team_entry(page, 0).locator(".field-error").count() == 0

    # A negative count: named on its input.
    enter_tally(page, 1, {**SEED_T2, "clean_books": -1}, False)
    page.get_by_role("button", name="Preview the scores").click()
    clean = team_entry(page, 1).locator("[data-pointer='/teams/1/tally/clean_books']")
    clean.locator(".field-error").wait_for()
    assert clean.locator("input").get_attribute("aria-invalid") == "true"
    assert store_button.is_disabled()

    game = api_get(live_server, f"/v1/games/{game_id}")
    assert game["rounds_played"] == 0 and game["rounds"] == []


def test_correct_round_2_changes_totals_and_keeps_history(page: Any, live_server: LiveServer) -> None:
    game_id = new_game(page, live_server)
    for number, (t1, out1, t2, out2, _, _) in enumerate(FOUR_ROUNDS[:2], start=1):
        play_round(page, number, t1, out1, t2, out2)
    assert total(page, "Team 1") == "4,590"  # 3740 + 850
    assert total(page, "Team 2") == "4,975"  # 1075 + 3900

    page.get_by_role("button", name="Correct round 2").click()
    page.wait_for_selector("form.entry[data-round='2']")
    assert page.locator("#entry-title").inner_text().startswith("Correct round 2")
    table_points = team_entry(page, 0).locator("input[data-tally='table_points']")
    assert table_points.input_value() == "200", "the form starts from the stored round"
    assert page.get_by_test_id("opening-minimum").inner_text() == "90"
    table_points.fill("300")
    preview(page)
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
    screenshot(page, "round-history", full_page=False)
    page.keyboard.press("Escape")
    assert not dialog.is_visible()

    revs = api_get(live_server, f"/v1/games/{game_id}/rounds/2/revisions")
    assert [r["revision"] for r in revs] == [1, 2]


def test_games_list_resume_and_finished(page: Any, live_server: LiveServer) -> None:
    base = live_server.url
    teams = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
    finished = requests.post(
        f"{base}/v1/games", json={"name": "Last week", "preset": "pagat", "teams": teams}, timeout=10
    ).json()
    for t1, out1, t2, out2, _, _ in FOUR_ROUNDS:
        body = {
            "teams": [{"name": "Us", "went_out": out1, "tally": t1}, {"name": "Them", "went_out": out2, "tally": t2}]
        }
        assert requests.post(f"{base}/v1/games/{finished['id']}/rounds", json=body, timeout=10).status_code == 201
    ongoing = requests.post(
        f"{base}/v1/games", json={"name": "Tonight", "preset": "pagat", "teams": teams}, timeout=10
    ).json()

    page.goto(f"{base}/")
    page.wait_for_selector(".game-card")
    cards = page.locator(".game-card")
    assert cards.count() == 2
    assert cards.nth(0).locator("h2").inner_text() == "Tonight", "newest first"
    assert "Winner: Them" in page.locator(f".game-card[data-game-id='{finished['id']}']").inner_text()
    screenshot(page, "games")

    page.get_by_label("Finished").check()
    expect(page.locator(".game-card")).to_have_count(1)
    assert page.locator(".game-card h2").inner_text() == "Last week"

    page.get_by_label("All games").check()
    expect(page.locator(".game-card")).to_have_count(2)
    page.get_by_role("link", name="Resume Tonight").click()
    page.wait_for_selector("form.entry")
    assert page.url.endswith(f"#/games/{ongoing['id']}")
    assert page.locator("h1").inner_text() == "Tonight"


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
    assert page.locator("form.entry").count() == 0

    # Online 11/13: a tie calls for a tiebreaker round, with its own opening minimum.
    detail = api_get(live_server, "/v1/presets/online-11-13")
    page.goto(f"{live_server.url}/#/games/{_tied_game(live_server, 'online-11-13')}")
    expect(page.get_by_test_id("result")).to_have_text("Level at the top (A and B): play tiebreaker round 5.")
    assert page.locator("#entry-title").inner_text() == "Round 5: tiebreaker"
    minimum = detail["rules"]["tiebreaker_opening_minimum"]
    assert page.get_by_test_id("opening-minimum").inner_text() == fmt(minimum)
    enter_tally(page, 0, tally(clean=2, table=150), False)
    enter_tally(page, 1, tally(clean=1, table=100), False)
    preview(page)
    store(page, 5)
    expect(page.get_by_test_id("result")).to_have_text(re.compile(r"^Winner: A with "))


def test_every_status_has_its_filter(page: Any, live_server: LiveServer) -> None:
    """A game in a tiebreaker is found under its own filter (it showed only under "All games")."""
    level = _tied_game(live_server, "online-11-13")
    teams = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
    ongoing = requests.post(f"{live_server.url}/v1/games", json={"name": "Tonight", "preset": "pagat", "teams": teams},
                            timeout=10).json()
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".game-card")
    for label, game_id in (("Tiebreaker", level), ("In progress", ongoing["id"])):
        page.get_by_label(label, exact=True).check()
        expect(page.locator(".game-card")).to_have_count(1)
        expect(page.locator(".game-card")).to_have_attribute("data-game-id", str(game_id))
    page.get_by_label("All games").check()
    expect(page.locator(".game-card")).to_have_count(2)


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
    assert page.get_by_label(re.compile("^API key"), exact=False).input_value() == token
    game_id = new_game(page, live_server, name="With a key")
    mine = requests.get(
        f"{live_server.url}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert mine.status_code == 200 and mine.json()["name"] == "With a key"


def test_phone_layout_and_keyboard_only(page: Any, live_server: LiveServer) -> None:
    new_game(page, live_server)
    page.set_viewport_size({"width": 390, "height": 844})
    first, second = team_entry(page, 0).bounding_box(), team_entry(page, 1).bounding_box()
    assert first["x"] == second["x"] and second["y"] > first["y"], "one column under 480 px"
    inputs = team_entry(page, 0).locator(".tally-grid input")
    boxes = [inputs.nth(i).bounding_box() for i in range(inputs.count())]
    assert len({round(b["x"]) for b in boxes}) == 1, "tallies in one column"
    assert all(b["height"] >= 44 for b in boxes), "large touch targets"
    for name in ("Preview the scores", "Store round 1"):
        assert page.get_by_role("button", name=name).bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    screenshot(page, "round-entry")

    # Keyboard only: type into each field, Enter previews, Tab reaches "Store".
    for index, (values, out) in enumerate(((SEED_T1, True), (SEED_T2, False))):
        entry = team_entry(page, index)
        if out:
            entry.get_by_label(re.compile("went out$")).focus()
            page.keyboard.press("Space")
        for key, value in values.items():
            entry.locator(f"input[data-tally='{key}']").focus()
            page.keyboard.type(str(value))
    page.keyboard.press("Enter")
    page.wait_for_selector(".preview .breakdown")
    page.get_by_role("button", name="Preview the scores").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Store round 1"
    page.keyboard.press("Enter")
    page.wait_for_selector("table.sheet tr[data-round='1']")
    assert total(page, "Team 1") == "3,740"


def test_page_loads_no_external_resource(page: Any, live_server: LiveServer, requests_seen: Requests) -> None:
    new_game(page, live_server)
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T2, False)
    preview(page)
    store(page, 1)
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
    page.wait_for_selector(".rule-row")
    page.select_option("#preset", "wikipedia")
    expect(page.locator("#preset-summary")).to_contain_text("Wikipedia")
    assert requests_seen.urls and requests_seen.external() == []


@pytest.fixture(autouse=True)
def _no_external_requests(requests_seen: Requests) -> Any:
    """Every test: nothing the page asked for left 127.0.0.1."""
    yield
    assert requests_seen.external() == []
