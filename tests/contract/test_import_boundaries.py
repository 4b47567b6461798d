"""Layering: handfoot.engine (engine/) imports only the stdlib; the client (sdk/) only the stdlib,
requests, the engine and its extras' libraries, never the server (api/); the RL environment (rl/)
only the stdlib, the engine, numpy, gymnasium and pettingzoo, never the client or the server."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STDLIB = frozenset(sys.stdlib_module_names)


def imported_modules(path: Path, package: str) -> Iterator[tuple[int, str]]:
    """(line, imported module) of each import in ``path``; relative imports count as ``package``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                yield node.lineno, package
            elif node.module:
                yield node.lineno, node.module


def allowed(module: str, roots: frozenset[str], package: str, others: tuple[str, ...] = ()) -> bool:
    """Whether ``module`` is under a root in ``roots`` or inside ``package`` or a package of
    ``others``, and not the server."""
    if module == "handfoot.server" or module.startswith("handfoot.server."):
        return False
    return module.split(".")[0] in roots or any(module == p or module.startswith(p + ".") for p in (package, *others))


@pytest.mark.parametrize(
    ("folder", "package", "roots", "others"),
    [
        ("engine", "handfoot.engine", STDLIB, ()),
        # the client may use the engine (offline scoring), httpx (the async client, an extra) and
        # openskill (the arena's ratings, the arena extra: imported only when they are asked for)
        ("sdk", "handfoot", STDLIB | {"requests", "httpx", "openskill"}, ()),
        # the environment plays by the engine; numpy, gymnasium and pettingzoo are the rl extra
        ("rl", "handfoot.rl", STDLIB | {"numpy", "gymnasium", "pettingzoo"}, ("handfoot.engine",)),
    ],
)
def test_import_boundary(folder: str, package: str, roots: frozenset[str], others: tuple[str, ...]) -> None:
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files, f"no Python files under {folder}/"
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in files
        for line, module in imported_modules(path, package)
        if not allowed(module, roots, package, others)
    ]
    assert not bad, f"{folder}/ imports outside its boundary:\n" + "\n".join(bad)


def test_boundary_checker_catches_violations(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import json\nfrom flask import Flask\nfrom . import x\nimport handfoot.server.db\n")
    found = [module for _, module in imported_modules(bad, "handfoot.engine")]
    assert found == ["json", "flask", "handfoot.engine", "handfoot.server.db"]
    assert [allowed(m, STDLIB, "handfoot.engine") for m in found] == [True, False, True, False]
    assert not allowed("handfoot.server.db", STDLIB, "handfoot")
    rl = ("handfoot.engine",)
    assert allowed("handfoot.engine.play", STDLIB, "handfoot.rl", rl) and allowed(
        "handfoot.rl.actions", STDLIB, "handfoot.rl"
    )
    assert not allowed("handfoot.client", STDLIB, "handfoot.rl", rl) and not allowed(
        "handfoot.server", STDLIB, "handfoot.rl", rl
    )
