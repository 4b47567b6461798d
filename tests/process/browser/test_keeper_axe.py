"""axe-core on every view of the keeper, in light and dark mode: no serious or critical violation.

axe-core 4.14.1 is vendored as ``axe.min.js`` beside this file (from the npm registry, ``npm install
axe-core``; its MPL-2.0 header kept), so a fresh machine needs nothing outside the repository. The
page never serves it: Playwright injects it (``page.add_script_tag``), in a browser context that
bypasses the page's Content-Security-Policy, which would refuse an injected script.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.process.browser.conftest import launch
from tests.process.browser.keeper_pages import (
    FOUR_ROUNDS,
    SEED_T1,
    SEED_T2,
    enter_offline,
    enter_tally,
    open_entry,
    settle,
    stored_game,
    tally,
    team_entry,
)
from tests.process.browser.keeper_util import DESKTOP, PHONE, LiveServer

AXE = Path(__file__).resolve().parent / "axe.min.js"
BLOCKING = ("serious", "critical")


@pytest.fixture
def axe_page(playwright: Any, tmp_path: Path, live_server: LiveServer) -> Iterator[Any]:
    ctx = launch(playwright, tmp_path / "axe-profile", bypass_csp=True)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    ctx.close()
    assert not errors, errors


def violations(page: Any) -> list[str]:
    """axe's serious and critical violations on the page as it is now, in light and in dark mode."""
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        for v in result["violations"]:
            if v["impact"] in BLOCKING:
                targets = [n["target"] for n in v["nodes"]][:5]
                found.append(f"{scheme}: {v['id']} ({v['impact']}): {v['help']} at {targets}")
    page.emulate_media(color_scheme="light")
    return found


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_view_has_no_serious_or_critical_axe_violation(axe_page: Any, live_server: LiveServer, size: Any) -> None:
    page = axe_page
    page.set_viewport_size(size)
    finished = stored_game(live_server, 4, name="Last week")
    ongoing = stored_game(live_server, 2, name="Tonight")
    seen: dict[str, list[str]] = {}

    page.goto(f"{live_server.url}/#/games")
    page.wait_for_selector(".game-card")
    seen["games list"] = violations(page)

    page.goto(f"{live_server.url}/#/new")
    page.wait_for_selector(".rule-row", state="attached")
    seen["new game"] = violations(page)
    page.locator("details.rules-details > summary").click()
    page.get_by_label("Find a rule").fill("bonus")
    seen["new game, house rules"] = violations(page)

    page.goto(f"{live_server.url}/#/games/{ongoing}")
    page.wait_for_selector(".scoreboard")
    seen["scoreboard"] = violations(page)
    page.goto(f"{live_server.url}/#/games/{finished}")
    page.wait_for_selector(".scoreboard .lead-tag:text('Winner')")  # the hash changed: wait for this game
    seen["scoreboard, finished"] = violations(page)
    page.get_by_role("button", name="Delete game").click()
    page.locator("dialog#confirm").wait_for()
    seen["delete dialog"] = violations(page)
    page.keyboard.press("Escape")

    page.goto(f"{live_server.url}/#/games/{ongoing}")
    open_entry(page, 3)
    enter_tally(page, 0, SEED_T1, True)
    enter_tally(page, 1, SEED_T2, False)
    settle(page)
    if size == PHONE:
        page.get_by_role("button", name="Breakdown").click()  # folded under the Save bar on a phone
        settle(page)  # leaving the last input asked for the breakdown again: greyed until it is back
    seen["round entry, breakdown"] = violations(page)
    enter_tally(page, 0, tally(clean=2, dirty=2, table=300), True)
    team_entry(page, 0).locator(".field-error").first.wait_for()
    seen["round entry, rule broken"] = violations(page)
    team_entry(page, 1).get_by_text("Cards", exact=True).click()
    seen["round entry, cards"] = violations(page)

    page.goto(f"{live_server.url}/#/games/{ongoing}/rounds/2")
    page.wait_for_selector("form.entry[data-round='2']")
    settle(page)
    seen["correction"] = violations(page)

    assert {view: found for view, found in seen.items() if found} == {}
    assert len(seen) == 10


def test_the_round_entry_with_books_of_a_rank_and_warnings_has_no_serious_axe_violation(
    axe_page: Any, live_server: LiveServer
) -> None:
    """The inputs and outputs of issue 19's house rules: books of a rank with a bonus of its own
    (rank_book_bonuses) and the Hodges family rules' warnings beside a side's breakdown."""
    page = axe_page
    page.set_viewport_size(PHONE)
    seen: dict[str, list[str]] = {}
    sides = [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}]
    for preset, rules in (("pagat", {"rank_book_bonuses": [{"rank": "7", "bonus": 1500}]}), ("hodges", {})):
        body = {"name": preset, "preset": preset, "teams": sides, "rules": rules}
        game_id = requests.post(f"{live_server.url}/v1/games", json=body, timeout=10).json()["id"]
        page.goto(f"{live_server.url}/#/games/{game_id}/round")
        # the hash changed: wait for this game's form (the last game's matches data-round='1' too,
        # and a click on its Breakdown folded the new one on a slow machine)
        page.wait_for_selector(f"form.entry[data-round='1']:has(p.game-name:text-is('{preset}'))")
        settle(page)
        page.get_by_role("button", name="Breakdown").click()  # folded under the Save bar on a phone
        if preset == "pagat":
            enter_tally(page, 0, SEED_T1, True)
            team_entry(page, 0).get_by_role("button", name="One more: clean books of sevens, Us").click()
            page.locator(".preview .breakdown[data-team='Us'] tr[data-code='books_of_7']:not(.zero)").wait_for()
            seen["round entry, books of sevens"] = violations(page)
        else:
            entry = team_entry(page, 0)
            entry.get_by_text("Cards", exact=True).click()
            entry.get_by_label("Melds on the table, one per line").fill("KS KH KD KC KS KH KD\n4S 2H 2D")
            page.locator(".preview .breakdown-warnings").wait_for()
            seen["round entry, warnings"] = violations(page)
    assert {view: found for view, found in seen.items() if found} == {}
    assert len(seen) == 2


def test_the_rounds_waiting_to_be_saved_and_a_refused_one_have_no_serious_axe_violation(
    axe_page: Any, live_server: LiveServer
) -> None:
    """Issue 31's offline use on a phone: the round entry with no connection, the notice of the rounds
    waiting with them in the score sheet, and a round the server refused once the connection is back."""
    page = axe_page
    page.set_viewport_size(PHONE)
    game_id = stored_game(live_server, 1, name="Tonight")
    page.goto(f"{live_server.url}/#/games/{game_id}")
    page.wait_for_selector(".scoreboard")
    page.context.set_offline(True)
    seen: dict[str, list[str]] = {}
    for number, (t1, out1, t2, out2, _, _) in enumerate(FOUR_ROUNDS[1:3], start=2):
        enter_offline(page, number, t1, out1, t2, out2)
    seen["rounds waiting"] = violations(page)
    page.get_by_role("link", name="Enter round 4").click()
    page.locator(".preview .no-breakdown:has-text('no connection')").wait_for(state="attached")
    page.get_by_role("button", name="Breakdown").click()  # folded under the Save bar on a phone
    seen["round entry, no connection"] = violations(page)

    assert requests.delete(f"{live_server.url}/v1/games/{game_id}", timeout=10).status_code == 204
    page.context.set_offline(False)
    page.locator("#refused .refused-round").wait_for()
    seen["a round refused"] = violations(page)
    assert {view: found for view, found in seen.items() if found} == {}
    assert len(seen) == 3
