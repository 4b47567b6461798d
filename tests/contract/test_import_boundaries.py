"""Layering: engine/ imports only the stdlib; sdk/ only the stdlib and requests, never api/."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.config import PROJECT_ROOT

STDLIB = frozenset(sys.stdlib_module_names)


def imported_roots(path: Path, package: str) -> Iterator[tuple[int, str]]:
    """(line, top-level module) of each import in ``path``; relative imports count as ``package``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                yield node.lineno, package
            elif node.module:
                yield node.lineno, node.module.split(".")[0]


def python_files(package: str) -> list[Path]:
    return sorted((PROJECT_ROOT / package).rglob("*.py"))


@pytest.mark.parametrize(
    ("package", "allowed"),
    [
        ("engine", STDLIB | {"engine"}),
        ("sdk", STDLIB | {"sdk", "requests"}),
    ],
)
def test_import_boundary(package: str, allowed: frozenset[str]) -> None:
    files = python_files(package)
    assert files, f"no Python files under {package}/"
    bad = [
        f"{path.relative_to(PROJECT_ROOT)}:{line}: {root}"
        for path in files
        for line, root in imported_roots(path, package)
        if root not in allowed
    ]
    assert not bad, f"{package}/ imports outside its boundary:\n" + "\n".join(bad)


def test_boundary_checker_catches_violations(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import json\nfrom flask import Flask\nfrom . import x\nimport api.db\n")
    assert [root for _, root in imported_roots(bad, "engine")] == [
        "json",
        "flask",
        "engine",
        "api",
    ]
