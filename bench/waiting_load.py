"""``make bench-waiting``: ``POST /v1/rounds/score`` throughput while seats wait, against the same
server with no seat waiting, one run, through gunicorn as ``make run`` serves (2 workers).

The server: ``gunicorn -c python:handfoot.server.gunicorn_conf`` (api/gunicorn_conf.py) on a fresh
migrated SQLite file (or ``--database-url``), its worker class ``--worker-class`` (``gthread``, the
default, or ``gevent``: ``HANDFOOT_WORKER_CLASS``). ``--waiters`` seats (tables of four) each loop a
long-poll (``wait`` 60) on a thread of the bench's; a wait refused (503 ``waits-full``) is counted and
asked again after its ``Retry-After``. Then ``--clients`` threads post one scored round
(``bench.rounds.score_body``) after another for ``--seconds``, first with no waiter, then with the
waiters waiting. It prints both throughputs, their ratio, the score requests that failed and the waits
refused. Every other seat streams its events (``GET .../events``, ``wait`` 60) instead of long-polling
(issue 29: long-polls and streams mixed). ``--slowloris`` connections each send a request's headers a
line every 5 s and never finish (a slow client holding whatever the server gives a connection);
they open with the waiters and are counted by whether the server closed them.

    python -m bench.waiting_load --waiters 200 --slowloris 40 --worker-class gevent
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests

from bench.rounds import score_body
from bench.server import BIN, GUNICORN_CONF, _serve
from handfoot.server import migrate

TEAMS = [{"name": "North-South", "players": ["North", "South"]}, {"name": "East-West", "players": ["East", "West"]}]


def _score(base: str, clients: int, seconds: float) -> tuple[float, int]:
    """(scored rounds a second, failed requests) of ``clients`` threads for ``seconds``."""
    body = json.dumps(score_body())
    done, failed = [0] * clients, [0] * clients
    stop = time.monotonic() + seconds

    def client(i: int) -> None:
        with requests.Session() as session:
            while time.monotonic() < stop:
                try:
                    answer = session.post(
                        f"{base}/v1/rounds/score", data=body, timeout=30, headers={"Content-Type": "application/json"}
                    )
                    ok = answer.status_code == 200
                except requests.RequestException:
                    ok = False
                done[i] += ok
                failed[i] += not ok

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.monotonic() - started), sum(failed)


class Waiters:
    """``count`` seats long-polling their tables' views until :meth:`stop`."""

    def __init__(self, base: str, count: int) -> None:
        self.base, self.refused, self.answered, self.errors = base, 0, 0, 0
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
                            self.refused += 1
                            self._stop.wait(float(answer.headers.get("Retry-After", "1")))
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
                    self.refused += 1
                    self._stop.wait(float(answer.headers.get("Retry-After", "1")))
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
                    self.closed += 1
                    sockets.remove(sock)
        for sock in sockets:
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
    parser.add_argument("--worker-class", default="gthread", help="gunicorn's worker class (default gthread)")
    parser.add_argument("--no-caps", action="store_true", help="lift the waits' caps (HANDFOOT_WAITS_PER_*)")
    parser.add_argument("--database-url", help="a database to migrate and use (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        url = args.database_url or f"sqlite:///{folder / 'bench-waiting.sqlite3'}"
        migrate.upgrade(url)
        env = {"DATABASE_URL": url, "HANDFOOT_RATE_LIMIT": "off", "HANDFOOT_WORKER_CLASS": args.worker_class}
        if args.no_caps:
            env |= {"HANDFOOT_WAITS_PER_ADDRESS": "100000", "HANDFOOT_WAITS_PER_PROCESS": "100000"}

        def command(port: int, workers: int) -> list[str]:
            return [str(BIN / "gunicorn"), "-c", GUNICORN_CONF, "-w", str(workers), "-b", f"127.0.0.1:{port}"]

        with _serve(folder / "gunicorn.log", command, env, 2, "/openapi.json") as server:
            _score(server.base, args.clients, 2)  # warm up
            alone, alone_failed = _score(server.base, args.clients, args.seconds)
            waiters = Waiters(server.base, args.waiters)
            waiters.start()
            slow = Slowloris(server.base, args.slowloris)
            slow.start()
            time.sleep(3)  # the waits reach the server
            crowded, crowded_failed = _score(server.base, args.clients, args.seconds)
            waiters.stop()
            slow_closed = slow.stop()
            result: dict[str, Any] = {
                "worker_class": args.worker_class,
                "caps": not args.no_caps,
                "waiters": args.waiters,
                "slowloris": args.slowloris,
                "slowloris_closed_by_server": slow_closed,
                "waits_answered": waiters.answered,
                "alone_per_s": round(alone, 1),
                "with_waiters_per_s": round(crowded, 1),
                "ratio": round(crowded / alone, 2) if alone else None,
                "score_failures": alone_failed + crowded_failed,
                "waits_refused": waiters.refused,
                "wait_errors": waiters.errors,
                "wait_error_kinds": waiters.kinds,
            }
            print(json.dumps(result))


if __name__ == "__main__":
    main()
