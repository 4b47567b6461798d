"""``make bench-limiter``: what the rate limiter costs ``POST /v1/rounds/score``, as a ratio taken in
one run: the API with ``HANDFOOT_RATE_LIMIT=off`` against the same API with a limit no window
reaches (``bench.run.LIMIT_NEVER_REACHED``), with its counters in the default shared file
(``api/ratelimit.py``) and, when Redis answers at ``--redis``, in Redis. The windows alternate
(off, file, redis, off, file, ...) so a change in the machine's load falls on every case alike.

    python -m bench.limiter --runs 3 --duration 5 --concurrency 8

``--in-process`` takes the machine's load out: the real app (``create_app()``, every hook) called
through werkzeug's test client in this one process, timed in CPU seconds of this process
(``time.process_time``), the cases alternating in blocks of ``--requests``; with a ``file/unleased``
case, the shared file hit once a request as before leases (``ratelimit.LEASE_MAX = 1``).

Prints per case the median req/s and the workers' CPU time per request (``/proc``: on a shared
machine the steadier of the two), each with the median of its per-run ratios to ``off``; exits 1
when a limited case answered anything but 2xx (a 429 means the limit was reached).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from bench import rounds, storage
from bench.load import run_wrk
from bench.run import LIMIT_NEVER_REACHED, NO_LIMIT, progress
from bench.server import WORKERS, Server, api_server

REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_up(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except Exception:  # noqa: BLE001 - any failure means "no Redis here"
        return False


def cpu_seconds(server: Server) -> float:
    """User + system CPU seconds of the server's workers so far (``/proc/<pid>/stat``)."""
    ticks = 0
    for pid in server.workers():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat(5))
    return ticks / os.sysconf("SC_CLK_TCK")


def in_process(runs: int, requests: int, redis_url: str) -> int:
    """CPU ms per ``POST /v1/rounds/score`` of each case, and its ratio to ``off``, per block."""
    from handfoot.server import create_app, ratelimit

    body = json.dumps(rounds.score_body()).encode()
    with tempfile.TemporaryDirectory(prefix="handfoot-bench-limiter-") as tmp:
        url = f"sqlite:///{tmp}/api.sqlite3"
        storage.migrate(url)
        cases = {
            "off": {"RATE_LIMIT": NO_LIMIT},
            "file": {"RATE_LIMIT": LIMIT_NEVER_REACHED},
            "file/unleased": {"RATE_LIMIT": LIMIT_NEVER_REACHED},
        }
        if redis_url and redis_up(redis_url):
            cases["redis"] = {
                "RATE_LIMIT": LIMIT_NEVER_REACHED,
                "RATE_LIMIT_STORAGE": redis_url,
                "RATE_LIMIT_KEY_PREFIX": f"bench-{uuid.uuid4().hex}",
            }
        clients = {}
        for name, config in cases.items():
            app = create_app({"DATABASE_URL": url, **config})
            clients[name] = app.test_client()
        cpu: dict[str, list[float]] = {name: [] for name in clients}
        lease_max = ratelimit.LEASE_MAX
        for r in range(runs + 1):  # the first block of each case warms it up, not counted
            for name, client in clients.items():
                ratelimit.LEASE_MAX = 1 if name == "file/unleased" else lease_max
                start = time.process_time()
                for _ in range(requests):
                    answer = client.post("/v1/rounds/score", data=body, content_type="application/json")
                    if answer.status_code != 200:
                        raise AssertionError((name, answer.status_code, answer.get_data(as_text=True)[:300]))
                if r:
                    cpu[name].append((time.process_time() - start) * 1000 / requests)
        ratelimit.LEASE_MAX = lease_max
    print(f"POST /v1/rounds/score in process (werkzeug test client), {runs} blocks of {requests} requests per case")
    for name, values in cpu.items():
        ratio = [v / o for v, o in zip(values, cpu["off"], strict=True)]
        print(
            f"{name:13} CPU ms/request median {statistics.median(values):6.3f}"
            f"  / off: median {statistics.median(ratio):.3f} (min {min(ratio):.3f}, max {max(ratio):.3f})"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per load window")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--redis", default=REDIS_URL, help="a Redis for the redis case ('' : none)")
    parser.add_argument("--in-process", action="store_true", help="the app in this process, CPU time (see above)")
    parser.add_argument("--requests", type=int, default=300, help="--in-process: requests per block")
    args = parser.parse_args(argv)
    if args.in_process:
        return in_process(args.runs, args.requests, args.redis)

    body = json.dumps(rounds.score_body()).encode()
    with tempfile.TemporaryDirectory(prefix="handfoot-bench-limiter-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        url = f"sqlite:///{work}/api.sqlite3"
        storage.migrate(url)
        env = {"DATABASE_URL": url}
        cases = {
            "off": {**env, "HANDFOOT_RATE_LIMIT": NO_LIMIT},
            "file": {**env, "HANDFOOT_RATE_LIMIT": LIMIT_NEVER_REACHED},
        }
        if args.redis and redis_up(args.redis):
            cases["redis"] = {
                **env,
                "HANDFOOT_RATE_LIMIT": LIMIT_NEVER_REACHED,
                "HANDFOOT_RATE_LIMIT_STORAGE": args.redis,
                "HANDFOOT_RATE_LIMIT_KEY_PREFIX": f"bench-{uuid.uuid4().hex}",
            }
        servers = {
            name: stack.enter_context(api_server(work / f"gunicorn-{name}.log", case_env))
            for name, case_env in cases.items()
        }
        rps: dict[str, list[float]] = {name: [] for name in servers}
        cpu: dict[str, list[float]] = {name: [] for name in servers}  # worker CPU ms per request
        refused = 0
        for r in range(args.runs):
            for name, server in servers.items():
                progress(f"limiter: run {r + 1}/{args.runs} {name} c={args.concurrency} ({args.duration:g} s)")
                before = cpu_seconds(server)
                res = run_wrk(server.base + "/v1/rounds/score", body, work / "wrk", args.concurrency, args.duration)
                cpu[name].append((cpu_seconds(server) - before) * 1000 / max(1, res.requests))
                rps[name].append(res.rps)
                refused += res.non_2xx + res.errors
    print(
        f"POST /v1/rounds/score, c={args.concurrency}, {args.runs} runs of {args.duration:g} s, {WORKERS} workers each"
    )
    for name, values in rps.items():
        ratio = [v / o for v, o in zip(values, rps["off"], strict=True)]
        print(
            f"{name:6} req/s median {statistics.median(values):8.1f} (min {min(values):.1f}, max {max(values):.1f})"
            f"  / off: median {statistics.median(ratio):.3f} (min {min(ratio):.3f}, max {max(ratio):.3f})"
        )
    for name, values in cpu.items():
        ratio = [v / o for v, o in zip(values, cpu["off"], strict=True)]
        print(
            f"{name:6} worker CPU ms/request median {statistics.median(values):6.3f}"
            f"  / off: median {statistics.median(ratio):.3f} (min {min(ratio):.3f}, max {max(ratio):.3f})"
        )
    print(f"non-2xx or socket errors in limited cases: {refused}")
    return 1 if refused else 0


if __name__ == "__main__":
    raise SystemExit(main())
