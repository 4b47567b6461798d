"""``make multihost``, phase 4: tables played across hosts, one host killed mid-run.

Each table's four seats are four client threads, each on a host of its own choosing (seat ``s`` of
table ``t`` starts on host ``(t + s) mod N``), so nearly every hand-over crosses hosts: a seat
long-polls its view (``?version=&wait=``) on its host, and is woken by an action another host
accepted (PostgreSQL ``LISTEN/NOTIFY``: ``api/wakeups.py``). When it may act it plays the engine's
greedy policy (``handfoot.engine.play.bots.greedy_policy``: its first candidate the table accepts),
each action sent with an ``Idempotency-Key``; a request a host never answered is sent again to
another host with the same key until one answers. Mid-run one host gets SIGKILL.

Then, read from the database itself: every acknowledged action is stored once at the version its
answer gave (lost: 0), no stored action is one nobody was told of, no version is stored twice or
skipped (the table's log is 1..version), and the hand-over latency: from an action's answer to the
answer of the next seat's wait, over the hand-overs whose two seats were on different hosts.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
import requests

from handfoot import engine
from handfoot.engine.play.bots import greedy_policy

TEAMS = [{"name": "North-South", "players": ["North", "South"]}, {"name": "East-West", "players": ["East", "West"]}]
WAIT = 10  # seconds of each long-poll


@dataclass
class Acked:
    table: int
    version: int  # the table's version the action made
    seat: int
    kind: str
    host: str
    at: float  # when its answer arrived (time.monotonic)


@dataclass
class Arrival:
    table: int
    version: int
    may_act: bool  # the view listed actions for the seat
    host: str
    sent: float
    at: float


@dataclass
class TableLedger:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: list[Acked] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1


def create_tables(base: str, count: int, seed: int, headers: dict[str, str]) -> list[dict[str, Any]]:
    """``count`` tables of the Pagat preset, four seats each (their tokens in the answer); ``headers``:
    the API key's (the rate-limit phase made one, so the server asks for keys now)."""
    tables = []
    for i in range(count):
        response = requests.post(
            f"{base}/v1/tables",
            json={"name": f"multihost {i}", "preset": "pagat", "teams": TEAMS, "seed": seed + i},
            headers=headers,
            timeout=30,
        )
        assert response.status_code == 201, response.text
        tables.append(response.json())
    return tables


class Seat:
    """One seat's client: long-polls on its host, acts when the view lists actions for it."""

    def __init__(self, hosts: Sequence[Any], table: dict[str, Any], seat: int, ledger: TableLedger) -> None:
        self.hosts, self.table, self.seat, self.ledger = hosts, table, seat, ledger
        self.host = hosts[(table["id"] + seat) % len(hosts)]
        self.headers = {"Seat-Token": table["seats"][seat]["token"]}
        self.session = requests.Session()
        self.rules = engine.rules_of({"preset": "pagat"}).rules
        self.rng = random.Random(table["id"] * 10 + seat)

    def _other_host(self) -> None:
        if self.host.proc is None or self.host.proc.poll() is not None:
            self.host.dead = True
        live = [h for h in self.hosts if not h.dead and h is not self.host] or [h for h in self.hosts if not h.dead]
        self.host = random.choice(live)

    def _call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        """The request on this seat's host; on no answer, the same request (same headers, so the same
        Idempotency-Key) on another host, until one answers."""
        deadline = time.monotonic() + 90
        while True:
            try:
                return self.session.request(method, f"{self.host.base}{path}", timeout=WAIT + 20, **kwargs)
            except requests.RequestException:
                self.ledger.count("sent again to another host after no answer")
                self._other_host()
                assert time.monotonic() < deadline, "no host answered in 90 s"

    def play(self, stop: threading.Event) -> None:
        path = f"/v1/tables/{self.table['id']}"
        version: int | None = None
        while not stop.is_set():
            sent = time.monotonic()
            params = {} if version is None else {"version": version, "wait": WAIT}
            host = self.host
            response = self._call("GET", f"{path}/view", params=params, headers=self.headers)
            if response.status_code == 503:  # waits-full or the database busy: as told
                self.ledger.count("503 on a wait")
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            assert response.status_code == 200, response.text
            shown = response.json()
            view = shown["view"]
            with self.ledger.lock:
                self.ledger.arrivals.append(
                    Arrival(
                        self.table["id"], shown["version"], bool(view["actions"]), host.name, sent, time.monotonic()
                    )
                )
            version = shown["version"]
            if shown["status"] != "playing":
                return
            if view["actions"]:
                self.act(path, view, version)
                version = None  # the turn may go on (a draw, then melds and a discard): read it again at once

    def act(self, path: str, view: dict[str, Any], version: int) -> None:
        """Take the first greedy candidate the table accepts (none after a 409: the table moved)."""
        for action in greedy_policy(view, self.rules, self.rng):
            headers = {**self.headers, "Idempotency-Key": str(uuid.uuid4())}
            host = self.host
            response = self._call(
                "POST", f"{path}/actions", json={"version": version, "action": action}, headers=headers
            )
            if response.status_code == 200:
                made = response.json()["version"]
                with self.ledger.lock:
                    self.ledger.acked.append(
                        Acked(self.table["id"], made, self.seat, action["type"], host.name, time.monotonic())
                    )
                return
            if response.status_code == 422:
                self.ledger.count("refused (422), next candidate")
                continue
            if response.status_code == 409:
                self.ledger.count(f"409 {response.json().get('code', '')}".strip())
                if "idempotency-in-flight" in response.text:  # a dead host's request still holds the key
                    time.sleep(float(response.headers.get("Retry-After", "1")))
                return  # read again
            self.ledger.errors.append(f"action: {response.status_code} {response.text[:200]}")
            return
        self.ledger.errors.append(f"table {self.table['id']} seat {self.seat}: no candidate accepted")


