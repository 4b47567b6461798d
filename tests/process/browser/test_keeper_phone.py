"""The keeper on a 390 x 844 phone (issue 31): what a person sees before and while entering a round."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests

from tests.process.browser.keeper_pages import SEED_T1, SEED_T2, enter_tally, new_game, settle, stored_game, team_entry
from tests.process.browser.keeper_util import PHONE, LiveServer, screenshot

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def previewed(page: Any) -> None:
    """Wait until the live check of the inputs as they stand came back (a breakdown or a refusal)."""
    page.wait_for_function(
        "() => { const p = document.querySelector('.preview');"
        " return p && p.getAttribute('aria-busy') === 'false' && p.querySelector('.breakdown, .no-breakdown'); }"
    )
    page.wait_for_timeout(400)  # past the debounce: a late answer would have shown by now


def test_no_problem_shown_before_input_only_at_what_was_touched_and_all_on_save(
    page: Any, live_server: LiveServer
) -> None:
    page.set_viewport_size(PHONE)
    new_game(page, live_server)
    open_entry_unsettled(page, 1)
    previewed(page)
    form = page.locator("form.entry")
    assert form.locator(".field-error").count() == 0
    assert form.locator("[aria-invalid]").count() == 0
    expect(form.locator(".error-summary")).to_be_hidden()

    # A clean book and no card points: the card points are refused, but nobody has reached them yet.
    entry = team_entry(page, 0)
    entry.get_by_role("button", name="One more: clean books, Team 1").click()
    previewed(page)
    assert form.locator(".field-error").count() == 0
    expect(form.locator(".error-summary")).to_be_hidden()
    expect(page.locator(".preview .no-breakdown")).to_contain_text("Save names what is missing")

    # Save names every problem, at its input.
    page.get_by_role("button", name="Save round 1").click()
    table = entry.locator("[data-pointer='/teams/0/tally/table_points']")
    table.locator(".field-error").wait_for()
    assert "less than the cards of the books alone" in table.locator(".field-error").inner_text()
    expect(form.locator(".error-summary h3")).to_be_focused()

    # Typed card points still too few: shown while typing, at the input typed into.
    entry.locator("input[data-tally='table_points']").fill("20")
    previewed(page)
    assert "less than the cards of the books alone" in table.locator(".field-error").inner_text()
    entry.locator("input[data-tally='table_points']").fill("200")
    previewed(page)
    assert table.locator(".field-error").count() == 0


def open_entry_unsettled(page: Any, number: int) -> None:
    """From the scoreboard, "Enter round <number>", without waiting for a breakdown (there may be none)."""
    page.get_by_role("link", name=f"Enter round {number}").click()
    page.wait_for_selector(f"form.entry[data-round='{number}']")


#: Each control (or a checkbox's label) under 44 x 44 px on the page, as "tag "name" WxH".
SMALL_TARGETS_JS = """() => {
  const out = [];
  const controls = document.querySelectorAll(
    "a[href], button, select, input:not([type=hidden]), textarea, summary, [role=button]");
  for (const el of controls) {
    if (el.closest("[hidden], dialog:not([open])")) continue;
    if (el.closest("details:not([open])") && !el.matches("summary")) continue;  // folded away
    // A checkbox or radio is tapped through its label, the target a person sees.
    const label = el.matches("input[type=checkbox], input[type=radio]") &&
      (el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`)));
    const target = label || el;
    const box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // not shown
    if (box.bottom < 0 || box.right < 0) continue;  // off screen until focused (the skip link)
    // A link inside a sentence is sized by the sentence (WCAG 2.5.8's inline exception).
    const around = el.parentElement ? el.parentElement.innerText.trim().length : 0;
    const inline = el.matches("a") && getComputedStyle(el).display === "inline";
    if (inline && around > el.innerText.trim().length + 12) continue;
    if (box.height < 44 || box.width < 44) {
      const name = (target.innerText || el.getAttribute("aria-label") || el.name || "").trim().slice(0, 40);
      out.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return out;
}"""

#: What does not fit the screen's width: the page itself, or a table past the right edge (cut off,
#: or to be scrolled sideways).
CUT_OFF_JS = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth} px`);
  for (const t of document.querySelectorAll("main table")) {
    const box = t.getBoundingClientRect();
    const wide = box.right > innerWidth + 0.5 || t.scrollWidth > t.clientWidth + 1;
    if (wide) out.push(`table.${t.className} ${Math.round(box.width)} px`);
  }
  return out;
}"""

#: The size on screen, in px, of each label of the chart (its font size times the SVG's scale).
TICK_SIZES_JS = """() => [...document.querySelectorAll("svg.chart text")].map((t) =>
  t.getBoundingClientRect().height === 0 ? 99 : parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""


def test_tap_targets_and_chart_labels_on_a_phone(page: Any, live_server: LiveServer) -> None:
    game_id = stored_game(live_server, 2)
    page.set_viewport_size(PHONE)
    small: dict[str, list[str]] = {}
    cut: dict[str, list[str]] = {}
    for name, where in (
        ("games", "#/games"),
        ("new game", "#/new"),
        ("scoreboard", f"#/games/{game_id}"),
        ("round entry", f"#/games/{game_id}/round"),
        ("stats", "#/stats"),
    ):
        page.goto(f"{live_server.url}/{where}")
        page.wait_for_selector("main h1")
        page.wait_for_timeout(500)
        small[name] = page.evaluate(SMALL_TARGETS_JS)
        cut[name] = page.evaluate(CUT_OFF_JS)
        if name == "stats":
            screenshot(page, "stats", dark=True)
        if name == "scoreboard":
            sizes = page.evaluate(TICK_SIZES_JS)
            assert sizes and min(sizes) >= 11, f"chart labels of {min(sizes):.1f} px on a 390 px screen"
    assert not any(small.values()), f"tap targets under 44 x 44 px at 390 x 844: {small}"
    assert not any(cut.values()), f"tables or the page wider than a 390 px screen: {cut}"


SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|\bnull\b")


def test_rules_named_in_players_words(page: Any, live_server: LiveServer) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/#/new")
    page.wait_for_selector(".rule-row", state="attached")
    options = page.locator("#preset option").all_inner_texts()
    assert "Pagat" in options and all("(" not in o and len(o) <= 20 for o in options), options
    expect(page.locator("#preset-summary")).to_contain_text("Source: Pagat (partnership rules by Bill Whitnack)")
    labels = page.locator(".rule-row label, .rule-row .label").all_text_contents()
    assert len(labels) > 40
    in_code = [text for text in labels if SNAKE.search(text)]
    assert not in_code, f"rule labels with field names or null: {in_code[:5]}"
    assert page.locator(".rule-row code").count() == 0
    assert "Rounds in a game (none: no fixed number of rounds, play until a side reaches the target score)." in labels

    # A game with house rules says them in the same words on its scoreboard.
    teams = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
    rules = {"clean_book_bonus": 400, "rounds": None, "target_score": 10000}
    body = {"name": "House", "preset": "pagat", "teams": teams, "rules": rules}
    made = requests.post(f"{live_server.url}/v1/games", json=body, timeout=10)
    assert made.status_code == 201, made.text
    page.goto(f"{live_server.url}/#/games/{made.json()['id']}")
    shown = page.locator("ul.house-rules li")
    expect(shown).to_have_count(3)
    assert sorted(shown.all_inner_texts()) == [
        "A game ends when a side reaches this score (none: no target, the game ends after its rounds): 10,000",
        "Bonus per clean (red, natural) book: 400",
        "Rounds in a game (none: no fixed number of rounds, play until a side reaches the target score): none",
    ]


def test_round_entry_for_two_sides_fits_one_phone_screen(page: Any, live_server: LiveServer) -> None:
    page.set_viewport_size(PHONE)
    new_game(page, live_server)
    open_entry_unsettled(page, 1)
    previewed(page)
    page.locator("form.entry h1").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(100)
    bar = page.locator("form.entry .save-row").bounding_box()
    assert bar["y"] + bar["height"] <= PHONE["height"], "the Save bar is off the screen"
    controls = page.locator(
        "form.entry .team-entry :is(.big-check, .segment, button.step, input[data-tally]), form.entry .save-row button"
    )
    assert controls.count() == 2 * (1 + 2 + 2 * 5 + 7) + 2  # went out, counts or cards, 5 steppers, 7 inputs
    off = []
    for box in (c.bounding_box() for c in controls.all()):
        assert box is not None
        inside = box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5 and box["y"] >= 0
        if not inside or box["y"] + box["height"] > bar["y"] + bar["height"] + 0.5:
            off.append(box)
    assert not off, f"controls off the one screen: {off}"

    # The running total is in the Save bar; the breakdown one tap away.
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T2, False)
    settle(page)
    expect(page.get_by_test_id("running-total")).to_have_text("Team 1 3,740 · Team 2 1,075")
    expect(page.locator(".preview-card")).to_be_hidden()
    page.get_by_role("button", name="Breakdown").click()
    expect(page.locator(".preview [data-total='Team 1']")).to_be_visible()
    expect(page.get_by_role("button", name="Breakdown")).to_have_attribute("aria-expanded", "true")


def test_a_corrected_rounds_badge_keeps_the_sheet_on_a_phone(page: Any, live_server: LiveServer) -> None:
    """On a 390 px phone a corrected round's badge pushed the score sheet past the screen's edge:
    the "Correct" buttons of every round were off the screen. Every round's button stays on it."""
    game_id = stored_game(live_server, rounds=4, name="A long evening", sides=("The Grandparents", "The Cousins"))
    for number in (1, 3):
        current = requests.get(f"{live_server.url}/v1/games/{game_id}/rounds/{number}", timeout=10)
        body = {"teams": current.json()["request"]["teams"]}
        corrected = requests.put(
            f"{live_server.url}/v1/games/{game_id}/rounds/{number}",
            json=body,
            headers={"If-Match": current.headers["ETag"]},
            timeout=10,
        )
        assert corrected.status_code == 200, corrected.text
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/#/games/{game_id}")
    buttons = page.get_by_role("link", name=re.compile(r"^Correct round \d$"))
    buttons.first.wait_for()
    assert buttons.count() == 4
    expect(page.get_by_role("button", name=re.compile(r"History of round 1"))).to_be_visible()
    screenshot(page, "phone-corrected-rounds", full_page=False, at="table")
    for index in range(4):
        box = buttons.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (index, box)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
