"""Slow and idle clients against the server people start (``handfoot-server serve``, as ``make run``
does, with no worker class chosen): connections that send a request's headers a line at a time and
never finish them, and connections that send nothing, are closed by the server, and
``POST /v1/rounds/score`` keeps answering meanwhile. No credentials needed: a slow client reaches
the server before anything looks at the request. Speed is bench/'s (``make bench-waiting
--slowloris``); here only "answered within a generous bound"."""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from bench.live import free_port, stop_process, wait_healthy
from bench.rounds import score_body

pytestmark = pytest.mark.process

#: More slow connections than ``gthread``'s 2 workers x 8 threads, fewer than gevent's connections.
SLOW = 40
IDLE = 8
#: Seconds: a generous bound for a score's answer and for the server to close every slow connection.
BOUND = 30.0


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """``handfoot-server serve -w 2`` on a free port and a new SQLite file, nothing else chosen."""
    url = f"http://127.0.0.1:{free_port()}"
    log = folder / "server.log"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("HANDFOOT_", "PROMETHEUS_", "WEB_"))}
    environ.update(DATABASE_URL=f"sqlite:///{folder / 'handfoot.sqlite3'}", PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "handfoot.server.cli", "serve", "-w", "2", "-b", url.removeprefix("http://")]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, env=environ, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(url, lambda: process.poll() is None, 60, lambda: log.read_text(errors="replace"))
        yield url
    finally:
        stop_process(process, 10)


class SlowClients:
    """``slow`` connections sending ``POST /v1/rounds/score``'s headers a line a second, never the
    blank line that ends them, and ``idle`` connections sending nothing; ``closed`` counts those the
    server closed (an end of stream, a reset, or an error answer)."""

    def __init__(self, url: str, slow: int, idle: int) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.sockets = [socket.create_connection((host, int(port)), timeout=10) for _ in range(slow + idle)]
        for sock in self.sockets[:slow]:
            sock.sendall(b"POST /v1/rounds/score HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n")
        self.slow = set(self.sockets[:slow])
        self.open = list(self.sockets)
        self.closed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        line = 0
        while self.open and not self._stop.wait(1.0):
            line += 1
            for sock in [s for s in self.open if s in self.slow]:
                try:
                    sock.sendall(f"X-Slow-{line}: {line}\r\n".encode())
                except OSError:
                    self._close(sock)
            readable, _, _ = select.select(self.open, [], [], 0)
            for sock in readable:
                self._close(sock)  # the server's end of stream or its error answer: either way, done

    def _close(self, sock: socket.socket) -> None:
        if sock in self.open:
            self.open.remove(sock)
            self.closed += 1
            sock.close()

    def wait_all_closed(self, seconds: float) -> int:
        deadline = time.monotonic() + seconds
        while self.open and time.monotonic() < deadline:
            time.sleep(0.5)
        return self.closed

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for sock in self.open:
            sock.close()


def test_slow_and_idle_clients_are_closed_while_scoring_answers(tmp_path: Path) -> None:
    body = json.dumps(score_body())
    with serve(tmp_path) as url:
        clients = SlowClients(url, SLOW, IDLE)
        try:
            time.sleep(3)  # every slow connection has sent lines: under gthread each holds a thread by now
            for _ in range(5):
                answer = requests.post(
                    f"{url}/v1/rounds/score", data=body, headers={"Content-Type": "application/json"}, timeout=BOUND
                )
                assert answer.status_code == 200, answer.text[:300]
                assert answer.json()["teams"]
            assert clients.wait_all_closed(BOUND) == SLOW + IDLE, f"{len(clients.open)} connections still open"
        finally:
            clients.stop()
