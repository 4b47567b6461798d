"""Instructions of a table's meld actions, or of their stateless checks, counted by callgrind: the
game of ``make bench-table`` (bench/table_cost.py: seed 7, the same bots), in process, up to its
``--melds``-th accepted meld action. Only the measured requests run inside ``sys.call_tracing``, and
callgrind collects only inside that C function, so the count is theirs alone (the game's set-up,
the views read between actions and the other actions are not counted):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no --toggle-collect=sys_call_tracing \\
        --callgrind-out-file=actions.out .venv/bin/python -m bench.table_instructions actions
    PYTHONHASHSEED=0 valgrind ... --callgrind-out-file=checks.out .venv/bin/python -m bench.table_instructions checks

``callgrind_annotate actions.out | head`` prints the total: divided by ``--melds``, an action's
instructions; the ratio of the two files', an action over its checks. Counts do not move with the
load of the machine, unlike the clock. ``--database-url``: PostgreSQL (the client's side is
counted, not the server's).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

from bench.table_cost import BOTS, TEAMS, _checks
from handfoot import engine
from handfoot.engine.play.bots import POLICIES
from handfoot.server import create_app, migrate


def run(database_url: str, measured: str, melds: int) -> int:
    """Play until ``melds`` meld actions were accepted, each (``measured`` ``actions``) or its checks
    (``checks``) run inside ``sys.call_tracing``; the round reached."""
    migrate.upgrade(database_url)
    http = create_app({"DATABASE_URL": database_url}).test_client()
    gc.freeze()  # as a server's worker starts: what was built before it forks is frozen (gunicorn_conf.pre_fork)
    rules = engine.rules_of({"preset": "pagat"}).rules
    rng = random.Random(7)
    created = http.post("/v1/tables", json={"name": "Bench", "preset": "pagat", "teams": TEAMS, "seed": 7}).get_json()
    table, tokens = f"/v1/tables/{created['id']}", [s["token"] for s in created["seats"]]

    def post(path: str, body: Any, headers: dict[str, str]) -> Any:
        return http.post(path, json=body, headers=headers)

    accepted, view = 0, {}
    while accepted < melds:
        views = [http.get(f"{table}/view", headers={"Seat-Token": t}).get_json() for t in tokens]
        seat = next(i for i, v in enumerate(views) if v["view"]["actions"])
        view = views[seat]["view"]
        for action in POLICIES[BOTS[seat]](view, rules, rng):
            action = {k: v for k, v in action.items() if k != "seat"}
            headers = {"Seat-Token": tokens[seat], "Idempotency-Key": f'"{uuid.uuid4()}"'}
            args = (f"{table}/actions", {"version": views[seat]["version"], "action": action}, headers)
            timed = measured == "actions" and action["type"] == "meld"
            answer = sys.call_tracing(post, args) if timed else post(*args)
            if answer.status_code == 200:
                if action["type"] == "meld":
                    accepted += 1
                    if measured == "checks":
                        sys.call_tracing(_checks, (http, view, action))
                break
            assert answer.status_code == 422, answer.get_data(as_text=True)
    return int(view["round"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("measured", choices=("actions", "checks"))
    parser.add_argument("--melds", type=int, default=40, help="meld actions to play and measure (default 40)")
    parser.add_argument("--database-url", help="a database to migrate and use (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench-table.sqlite3'}"
        reached = run(url, args.measured, args.melds)
        print(f"{args.melds} meld actions measured ({args.measured}), up to round {reached}")


if __name__ == "__main__":
    main()
