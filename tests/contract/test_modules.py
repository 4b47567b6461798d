"""The house rule on modules: every file is formatted (none excluded from ``ruff format``), and every
module of the engine, the server, the client and the environment is at most 500 formatted lines (a
module that grows is split, never packed)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOST_LINES = 500
PACKAGES = ("engine", "api", "sdk", "rl")


def test_the_formatter_excludes_no_file() -> None:
    ruff = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
    for table in (ruff, ruff.get("format", {})):
        assert not {"exclude", "extend-exclude", "force-exclude"} & set(table), table
    checked = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_module_is_at_most_500_formatted_lines() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "--", *(f"{p}/*.py" for p in PACKAGES)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert len(listed) > 100
    # Formatted as every file is (the test above): a file's lines are its formatted lines.
    long = {path: n for path in listed if (n := len((ROOT / path).read_text().splitlines())) > MOST_LINES}
    assert not long, long
