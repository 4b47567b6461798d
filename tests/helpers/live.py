"""A real server process for end-to-end tests: gunicorn on a free port, SQLite in a temp folder.

The port, the wait for ``/health`` and the stop are bench/live.py's. Used by the ``live_server``
session fixture (conftest.py). The database is migrated first with
``alembic upgrade head``; the server is stopped when the session ends.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.live import free_port, stop_process, wait_healthy

PROJECT_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0


def _tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} not found beside {sys.executable} nor on PATH")
    return found


@dataclass
class LiveServer:
    url: str
    database_url: str
    log_path: Path
    process: subprocess.Popen[bytes]
    api_key: str
    """A key made with ``flask keys create`` before the server started (game writes need one once
    any exists)."""
    other_key: str
    """A second key: its games are invisible to ``api_key``."""

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        stop_process(self.process, 15)


def _create_key(env: dict[str, str], name: str) -> str:
    """``flask --app handfoot.server:create_app keys create NAME``: the key it prints."""
    done = subprocess.run(
        [_tool("flask"), "--app", "handfoot.server:create_app", "keys", "create", name],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    words = done.stdout.split()
    if done.returncode != 0 or not words:
        raise RuntimeError(f"keys create {name} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return words[-1]


def start_server(folder: Path, *, extra_env: dict[str, str] | None = None) -> LiveServer:
    database_url = f"sqlite:///{folder / 'handfoot.sqlite3'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    # gunicorn without the project's settings (no preload_app): each worker would draw its own secret,
    # and one worker would refuse another's cursors; a deployment sets it (docs/deploy.md)
    env.update({"DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1", "HANDFOOT_SECRET_KEY": secrets.token_hex(32)})
    env.update(extra_env or {})
    migrated = subprocess.run(
        [_tool("alembic"), "upgrade", "head"], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True
    )
    if migrated.returncode != 0:
        raise RuntimeError(f"alembic upgrade head failed:\n{migrated.stdout}\n{migrated.stderr}")
    api_key = _create_key(env, "e2e")
    other_key = _create_key(env, "e2e-other")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = folder / "gunicorn.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                _tool("gunicorn"),
                "-w",
                "2",
                "-b",
                f"127.0.0.1:{port}",
                "--graceful-timeout",
                "5",
                "--no-control-socket",
                "handfoot.server:create_app()",
            ],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = LiveServer(url, database_url, log_path, process, api_key, other_key)
    try:
        wait_healthy(url, lambda: process.poll() is None, START_TIMEOUT, server.log)
    except RuntimeError:
        server.stop()
        raise
    return server
