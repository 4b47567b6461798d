"""The benchmark's servers, each its own gunicorn process on a free port of 127.0.0.1, under the
production settings (``-c python:handfoot.server.gunicorn_conf``, api/gunicorn_conf.py), with the
same number of workers (``WORKERS``, ``make run``'s default):

- :func:`api_server`: the API under test, started as ``make run`` starts it: ``handfoot-server
  serve -w WORKERS -b ADDR`` (the real ``create_app()``, every hook of it), with ``--no-migrate``
  because the benchmark migrates its fresh database first (:func:`bench.storage.migrate`).
- :func:`floor_server`: the floors, ``bench.floor_app:create_floor_app()``, a bare Flask app of
  their own (bench/floor_app.py).
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.live import free_port, stop_process

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
GUNICORN_CONF = "python:handfoot.server.gunicorn_conf"
FLOOR_APP = "bench.floor_app:create_floor_app()"
#: Workers of every server: ``make run``'s ``WORKERS`` default (and gunicorn_conf's).
WORKERS = 2


@dataclass(eq=False)  # one process is one server: compared and hashed by identity
class Server:
    host: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def workers(self) -> list[int]:
        """Worker pids (children of the gunicorn master)."""
        pid = self.process.pid
        try:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        except OSError:
            return []
        return [int(x) for x in text.split()]

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]  # names lower-cased
    body: bytes


def fetch(host: str, port: int, method: str, path: str, body: bytes | None = None, timeout: float = 10.0) -> Answer:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return Answer(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
    finally:
        conn.close()


def request(
    host: str, port: int, method: str, path: str, body: bytes | None = None, timeout: float = 10.0
) -> tuple[int, bytes]:
    answer = fetch(host, port, method, path, body, timeout)
    return answer.status, answer.body


def api_command(port: int, workers: int = WORKERS) -> list[str]:
    """``make run``'s command line (Makefile ``run``), on ``port``, without its migration step."""
    return [str(BIN / "handfoot-server"), "serve", "--no-migrate", "-w", str(workers), "-b", f"127.0.0.1:{port}"]


def floor_command(port: int, workers: int = WORKERS) -> list[str]:
    """The floor app under the same gunicorn settings and workers as :func:`api_command`."""
    return [str(BIN / "gunicorn"), "-c", GUNICORN_CONF, "-w", str(workers), "-b", f"127.0.0.1:{port}", FLOOR_APP]


@contextmanager
def api_server(log: Path, env: dict[str, str], workers: int = WORKERS) -> Iterator[Server]:
    """The real app as ``make run`` serves it; ``env`` sets ``DATABASE_URL`` and ``HANDFOOT_RATE_LIMIT``."""
    with _serve(log, api_command, env, workers, "/openapi.json") as server:
        yield server


@contextmanager
def floor_server(log: Path, env: dict[str, str] | None = None, workers: int = WORKERS) -> Iterator[Server]:
    """The bare floor app; ``env`` sets ``DATABASE_URL`` for the insert floor."""
    with _serve(log, floor_command, env or {}, workers, "/bench/bare") as server:
        yield server


@contextmanager
def _serve(
    log: Path,
    command: Callable[[int, int], list[str]],
    env: dict[str, str],
    workers: int,
    ready_path: str,
    startup_timeout: float = 60.0,
) -> Iterator[Server]:
    """Start ``command(port, workers)``; yield once ``ready_path`` answers 200 and every worker is
    up; stop it (SIGTERM, then SIGKILL after 30 s) on exit."""
    port = free_port()
    args = command(port, workers)
    full_env = {**os.environ, **env}
    with log.open("ab") as out:
        process = subprocess.Popen(args, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    server = Server("127.0.0.1", port, process, log)
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{args[0]} exited ({process.returncode}):\n{server.log_text()[-3000:]}")
            try:
                status, _ = request(server.host, port, "GET", ready_path, timeout=2)
                if status == 200 and len(server.workers()) >= workers:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{args[0]} did not answer in {startup_timeout} s:\n{server.log_text()[-3000:]}")
            time.sleep(0.2)
        yield server
    finally:
        stop_process(process, 30)
