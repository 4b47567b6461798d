"""``make bench-waiting``: ``POST /v1/rounds/score`` throughput while seats wait, against the same
server with no seat waiting, one run, through gunicorn as ``make run`` serves (2 workers).

The server: ``gunicorn -c python:handfoot.server.gunicorn_conf`` (api/gunicorn_conf.py) on a fresh
migrated SQLite file (or ``--database-url``), its worker class ``--worker-class`` (``gevent`` or
``gthread``: ``HANDFOOT_WORKER_CLASS``; default: the configuration's, as ``make run``).
``--waiters`` seats (tables of four) each loop a long-poll (``wait`` 60) on a thread of the bench's;
a wait refused (503 ``waits-full``) is counted and asked again after its ``Retry-After`` (the values
seen are printed). Then ``--clients`` threads post one scored round (``bench.rounds.score_body``)
after another for ``--seconds``, first with no waiter, then with the waiters waiting. It prints both
throughputs, their ratio, the score requests that failed and the waits refused, and the server's CPU
time (its workers', from ``/proc``) per scored round in each window: ``cpu_ratio``, alone over
beside the waiters, is what the waiters cost each score, read apart from whatever else the machine
runs (a shared machine's load moves the throughputs, much less the CPU a request takes). Every other
seat streams its events (``GET .../events``, ``wait`` 60) instead of long-polling (issue 29:
long-polls and streams mixed). ``--slowloris`` connections each send a request's headers a line
every 5 s and never finish (a slow client holding whatever the server gives a connection); they open
with the waiters and are counted by whether the server closed them. ``--writers`` threads each
append rounds to a game of their own (``POST /v1/games/{id}/rounds``) through both windows: writes
contending for SQLite's lock, which under gevent block their whole worker while they wait; it prints
their rate, failures and slowest answer, and the slowest score answer.

    python -m bench.waiting_load --waiters 200 --slowloris 40 --worker-class gevent
"""

from __future__ import annotations

import argparse
import json
import os
import select
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests

from bench.rounds import PRESET, append_body, game_teams, score_body
from bench.server import BIN, GUNICORN_CONF, Server, _serve
from handfoot.server import gunicorn_conf, migrate
from handfoot.server.schemas import MAX_ROUNDS_PER_GAME

TEAMS = [{"name": "North-South", "players": ["North", "South"]}, {"name": "East-West", "players": ["East", "West"]}]


class Load:
    """``clients`` threads posting scores and ``writers`` threads appending rounds, each to a game of
    its own, for ``seconds``: their rates (a second), failures and slowest answers (seconds)."""

    def __init__(self, base: str, writers: int) -> None:
        self.base, self.writers = base, writers

    def _new_game(self) -> str:
        """A new game's rounds path."""
        game = {"name": "writer", "preset": PRESET, "rules": {"rounds": None, "target_score": 1_000_000}}
        created = requests.post(f"{self.base}/v1/games", json={**game, "teams": game_teams()}, timeout=30)
        return f"/v1/games/{created.json()['id']}/rounds"

    def run(self, clients: int, seconds: float) -> dict[str, Any]:
        jobs = [("score", "/v1/rounds/score", json.dumps(score_body()), 200)] * clients
        jobs += [("append", "", json.dumps(append_body()), 201)] * self.writers
        done, failed, slowest = [0] * len(jobs), [0] * len(jobs), [0.0] * len(jobs)
        stop = time.monotonic() + seconds

        def client(i: int) -> None:
            kind, path, body, expected = jobs[i]
            left = 0  # appends the current game may still take
            with requests.Session() as session:
                while time.monotonic() < stop:
                    if kind == "append" and not left:
                        path, left = self._new_game(), MAX_ROUNDS_PER_GAME  # then the game is full
                    sent = time.monotonic()
                    try:
                        answer = session.post(
                            f"{self.base}{path}", data=body, timeout=30, headers={"Content-Type": "application/json"}
                        )
                        ok = answer.status_code == expected
                    except requests.RequestException:
                        ok = False
                    slowest[i] = max(slowest[i], time.monotonic() - sent)
                    left -= kind == "append"
                    done[i] += ok
                    failed[i] += not ok

        threads = [threading.Thread(target=client, args=(i,)) for i in range(len(jobs))]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        result: dict[str, Any] = {}
        for kind in ("score", "append"):
            mine = [i for i, job in enumerate(jobs) if job[0] == kind]
            if mine:
                result[f"{kind}_per_s"] = sum(done[i] for i in mine) / elapsed
                result[f"{kind}_done"] = sum(done[i] for i in mine)
                result[f"{kind}_failures"] = sum(failed[i] for i in mine)
                result[f"{kind}_slowest_s"] = round(max(slowest[i] for i in mine), 2)
        return result


