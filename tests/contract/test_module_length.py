"""Every module of the engine, the server and the SDK stays under 500 lines (the house rule: a module a
reader takes in whole); a module that grows past it is split, not excused."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for folder in ("engine", "api", "sdk", "rl") for p in (ROOT / folder).rglob("*.py"))
LIMIT = 500


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_module_is_under_500_lines(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines < LIMIT, f"{path.relative_to(ROOT)} has {lines} lines"
