"""``make multihost``: several API hosts on one PostgreSQL, each in a network namespace of its own.

Run as root on Linux (``ip netns``); ``bench/netns.py`` builds the lab and takes it all down on exit,
pass or fail. The lab: a private PostgreSQL cluster (``initdb`` from the machine's binaries) in
namespace ``db``, a private ``redis-server`` in ``redis`` (the rate-limit counters every host shares:
the machine's own Redis listens on its loopback, which no other namespace reaches, and a private one
holds no other checkout's keys), and ``--hosts`` API hosts ``h1..hN``, each ``handfoot-server serve``
on its own address. The database is migrated once, before any host starts (as docs/deploy.md says to
do once a release). The clients run in the root namespace. Phases:

1. **Coordination cost**: appends/s of one host with N workers against N hosts with 1 worker each,
   ``--runs`` alternating windows of ``--window`` seconds each (after one warm-up window each),
   2N appender threads, each on games of its own (no lost races); the ratio (N hosts / 1 host),
   taken per pair of windows, is what spreading over hosts costs or gains.
2. **Kill**: appender threads spread over the N hosts append to a shared pool of games (some races:
   a 409 is answered, not stored); every 5th acknowledged round is sent again to another host with
   the same Idempotency-Key, which must replay it (``Idempotent-Replayed: true``, same number).
   Mid-run host ``h2`` gets SIGKILL (master and worker at once); a request it never answered is
   sent again to another host with the same key until it is answered 201. Then, read from the
   database itself: acknowledged rounds lost, stored twice, and gaps in any game's numbers (each 0),
   and every stored round is one that was sent.
3. **Rate limit across hosts**: a second server on each host, ``HANDFOOT_RATE_LIMIT=--limit/minute``
   on the shared Redis (started with the others, idle until now); ``3 * limit`` requests with one
   API key are spread over every host at once: the 200s must be at most the limit (and, with
   counts this small, exactly it), the rest 429.

4. **Tables across hosts** (``bench/multihost_tables.py``): ``--tables`` tables of four bot seats, each
   seat on a host of its own, play for ``--table-run`` seconds over the hosts still up; mid-run one
   more host gets SIGKILL. Read from the database: no acknowledged action lost, none stored twice
   or skipped, none stored unacknowledged; and the hand-over latency across hosts (p50, p99).

Prints each figure and exits 1 if a check fails. ``python -m bench.multihost --hosts 3``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import requests

from bench import multihost_tables
from bench.live import wait_healthy
from bench.netns import Lab, wait_port

SERVE = str(Path(sys.executable).with_name("handfoot-server"))
PORT = 8000
REPLAY_EVERY = 5


def log(msg: str) -> None:
    print(f"[multihost {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


#: Markers per block of table points: a marker is written as table points and points left, each far
#: below the tally's ceiling (every card of the decks), however many rounds a run appends.
MARKER_BLOCK = 500


def round_body(marker: int) -> dict[str, Any]:
    """A valid round whose second side's table points and points left name the request:
    ``200 + 5 * (marker % MARKER_BLOCK)`` and ``10 + 5 * (marker // MARKER_BLOCK)``
    (:func:`marker_of` reads it back)."""

    def side(name: str, went_out: bool, **kw: int) -> dict[str, Any]:
        tally = {
            "clean_books": 0,
            "dirty_books": 0,
            "wild_books": 0,
            "red_threes_on_table": 0,
            "red_threes_caught": 0,
            "table_points": 0,
            "points_left": 0,
            **kw,
        }
        return {"name": name, "went_out": went_out, "tally": tally}

    return {
        "teams": [
            side("Team 1", True, clean_books=2, dirty_books=2, wild_books=1, table_points=500),
            side(
                "Team 2",
                False,
                clean_books=1,
                table_points=200 + 5 * (marker % MARKER_BLOCK),
                points_left=10 + 5 * (marker // MARKER_BLOCK),
            ),
        ]
    }


def marker_of(table_points: int, points_left: int) -> int:
    """The marker :func:`round_body` wrote as these two values."""
    return (table_points - 200) // 5 + MARKER_BLOCK * ((points_left - 10) // 5)


@dataclass
class Host:
    """One API server: ``handfoot-server serve`` in namespace ``name`` on ``address:port``."""

    name: str
    address: str
    port: int = PORT
    proc: subprocess.Popen[bytes] | None = None
    dead: bool = False

    @property
    def base(self) -> str:
        return f"http://{self.address}:{self.port}"


@dataclass
class Sent:
    game_id: int
    key: str
    marker: int
    body: dict[str, Any]
    number: int | None = None


@dataclass
class Ledger:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: list[Sent] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1


class Pool:
    """Games appenders share; a game that is over (50 rounds, the most a game may have) is replaced
    by a new one, so a run is never short of games. ``every`` is each game ever in the pool."""

    def __init__(self, harness: Harness, host: Host, count: int) -> None:
        self.harness, self.lock = harness, threading.Lock()
        self.live = harness.new_games(host, count)
        self.every = list(self.live)

    def pick(self) -> int:
        with self.lock:
            return random.choice(self.live)

    def retire(self, game_id: int, host: Host) -> None:
        with self.lock:
            if game_id not in self.live:
                return  # another appender replaced it already
            self.live.remove(game_id)
        new = self.harness.new_games(host, 1)
        with self.lock:
            self.live += new
            self.every += new


class Harness:
    def __init__(self, lab: Lab, hosts: int, database_url: str, redis_url: str) -> None:
        self.lab, self.database_url, self.redis_url = lab, database_url, redis_url
        self.hosts = [Host(f"h{i + 1}", lab.namespace(f"h{i + 1}")) for i in range(hosts)]
        # In the same namespaces, on ports of their own: one host with N workers (the throughput
        # phase's other side) and every host under a small limit (the rate-limit phase). All start
        # at once, so the run pays for one start-up, not one a phase.
        self.single = Host("h1", self.hosts[0].address, PORT + 1)
        self.limited = [Host(h.name, h.address, PORT + 2) for h in self.hosts]
        self.markers = itertools.count(1)
        self.marker_lock = threading.Lock()

    def env(self, limit: str) -> dict[str, str]:
        return {
            "DATABASE_URL": self.database_url,
            "HANDFOOT_RATE_LIMIT": limit,
            "HANDFOOT_RATE_LIMIT_STORAGE": self.redis_url,
            "HANDFOOT_RATE_LIMIT_KEY_PREFIX": f"multihost-{uuid.uuid4().hex}",
            "HANDFOOT_LOG_LEVEL": "warning",
            # the tables phase's seats all wait from this one client address: room for all of them
            # (of a worker's 8 threads; the default caps are 4 an address and 6 a process)
            "HANDFOOT_WAITS_PER_ADDRESS": "6",
        }

    def spawn(self, hosts: Sequence[Host], workers: int, limit: str = "1000000000/minute") -> None:
        env = self.env(limit)  # one prefix for the whole set: they share their counters
        for host in hosts:
            host.dead = False
            # A hostname of its own (a UTS namespace): another machine, as far as the logs tell.
            serve = [SERVE, "serve", "--no-migrate", "-w", str(workers), "-b", f"{host.address}:{host.port}"]
            host.proc = self.lab.spawn(
                host.name,
                ["unshare", "--uts", "--", "sh", "-c", 'hostname "$0" && exec "$@"', f"multihost-{host.name}", *serve],
                f"{host.name}-{host.port}.log",
                env=env,
            )

    @staticmethod
    def wait(hosts: Sequence[Host]) -> None:
        # Up to 300 s each: the servers share one session, so one CPU share on a busy machine
        # (bench/netns.py, Lab.spawn), and seven app imports take long there.
        for host in hosts:
            proc = host.proc
            assert proc is not None

            def alive(p: subprocess.Popen[bytes] = proc) -> bool:
                return p.poll() is None

            wait_port(host.address, host.port, 300, alive)
            # the port is bound before the workers answer: wait for /health
            wait_healthy(host.base, alive, 300, request_timeout=10, poll=0.2)

    def new_games(self, host: Host, count: int) -> list[int]:
        ids = []
        for i in range(count):
            response = requests.post(
                host.base + "/v1/games",
                timeout=30,
                json={
                    "name": f"multihost {i}",
                    "preset": "pagat",
                    "rules": {"rounds": 50},
                    "teams": [{"name": "Team 1", "players": ["N", "S"]}, {"name": "Team 2", "players": ["E", "W"]}],
                },
            )
            assert response.status_code == 201, response.text
            ids.append(response.json()["id"])
        return ids

    def next_marker(self) -> int:
        with self.marker_lock:
            return next(self.markers)

    # -- appenders ---------------------------------------------------------------------------------

    def alive_other(self, hosts: Sequence[Host], not_this: Host) -> Host:
        others = [h for h in hosts if h is not not_this and not h.dead] or [h for h in hosts if not h.dead]
        return random.choice(others)

    def deliver(
        self, session: requests.Session, hosts: Sequence[Host], home: Host, sent: Sent, ledger: Ledger
    ) -> tuple[int, Host]:
        """Send ``sent`` to ``home``; when a host does not answer, again to another with the same key,
        until some host answers. Returns the status and the host that answered."""
        host, deadline = home, time.monotonic() + 60
        while True:
            try:
                response = session.post(
                    f"{host.base}/v1/games/{sent.game_id}/rounds",
                    json=sent.body,
                    timeout=20,
                    headers={"Idempotency-Key": sent.key},
                )
            except requests.RequestException:
                if host.proc is None or host.proc.poll() is not None:
                    host.dead = True
                ledger.count("sent again to another host after no answer")
                host = self.alive_other(hosts, host)
                assert time.monotonic() < deadline, "no host answered in 60 s"
                continue
            if response.status_code == 201:
                sent.number = response.json()["number"]
                return 201, host
            if response.status_code == 409 and "idempotency-in-flight" in response.text and host is not home:
                # the dead host's request still holds the key: wait for its transaction to go
                ledger.count("in flight on retry")
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            return response.status_code, host

    def appender(
        self, hosts: Sequence[Host], home: Host, games: Pool, ledger: Ledger, stop: threading.Event, replay: bool
    ) -> None:
        session = requests.Session()
        while not stop.is_set():
            marker = self.next_marker()
            sent = Sent(games.pick(), str(uuid.uuid4()), marker, round_body(marker))
            status, answered = self.deliver(session, hosts, home, sent, ledger)
            home = answered  # a client whose host died stays on the one that answered
            if status == 201:
                with ledger.lock:
                    ledger.acked.append(sent)
                if replay and marker % REPLAY_EVERY == 0:
                    self.replay_elsewhere(hosts, answered, sent, ledger)
            elif status == 409 and sent.number is None and self.finished(answered, sent.game_id):
                games.retire(sent.game_id, answered)
            elif status in (409, 503):  # a lost race or a busy database: answered, not stored
                ledger.count(f"{status} (not stored)")
            else:
                ledger.errors.append(f"{status} from {answered.name}")
                return

    @staticmethod
    def finished(host: Host, game_id: int) -> bool:
        try:
            response = requests.get(f"{host.base}/v1/games/{game_id}", timeout=20)
        except requests.RequestException:
            return False  # that host just died: the next append finds out on another
        return response.status_code == 200 and response.json().get("status") == "finished"

    def replay_elsewhere(self, hosts: Sequence[Host], answered: Host, sent: Sent, ledger: Ledger) -> None:
        other = self.alive_other(hosts, answered)
        try:
            response = requests.post(
                f"{other.base}/v1/games/{sent.game_id}/rounds",
                json=sent.body,
                timeout=20,
                headers={"Idempotency-Key": sent.key},
            )
        except requests.RequestException:
            return  # that host just died: the replay proves nothing either way
        if (
            response.status_code != 201
            or response.headers.get("Idempotent-Replayed") != "true"
            or response.json()["number"] != sent.number
        ):
            ledger.errors.append(f"replay on {other.name}: {response.status_code} {response.text[:200]}")
        else:
            ledger.count("replayed on another host")

    def run_appenders(
        self,
        hosts: Sequence[Host],
        threads: int,
        seconds: float,
        games: list[Pool],
        replay: bool,
        kill: Host | None = None,
    ) -> Ledger:
        ledger, stop = Ledger(), threading.Event()

        def one(i: int) -> None:
            try:
                self.appender(hosts, hosts[i % len(hosts)], games[i % len(games)], ledger, stop, replay)
            except BaseException as err:  # noqa: BLE001 - reported as a failure
                ledger.errors.append(repr(err))

        workers = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(threads)]
        started = time.monotonic()
        for t in workers:
            t.start()
        if kill is not None:
            time.sleep(seconds / 2)
            assert kill.proc is not None
            log(f"SIGKILL to {kill.name} ({len(ledger.acked)} acknowledged so far)")
            kill.dead = True
            self.lab.kill(kill.proc, signal.SIGKILL)
            kill.proc = None
            time.sleep(max(0.0, seconds - (time.monotonic() - started)))
        else:
            time.sleep(seconds)
        stop.set()
        for t in workers:
            t.join(90)
        ledger.counts["seconds"] = int((time.monotonic() - started) * 1000)  # ms, for the rate
        return ledger

    # -- checks ------------------------------------------------------------------------------------

    def check_store(self, games: list[int], ledger: Ledger) -> dict[str, int]:
        """Lost, duplicated, gaps and strays, from the database itself."""
        url = self.database_url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url) as db:
            rows = db.execute(
                "SELECT game_id, number, (request::jsonb #>> '{teams,1,tally,table_points}')::int, "
                "(request::jsonb #>> '{teams,1,tally,points_left}')::int "
                "FROM rounds WHERE game_id = ANY(%s) ORDER BY game_id, number",
                (games,),
            ).fetchall()
            played = dict(db.execute("SELECT id, rounds_played FROM games WHERE id = ANY(%s)", (games,)).fetchall())
        stored: dict[int, list[tuple[int, int]]] = {}
        for game_id, number, points, left in rows:
            stored.setdefault(game_id, []).append((number, marker_of(points, left)))
        gaps = sum(1 for g in games for i, (n, _) in enumerate(stored.get(g, [])) if n != i + 1)
        gaps += sum(1 for g in games if played[g] != len(stored.get(g, [])))
        markers = Counter(m for rounds in stored.values() for _, m in rounds)
        where = {(g, m): n for g, rounds in stored.items() for n, m in rounds}
        lost = sum(1 for s in ledger.acked if where.get((s.game_id, s.marker)) != s.number)
        acked = {s.marker for s in ledger.acked}
        return {
            "acknowledged": len(ledger.acked),
            "stored": len(rows),
            "lost": lost,
            "duplicates": sum(c - 1 for c in markers.values() if c > 1),
            "gaps": gaps,
            "stored but never acknowledged": sum(1 for m in markers if m not in acked),
        }

    def check_limit(self, limit: int) -> tuple[int, Counter[str]]:
        """``3 * limit`` requests with one API key over every host at once: 200s, and per host."""
        token = subprocess.run(
            [SERVE, "keys", "create", "multihost"],
            env={**os.environ, "DATABASE_URL": self.database_url},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()[-1]
        headers = {"Authorization": f"Bearer {token}"}
        results: list[tuple[str, int]] = []
        lock = threading.Lock()
        jobs = itertools.cycle(self.limited)
        todo = [next(jobs) for _ in range(3 * limit)]

        def worker(mine: list[Host]) -> None:
            session = requests.Session()
            for host in mine:
                status = session.get(host.base + "/v1/presets", headers=headers, timeout=30).status_code
                with lock:
                    results.append((host.name, status))

        threads = [threading.Thread(target=worker, args=(todo[i::9],)) for i in range(9)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        statuses = Counter(status for _, status in results)
        assert set(statuses) <= {200, 429}, statuses
        return statuses[200], Counter(name for name, status in results if status == 200)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--window", type=float, default=4.0, help="seconds of each throughput window")
    parser.add_argument("--runs", type=int, default=2, help="throughput windows of each side (alternating)")
    parser.add_argument("--kill-run", type=float, default=10.0, help="seconds of the kill phase")
    parser.add_argument("--limit", type=int, default=30, help="requests per minute in the rate-limit phase")
    parser.add_argument("--tables", type=int, default=2, help="tables of four bot seats in the tables phase")
    parser.add_argument("--table-run", type=float, default=20.0, help="seconds of the tables phase")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("make multihost needs root (ip netns)", file=sys.stderr)
        return 2
    started = time.monotonic()
    failures: list[str] = []
    with Lab() as lab:
        try:
            lab.namespace("db")
            lab.namespace("redis")
            database_url = lab.postgres("db") + "/postgres"
            redis_url = lab.redis("redis")
            log(f"PostgreSQL at {database_url}, Redis at {redis_url}")
            subprocess.run(
                [SERVE, "migrate"], env={**os.environ, "DATABASE_URL": database_url}, check=True, capture_output=True
            )
            harness = Harness(lab, args.hosts, database_url, redis_url)
            n, hosts = args.hosts, harness.hosts
            harness.spawn([harness.single], n)
            harness.spawn(hosts, 1)
            harness.spawn(harness.limited, 1, limit=f"{args.limit}/minute")
            harness.wait([harness.single, *hosts, *harness.limited])
            log(f"{2 * n + 1} servers up")

            # 1. one host with N workers against N hosts with one worker each, alternating windows
            # (the first of each a warm-up, not counted)
            sides = {f"1 host x {n} workers": [harness.single], f"{n} hosts x 1 worker": hosts}
            rates: dict[str, list[float]] = {label: [] for label in sides}
            for r in range(args.runs + 1):
                for label, group in sides.items():
                    games = [Pool(harness, group[0], 1) for _ in range(2 * n)]
                    ledger = harness.run_appenders(group, 2 * n, args.window if r else 1.0, games, replay=False)
                    failures += [f"throughput {label}: {e}" for e in ledger.errors]
                    if r:
                        rates[label].append(len(ledger.acked) / (ledger.counts["seconds"] / 1000))
                        log(
                            f"{label}: {rates[label][-1]:.1f} appends/s ({len(ledger.acked)} in "
                            f"{ledger.counts['seconds'] / 1000:.1f} s, {2 * n} appender threads)"
                        )
            one, many = rates.values()
            ratios = [m / o for m, o in zip(many, one, strict=True)]

            # 2. appenders over every host, cross-host replays, one host killed mid-run
            pool = Pool(harness, hosts[0], 2 * n)
            ledger = harness.run_appenders(hosts, 3 * n, args.kill_run, [pool], replay=True, kill=hosts[1])
            failures += [f"kill phase: {e}" for e in ledger.errors]
            store = harness.check_store(pool.every, ledger)
            for what in ("lost", "duplicates", "gaps", "stored but never acknowledged"):
                if store[what]:
                    failures.append(f"{what}: {store[what]}")

            # 3. one key's requests over every host under one limit
            granted, per_host = harness.check_limit(args.limit)
            if granted > args.limit:
                failures.append(f"rate limit: {granted} granted across hosts, limit {args.limit}")

            # 4. tables over the hosts still up, one more killed mid-run
            table_lines, table_failures = multihost_tables.phase(
                hosts, lab, database_url, args.tables, args.table_run, SERVE
            )
            failures += table_failures
        except Exception as err:
            failures.append(f"harness error: {err!r}")
            raise
        finally:
            if failures:
                logs = sorted(lab.log_dir.glob("*.log"))
                for path in logs:
                    tail = path.read_text(errors="replace")[-1500:]
                    if "Traceback" in tail or "ERROR" in tail:
                        print(f"--- {path.name} (tail)\n{tail}", file=sys.stderr)
    print(
        f"multihost: {n} API hosts (own network namespaces) on one PostgreSQL {lab_version()}, "
        f"Redis for shared limits; {time.monotonic() - started:.0f} s in all"
    )
    for label, values in rates.items():
        print(
            f"  appends/s, {label}: median {statistics.median(values):.1f} "
            f"(runs: {', '.join(f'{v:.1f}' for v in values)})"
        )
    print(
        f"  ratio {n} hosts x 1 worker / 1 host x {n} workers: median {statistics.median(ratios):.2f} "
        f"(per run: {', '.join(f'{v:.2f}' for v in ratios)}; {args.runs} alternating windows of "
        f"{args.window:g} s each, {2 * n} appender threads)"
    )
    print(
        f"  kill phase ({args.kill_run:g} s, {3 * n} appenders, h2 SIGKILLed mid-run): "
        + ", ".join(f"{k} {v}" for k, v in store.items())
    )
    print("  client side: " + ", ".join(f"{k} {v}" for k, v in sorted(ledger.counts.items()) if k != "seconds"))
    print(
        f"  rate limit {args.limit}/minute, {3 * args.limit} requests of one key over {n} hosts: "
        f"{granted} granted ({', '.join(f'{h} {c}' for h, c in sorted(per_host.items()))})"
    )
    for line in table_lines:
        print(line)
    for failure in failures:
        print(f"FAIL: {failure}")
    print("multihost: " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


def lab_version() -> str:
    from bench.netns import pg_bin

    out = subprocess.run([pg_bin("postgres"), "--version"], capture_output=True, text=True).stdout.split()
    return out[2] if len(out) > 2 else "?"  # "postgres (PostgreSQL) 15.20 (Debian ...)"


if __name__ == "__main__":
    raise SystemExit(main())
