"""Start and stop gunicorn with the project's gunicorn settings (api/gunicorn_conf.py), on a free port of 127.0.0.1."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")
BENCH_APP = "bench.app:create_bench_app()"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
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


def request(host: str, port: int, method: str, path: str, body: bytes | None = None,
            timeout: float = 10.0) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


@contextmanager
def gunicorn(log: Path, env: dict[str, str] | None = None, workers: int | None = None,
             app: str = BENCH_APP, ready_path: str = "/bench/bare",
             startup_timeout: float = 30.0) -> Iterator[Server]:
    """gunicorn -c python:handfoot.server.gunicorn_conf APP on 127.0.0.1:<free port>; stopped (SIGTERM) on exit."""
    port = free_port()
    args = [str(GUNICORN), "-c", "python:handfoot.server.gunicorn_conf", "-b", f"127.0.0.1:{port}"]
    if workers is not None:
        args += ["-w", str(workers)]
    args.append(app)
    full_env = {**os.environ, **(env or {})}
    with log.open("ab") as out:
        process = subprocess.Popen(args, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    server = Server("127.0.0.1", port, process, log)
    try:
        deadline = time.monotonic() + startup_timeout
        want = workers or int(full_env.get("WEB_CONCURRENCY", "2"))
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({process.returncode}):\n{server.log_text()[-3000:]}")
            try:
                status, _ = request(server.host, port, "GET", ready_path, timeout=2)
                if status == 200 and len(server.workers()) >= want:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer in {startup_timeout} s:\n{server.log_text()[-3000:]}")
            time.sleep(0.2)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
