"""The README documents every problem code and every preset."""

from __future__ import annotations

from pathlib import Path

from handfoot.engine import PRESETS
from handfoot.server.codes import PROBLEM_CODES
from handfoot.server.problems import problem_types

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    first_block = README.split("```")[1]
    assert "make run" in first_block and "make test" in first_block


def test_every_problem_code_is_in_the_readme() -> None:
    missing = [
        code
        for code in [*PROBLEM_CODES, *problem_types]
        if f"| `{code}` |" not in README
    ]
    assert not missing


def test_every_preset_has_a_readme_section() -> None:
    assert not [pid for pid in PRESETS if f"### `{pid}`" not in README]
