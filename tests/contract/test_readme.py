"""The README documents every problem code and every preset; every block of it that shows an
output is named for tests/process/test_readme_outputs.py, which produces that output; and every
file a command of it names is in the repository (or made by a command shown before it)."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import PurePosixPath

from handfoot.client import __version__
from handfoot.engine import PRESETS
from handfoot.server.codes import PROBLEM_CODES
from handfoot.server.problems import problem_types
from tests.helpers.readme import PROJECT_ROOT, Block, fenced_blocks, named_blocks, read_readme, shows_output

README = read_readme()


def test_readme_opens_with_the_two_commands() -> None:
    first_block = README.split("```")[1]
    assert "make run" in first_block and "make test" in first_block


def test_every_problem_code_is_in_the_readme() -> None:
    missing = [code for code in [*PROBLEM_CODES, *problem_types] if f"| `{code}` |" not in README]
    assert not missing


def test_every_preset_has_a_readme_section() -> None:
    assert not [pid for pid in PRESETS if f"### `{pid}`" not in README]


def test_every_block_that_shows_an_output_is_named() -> None:
    """A block showing an output has a ``<!-- NAME -->`` marker, so that a test produces it."""
    unnamed = [
        f"line {b.line}: {reason}"
        for b in fenced_blocks(README)
        if b.name is None and (reason := shows_output(b)) is not None
    ]
    assert not unnamed, f"README blocks that show an output without a name: {unnamed}"


def test_every_output_block_follows_its_command() -> None:
    named = named_blocks(README)
    orphans = [
        name
        for name, block in named.items()
        if name.endswith("-output")
        and (name[: -len("-output")] not in named or named[name[: -len("-output")]].line > block.line)
    ]
    assert not orphans


# Folders a command the README shows makes: `.venv` by `make install` (and `make run`, the first
# block), `dist` by `make dist`, which must come before the path in the same block.
MADE_BY: dict[str, str | None] = {".venv/": None, "dist/": "make dist"}
_FILE_EXTENSION = re.compile(r"\.(json|py|csv|whl|ipynb|md|txt)$")
_PATH = re.compile(r"[\w.-]+(/[\w.*-]+)*/?")


def _commands(block: Block) -> list[str]:
    """The shell commands of a block, each with its continuation lines (a trailing backslash, or a
    quote still open); in a ``$`` session only the commands, not what they printed."""
    session = any(line.startswith("$ ") for line in block.text.splitlines())
    commands: list[str] = []
    pending: str | None = None if session else ""
    for line in block.text.splitlines():
        if session and line.startswith("$ "):
            pending = ""
            line = line[2:]
        if pending is None:
            continue  # a session's output
        pending += line + "\n"
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # a quote still open: the command goes on
            continue
        if not pending.rstrip().endswith("\\"):
            commands.append(pending)
            pending = None if session else ""
    return commands


def _named_paths(block: Block) -> list[tuple[str, set[str]]]:
    """Each relative file path a block's commands (or a Python block's ``open``) name, with the
    paths made before it: a redirection's file (``> table.json``) and the folders of :data:`MADE_BY`."""
    if block.info == "python":
        return [(path, set()) for path in re.findall(r"\bopen\(\"([^\"]+)\"\)", block.text)]
    if block.info not in ("sh", "text"):
        return []
    found: list[tuple[str, set[str]]] = []
    made = {prefix for prefix, maker in MADE_BY.items() if maker is None}
    for command in _commands(block):
        words = shlex.split(command, comments=True)
        for before, word in zip(["", *words], words, strict=False):
            word = re.sub(r"\[[\w,]+\]$", "", word)  # a wheel's extras: dist/x.whl[server]
            if before in (">", ">>"):
                made.add(word)
            elif ("/" in word or _FILE_EXTENSION.search(word)) and _PATH.fullmatch(word):
                found.append((word, set(made)))
        made |= {prefix for prefix, maker in MADE_BY.items() if maker and command.startswith(maker)}
    return found


def test_every_file_a_command_names_is_in_the_repository() -> None:
    """A path a shown command reads is a committed file or folder, or made by a command before it."""
    tracked = set(
        subprocess.run(
            ["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
        ).stdout.splitlines()
    )
    folders = {str(parent) for path in tracked for parent in PurePosixPath(path).parents}
    missing = [
        f"line {block.line}: {path}"
        for block in fenced_blocks(README)
        for path, made in _named_paths(block)
        if path.rstrip("/") not in tracked | folders and not any(path.startswith(m) for m in made)
    ]
    assert not missing, f"README commands name files the repository does not have: {missing}"


def test_the_paths_check_sees_the_commands_files() -> None:
    """The check above reads the paths it must: a session's commands and not their output, a
    continued command, a redirection's file, a wheel's extras, a Python ``open``."""
    session = Block(1, "sh", "$ handfoot score a/b.json \\\n    --x c.csv\nout/put.json\n$ jq . > made.json\n", None)
    assert [path for path, _ in _named_paths(session)] == ["a/b.json", "c.csv"]
    script = Block(1, "sh", "make dist\npip install 'dist/h-1.whl[server]' --find-links dist\n", None)
    assert _named_paths(script) == [("dist/h-1.whl", {".venv/", "dist/"})]
    assert _named_paths(Block(1, "python", 'json.load(open("x/y.json"))\n', None)) == [("x/y.json", set())]


def test_the_wheels_the_readme_names_carry_the_packages_version() -> None:
    named = set(re.findall(r"dist/handfoot(?:_server)?-([0-9][^-\s]*)-", README))
    assert named == {__version__}, named
