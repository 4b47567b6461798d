"""The pre-commit hooks (.pre-commit-config.yaml) run exactly the commands of ``make lint``, so a
commit checked by the hooks passes the lint of ``make test``, and neither can change alone."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from tests.helpers.readme import PROJECT_ROOT


def make_recipe(makefile: str, target: str) -> list[str]:
    """The recipe lines of ``target`` in ``makefile``'s text, with ``$(VENV)`` as ``.venv`` (the
    Makefile's default) and continuation lines joined."""
    match = re.search(rf"^{re.escape(target)}:[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.MULTILINE)
    assert match, f"no target {target!r} with a recipe in the Makefile"
    recipe = match.group(1).replace("\\\n\t", " ")
    return [line.strip().replace("$(VENV)", ".venv") for line in recipe.splitlines() if line.strip()]


def hook_commands(config: str) -> list[str]:
    """The commands the hooks of a pre-commit config (YAML text) run, in order. Every hook must be
    local and run on the whole tree as ``make lint`` does (``pass_filenames: false``)."""
    commands = []
    for repo in yaml.safe_load(config)["repos"]:
        assert repo["repo"] == "local", "hooks run from the project's .venv, not fetched"
        for hook in repo["hooks"]:
            assert hook["language"] == "system" and hook["pass_filenames"] is False, hook["id"]
            commands.append(" ".join([hook["entry"], *hook.get("args", [])]))
    return commands


def test_hooks_are_make_lint() -> None:
    """Why: the hooks and ``make lint`` were written apart; this keeps them the same commands."""
    makefile = (PROJECT_ROOT / "Makefile").read_text(encoding="utf-8")
    config = (PROJECT_ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert hook_commands(config) == make_recipe(makefile, "lint")


def test_a_drift_is_seen(tmp_path: Path) -> None:
    """Why: the comparison must fail when the two differ (a hook missing, an option added)."""
    makefile = "lint: install\n\t$(VENV)/bin/ruff check .\n\t$(VENV)/bin/ruff format --check .\n\nx:\n\ttrue\n"
    hook = "      - {id: %s, name: n, entry: %s, language: system, pass_filenames: false}\n"
    config = "repos:\n  - repo: local\n    hooks:\n" + hook % ("a", ".venv/bin/ruff check .")
    assert make_recipe(makefile, "lint") == [".venv/bin/ruff check .", ".venv/bin/ruff format --check ."]
    assert hook_commands(config) != make_recipe(makefile, "lint")
    config += hook % ("b", ".venv/bin/ruff format --check .")
    assert hook_commands(config) == make_recipe(makefile, "lint")
