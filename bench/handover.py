"""``make bench-handover``: hand-over latency at a table, one run: how long after an action is
accepted the other seats' long-polls answer with the table's new version.

Four seats play a Pagat round (greedy and random bots: ``handfoot.engine.play.bots``) for
``--actions`` accepted actions. Before each action the three other seats start a long-poll
(``GET /v1/tables/{id}/view?version=<v>&wait=60``, each on a thread of its own) and the bench lets
them settle for ``--settle`` ms plus a random share of ``--jitter`` ms (a fixed pause would lock the
action to one phase of a polling waiter's period), so that they are waiting when the action is sent; then the acting
seat posts its action. Each waiter's latency is the moment its answer arrived minus the moment the
action's 200 arrived (negative: the waiter heard of the change before the actor read its own answer).

- in process (default): the real app through Flask's test client, one per thread (no HTTP server);
- ``--serve``: the real app as ``make run`` serves it (``handfoot-server serve``, gunicorn, 2
  workers: ``bench.server.api_server``), over HTTP on 127.0.0.1; the seats' requests are spread
  over its workers as the kernel hands out connections.

It prints p50, p90, p99 and max of the latencies (ms), and the mean ms of an accepted action.

    python -m bench.handover                       # in process, SQLite
    python -m bench.handover --serve               # through gunicorn, SQLite
    python -m bench.handover --serve --database-url postgresql+psycopg://postgres@127.0.0.1/bench
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from handfoot import engine
from handfoot.engine.play.bots import POLICIES
from handfoot.server import create_app, migrate

TEAMS = [{"name": "Greedy", "players": ["North", "South"]}, {"name": "Random", "players": ["East", "West"]}]
BOTS = ["greedy", "random", "greedy", "random"]  # seats in turn order
WAIT = 60  # seconds of each long-poll: far longer than a hand-over

#: ``call(method, path, json, headers, params) -> (status, body)``; one per thread.
Call = Callable[[str, str, Any, dict[str, str], dict[str, Any] | None], tuple[int, Any]]


def _in_process(database_url: str) -> Callable[[], Call]:
    app = create_app({"DATABASE_URL": database_url})

    def make() -> Call:
        client = app.test_client()

        def call(method: str, path: str, body: Any, headers: dict[str, str], params: dict[str, Any] | None) -> Any:
            answer = client.open(path, method=method, json=body, headers=headers, query_string=params)
            return answer.status_code, answer.get_json()

        return call

    return make


def _over_http(base: str) -> Callable[[], Call]:
    def make() -> Call:
        session = requests.Session()

        def call(method: str, path: str, body: Any, headers: dict[str, str], params: dict[str, Any] | None) -> Any:
            answer = session.request(method, base + path, json=body, headers=headers, params=params, timeout=WAIT + 30)
            return answer.status_code, answer.json()

        return call

    return make


def run(
    make: Callable[[], Call], actions: int, settle: float, jitter: float, seed: int
) -> tuple[list[float], list[float]]:
    """(latencies ms of every waiter woken by an action, ms of each accepted action)."""
    call = make()
    callers = [make() for _ in range(4)]
    rules = engine.rules_of({"preset": "pagat"}).rules
    rng = random.Random(seed)
    status, created = call(
        "POST", "/v1/tables", {"name": "Handover", "preset": "pagat", "teams": TEAMS, "seed": seed}, {}, None
    )
    assert status == 201, created
    table, tokens = f"/v1/tables/{created['id']}", [s["token"] for s in created["seats"]]
    views = [call("GET", f"{table}/view", None, {"Seat-Token": t}, None)[1] for t in tokens]
    latencies: list[float] = []
    acting: list[float] = []
    while len(acting) < actions and views[0]["status"] == "playing":
        seat = next(i for i, v in enumerate(views) if v["view"]["actions"])
        version = views[seat]["version"]
        answered: dict[int, tuple[float, Any]] = {}

        def wait(other: int, version: int = version, answered: dict[int, tuple[float, Any]] = answered) -> None:
            status, body = callers[other](
                "GET", f"{table}/view", None, {"Seat-Token": tokens[other]}, {"version": version, "wait": WAIT}
            )
            assert status == 200, body
            answered[other] = (time.perf_counter(), body)

        waiters = [threading.Thread(target=wait, args=(other,)) for other in range(4) if other != seat]
        for waiter in waiters:
            waiter.start()
        time.sleep(
            settle + jitter * rng.random()
        )  # the waiters reach their wait (a late one answers at once: its latency is still real)
        for action in POLICIES[BOTS[seat]](views[seat]["view"], rules, rng):
            action = {k: v for k, v in action.items() if k != "seat"}
            sent = time.perf_counter()
            status, body = callers[seat](
                "POST", f"{table}/actions", {"version": version, "action": action}, {"Seat-Token": tokens[seat]}, None
            )
            accepted = time.perf_counter()
            if status == 200:
                break
            assert status == 422, body
        else:
            raise AssertionError("no action of the bot's was accepted")
        acting.append((accepted - sent) * 1e3)
        for waiter in waiters:
            waiter.join()
        views[seat] = body
        for other, (at, view) in answered.items():
            assert view["version"] == version + 1, (view["version"], version)
            latencies.append((at - accepted) * 1e3)
            views[other] = view
    return latencies, acting


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(latencies: list[float], acting: list[float]) -> str:
    return (
        f"{len(acting)} actions, {len(latencies)} waits woken; hand-over ms p50 {_percentile(latencies, 0.5):.1f}, "
        f"p90 {_percentile(latencies, 0.9):.1f}, p99 {_percentile(latencies, 0.99):.1f}, max {max(latencies):.1f}; "
        f"an accepted action {statistics.mean(acting):.1f} ms mean"
    )


@contextmanager
def _served(url: str, folder: Path) -> Iterator[str]:
    from bench.server import api_server

    with api_server(folder / "gunicorn.log", {"DATABASE_URL": url, "HANDFOOT_RATE_LIMIT": "off"}) as server:
        yield server.base


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=150, help="accepted actions to time (default 150)")
    parser.add_argument("--settle", type=float, default=50, help="ms the waiters get to start waiting (default 50)")
    parser.add_argument("--jitter", type=float, default=200, help="ms of random extra settling (default 200)")
    parser.add_argument("--seed", type=int, default=7, help="the table's and the bots' seed (default 7)")
    parser.add_argument(
        "--serve", action="store_true", help="through gunicorn as make run serves (default: in process)"
    )
    parser.add_argument("--database-url", help="a database to migrate and use (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        url = args.database_url or f"sqlite:///{folder / 'bench-handover.sqlite3'}"
        migrate.upgrade(url)
        where = "gunicorn" if args.serve else "in process"
        if args.serve:
            with _served(url, folder) as base:
                latencies, acting = run(_over_http(base), args.actions, args.settle / 1e3, args.jitter / 1e3, args.seed)
        else:
            latencies, acting = run(_in_process(url), args.actions, args.settle / 1e3, args.jitter / 1e3, args.seed)
        print(f"{where}, {url.split(':', 1)[0]}: {report(latencies, acting)}")


if __name__ == "__main__":
    main()
