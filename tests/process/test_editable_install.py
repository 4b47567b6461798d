"""The README's editable install, as a reader types it, in a fresh virtualenv: ``mypy --strict``
then finds ``handfoot.client`` in code that uses it (the default editable install's import hook
hid it: ``import-not-found``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from tests.helpers.readme import PROJECT_ROOT, read_readme

USE = """\
from handfoot.client import Client


def first_total(hf: Client) -> int:
    return hf.score_round(preset="pagat", teams=[]).teams[0].total
"""


def readme_install() -> list[str]:
    """The README's first ``pip install ... -e .`` line, as its words (the comment dropped)."""
    [line, *_] = [line for line in read_readme().splitlines() if re.match(r"^pip install .*-e \.(\s|$)", line)]
    return line.split("#")[0].split()


def test_mypy_strict_sees_the_client_after_the_readmes_install(tmp_path: Path) -> None:
    words = readme_install()
    assert "editable_mode=strict" in words
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--upgrade", "pip>=25.1"], check=True, timeout=300)
    installed = subprocess.run(
        [str(python), "-m", *words], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (tmp_path / "use.py").write_text(USE, encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", f"--python-executable={python}", "--config-file=", "use.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    shutil.rmtree(env_dir)
