"""gunicorn on a free port with the project's settings (``api/gunicorn_conf.py``), for the tests
that need real worker processes: the durability trace and the shared rate limit."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """gunicorn (behind ``prefix``, e.g. strace) in its own process group, so one killpg reaches all."""

    def __init__(self, db_url: str, log: Path, *, workers: int = 1, env: dict[str, str] | None = None,
                 prefix: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.args = [*prefix, str(GUNICORN), "-c", "python:handfoot.server.gunicorn_conf", "-w", str(workers),
                     "-b", f"127.0.0.1:{self.port}", "handfoot.server:create_app()"]
        self.env = {**os.environ, "DATABASE_URL": db_url, **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> LiveServer:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            try:
                if requests.get(self.base + "/health", timeout=2).status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError("gunicorn did not start:\n" + self.log.read_text()[-3000:])

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
