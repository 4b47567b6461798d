"""``make bench-table``: the cost of one action at a table against the stateless checks that
validate the same action, one run, in process.

The real app (``create_app``) on a fresh migrated database (a temporary SQLite file, or
``--database-url``) through Flask's test client: no HTTP server, so the figures are the app's and the
database's own time per request. Four seats play ``--games`` Pagat games (greedy seats on one side,
random on the other: ``handfoot.engine.play.bots``), one request at a time. Every accepted
``POST /v1/tables/{id}/actions`` is timed, and right after it the stateless checks of the same
action are asked and timed:

- a meld action: ``POST /v1/melds/validate`` for each new meld (``cards``) and each addition
  (``cards`` ``onto`` the side's meld), plus ``POST /v1/openings/check`` when it is the side's opening;
- a pile take: ``POST /v1/discard-pile/check`` with the seat's hand, the pile's top card (all a seat
  sees of the pile), the side's melds and whether the pile is frozen or was taken before.

It prints, per kind, the accepted actions, the mean and median µs of an action and of its checks,
and the ratio of the means: in wall-clock time (``time.perf_counter``, which holds a commit's fsync)
and in the process's CPU time (``time.process_time``: what the code costs, steadier than the clock
on a machine others share). Then whether an action's cost is flat: the mean of every accepted
action (any kind) per round of each game, and of the first and the last 50 of each game.

    python -m bench.table_cost                       # SQLite, one game
    python -m bench.table_cost --games 2 --database-url postgresql+psycopg://postgres@127.0.0.1/bench
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from handfoot import engine
from handfoot.engine.play.bots import POLICIES
from handfoot.server import create_app, migrate

TEAMS = [{"name": "Greedy", "players": ["North", "South"]}, {"name": "Random", "players": ["East", "West"]}]
BOTS = ["greedy", "random", "greedy", "random"]  # seats in turn order: the sides alternate


#: A request's cost, µs: (wall clock, CPU time of the process).
Cost = tuple[float, float]


def _post(http: FlaskClient, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[Cost, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    answer = http.post(path, json=body, headers=headers or {})
    return ((time.perf_counter() - wall) * 1e6, (time.process_time() - cpu) * 1e6), answer


def _checks(http: FlaskClient, view: dict[str, Any], action: dict[str, Any]) -> Cost:
    """The cost of the stateless checks that validate ``action`` taken on ``view``; each must answer 200."""
    wall = cpu = 0.0
    side_melds = view["sides"][view["side"]]["melds"]
    calls: list[tuple[str, dict[str, Any]]] = []
    if action["type"] == "meld":
        calls += [("/v1/melds/validate", {"preset": "pagat", "cards": cards}) for cards in action.get("melds", [])]
        calls += [
            ("/v1/melds/validate", {"preset": "pagat", "cards": add["cards"], "onto": side_melds[add["to"]]})
            for add in action.get("add", [])
        ]
        if not side_melds and action.get("melds"):
            calls.append(("/v1/openings/check", {"preset": "pagat", "round": view["round"], "melds": action["melds"]}))
    elif action["type"] == "take_pile":
        pile = view["pile"]
        calls.append(
            (
                "/v1/discard-pile/check",
                {
                    "preset": "pagat",
                    "hand": view["hand"],
                    "pile": [pile["top"]],
                    "melds": side_melds,
                    "frozen": pile["frozen"],
                    "taken_before": pile["taken"],
                },
            )
        )
    for path, body in calls:
        (micros, cpu_micros), answer = _post(http, path, body)
        assert answer.status_code == 200, (path, answer.get_data(as_text=True))
        wall, cpu = wall + micros, cpu + cpu_micros
    return wall, cpu


@dataclass
class Timings:
    """What a run measured: (action, checks) of every accepted meld and pile take, by kind; and
    every accepted action's cost (any kind) by game and round, in the order played."""

    pairs: dict[str, list[tuple[Cost, Cost]]] = field(default_factory=lambda: {"meld": [], "take_pile": []})
    played: list[tuple[int, int, Cost]] = field(default_factory=list)


