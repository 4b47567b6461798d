"""What the keeper's browser tests do on the page: start a game, enter and save rounds, read the
score sheet; and the four-round game they play.

Expected scores are worked out by hand here (Pagat: clean book 500, dirty 300, wild 1,500, going out
100, red three +100 on the table and -100 caught), not asked of the engine.
"""

from __future__ import annotations

import re
from typing import Any

import requests

from tests.process.browser.keeper_util import LiveServer

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


def new_game(page: Any, server: LiveServer, *, preset: str = "pagat", name: str = "Friday") -> int:
    """Start a game through the form (sides Team 1 and Team 2, players Ann, Bo / Cy, Di); returns its
    id, on its scoreboard."""
    page.goto(f"{server.url}/#/new")
    page.wait_for_selector(".rule-row", state="attached")
    if preset != "pagat":
        page.select_option("#preset", preset)
        page.wait_for_selector(".rule-row[data-rule='teams_min']", state="attached")
    page.get_by_label("Name of the game").fill(name)
    page.locator("input[name='teams.0.name']").fill("Team 1")
    page.locator("input[name='teams.1.name']").fill("Team 2")
    page.locator("input[name='teams.0.players.0']").fill("Ann")
    page.locator("input[name='teams.0.players.1']").fill("Bo")
    page.locator("input[name='teams.1.players.0']").fill("Cy")
    page.locator("input[name='teams.1.players.1']").fill("Di")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".scoreboard")
    match = re.search(r"#/games/(\d+)$", page.url)
    assert match, page.url
    return int(match.group(1))


def open_entry(page: Any, number: int) -> None:
    """From the scoreboard, "Enter round <number>" (or its tiebreaker round)."""
    page.get_by_role("link", name=re.compile(f"^Enter (tiebreaker )?round {number}$")).click()
    page.wait_for_selector(f"form.entry[data-round='{number}']")
    settle(page)


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


def settle(page: Any) -> None:
    """Wait until the live breakdown shows what the inputs say (the debounced preview came back)."""
    page.wait_for_function(
        "() => { const p = document.querySelector('.preview');"
        " return p && p.querySelector('.breakdown') && !p.classList.contains('stale')"
        " && p.getAttribute('aria-busy') === 'false'; }"
    )


def save(page: Any, number: int) -> None:
    page.get_by_role("button", name=f"Save round {number}").click()
    page.wait_for_selector(f".scoreboard ~ .sheet-card table.sheet tr[data-round='{number}']")


def enter_offline(page: Any, number: int, t1: Tally, out1: bool, t2: Tally, out2: bool) -> None:
    """From the scoreboard, with no connection, enter round `number` and save it: it waits on the device."""
    page.get_by_role("link", name=f"Enter round {number}").click()
    page.wait_for_selector(f"form.entry[data-round='{number}']")
    enter_tally(page, 0, t1, out1)
    enter_tally(page, 1, t2, out2)
    page.locator(".preview .no-breakdown:has-text('no connection')").wait_for(state="attached")  # folded on a phone
    assert page.locator("[data-testid='running-total']").inner_text() == "No connection: no breakdown"
    page.get_by_role("button", name=f"Save round {number}").click()
    page.wait_for_selector(f".scoreboard ~ .sheet-card tr.pending[data-pending-round='{number}']")
    kept = f"Round {number} is kept on this device: it is saved when the connection returns."
    assert page.locator("#notice").inner_text() == kept


def play_round(page: Any, number: int, t1: Tally, out1: bool, t2: Tally, out2: bool) -> None:
    open_entry(page, number)
    enter_tally(page, 0, t1, out1)
    enter_tally(page, 1, t2, out2)
    settle(page)
    save(page, number)


def lines_of(page: Any, team: str) -> dict[str, tuple[str, str, str]]:
    """code → (label, "count × each", points) of a team's live breakdown (the lines worth 0 included)."""
    rows = page.locator(f".preview .breakdown[data-team='{team}'] tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.get_attribute("data-code")] = tuple(
            row.locator(sel).evaluate("el => el.textContent.trim()") for sel in ("th", "td.count", "td.num")
        )
    return out


def running(page: Any, number: int, team: str) -> str:
    cell = page.locator(f"table.sheet tr[data-round='{number}'] [data-running='{team}']")
    return str(cell.inner_text().strip())


def total(page: Any, team: str) -> str:
    return str(page.locator(f"table.sheet tfoot [data-total-for='{team}'] .value").inner_text().strip())


def api_get(server: LiveServer, path: str) -> Any:
    response = requests.get(server.url + path, timeout=10)
    response.raise_for_status()
    return response.json()


def stored_game(
    server: LiveServer, rounds: int = 4, *, name: str = "Last week", sides: tuple[str, str] = ("Us", "Them")
) -> int:
    """A Pagat game with the first `rounds` of FOUR_ROUNDS, made through the API; returns its id."""
    teams = [{"name": sides[0], "players": ["Ann", "Bo"]}, {"name": sides[1], "players": ["Cy", "Di"]}]
    game = requests.post(f"{server.url}/v1/games", json={"name": name, "preset": "pagat", "teams": teams}, timeout=10)
    assert game.status_code == 201, game.text
    game_id = int(game.json()["id"])
    for t1, out1, t2, out2, _, _ in FOUR_ROUNDS[:rounds]:
        body = {
            "teams": [
                {"name": sides[0], "went_out": out1, "tally": t1},
                {"name": sides[1], "went_out": out2, "tally": t2},
            ]
        }
        response = requests.post(f"{server.url}/v1/games/{game_id}/rounds", json=body, timeout=10)
        assert response.status_code == 201, response.text
    return game_id
