"""The project's copy of the worked cases equals ``../shared/cases`` wherever that folder exists.

``../shared/cases`` (beside the clone) is where new cases appear; the project tests its own copy
(``tests/cases/worked``) so that a clone with nothing beside it still tests itself. A case there
that is missing here, or that differs, fails until it is taken in:
``cp ../shared/cases/*.json tests/cases/worked/``.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import WORKED_CASES

SHARED_CASES = Path(__file__).resolve().parents[3] / "shared" / "cases"


def case_files(folder: Path) -> dict[str, bytes]:
    """``{file name: bytes}`` of the ``*.json`` cases and the README in ``folder``."""
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.json")) + sorted(folder.glob("README.md"))}


def copy_problems(shared: dict[str, bytes], ours: dict[str, bytes]) -> list[str]:
    """What keeps ``ours`` from being ``shared``: missing, differing and extra files, by name."""
    return (
        [f"{name}: in ../shared/cases, not in tests/cases/worked" for name in shared if name not in ours]
        + [f"{name}: differs from ../shared/cases" for name in shared if name in ours and ours[name] != shared[name]]
        + [f"{name}: not in ../shared/cases" for name in ours if name not in shared]
    )


def test_copy_equals_shared_cases() -> None:
    """Equal to ``../shared/cases`` where it exists. A clone with nothing beside it (a user's machine, where
    CI=true allows no skip) has only its copy to test: it must hold cases, which tests/cases/test_worked_cases.py
    runs one by one."""
    ours = case_files(WORKED_CASES)
    assert any(name.endswith(".json") for name in ours), f"no cases in {WORKED_CASES}"
    if not SHARED_CASES.is_dir():
        return
    problems = copy_problems(case_files(SHARED_CASES), ours)
    assert not problems, "tests/cases/worked is not ../shared/cases:\n" + "\n".join(problems)


def test_copy_problems_names_each_kind() -> None:
    shared = {"a.json": b"1", "b.json": b"2"}
    ours = {"b.json": b"3", "c.json": b"4"}
    assert copy_problems(shared, ours) == [
        "a.json: in ../shared/cases, not in tests/cases/worked",
        "b.json: differs from ../shared/cases",
        "c.json: not in ../shared/cases",
    ]
    assert copy_problems(shared, dict(shared)) == []
