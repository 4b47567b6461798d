"""``make bench``: engine, API, storage and memory benchmarks, each against a floor measured in the
same run. The API under test is the real app as ``make run`` serves it; its floors are a bare Flask
app of their own in its own gunicorn process (bench/floor_app.py, bench/server.py).

Prints one table (Markdown, bench/report.py) and writes it as JSON (``bench/results/latest.json``).
Each figure is the median of ``--runs`` runs with their min and max; a ratio is taken inside each
run (the case and its floor measured back to back) and then summarised the same way.

    python -m bench.run                       # everything
    python -m bench.run --only engine,api --runs 1 --duration 3    # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import engine_bench, rounds, storage
from bench.load import LoadResult, run_wrk
from bench.memory import post_many, rss_kib
from bench.report import Report, ratios, table, target
from bench.server import ROOT, Server, api_server, fetch, floor_server, request

SECTIONS = ("engine", "api", "storage", "memory")
DATABASES = ("sqlite", "postgresql")
#: ``HANDFOOT_RATE_LIMIT`` of the API without its limiter (``make run`` with the limit switched off).
NO_LIMIT = "off"
#: ``HANDFOOT_RATE_LIMIT`` of ``score_limited``: ``make run``'s limiter (per key, else per address;
#: counters in the host's shared file, a busy key's taken in leases) with a limit no window
#: reaches, so every request pays the limiter's work (its key, its lease, its headers) and none is
#: refused.
LIMIT_NEVER_REACHED = "1000000000/minute"
#: Score endpoint cases against their plain-JSON floors: >= this share of the floor's req/s at c >= 8.
SCORE_TARGET = 0.65


def progress(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def api_env(database_url: str, rate_limit: str = NO_LIMIT) -> dict[str, str]:
    """The environment of :func:`bench.server.api_server`: its database and its rate limit."""
    return {"DATABASE_URL": database_url, "HANDFOOT_RATE_LIMIT": rate_limit}


# -- engine -----------------------------------------------------------------------------------------


def bench_engine(report: Report, runs: int) -> None:
    progress("engine: timing score (cards, tallies, a side of 8 and of 16 melds), validate meld and the floors")
    summary = rounds.check()
    report.notes.append(
        f"round: {summary['teams']} teams of 2 (pagat), {summary['cards']} cards, "
        f"{summary['melds_per_team'][0]} melds per team (5 books, 5 open), totals {summary['totals']}, "
        f"body {summary['body_bytes']} bytes"
    )
    samples = engine_processes(max(runs, 5))
    for name, vals in samples.items():
        report.add("engine", name, "µs/call", vals)
    for name, floor in engine_bench.RATIOS.items():
        row = report.add("engine", f"{name} / {floor}", "x", ratios(samples[name], samples[floor]))
        most = engine_bench.TARGETS.get(name)
        if most is not None:
            target(row, f"<= {most:g}x", lambda v, most=most: v <= most)
    bench_scaling(report, samples)


def bench_scaling(report: Report, samples: dict[str, list[float]]) -> None:
    """A side of 16 melds against the same side of 8 (twice its cards; the other side the same):
    linear cost is the same time per card of the round."""
    (small, small_melds), (big, big_melds) = sorted(engine_bench.SCALING.items(), key=lambda kv: kv[1])
    cards = {n: len(rounds.all_cards(rounds.side_body(n))) for n in (small_melds, big_melds)}
    per_card = {}
    for name, melds in ((small, small_melds), (big, big_melds)):
        per_card[name] = [us / cards[melds] for us in samples[name]]
        report.add("engine", f"{name} per card", "µs/card", per_card[name], note=f"{cards[melds]} cards")
    report.add(
        "engine",
        f"{big} / {small}",
        "x",
        ratios(samples[big], samples[small]),
        note=f"{cards[big_melds]} / {cards[small_melds]} cards: linear is {cards[big_melds] / cards[small_melds]:.2f}x",
    )
    row = report.add(
        "engine",
        f"{big} / {small} per card",
        "x",
        ratios(per_card[big], per_card[small]),
        note="linear: 1.00; a cliff: well over",
    )
    target(row, "<= 1.10", lambda v: v <= 1.10)


def engine_processes(runs: int) -> dict[str, list[float]]:
    """Each engine case's µs per call, one run per process, run ``k`` with ``PYTHONHASHSEED=k``.

    String hashing is seeded per process, and the cases are dict lookups of card strings: one
    process's ratio is one draw (docs/performance.md). As pyperf does (worker processes, each with
    its own hash seed), every run is a fresh process; the seeds are fixed, so a rerun draws the same
    ones."""
    out: dict[str, list[float]] = {}
    for k in range(runs):
        progress(f"engine: run {k + 1}/{runs} (a process with PYTHONHASHSEED={k})")
        done = subprocess.run(
            [sys.executable, "-m", "bench.engine_bench"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "PYTHONHASHSEED": str(k)},
        )
        for name, us in json.loads(done.stdout).items():
            out.setdefault(name, []).append(us)
    return out


# -- API --------------------------------------------------------------------------------------------

#: (case, its floor): each score case against the plain-JSON floor of its own body and answer size.
API_RATIOS = (
    ("score", "plain_score"),
    ("score_tally", "plain_score_tally"),
    ("score_rules", "plain_score_rules"),
    ("score_limited", "plain_score"),
    ("validate", "plain_validate"),
)
#: What the limiter and the house rules cost: each against the plain score on the same API.
API_COSTS = (("score_limited", "score"), ("score_rules", "score"))


def _answer(server: Server, path: str, body: bytes) -> tuple[int, dict[str, str]]:
    """The size and headers of the answer of ``server`` to ``body`` (which must be a 200)."""
    got = fetch(server.host, server.port, "POST", path, body)
    assert got.status == 200, (server.base, path, got.status, got.body[:300])
    return len(got.body), got.headers


def api_cases(floor: Server, api: Server, limited: Server) -> dict[str, tuple[Server, str, bytes]]:
    """Every load window of a run, in the order measured: each case right after its floor. Checks
    the servers first: ``api`` has no limiter, ``limited`` has one."""
    score = json.dumps(rounds.score_body()).encode()
    score_rules = json.dumps(rounds.score_rules_body()).encode()
    score_tally = json.dumps(rounds.tally_body()).encode()
    meld = json.dumps(rounds.validate_body()).encode()
    score_bytes, plain_headers = _answer(api, "/v1/rounds/score", score)
    limited_bytes, limited_headers = _answer(limited, "/v1/rounds/score", score)
    rules_bytes, _ = _answer(api, "/v1/rounds/score", score_rules)
    tally_bytes, _ = _answer(api, "/v1/rounds/score", score_tally)
    meld_bytes, _ = _answer(api, "/v1/melds/validate", meld)
    if "x-ratelimit-limit" in plain_headers or "x-ratelimit-limit" not in limited_headers:
        raise AssertionError(f"the limiter is not where it should be: plain {plain_headers}, limited {limited_headers}")
    assert limited_bytes == score_bytes, (limited_bytes, score_bytes)
    return {
        "bare": (floor, "/bench/bare", score),
        "plain_score": (floor, f"/bench/plain?bytes={score_bytes}", score),
        "score": (api, "/v1/rounds/score", score),
        "score_limited": (limited, "/v1/rounds/score", score),
        "plain_score_tally": (floor, f"/bench/plain?bytes={tally_bytes}", score_tally),
        "score_tally": (api, "/v1/rounds/score", score_tally),
        "plain_score_rules": (floor, f"/bench/plain?bytes={rules_bytes}", score_rules),
        "score_rules": (api, "/v1/rounds/score", score_rules),
        "plain_validate": (floor, f"/bench/plain?bytes={meld_bytes}", meld),
        "validate": (api, "/v1/melds/validate", meld),
    }


def bench_api(report: Report, runs: int, duration: float, concurrency: Sequence[int], work: Path) -> None:
    url = f"sqlite:///{work}/api.sqlite3"
    storage.migrate(url)
    with ExitStack() as stack:
        floor = stack.enter_context(floor_server(work / "gunicorn-floor.log"))
        api = stack.enter_context(api_server(work / "gunicorn-api.log", api_env(url)))
        limited = stack.enter_context(api_server(work / "gunicorn-api-limited.log", api_env(url, LIMIT_NEVER_REACHED)))
        cases = api_cases(floor, api, limited)
        report.notes.append(
            f"api: floors by bench.floor_app (workers {floor.workers()}); the API by `handfoot-server serve` "
            f"(workers {api.workers()}, HANDFOOT_RATE_LIMIT={NO_LIMIT}; score_limited: workers "
            f"{limited.workers()}, HANDFOOT_RATE_LIMIT={LIMIT_NEVER_REACHED}); house rules "
            f"{rounds.HOUSE_RULES}; answers: "
            + ", ".join(f"{n} {p.split('bytes=')[1]} bytes" for n, (_, p, _) in cases.items() if "bytes=" in p)
        )
        results: dict[tuple[str, int], list[LoadResult]] = {}
        total, done = runs * len(concurrency) * len(cases), 0
        for r in range(runs):
            for c in concurrency:
                for name, (server, path, body) in cases.items():
                    done += 1
                    progress(f"api: run {r + 1}/{runs} c={c} {name} ({done}/{total}, {duration:g} s each)")
                    res = run_wrk(server.base + path, body, work / "wrk", c, duration)
                    if res.errors or res.non_2xx:
                        report.notes.append(
                            f"api: {name} c={c} run {r + 1}: {res.errors} socket errors, {res.non_2xx} non-2xx"
                        )
                    results.setdefault((name, c), []).append(res)
        logs = {s: s.log_text() for s in (floor, api, limited)}
    report.notes.append(
        "api: gunicorn logs have "
        + ", ".join(f"{s.log.name}: {text.count('Traceback')} tracebacks" for s, text in logs.items())
    )
    _api_rows(report, results, concurrency, list(cases))


def _api_rows(
    report: Report, results: dict[tuple[str, int], list[LoadResult]], concurrency: Sequence[int], names: list[str]
) -> None:
    for c in concurrency:
        for name in names:
            res = results[(name, c)]
            report.add("api", f"{name} req/s", "req/s", [x.rps for x in res], concurrency=c)
            if not name.startswith(("plain_", "bare")):
                report.add("api", f"{name} p50", "ms", [x.p50_ms for x in res], concurrency=c)
                report.add("api", f"{name} p99", "ms", [x.p99_ms for x in res], concurrency=c)
        rps = {name: [x.rps for x in results[(name, c)]] for name in names}
        for name, floor in API_RATIOS:
            row = report.add("api", f"{name} / {floor} req/s", "ratio", ratios(rps[name], rps[floor]), concurrency=c)
            if name.startswith("score") and c >= 8:
                target(row, f">= {SCORE_TARGET:.2f}", lambda v: v >= SCORE_TARGET)
        for name, base in API_COSTS:
            report.add(
                "api",
                f"{name} / {base} req/s",
                "ratio",
                ratios(rps[name], rps[base]),
                concurrency=c,
                note="what the limiter costs" if "limited" in name else "what the house rules cost",
            )
        report.add("api", "score / bare req/s", "ratio", ratios(rps["score"], rps["bare"]), concurrency=c)
        refused = report.add(
            "api",
            "score_limited non-2xx",
            "count",
            [float(x.non_2xx + x.errors) for x in results[("score_limited", c)]],
            concurrency=c,
            note="a 429 would mean the limit was reached",
        )
        target(refused, "0", lambda v: v == 0)
        refused.met = all(v == 0 for v in refused.values)
        row = report.add(
            "api", "score p99 / p50", "ratio", [a.p99_ms / a.p50_ms for a in results[("score", c)]], concurrency=c
        )
        target(row, "<= 4", lambda v: v <= 4)


# -- storage ----------------------------------------------------------------------------------------


def bench_storage(
    report: Report, runs: int, duration: float, concurrency: Sequence[int], work: Path, only: Sequence[str] = DATABASES
) -> None:
    databases: list[tuple[str, Callable[[], Any]]] = [
        ("sqlite", lambda: _sqlite_url(work)),
        ("postgresql", storage.postgres_database),
    ]
    for db_name, make in databases:
        if db_name not in only:
            continue
        try:
            ctx = make()
            url = ctx.__enter__()
        except Exception as err:  # noqa: BLE001 - reported, not hidden
            report.notes.append(f"storage {db_name}: skipped, database unavailable: {err}")
            continue
        try:
            progress(f"storage {db_name}: migrating a fresh database")
            storage.migrate(url)
            storage.create_bench_table(url)
            _storage_on(report, db_name, url, runs, duration, concurrency, work)
        finally:
            ctx.__exit__(None, None, None)


def _storage_on(
    report: Report, db_name: str, url: str, runs: int, duration: float, concurrency: Sequence[int], work: Path
) -> None:
    """Appends by the API against inserts by the floor app, both on ``url``, window after window."""
    append = rounds.append_body()
    append_bytes = json.dumps(append).encode()
    floor_body = json.dumps({"game": 1, "pad": "x" * max(0, len(append_bytes) - 30)}).encode()
    results: dict[tuple[str, int], list[LoadResult]] = {}
    with ExitStack() as stack:
        floor = stack.enter_context(floor_server(work / f"gunicorn-floor-{db_name}.log", {"DATABASE_URL": url}))
        api = stack.enter_context(api_server(work / f"gunicorn-api-{db_name}.log", api_env(url)))
        status, answer = request(
            api.host, api.port, "POST", "/v1/rounds/score", json.dumps(rounds.score_body()).encode()
        )
        assert status == 200, (status, answer[:300])
        size = storage.row_bytes(append, answer)
        for r in range(runs):
            for c in concurrency:
                n_games = storage.games_needed(duration)
                progress(f"storage {db_name}: run {r + 1}/{runs} c={c} creating {n_games} games")
                ids = storage.create_games(api, n_games)
                progress(
                    f"storage {db_name}: run {r + 1}/{runs} c={c} appends ({duration:g} s, "
                    f"{storage.GAMES} games at a time)"
                )
                res = run_wrk(
                    api.base + "/", append_bytes, work / "wrk", c, duration, paths=storage.append_paths(ids), track=True
                )
                results.setdefault(("append", c), []).append(res)
                if res.first_refused:
                    report.notes.append(
                        f"storage {db_name}: run {r + 1} c={c}: appends refused, the first: {res.first_refused}"
                    )
                progress(f"storage {db_name}: run {r + 1}/{runs} c={c} insert floor ({duration:g} s)")
                res = run_wrk(
                    floor.base + f"/bench/insert?bytes={size}", floor_body, work / "wrk", c, duration, track=True
                )
                results.setdefault(("insert_floor", c), []).append(res)
        logs = {"append": api.log_text(), "insert_floor": floor.log_text()}
    report.notes.append(
        f"storage {db_name}: row {size} bytes; gunicorn logs: "
        + ", ".join(
            f"{name} {text.count('Traceback')} tracebacks, {text.count('database is locked')} 'database is locked'"
            for name, text in logs.items()
        )
    )
    for c in concurrency:
        for name in ("append", "insert_floor"):
            res = results[(name, c)]
            report.add("storage", f"{db_name} {name} req/s", "req/s", [x.rps for x in res], concurrency=c)
            report.add("storage", f"{db_name} {name} p99", "ms", [x.p99_ms for x in res], concurrency=c)
            bad = report.add(
                "storage",
                f"{db_name} {name} 5xx+locked+socket errors",
                "count",
                [float(x.status_5xx + x.locked + x.errors) for x in res],
                concurrency=c,
            )
            target(bad, "0", lambda v: v == 0)
            bad.met = all(v == 0 for v in bad.values) and "database is locked" not in logs[name]
            if name == "append":
                # a 4xx is an append refused (a full game): timing it as an append would flatter
                four = report.add(
                    "storage",
                    f"{db_name} append 4xx",
                    "count",
                    [float(x.non_2xx - x.status_5xx) for x in res],
                    concurrency=c,
                )
                target(four, "0", lambda v: v == 0)
                four.met = all(v == 0 for v in four.values)
        row = report.add(
            "storage",
            f"{db_name} append / insert_floor req/s",
            "ratio",
            ratios([x.rps for x in results[("append", c)]], [x.rps for x in results[("insert_floor", c)]]),
            concurrency=c,
        )
        target(row, ">= 0.55", lambda v: v >= 0.55)  # issue 28


class _sqlite_url:  # noqa: N801 - used like a context manager factory
    def __init__(self, work: Path) -> None:
        self.path = work / "storage.sqlite3"

    def __enter__(self) -> str:
        return f"sqlite:///{self.path}"

    def __exit__(self, *exc: Any) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)


# -- memory -----------------------------------------------------------------------------------------


def bench_memory(
    report: Report, runs: int, work: Path, warm: int = 1_000, total: int = 10_000, budget_s: float = 600
) -> None:
    body = json.dumps(rounds.score_body()).encode()
    at_warm, at_total, peak, growth = [], [], [], []
    for r in range(runs):
        env = api_env(f"sqlite:///{work}/memory.sqlite3")
        with api_server(work / "gunicorn-memory.log", env, workers=1) as server:
            (pid,) = server.workers()
            deadline = time.monotonic() + budget_s
            progress(f"memory: run {r + 1}/{runs}: {warm} scored rounds (one worker)")
            n = post_many(server, "/v1/rounds/score", body, warm, deadline)
            rss1, _ = rss_kib(pid)
            progress(f"memory: run {r + 1}/{runs}: up to {total} scored rounds")
            n += post_many(server, "/v1/rounds/score", body, total - warm, deadline)
            if n < total:
                report.notes.append(f"memory run {r + 1}: only {n} rounds within {budget_s:g} s")
            rss2, hwm = rss_kib(pid)
        at_warm.append(rss1 / 1024)
        at_total.append(rss2 / 1024)
        peak.append(hwm / 1024)
        growth.append((rss2 - rss1) / rss1 * 100)
    report.add("memory", f"worker RSS after {warm:,} rounds", "MiB", at_warm)
    report.add("memory", f"worker RSS after {total:,} rounds", "MiB", at_total)
    report.add("memory", f"worker peak RSS (VmHWM) after {total:,}", "MiB", peak)
    row = report.add("memory", f"RSS growth {warm:,} → {total:,}", "%", growth)
    target(row, "<= 5%", lambda v: v <= 5)


# -- output -----------------------------------------------------------------------------------------


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(SECTIONS), help="comma-separated: " + ", ".join(SECTIONS))
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median, min, max)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per load window")
    parser.add_argument("--concurrency", default="1,8,32", help="API connections (storage uses those >= 8)")
    parser.add_argument(
        "--databases", default=",".join(DATABASES), help="storage: comma-separated, of " + ", ".join(DATABASES)
    )
    parser.add_argument("--memory-rounds", type=int, default=10_000)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "latest.json"))
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    databases = [d.strip() for d in args.databases.split(",") if d.strip()]
    if set(databases) - set(DATABASES):
        parser.error(f"unknown database(s): {', '.join(sorted(set(databases) - set(DATABASES)))}")
    conc = [int(c) for c in args.concurrency.split(",")]
    if args.duration > 60 or args.runs > 10:
        parser.error("keep load bounded: --duration <= 60 and --runs <= 10")
    report = Report()
    started = time.time()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="handfoot-bench-") as tmp:
        work = Path(tmp)
        if "engine" in only:
            bench_engine(report, args.runs)
        if "api" in only:
            bench_api(report, args.runs, args.duration, conc, work)
        if "storage" in only:
            bench_storage(report, args.runs, args.duration, [c for c in conc if c >= 8] or conc, work, databases)
        if "memory" in only:
            bench_memory(report, args.runs, work, warm=args.memory_rounds // 10, total=args.memory_rounds)
    out = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _git("rev-parse", "--short", "HEAD")
        + ("-dirty" if _git("status", "--porcelain", "--", "api", "engine", "bench") else ""),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "settings": {
            "runs": args.runs,
            "duration_s": args.duration,
            "concurrency": conc,
            "sections": only,
            "databases": databases,
            "gunicorn": "python:handfoot.server.gunicorn_conf",
            "api": "handfoot-server serve (make run)",
            "floors": "bench.floor_app (a bare Flask app)",
            "score_limited": f"HANDFOOT_RATE_LIMIT={LIMIT_NEVER_REACHED}",
        },
        "seconds": round(time.time() - started, 1),
        "loadavg_1_5_15": {
            "before": [round(x, 2) for x in load_before],
            "after": [round(x, 2) for x in os.getloadavg()],
        },
        "notes": report.notes,
        "rows": [r.summary() for r in report.rows],
    }
    report.notes.append(
        f"load average (1, 5, 15 min) before {out['loadavg_1_5_15']['before']}, after "
        f"{out['loadavg_1_5_15']['after']} on {os.cpu_count()} CPUs: other work on the machine "
        "shifts absolute figures; ratios are taken within each run"
    )
    out["notes"] = report.notes
    text = table(report)
    print(text)
    for note in report.notes:
        print(f"- {note}")
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**out, "table": text}, indent=2, ensure_ascii=False) + "\n")
    progress(f"wrote {path} ({out['seconds']:.0f} s)")
    misses = report.misses()
    if misses:
        progress(f"targets missed: {'; '.join(misses)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