def run(database_url: str, games: int, seed: int) -> Timings:
    """Play ``games`` games of bots on a fresh table each, and time their actions and checks."""
    migrate.upgrade(database_url)
    http = create_app({"DATABASE_URL": database_url}).test_client()
    gc.freeze()  # as a server's worker starts: what was built before it forks is frozen (gunicorn_conf.pre_fork)
    rules = engine.rules_of({"preset": "pagat"}).rules
    rng = random.Random(seed)
    timings = Timings()
    for game in range(games):
        created = http.post(
            "/v1/tables", json={"name": f"Bench {game}", "preset": "pagat", "teams": TEAMS, "seed": seed + game}
        ).get_json()
        table, tokens = f"/v1/tables/{created['id']}", [s["token"] for s in created["seats"]]
        views = [http.get(f"{table}/view", headers={"Seat-Token": t}).get_json() for t in tokens]
        while views[0]["status"] != "finished":
            seat = next(i for i, v in enumerate(views) if v["view"]["actions"])
            view = views[seat]["view"]
            for action in POLICIES[BOTS[seat]](view, rules, rng):
                action = {k: v for k, v in action.items() if k != "seat"}
                headers = {"Seat-Token": tokens[seat], "Idempotency-Key": f'"{uuid.uuid4()}"'}
                cost, answer = _post(
                    http, f"{table}/actions", {"version": views[seat]["version"], "action": action}, headers
                )
                if answer.status_code == 200:
                    timings.played.append((game, view["round"], cost))
                    if action["type"] in timings.pairs:
                        timings.pairs[action["type"]].append((cost, _checks(http, view, action)))
                    break
                assert answer.status_code == 422, answer.get_data(as_text=True)
            views = [http.get(f"{table}/view", headers={"Seat-Token": t}).get_json() for t in tokens]
    return timings


def _means(costs: list[Cost]) -> str:
    return f"{statistics.mean(c[0] for c in costs):.0f} / {statistics.mean(c[1] for c in costs):.0f}"


def report(timings: Timings) -> str:
    lines = [
        "| action | accepted | action µs mean / median | checks µs mean / median | action / checks "
        "| CPU µs: action / checks (mean) | CPU: action / checks |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind, pairs in timings.pairs.items():
        if not pairs:
            lines.append(f"| {kind} | 0 | - | - | - | - | - |")
            continue
        acts, checks = [a[0] for a, _ in pairs], [c[0] for _, c in pairs]
        cpu_acts, cpu_checks = [a[1] for a, _ in pairs], [c[1] for _, c in pairs]
        ratio = statistics.mean(acts) / statistics.mean(checks)
        cpu_ratio = statistics.mean(cpu_acts) / statistics.mean(cpu_checks)
        lines.append(
            f"| {kind} | {len(pairs)} | {statistics.mean(acts):.0f} / {statistics.median(acts):.0f} | "
            f"{statistics.mean(checks):.0f} / {statistics.median(checks):.0f} | {ratio:.1f}x | "
            f"{statistics.mean(cpu_acts):.0f} / {statistics.mean(cpu_checks):.0f} | {cpu_ratio:.1f}x |"
        )
    lines += ["", "Every accepted action, µs wall / CPU (mean):", ""]
    lines += ["| game | actions | first 50 | last 50 | by round |", "|---|---|---|---|---|"]
    for game in sorted({g for g, _, _ in timings.played}):
        played = [(rnd, cost) for g, rnd, cost in timings.played if g == game]
        costs = [cost for _, cost in played]
        rounds = sorted({rnd for rnd, _ in played})
        by_round = "; ".join(f"{rnd}: {_means([c for r, c in played if r == rnd])}" for rnd in rounds)
        lines.append(f"| {game + 1} | {len(costs)} | {_means(costs[:50])} | {_means(costs[-50:])} | {by_round} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="Pagat games to play (default 1)")
    parser.add_argument("--seed", type=int, default=7, help="the tables' and the bots' seed (default 7)")
    parser.add_argument("--database-url", help="a database to migrate and use (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench-table.sqlite3'}"
        started = time.monotonic()
        timings = run(url, args.games, args.seed)
        print(f"{args.games} game(s) in {time.monotonic() - started:.0f} s on {url.split(':', 1)[0]}")
        print(report(timings))


if __name__ == "__main__":
    main()