def server_cpu(server: Server) -> float:
    """CPU seconds (user and system) the server's workers have used so far (``/proc``)."""
    total = 0
    for pid in server.workers():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (stat's 14th and 15th)
    return total / os.sysconf("SC_CLK_TCK")


class Waiters:
    """``count`` seats long-polling their tables' views until :meth:`stop`."""

    def __init__(self, base: str, count: int) -> None:
        self.base, self.refused, self.answered, self.errors = base, 0, 0, 0
        self.retry_afters: set[int] = set()  # the Retry-After values of the refusals
        self.kinds: dict[str, int] = {}  # the errors by exception or status
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        seats: list[tuple[int, str]] = []
        while len(seats) < count:
            created = requests.post(
                f"{base}/v1/tables", json={"name": "Waiting", "preset": "pagat", "teams": TEAMS}, timeout=30
            ).json()
            seats += [(created["id"], seat["token"]) for seat in created["seats"]]
        for i, (table_id, token) in enumerate(seats[:count]):
            target = self._stream if i % 2 else self._wait
            self._threads.append(threading.Thread(target=target, args=(table_id, token), daemon=True))

    def _refusal(self, answer: requests.Response) -> None:
        """A refused wait: counted, then asked again after its ``Retry-After``."""
        after = int(answer.headers.get("Retry-After", "1"))
        self.refused += 1
        self.retry_afters.add(after)
        self._stop.wait(after)

    def _stream(self, table_id: int, token: str) -> None:
        """A seat streaming its events: read until the stream ends, then open another."""
        with requests.Session() as session:
            while not self._stop.is_set():
                try:
                    with session.get(
                        f"{self.base}/v1/tables/{table_id}/events",
                        params={"wait": 60},
                        headers={"Seat-Token": token},
                        stream=True,
                        timeout=90,
                    ) as answer:
                        if answer.status_code == 503:
                            self._refusal(answer)
                            continue
                        if answer.status_code != 200:
                            self.errors += 1
                            self.kinds[str(answer.status_code)] = self.kinds.get(str(answer.status_code), 0) + 1
                            self._stop.wait(1)
                            continue
                        for _ in answer.iter_lines():
                            if self._stop.is_set():
                                break
                        self.answered += 1
                except requests.RequestException as error:
                    self.errors += 1
                    self.kinds[type(error).__name__] = self.kinds.get(type(error).__name__, 0) + 1
                    self._stop.wait(1)

    def _wait(self, table_id: int, token: str) -> None:
        with requests.Session() as session:
            while not self._stop.is_set():
                try:
                    answer = session.get(
                        f"{self.base}/v1/tables/{table_id}/view",
                        params={"version": 0, "wait": 60},
                        headers={"Seat-Token": token},
                        timeout=90,
                    )
                except requests.RequestException as error:
                    self.errors += 1
                    self.kinds[type(error).__name__] = self.kinds.get(type(error).__name__, 0) + 1
                    self._stop.wait(1)
                    continue
                if answer.status_code == 503:
                    self._refusal(answer)
                elif answer.status_code == 200:
                    self.answered += 1
                else:
                    self.errors += 1
                    self.kinds[str(answer.status_code)] = self.kinds.get(str(answer.status_code), 0) + 1
                    self._stop.wait(1)

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()


class Slowloris:
    """``count`` connections sending a request's headers one line every ``every`` seconds, never
    ending them; :meth:`stop` says how many the server had closed."""

    def __init__(self, base: str, count: int, every: float = 5.0) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.address, self.count, self.every = (host, int(port)), count, every
        self._stop = threading.Event()
        self.closed = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        sockets = []
        for _ in range(self.count):
            sock = socket.create_connection(self.address, timeout=5)
            sock.sendall(b"POST /v1/rounds/score HTTP/1.1\r\nHost: bench\r\n")
            sockets.append(sock)
        n = 0
        while not self._stop.wait(self.every):
            n += 1
            for sock in list(sockets):
                try:
                    sock.sendall(f"X-Slow-{n}: {n}\r\n".encode())
                except OSError:
                    self._closed(sock, sockets)
            self._check(sockets)
        self._check(sockets)
        for sock in sockets:
            sock.close()

    def _check(self, sockets: list[socket.socket]) -> None:
        """Count the connections the server has closed: readable, with an end of stream or an error
        answer (a send after the close may still succeed once)."""
        readable, _, _ = select.select(sockets, [], [], 0) if sockets else ([], [], [])
        for sock in readable:
            self._closed(sock, sockets)

    def _closed(self, sock: socket.socket, sockets: list[socket.socket]) -> None:
        if sock in sockets:
            self.closed += 1
            sockets.remove(sock)
            sock.close()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> int:
        self._stop.set()
        self._thread.join(self.every + 5)
        return self.closed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--waiters", type=int, default=200, help="seats long-polling (default 200)")
    parser.add_argument("--clients", type=int, default=4, help="threads posting scores (default 4)")
    parser.add_argument("--slowloris", type=int, default=0, help="slow connections that never finish a request")
    parser.add_argument("--seconds", type=float, default=10, help="seconds of each throughput window (default 10)")
    parser.add_argument("--writers", type=int, default=0, help="threads appending rounds, a game each")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's workers (default 2, as make run)")
    parser.add_argument("--worker-class", help="gunicorn's worker class (default: the configuration's)")
    parser.add_argument("--no-caps", action="store_true", help="lift the waits' caps (HANDFOOT_WAITS_PER_*)")
    parser.add_argument("--database-url", help="a database to migrate and use (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        url = args.database_url or f"sqlite:///{folder / 'bench-waiting.sqlite3'}"
        migrate.upgrade(url)
        worker_class = args.worker_class or gunicorn_conf.default_worker_class()
        env = {"DATABASE_URL": url, "HANDFOOT_RATE_LIMIT": "off", "HANDFOOT_WORKER_CLASS": worker_class}
        if args.no_caps:
            lifted = ("ADDRESS", "OWNER", "PROCESS")  # the owner's too: gthread's default of 4 would hold
            env |= {f"HANDFOOT_WAITS_PER_{cap}": "100000" for cap in lifted}

        def command(port: int, workers: int) -> list[str]:
            return [str(BIN / "gunicorn"), "-c", GUNICORN_CONF, "-w", str(workers), "-b", f"127.0.0.1:{port}"]

        with _serve(folder / "gunicorn.log", command, env, args.workers, "/openapi.json") as server:
            load = Load(server.base, args.writers)
            load.run(args.clients, 2)  # warm up
            cpu = server_cpu(server)
            alone = load.run(args.clients, args.seconds)
            cpu_alone = server_cpu(server) - cpu
            waiters = Waiters(server.base, args.waiters)
            waiters.start()
            slow = Slowloris(server.base, args.slowloris)
            slow.start()
            time.sleep(3)  # the waits reach the server
            cpu = server_cpu(server)
            crowded = load.run(args.clients, args.seconds)
            cpu_crowded = server_cpu(server) - cpu
            waiters.stop()
            slow_closed = slow.stop()
            result: dict[str, Any] = {
                "worker_class": worker_class,
                "caps": not args.no_caps,
                "waiters": args.waiters,
                "slowloris": args.slowloris,
                "writers": args.writers,
                "slowloris_closed_by_server": slow_closed,
                "waits_answered": waiters.answered,
                "alone_per_s": round(alone["score_per_s"], 1),
                "with_waiters_per_s": round(crowded["score_per_s"], 1),
                "ratio": round(crowded["score_per_s"] / alone["score_per_s"], 2) if alone["score_per_s"] else None,
                "score_failures": alone["score_failures"] + crowded["score_failures"],
                "server_cpu_ms_per_score_alone": round(1000 * cpu_alone / max(1, alone["score_done"]), 2),
                "server_cpu_ms_per_score_with_waiters": round(1000 * cpu_crowded / max(1, crowded["score_done"]), 2),
                "cpu_ratio": round((cpu_alone / max(1, alone["score_done"])) / (cpu_crowded / crowded["score_done"]), 2)
                if cpu_crowded and crowded["score_done"]
                else None,
                "score_slowest_s": max(alone["score_slowest_s"], crowded["score_slowest_s"]),
                "waits_refused": waiters.refused,
                "retry_afters": sorted(waiters.retry_afters),
                "wait_errors": waiters.errors,
                "wait_error_kinds": waiters.kinds,
            }
            if args.writers:
                result |= {
                    "appends_alone_per_s": round(alone["append_per_s"], 1),
                    "appends_with_waiters_per_s": round(crowded["append_per_s"], 1),
                    "append_failures": alone["append_failures"] + crowded["append_failures"],
                    "append_slowest_s": max(alone["append_slowest_s"], crowded["append_slowest_s"]),
                }
            print(json.dumps(result))


if __name__ == "__main__":
    main()
