"""A live server process on a free port: the one copy of the helpers the benchmarks and the tests
that need real processes share (the tests import ``bench``; ``bench`` never imports the tests).

- :func:`free_port`: a TCP port of 127.0.0.1 nothing listens on (the kernel's pick).
- :func:`wait_healthy`: poll ``GET /health`` (or another path) until it answers 200.
- :func:`stop_process`: SIGTERM, then SIGKILL after a grace period; to the process group with
  ``group``.
- :class:`LiveServer`: gunicorn with the project's settings (``api/gunicorn_conf.py``) in its own
  process group, so one killpg reaches the master and every worker (the durability trace, the
  shared rate limit, the crash test, the generated client).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port(host: str = "127.0.0.1") -> int:
    """A port of ``host`` free right now (bound to port 0 and released: the kernel's pick)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def wait_healthy(
    base: str,
    alive: Callable[[], bool],
    timeout: float,
    log: Callable[[], str] = lambda: "",
    *,
    path: str = "/health",
    request_timeout: float = 2.0,
    poll: float = 0.1,
) -> None:
    """Return once ``GET base + path`` answers 200. Raises :class:`RuntimeError` (with the tail of
    ``log()``) when ``alive()`` turns false (the server exited) or after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if not alive():
            raise RuntimeError(f"the server for {base} exited:\n{log()[-3000:]}")
        try:
            if requests.get(base + path, timeout=request_timeout).status_code == 200:
                return
        except requests.RequestException:
            pass  # not listening yet, or its workers not up yet
        if time.monotonic() > deadline:
            raise RuntimeError(f"{base}{path} did not answer 200 in {timeout:g} s:\n{log()[-3000:]}")
        time.sleep(poll)


def stop_process(proc: subprocess.Popen[bytes], grace: float, *, group: bool = False) -> None:
    """SIGTERM to ``proc`` (to its process group with ``group``), SIGKILL if it still runs after
    ``grace`` seconds; nothing if it has exited."""
    if proc.poll() is not None:
        return

    def send(sig: int) -> None:
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)

    send(signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        proc.wait(10)


class LiveServer:
    """gunicorn (behind ``prefix``, e.g. strace) on a free port of 127.0.0.1, in its own process group.

    ``env`` is added to the environment (``DATABASE_URL`` is ``db_url``); ``unset`` names variables
    taken out of it. A context manager (start, then stop), or :meth:`start` / :meth:`kill` /
    :meth:`stop` by hand: a server may be started again on the same port after a kill."""

    def __init__(
        self,
        db_url: str,
        log: Path,
        *,
        workers: int = 1,
        env: dict[str, str] | None = None,
        prefix: Sequence[str] = (),
        unset: Sequence[str] = (),
        start_timeout: float = 60.0,
        stop_grace: float = 20.0,
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.args = [
            *prefix,
            str(GUNICORN),
            "-c",
            "python:handfoot.server.gunicorn_conf",
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{self.port}",
            "handfoot.server:create_app()",
        ]
        self.env = {k: v for k, v in {**os.environ, "DATABASE_URL": db_url, **(env or {})}.items() if k not in unset}
        self.start_timeout, self.stop_grace = start_timeout, stop_grace
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def start(self) -> None:
        """Start gunicorn; return once ``/health`` answers 200. Raises :class:`RuntimeError` (with
        the log's tail) if it exits or does not answer in ``start_timeout`` seconds (it is stopped)."""
        with self.log.open("ab") as out:
            proc = subprocess.Popen(
                self.args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.proc = proc
        try:
            wait_healthy(self.base, lambda: proc.poll() is None, self.start_timeout, self.log_text)
        except RuntimeError:
            self.stop()
            raise

    def kill(self) -> None:
        """SIGKILL to the process group: master and workers die at once, mid-request."""
        assert self.proc is not None, "not started"
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM to the process group (SIGKILL after ``stop_grace`` seconds); nothing if not running."""
        if self.proc is not None:
            stop_process(self.proc, self.stop_grace, group=True)
