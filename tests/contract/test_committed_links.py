"""No committed file is a symbolic link that resolves to nothing. A link is resolved against the
checkout: one that leaves it (an absolute path, or one up past the root, such as a link to another
worktree's virtualenv) resolves on one developer's machine at best and dangles in every other clone."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.helpers.readme import PROJECT_ROOT


def dangling_links(root: Path) -> list[str]:
    """The committed symbolic links of the git checkout ``root`` (``git ls-files -s`` mode 120000)
    whose target is no file or folder inside the checkout, each as ``"path -> target"``."""
    listed = subprocess.run(
        ["git", "ls-files", "-s", "-z"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    links = [entry.split("\t", 1)[1] for entry in listed.split("\0") if entry.startswith("120000 ")]
    inside = root.resolve()
    return [
        f"{path} -> {os.readlink(root / path)}"
        for path in links
        if not (root / path).exists() or not (root / path).resolve().is_relative_to(inside)
    ]


def test_no_committed_link_dangles() -> None:
    assert not dangling_links(PROJECT_ROOT)


def test_a_dangling_link_is_found(tmp_path: Path) -> None:
    """The check sees a committed link to nothing and one out of the checkout to a file that exists,
    and passes a link that resolves inside it."""

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "target.txt").write_text("here\n", encoding="utf-8")
    (tmp_path / "good").symlink_to("target.txt")
    (tmp_path / "gone").symlink_to("/nonexistent/elsewhere/.venv")
    (tmp_path / "out").symlink_to(Path(__file__).resolve())  # exists here, in no other clone
    git("add", "target.txt", "good", "gone", "out")
    assert dangling_links(tmp_path) == ["gone -> /nonexistent/elsewhere/.venv", f"out -> {Path(__file__).resolve()}"]
