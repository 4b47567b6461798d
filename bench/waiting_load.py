"""``make bench-waiting``: ``POST /v1/rounds/score`` throughput while seats wait, against the same
server with no seat waiting, one run, through gunicorn as ``make run`` serves (2 workers).

The server: ``gunicorn -c python:handfoot.server.gunicorn_conf`` (api/gunicorn_conf.py) on a fresh
migrated SQLite file (or ``--database-url``), its worker class ``--worker-class`` (``gthread``, the
default, or ``gevent``: ``HANDFOOT_WORKER_CLASS``). ``--waiters`` seats (tables of four) each loop a
long-poll (``wait`` 60) on a thread of the bench's; a wait refused (503 ``waits-full``) is counted and
asked again after its ``Retry-After``. Then ``--clients`` threads post one scored round
(``bench.rounds.score_body``) after another for ``--seconds``, first with no waiter, then with the
waiters waiting. It prints both throughputs, their ratio, the score requests that failed and the waits
refused.

    python -m bench.waiting_load --waiters 200 --worker-class gevent
"""

from __future__ import annotations

import argparse
import json
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
        for table_id, token in seats[:count]:
            self._threads.append(threading.Thread(target=self._wait, args=(table_id, token), daemon=True))

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--waiters", type=int, default=200, help="seats long-polling (default 200)")
    parser.add_argument("--clients", type=int, default=4, help="threads posting scores (default 4)")
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
            time.sleep(3)  # the waits reach the server
            crowded, crowded_failed = _score(server.base, args.clients, args.seconds)
            waiters.stop()
            result: dict[str, Any] = {
                "worker_class": args.worker_class,
                "caps": not args.no_caps,
                "waiters": args.waiters,
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
