"""CPU time of an append in process, against the insert floor's: the benchmark's round appended
through the WSGI app (Flask test client: no socket, no gunicorn), in blocks alternating with blocks of
the floor's inserts (bench/floor_app.py) on the same database, so load from other work on the
machine falls on both alike.

    python -m bench.append_cost [--database sqlite|postgresql] [--blocks 16] [--per-block 100]
    python -m bench.append_cost --profile      # pyinstrument's call tree of the appends instead
    python -m bench.append_cost --calls N [--insert]   # N appends (or floor inserts), untimed: for callgrind

``--calls``: the same setup (games for ``--blocks`` x ``--per-block`` appends, the warm-up), then
exactly N appends (``--insert``: N floor inserts) and nothing else. Under
``valgrind --tool=callgrind --instr-atstart=no`` it turns callgrind's instrumentation on around
those N calls alone (``callgrind_control``), so the instructions callgrind counts are N requests'
(stable under load from other work, unlike a clock); without ``--instr-atstart=no``, ``--calls N``
less ``--calls 0`` gives the same.

Prints the median and best block's CPU per request (``time.process_time``) of each, and the
floor / append ratio of the medians. PostgreSQL: a fresh database on ``BENCH_PG_ADMIN_URL``'s server,
dropped afterwards (bench/storage.py).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bench import rounds
from bench.storage import ROUNDS_PER_GAME, create_bench_table, migrate, postgres_database

#: The floor's row: about the size of a stored bench round (the request and its Breakdowns).
ROW_BYTES = 5600


@contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "postgresql":
        with postgres_database() as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as tmp:
        yield f"sqlite:///{tmp}/append-cost.sqlite3"


def requests(url: str, appends: int) -> tuple[Callable[[], None], Callable[[], None]]:
    """One append (the next game's next round) and one floor insert, each a call."""
    from bench.floor_app import create_floor_app
    from handfoot.server import create_app

    client = create_app({"DATABASE_URL": url}).test_client()
    floor = create_floor_app({"DATABASE_URL": url}).test_client()
    gc.freeze()  # as a server's worker starts: what was built before it forks is frozen (gunicorn_conf.pre_fork)
    game = {"preset": rounds.PRESET, "rules": {"rounds": None, "target_score": 1_000_000}, "teams": rounds.game_teams()}
    ids = []
    for k in range(appends // ROUNDS_PER_GAME + 1):
        created = client.post("/v1/games", json={**game, "name": f"cost {k}"})
        ids.append(created.get_json()["id"])
    paths = iter([f"/v1/games/{i}/rounds" for i in ids] * ROUNDS_PER_GAME)
    body = json.dumps(rounds.append_body()).encode()
    row = json.dumps({"game": 1}).encode()

    def append() -> None:
        response = client.post(next(paths), data=body, content_type="application/json")
        if response.status_code != 201:
            raise RuntimeError(f"an append answered {response.status_code}: {response.get_data()[:300]!r}")

    def insert() -> None:
        response = floor.post(f"/bench/insert?bytes={ROW_BYTES}", data=row, content_type="application/json")
        if response.status_code != 201:
            raise RuntimeError(f"the floor answered {response.status_code}")

    return append, insert


def callgrind(state: str) -> None:
    """Turn callgrind's instrumentation of this process ``on`` or ``off``, when it runs under
    valgrind (whose preload is in ``LD_PRELOAD``); otherwise nothing."""
    if "vgpreload" in os.environ.get("LD_PRELOAD", ""):
        subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True)


def cpu_per_call(call: Callable[[], None], count: int) -> float:
    started = time.process_time()
    for _ in range(count):
        call()
    return (time.process_time() - started) / count * 1e6


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--blocks", type=int, default=16)
    parser.add_argument("--per-block", type=int, default=100)
    parser.add_argument("--profile", action="store_true", help="pyinstrument's call tree of the appends")
    parser.add_argument("--calls", type=int, help="make exactly this many appends, untimed (for callgrind)")
    parser.add_argument("--insert", action="store_true", help="with --calls: floor inserts instead of appends")
    args = parser.parse_args()
    warmup = 20
    with database(args.database) as url:
        migrate(url)
        create_bench_table(url)
        append, insert = requests(url, args.blocks * args.per_block + warmup)
        for _ in range(warmup):
            append()
            insert()
        if args.calls is not None:
            call = insert if args.insert else append
            callgrind("on")
            for _ in range(args.calls):
                call()
            callgrind("off")
            return 0
        if args.profile:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.0002)
            profiler.start()
            cpu_per_call(append, args.blocks * args.per_block)
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False, show_all=False))
            return 0
        appends, inserts = [], []
        for _ in range(args.blocks):
            appends.append(cpu_per_call(append, args.per_block))
            inserts.append(cpu_per_call(insert, args.per_block))
    a, f = statistics.median(appends), statistics.median(inserts)
    print(
        f"{args.database}: append {a:,.0f} µs CPU (best block {min(appends):,.0f}), insert floor {f:,.0f} "
        f"(best {min(inserts):,.0f}); floor / append {f / a:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