def play_tables(hosts: Sequence[Any], tables: list[dict[str, Any]], seconds: float, kill: Any, lab: Any) -> TableLedger:
    """Every seat of ``tables`` plays for ``seconds`` over ``hosts``; ``kill`` (a host) gets SIGKILL
    half-way (``None``: no host is killed)."""
    import signal

    ledger, stop = TableLedger(), threading.Event()

    def one(seat: Seat) -> None:
        try:
            seat.play(stop)
        except BaseException as err:  # noqa: BLE001 - reported as a failure
            ledger.errors.append(f"seat {seat.seat} of table {seat.table['id']}: {err!r}")

    threads = [
        threading.Thread(target=one, args=(Seat(hosts, t, s, ledger),), daemon=True) for t in tables for s in range(4)
    ]
    for t in threads:
        t.start()
    time.sleep(seconds / 2)
    if kill is not None:
        kill.dead = True
        lab.kill(kill.proc, signal.SIGKILL)
        kill.proc = None
    time.sleep(seconds / 2)
    stop.set()
    for t in threads:
        t.join(WAIT + 60)
    return ledger


def check_tables(database_url: str, tables: list[dict[str, Any]], ledger: TableLedger) -> dict[str, int]:
    """Lost, duplicated, skipped and never-acknowledged actions, from the database itself."""
    ids = [t["id"] for t in tables]
    url = database_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT table_id, version, seat, action::jsonb ->> 'type', (action::jsonb ->> 'timed_out') IS NOT NULL "
            "FROM table_actions WHERE table_id = ANY(%s) ORDER BY table_id, version",
            (ids,),
        ).fetchall()
        versions = dict(db.execute("SELECT id, version FROM tables WHERE id = ANY(%s)", (ids,)).fetchall())
    stored: dict[tuple[int, int], tuple[int, str, bool]] = {}
    for table_id, version, seat, kind, timed_out in rows:
        stored[table_id, version] = (seat, kind, timed_out)
    acked = Counter((a.table, a.version) for a in ledger.acked)
    lost = sum(1 for a in ledger.acked if stored.get((a.table, a.version), (None, None))[:2] != (a.seat, a.kind))
    skipped = sum(versions[t] - sum(1 for (tid, _v) in stored if tid == t) for t in ids)
    never = sum(1 for key, (_s, _k, timed_out) in stored.items() if key not in acked and not timed_out)
    return {
        "acknowledged": len(ledger.acked),
        "stored": len(rows),
        "lost": lost,
        "duplicates": sum(c - 1 for c in acked.values() if c > 1),
        "versions skipped": skipped,
        "stored but never acknowledged": never,
    }


def handovers(ledger: TableLedger) -> list[float]:
    """Milliseconds from each action's answer to the next seat's wait answering with that version,
    where the next seat was waiting on another host than the one that took the action."""
    by_version: dict[tuple[int, int], list[Arrival]] = {}
    for arrival in ledger.arrivals:
        if arrival.may_act:
            by_version.setdefault((arrival.table, arrival.version), []).append(arrival)
    out = []
    for acked in ledger.acked:
        waiting = [
            a for a in by_version.get((acked.table, acked.version), []) if a.sent <= acked.at and a.host != acked.host
        ]
        if waiting:
            out.append(max(0.0, min(a.at for a in waiting) - acked.at) * 1000)
    return out


def summary(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return f"{len(latencies)} cross-host hand-overs"
    cuts = statistics.quantiles(latencies, n=100)
    return (
        f"p50 {statistics.median(latencies):.1f} ms, p99 {cuts[98]:.1f} ms over {len(latencies)} cross-host hand-overs"
    )


def phase(
    hosts: Sequence[Any], lab: Any, database_url: str, count: int, seconds: float, serve: str
) -> tuple[list[str], list[str]]:
    """Phase 4 of ``make multihost``: ``count`` tables over the hosts still up for ``seconds``, the
    last of them SIGKILLed half-way (none when one is left); ``serve``: the ``handfoot-server``
    command (which makes the API key the tables are created with). Returns the report's lines and the
    failures."""
    up = [h for h in hosts if not h.dead]
    token = subprocess.run(
        [serve, "keys", "create", "multihost-tables"],
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[-1]
    tables = create_tables(up[0].base, count, 20261203, {"Authorization": f"Bearer {token}"})
    kill = up[-1] if len(up) > 1 else None
    played = play_tables(up, tables, seconds, kill, lab)
    failures = [f"tables phase: {e}" for e in played.errors]
    stored = check_tables(database_url, tables, played)
    for what in ("lost", "duplicates", "versions skipped", "stored but never acknowledged"):
        if stored[what]:
            failures.append(f"tables {what}: {stored[what]}")
    latencies = handovers(played)
    if not latencies:
        failures.append("tables: no hand-over across hosts was seen")
    lines = [
        f"  tables ({count} of 4 bot seats over {len(up)} hosts, {seconds:g} s, "
        f"{kill.name if kill else 'no host'} SIGKILLed mid-run): " + ", ".join(f"{k} {v}" for k, v in stored.items()),
        f"  hand-over across hosts: {summary(latencies)}",
        "  tables, client side: " + ", ".join(f"{k} {v}" for k, v in sorted(played.counts.items())),
    ]
    return lines, failures
