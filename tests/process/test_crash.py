"""Crash safety: SIGKILL the whole server (master and workers) while clients append rounds.

gunicorn serves the app with the project's settings (``api/gunicorn_conf.py``) on a free port; client
threads append rounds to several games, each with its own Idempotency-Key. Mid-way the server's
process group gets SIGKILL. The server is started again, and every request that never got an
answer is sent again with its key (a claim commits with its answer, so a killed request left
none). Then:

- every acknowledged (201) round is stored exactly once, with the body that was sent, at the
  number the 201 named; every request that was sent again is stored exactly once too;
- nothing is half-written: each game's rounds are 1..n with no gap, each with a Breakdown per side
  whose total is the sum of its lines, and the game's totals and rounds_played recompute from them;
- SQLite: ``PRAGMA integrity_check`` is ``ok``.

Runs on SQLite and, marked ``db``, on PostgreSQL. Bounded: a few seconds per backend (60 s at most).
"""

from __future__ import annotations

import itertools
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import make_url

from bench.live import LiveServer

GAMES = 8
THREADS = 8
#: The kill comes once this many rounds are acknowledged (or after KILL_AFTER_SECONDS): far from
#: any game's 50-round end.
KILL_AFTER_ACKS = 80
KILL_AFTER_SECONDS = 5.0
TIMEOUT = 60

pytestmark = pytest.mark.db


@dataclass
class Sent:
    game_id: int
    key: str
    marker: int  #: unique table_points of the second side: identifies the stored round
    body: dict[str, Any]
    number: int | None = None  #: the round number of the 201, once acknowledged


@dataclass
class Ledger:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: list[Sent] = field(default_factory=list)
    unanswered: list[Sent] = field(default_factory=list)


MARKERS = itertools.count(1)
MARKER_LOCK = threading.Lock()


def round_body(marker: int) -> dict[str, Any]:
    def tally(name: str, **kw: int) -> dict[str, Any]:
        counts = {
            "clean_books": 0,
            "dirty_books": 0,
            "wild_books": 0,
            "red_threes_on_table": 0,
            "red_threes_caught": 0,
            "table_points": 0,
            "points_left": 0,
            **kw,
        }
        return {"name": name, "went_out": kw.pop("out", 0) == 1, "tally": counts}

    first = tally("Team 1", clean_books=2, dirty_books=2, wild_books=1, table_points=500)
    first["went_out"] = True
    return {"teams": [first, tally("Team 2", clean_books=1, table_points=200 + 5 * marker, points_left=10)]}


def client_thread(base: str, game_ids: list[int], ledger: Ledger, stop: threading.Event) -> None:
    session = requests.Session()
    while not stop.is_set():
        with MARKER_LOCK:
            marker = next(MARKERS)
        sent = Sent(game_ids[marker % len(game_ids)], str(uuid.uuid4()), marker, round_body(marker))
        try:
            response = session.post(
                f"{base}/v1/games/{sent.game_id}/rounds",
                json=sent.body,
                timeout=20,
                headers={"Idempotency-Key": sent.key},
            )
        except requests.RequestException:
            with ledger.lock:
                ledger.unanswered.append(sent)
            return  # the server is gone
        if response.status_code == 201:
            sent.number = response.json()["number"]
            with ledger.lock:
                ledger.acked.append(sent)
        elif response.status_code in (409, 503):  # a lost race or a busy database: not stored; fine
            continue
        else:
            raise AssertionError((response.status_code, response.text))


def resend(base: str, sent: Sent) -> None:
    """Send an unanswered request again with its key until it is answered 201 (new or replayed)."""
    deadline = time.monotonic() + 30
    while True:
        response = requests.post(
            f"{base}/v1/games/{sent.game_id}/rounds", json=sent.body, timeout=20, headers={"Idempotency-Key": sent.key}
        )
        if response.status_code == 201:
            sent.number = response.json()["number"]
            return
        assert response.status_code in (409, 503), (response.status_code, response.text)
        assert time.monotonic() < deadline, response.text
        time.sleep(float(response.headers.get("Retry-After", "1")))


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    """gunicorn, two workers, in its own process group (one killpg reaches the master and every
    worker): no rate limit."""
    srv = LiveServer(
        db_url,
        tmp_path / "gunicorn.log",
        workers=2,
        unset=("HANDFOOT_RATE_LIMIT",),
        env={"HANDFOOT_SQLITE_BUSY_TIMEOUT": "15"},
        start_timeout=30,
        stop_grace=15,
    )
    yield srv
    srv.stop()


def test_sigkill_mid_append_loses_and_duplicates_nothing(server: LiveServer, db_url: str, db_backend: str) -> None:
    started = time.monotonic()
    server.start()
    game_ids = []
    for i in range(GAMES):
        response = requests.post(
            server.base + "/v1/games",
            timeout=10,
            json={
                "name": f"crash {i}",
                "preset": "pagat",
                "rules": {"rounds": 50},
                "teams": [{"name": "Team 1", "players": ["N", "S"]}, {"name": "Team 2", "players": ["E", "W"]}],
            },
        )
        assert response.status_code == 201, response.text
        game_ids.append(response.json()["id"])

    ledger, stop = Ledger(), threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            client_thread(server.base, game_ids, ledger, stop)
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=run, daemon=True) for _ in range(THREADS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + KILL_AFTER_SECONDS
    while len(ledger.acked) < KILL_AFTER_ACKS and time.monotonic() < deadline and not errors:
        time.sleep(0.01)
    server.kill()
    stop.set()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert len(ledger.acked) >= 20, "too few appends before the kill to prove anything"

    server.start()
    for sent in ledger.unanswered:
        resend(server.base, sent)
    every = ledger.acked + ledger.unanswered
    print(f"acknowledged before the kill: {len(ledger.acked)}, unanswered: {len(ledger.unanswered)}")

    for game_id in game_ids:
        game = requests.get(f"{server.base}/v1/games/{game_id}", timeout=10).json()
        mine = [s for s in every if s.game_id == game_id]
        summaries = game["rounds"]
        rounds = [requests.get(f"{server.base}{r['href']}", timeout=10).json() for r in summaries]
        assert [r["totals_after"] for r in rounds] == [r["totals_after"] for r in summaries]
        # 1..n, no gap, no extra, each request stored once at the number its 201 named
        assert [r["number"] for r in rounds] == list(range(1, len(rounds) + 1))
        assert len(rounds) == len(mine) == game["rounds_played"]
        by_marker = {(r["request"]["teams"][1]["tally"]["table_points"] - 200) // 5: r for r in rounds}
        assert len(by_marker) == len(rounds)  # no request stored twice
        for sent in mine:
            stored = by_marker[sent.marker]
            assert stored["number"] == sent.number
            assert stored["request"]["teams"] == sent.body["teams"]
        # whole rounds only: a Breakdown per side, totals = sum of lines; the game recomputes
        totals = [0, 0]
        for r in rounds:
            assert len(r["teams"]) == 2
            for side, breakdown in enumerate(r["teams"]):
                assert breakdown["total"] == sum(line["points"] for line in breakdown["lines"])
                totals[side] += breakdown["total"]
            assert [t["total"] for t in r["totals_after"]] == totals
        assert [t["total"] for t in game["totals"]] == totals

    server.stop()
    if db_backend == "sqlite":
        path = make_url(db_url).database
        with sqlite3.connect(path) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    assert time.monotonic() - started < TIMEOUT
