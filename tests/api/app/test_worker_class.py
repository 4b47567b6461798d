"""The worker class the server people start runs on (``api/gunicorn_conf.py``): gevent, which closes
a connection slow to send its headers (docs/deploy.md, "Slow clients"; the process itself is tested
in tests/process/test_slow_clients.py); gthread only where gevent is missing, and ``serve`` says so."""

from __future__ import annotations

import importlib
import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from handfoot.server.cli import main
from handfoot.server.resources.tables import waits


def load_conf(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """``api/gunicorn_conf.py`` as gunicorn reads it, in an environment without the worker's settings."""
    monkeypatch.delenv("HANDFOOT_WORKER_CLASS", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    import handfoot.server.gunicorn_conf as conf

    return importlib.reload(conf)


@pytest.fixture
def no_gevent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host where the ``gevent`` extra is not installed."""
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name == "gevent" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_the_server_people_start_runs_on_gevent(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_conf(monkeypatch).worker_class == "gevent"


def test_a_chosen_worker_class_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_conf(monkeypatch, HANDFOOT_WORKER_CLASS="gthread").worker_class == "gthread"


@pytest.mark.usefixtures("no_gevent")
def test_without_gevent_the_threads_serve_and_serve_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert load_conf(monkeypatch).worker_class == "gthread"
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    started: list[list[str]] = []
    monkeypatch.setattr(os, "execvpe", lambda _file, args, env: started.append(args))
    result = CliRunner().invoke(main, ["serve", "--no-migrate", "-b", "127.0.0.1:0"])
    assert result.exit_code == 0 and started
    assert "gevent is not installed: serving with gthread" in result.output


def test_serve_says_nothing_of_gevent_where_it_is_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HANDFOOT_WORKER_CLASS", raising=False)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    monkeypatch.setattr(os, "execvpe", lambda _file, args, env: None)
    result = CliRunner().invoke(main, ["serve", "--no-migrate", "-b", "127.0.0.1:0"])
    assert result.exit_code == 0 and "gevent" not in result.output


def test_an_idle_connection_outlives_a_refused_waits_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat refused (503 ``waits-full``) comes back after ``Retry-After`` on its kept-alive
    connection: closed at that very moment, its request would race the close. So every Retry-After
    a refusal gives (``RETRY_AFTER``, or from ``RETRY_AFTER_CROWDED`` on) is 2 s or more away from
    ``keepalive``, and at most the 60 s the SDK waits before a retry."""
    keepalive = load_conf(monkeypatch).keepalive
    assert waits.RETRY_AFTER + 2 <= keepalive <= waits.RETRY_AFTER_CROWDED - 2
    assert waits.RETRY_AFTER_MAX <= 60
