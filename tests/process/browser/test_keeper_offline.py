"""The keeper with no network (issue 31), on a 390 x 844 phone: the page opens from its service
worker, rounds saved offline wait on the device and reach the server once each, in order, when the
connection returns; a round the server refuses meanwhile is reported, not dropped."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests

from handfoot.server import keeper
from tests.process.browser.keeper_pages import FOUR_ROUNDS, api_get, enter_offline, new_game, play_round
from tests.process.browser.keeper_util import PHONE, LiveServer, screenshot

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

#: The outbox's storage key in the page's localStorage (api/static/keeper/outbox.js).
OUTBOX = "handfoot.outbox"


def kept_for_offline(page: Any) -> None:
    """Wait until the service worker has kept the shell and controls the page."""
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def waiting_line(page: Any) -> Any:
    return page.locator("#waiting [data-testid='waiting']")


def test_rounds_saved_offline_reach_the_server_once_each_in_order_after_a_reload_offline(
    page: Any, context: Any, live_server: LiveServer
) -> None:
    page.set_viewport_size(PHONE)
    game_id = new_game(page, live_server, name="Cabin")
    kept_for_offline(page)
    expect(page.locator("#waiting")).to_be_hidden()

    context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False
    for number, (t1, out1, t2, out2, _, _) in enumerate(FOUR_ROUNDS[:2], start=1):
        enter_offline(page, number, t1, out1, t2, out2)
        expect(waiting_line(page)).to_have_text(
            f"{number} round{'s' if number > 1 else ''} waiting to be saved: you are offline."
        )
    expect(page.locator("#waiting")).to_contain_text("Cabin: rounds 1 and 2. Kept on this device")
    expect(page.locator("tr.pending .pending-tag")).to_have_text(["waiting", "waiting"])
    expect(page.get_by_role("link", name="Enter round 3")).to_be_visible()
    screenshot(page, "waiting", dark=True, full_page=False)

    # Reloaded with no network: the page comes from the service worker, the game from this device.
    response = page.reload()
    assert response is not None and response.from_service_worker
    page.wait_for_selector(".scoreboard")
    stored_note = page.locator("[data-testid='stored']")
    expect(stored_note).to_contain_text("No connection: the scores as last seen on this device")
    expect(waiting_line(page)).to_have_text("2 rounds waiting to be saved: you are offline.")
    t1, out1, t2, out2, _, _ = FOUR_ROUNDS[2]
    enter_offline(page, 3, t1, out1, t2, out2)
    expect(waiting_line(page)).to_have_text("3 rounds waiting to be saved: you are offline.")
    assert api_get(live_server, f"/v1/games/{game_id}")["rounds_played"] == 0
    # The games list, with no connection: the games opened on this device.
    page.get_by_role("link", name="Games", exact=True).click()
    expect(page.locator(".game-card h2")).to_have_text(["Cabin"])
    expect(stored_note).to_have_text("No connection: the games last opened on this device, as they were then.")
    page.get_by_role("link", name="Resume Cabin").click()
    page.wait_for_selector("tr.pending[data-pending-round='3']")

    context.set_offline(False)
    expect(page.locator("#waiting")).to_be_hidden()
    page.wait_for_selector("table.sheet tr[data-round='3']")  # the scoreboard read again from the server
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(page.locator("[data-testid='stored']")).to_have_count(0)
    assert page.evaluate(f"localStorage.getItem('{OUTBOX}')") == "[]"

    # The worker kept the shell only: no answer of the API is kept as if it were current.
    kept = page.evaluate(
        "async () => (await Promise.all((await caches.keys()).map(async (name) =>"
        " (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)))).flat()"
    )
    assert "/" in kept and "/keeper/app.js" in kept
    assert not [path for path in kept if not (path == "/" or path.startswith("/keeper/"))]

    game = api_get(live_server, f"/v1/games/{game_id}")
    assert game["rounds_played"] == 3
    expected = [(a, b) for *_, a, b in FOUR_ROUNDS[:3]]
    assert [r["number"] for r in game["rounds"]] == [1, 2, 3]
    assert [tuple(s["total"] for s in r["scores"]) for r in game["rounds"]] == expected
    assert [r["revision"] for r in game["rounds"]] == [1, 1, 1]
    assert [t["total"] for t in game["totals"]] == [sum(a for a, _ in expected), sum(b for _, b in expected)]


def test_a_round_refused_when_it_reaches_the_server_is_reported_until_discarded(
    page: Any, context: Any, live_server: LiveServer
) -> None:
    page.set_viewport_size(PHONE)
    game_id = new_game(page, live_server, name="Tonight")
    context.set_offline(True)
    for number, (t1, out1, t2, out2, _, _) in enumerate(FOUR_ROUNDS[:2], start=1):
        enter_offline(page, number, t1, out1, t2, out2)
    # Meanwhile the game is deleted elsewhere.
    assert requests.delete(f"{live_server.url}/v1/games/{game_id}", timeout=10).status_code == 204

    context.set_offline(False)
    refused = page.locator("#refused .refused-round")
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text("Round 1 of “Tonight” was not saved: the server refused it.")
    expect(refused).to_contain_text("Round 2 of this game waits behind it.")
    expect(refused).to_contain_text("Entered: Team 1 went out, clean books 2")
    expect(waiting_line(page)).to_have_text(re.compile(r"^1 round waiting to be saved: "))

    # Still reported after a reload: nothing is dropped unseen.
    page.reload()
    expect(refused).to_have_count(1)
    page.get_by_role("button", name="Discard round 1").click()
    # Round 2 is tried next, and refused in turn (its game is gone too).
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text("Round 2 of “Tonight” was not saved")
    expect(page.locator("#waiting")).to_be_hidden()
    page.get_by_role("button", name="Discard round 2").click()
    expect(page.locator("#refused")).to_be_hidden()
    assert page.evaluate(f"localStorage.getItem('{OUTBOX}')") == "[]"
    assert requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).status_code == 404


def test_a_round_whose_answer_was_lost_is_sent_again_and_stored_once(page: Any, live_server: LiveServer) -> None:
    """The server stored the round, but its answer never reached the page: the round waits, is sent
    again later (a timer, the connection never having looked down) with the same Idempotency-Key,
    and the server answers it again from the key instead of storing a second round."""
    page.set_viewport_size(PHONE)
    game_id = new_game(page, live_server, name="Lost")
    stored: list[int] = []

    def answer_lost(route: Any) -> None:
        stored.append(route.fetch().status)  # the request reaches the server...
        route.abort()  # ...and the answer is lost on the way back

    page.route("**/v1/games/*/rounds", answer_lost)
    play_round(page, 1, *FOUR_ROUNDS[0][:4])
    expect(waiting_line(page)).to_have_text("1 round waiting to be saved: the server cannot be reached.")
    assert stored == [201]
    assert api_get(live_server, f"/v1/games/{game_id}")["rounds_played"] == 1
    expect(page.get_by_role("link", name="Enter round 2")).to_be_visible()

    page.unroute("**/v1/games/*/rounds")
    expect(page.locator("#waiting")).to_be_hidden(timeout=15_000)  # the retry waits about 5 s
    game = api_get(live_server, f"/v1/games/{game_id}")
    assert game["rounds_played"] == 1 and [r["revision"] for r in game["rounds"]] == [1]
    assert [t["total"] for t in game["totals"]] == list(FOUR_ROUNDS[0][4:])


def test_a_changed_shell_is_kept_in_place_of_the_old_one(
    page: Any, context: Any, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another version of the shell (here only its version changed) is another /sw.js: the browser
    installs it, it keeps the shell in a cache of its own and deletes the old one. The open page,
    which still runs the files it loaded, says a new version is ready (the first worker to keep the
    page said nothing)."""
    page.goto(f"{live_server.url}/#/games")
    kept_for_offline(page)
    version, urls = keeper.shell_version()
    assert page.evaluate("caches.keys()") == [f"keeper-shell-{version}"]
    update = page.locator("#update")
    assert update.inner_text() == ""

    monkeypatch.setattr(keeper, "shell_version", lambda folder=keeper.KEEPER_STATIC: ("0" * 16, urls))
    page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
    for _ in range(100):
        if page.evaluate("caches.keys()") == ["keeper-shell-" + "0" * 16]:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("caches.keys()") == ["keeper-shell-" + "0" * 16]
    expect(update).to_contain_text("A new version of the score keeper is ready: reload the page to use it.")
    with page.expect_navigation():
        update.get_by_role("button", name="Reload").click()
    page.wait_for_selector("h1:text('Games')")
    assert update.inner_text() == ""

    context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    page.wait_for_selector("h1:text('Games')")
