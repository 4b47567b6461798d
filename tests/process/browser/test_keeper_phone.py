"""The keeper on a 390 x 844 phone (issue 31): what a person sees before and while entering a round."""

from __future__ import annotations

from typing import Any

import pytest

from tests.process.browser.keeper_pages import new_game, team_entry
from tests.process.browser.keeper_util import PHONE, LiveServer

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
