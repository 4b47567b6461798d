"""docs/configuration.md's tables name every environment variable the code reads, and only those.

A setting is a string constant of the code that names an environment variable: ``HANDFOOT_*``,
``DATABASE_URL``, ``WEB_CONCURRENCY`` (the code reads each through ``os.environ`` or a mapping of
it, under the name as written). A row of the document's tables is its first cell's name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "configuration.md"
SETTING = re.compile(r"(HANDFOOT_[A-Z0-9_]*[A-Z0-9]|(TEST_)?DATABASE_URL|WEB_CONCURRENCY)")
ROW = re.compile(r"^\| `([A-Z][A-Z0-9_]*)` \|", re.MULTILINE)


def names_in_code(*folders: str) -> set[str]:
    names: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and SETTING.fullmatch(node.value):
                    names.add(node.value)
    return names


def test_every_setting_the_code_reads_is_documented() -> None:
    documented = set(ROW.findall(DOC.read_text(encoding="utf-8")))
    missing = names_in_code("api", "sdk", "engine", "rl") - documented
    assert not missing, f"read by the code, missing from docs/configuration.md: {sorted(missing)}"


def test_every_documented_setting_is_read() -> None:
    documented = set(ROW.findall(DOC.read_text(encoding="utf-8")))
    stale = documented - names_in_code("api", "sdk", "engine", "rl", "tests")
    assert not stale, f"in docs/configuration.md, read by no code: {sorted(stale)}"


def test_the_pattern_sees_a_setting() -> None:
    assert SETTING.fullmatch("HANDFOOT_RATE_LIMIT") and not SETTING.fullmatch("HANDFOOT_")
    assert ROW.findall("| `DATABASE_URL` | x | y |\n| variable | meaning |") == ["DATABASE_URL"]
