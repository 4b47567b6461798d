"""``handfoot-server`` at startup: a database it cannot reach, or an address already taken, is one
line naming it (the password hidden) and what to check; never a traceback, and gunicorn is not started."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from handfoot.server import cli
from handfoot.server.cli import main


@pytest.fixture
def taken() -> Iterator[str]:
    """An address something already listens on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield f"127.0.0.1:{listener.getsockname()[1]}"


@pytest.fixture
def no_gunicorn(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    started: list[list[str]] = []
    monkeypatch.setattr(os, "execvpe", lambda _file, args, env: started.append(args))
    return started


@pytest.mark.parametrize("command", [["migrate"], ["serve", "-b", "127.0.0.1:0"]])
def test_an_unreachable_database_is_one_line(
    monkeypatch: pytest.MonkeyPatch, no_gunicorn: list[list[str]], command: list[str]
) -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("DATABASE_URL", f"postgresql+psycopg://keeper:s3cret@127.0.0.1:{port}/scores")
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 1 and no_gunicorn == []
    [error] = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert f"cannot reach the database: postgresql+psycopg://keeper:***@127.0.0.1:{port}/scores" in error
    assert "check that the database server runs and that DATABASE_URL names it" in error
    assert "s3cret" not in result.output and "Traceback" not in result.output


def test_serving_on_an_address_in_use_says_so(taken: str, no_gunicorn: list[list[str]]) -> None:
    result = CliRunner().invoke(main, ["serve", "--no-migrate", "-b", taken])
    assert result.exit_code == 1 and no_gunicorn == []
    assert (
        result.output
        == f"Error: {taken} is in use (another server listens there): stop it, or serve on another port with -b\n"
    )


def test_a_free_address_is_served(monkeypatch: pytest.MonkeyPatch) -> None:
    """gunicorn is given a fresh metrics folder in its environment; this process's is left alone
    (a folder set here would outlive the server, and a later server remove it under another)."""
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    started: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setattr(os, "execvpe", lambda _file, args, env: started.append((args, env)))
    assert cli.port_in_use("127.0.0.1:0") is None
    result = CliRunner().invoke(main, ["serve", "--no-migrate", "-b", "127.0.0.1:0"])
    [(args, env)] = started
    assert result.exit_code == 0 and args[-1] == "handfoot.server:create_app()"
    assert Path(env["PROMETHEUS_MULTIPROC_DIR"]).name.startswith("handfoot-metrics-")
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ


@pytest.mark.parametrize("bind", ["localhost", "127.0.0.1:http"])
def test_an_address_without_a_port_is_named(bind: str) -> None:
    assert cli.port_in_use(bind) == f"{bind} is not HOST:PORT"
