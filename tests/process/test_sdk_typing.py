"""The SDK's types, read by ``mypy --strict`` as a user's code is: a preset id that is none of the
server's (``preset="pagatt"``) and a game status that is not one are refused, on ``Client`` and
``AsyncClient`` alike, and the real ones pass. (That ``PresetId`` and ``GameStatus`` list what the
server serves: tests/contract/test_sdk_coverage.py.)

mypy reads the source tree under the installed names through a link tree, as ``make typecheck`` does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

USE = """\
from handfoot.client import Client, PresetId
from handfoot.client.aio import AsyncClient


def sync_calls(hf: Client, preset: PresetId) -> None:
    hf.validate_meld(preset="pagat", cards=["KS", "KH", "KD"])
    hf.validate_meld(preset="pagatt", cards=["KS", "KH", "KD"])  # refused
    hf.score_round(preset="online-11-13", teams=[])
    hf.score_round(preset="online_11_13", teams=[])  # refused
    hf.compare_presets(presets=["pagat", "bicycle"], teams=[])
    hf.compare_presets(presets=["pagat", "bicylce"], teams=[])  # refused
    hf.create_game(name="g", preset=preset, teams=[])
    hf.preset("wages")
    hf.preset("wage")  # refused
    list(hf.games(status="finished", preset="bga"))
    list(hf.games(status="paused"))  # refused
    list(hf.games(preset="BGA"))  # refused


async def async_calls(hf: AsyncClient) -> None:
    await hf.validate_meld(preset="hodges", cards=["KS", "KH", "KD"])
    await hf.validate_meld(preset="hodge", cards=["KS", "KH", "KD"])  # refused
    await hf.create_table(preset="house")
    await hf.create_table(preset="home")  # refused
    await hf.games_page(status="in_progress")
    await hf.games_page(status="started")  # refused
"""


def test_mypy_refuses_unknown_preset_ids_and_statuses(tmp_path: Path) -> None:
    tree = tmp_path / "typecheck" / "handfoot"
    tree.mkdir(parents=True)
    (tree / "client").symlink_to(ROOT / "sdk")
    (tree / "engine").symlink_to(ROOT / "engine")
    (tmp_path / "use.py").write_text(USE, encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--config-file=",
            f"--cache-dir={tmp_path / '.mypy_cache'}",
            "--follow-imports=silent",  # errors of use.py only
            "use.py",
        ],
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": str(tmp_path / "typecheck")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    refused = {number for number, line in enumerate(USE.splitlines(), 1) if line.endswith("# refused")}
    reported = {int(n) for n in re.findall(r"^use\.py:(\d+): error:", result.stdout, re.MULTILINE)}
    assert reported == refused, result.stdout + result.stderr
    assert result.returncode == 1
