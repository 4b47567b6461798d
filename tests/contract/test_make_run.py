"""A first ``make run`` on a cold machine says what it is doing: installing takes minutes, and the
README's one-minute start promises that it says so as it goes (issue 31: it was silent for about
five minutes). Read from ``make -n`` (what make would run, nothing run) against a virtualenv that
does not exist yet, as on a fresh clone."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.readme import planned_commands


def test_a_cold_make_run_says_what_it_installs_before_pip_and_shows_pip(tmp_path: Path) -> None:
    commands = planned_commands("run", tmp_path / "fresh-venv")
    pips = [i for i, line in enumerate(commands) if " -m pip install " in line]
    installs = [i for i in pips if "--group dev" in commands[i]]  # the long one: every dependency
    assert len(installs) == 1, commands
    said = [i for i, line in enumerate(commands) if line.startswith("echo ") and "installing" in line]
    assert said and said[0] < pips[0], commands
    long_install = commands[installs[0]].split()
    assert "--quiet" not in long_install and "-q" not in long_install, commands[installs[0]]
    serve = [i for i, line in enumerate(commands) if "handfoot-server serve" in line]
    assert serve and serve[0] > installs[0], commands


def test_a_warm_make_run_installs_nothing(tmp_path: Path) -> None:
    """Once installed (the stamp newer than both pyproject.toml files) ``make run`` only serves."""
    venv = tmp_path / "warm-venv"
    venv.mkdir()
    (venv / ".installed-dev").touch()
    commands = planned_commands("run", venv)
    assert not [line for line in commands if "pip install" in line], commands
    assert any("handfoot-server serve" in line for line in commands), commands
