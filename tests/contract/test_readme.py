"""The README opens on what handfoot is and a one-minute start, defines the game's words before the
tour, and stays short; docs/problems.md documents every problem code and docs/presets.md every
preset; every block of the README and of the docs files holding named blocks (``DOCUMENTS``) that
shows an output is named for tests/process/test_readme_outputs.py, which produces that output; every
file a command of theirs names is in the repository (or made by a command shown before it); every
link between the project's Markdown files leads to a file and heading that exist; and no install
line asks PyPI for a handfoot distribution, which is not published."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tomllib
from pathlib import Path, PurePosixPath

from handfoot.client import __version__
from handfoot.engine import PRESETS
from handfoot.server.codes import PROBLEM_CODES
from handfoot.server.problems import problem_types
from tests.helpers.readme import (
    DOCUMENTS,
    PROJECT_ROOT,
    Block,
    all_blocks,
    fenced_blocks,
    named_blocks,
    read_documents,
    read_readme,
    shows_output,
)

README = read_readme()
DOCS = read_documents()
#: The README's length limit (issue 31): a reader's first page, with the rest in docs/.
README_MAX_LINES = 500


def _tracked(suffix: str) -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True)
    return [path for path in listed.stdout.splitlines() if path.endswith(suffix)]


def _sections(text: str) -> list[str]:
    """The headings of ``text`` (``## ...`` and deeper; not inside fenced blocks), in order."""
    outside = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return [line.lstrip("#").strip() for line in outside.splitlines() if re.match(r"#{1,6} ", line)]


def test_readme_opens_with_what_it_is_and_a_one_minute_start() -> None:
    """The first section after the introduction is the one-minute start, whose first block is
    ``make run`` with ``PORT=`` beside it; and the README stays short."""
    assert _sections(README)[1] == "One-minute start", _sections(README)[:3]
    intro = README.split("\n## ", 1)[0]
    assert all(name in intro for name in ("handfoot.engine", "handfoot.client", "handfoot.server"))
    first_block = fenced_blocks(README)[0]
    assert first_block.name == "make-run" and "make run PORT=" in first_block.text
    assert len(README.splitlines()) <= README_MAX_LINES, len(README.splitlines())


GAME_WORDS = (
    "Meld",
    "Book",
    "clean",
    "dirty",
    "wild",
    "Natural",
    "Wild card",
    "Red threes",
    "Black threes",
    "Opening meld",
    "Contract",
    "Going out",
    "Hand",
    "foot",
    "Stock",
    "Discard pile",
    "Burn pile",
    "Round",
    "11/13",
)


def test_the_game_words_are_defined_before_the_tour() -> None:
    """Each word of the game the tour uses is defined (in bold) in the glossary, which comes before it."""
    glossary = README.split("\n## The game's words\n", 1)[1].split("\n## ", 1)[0]
    assert not [word for word in GAME_WORDS if f"**{word}**" not in glossary]
    sections = _sections(README)
    assert sections.index("The game's words") < sections.index("A short tour")


def test_every_problem_code_is_documented() -> None:
    problems = DOCS["docs/problems.md"]
    missing = [code for code in [*PROBLEM_CODES, *problem_types] if f"| `{code}` |" not in problems]
    assert not missing


def test_every_preset_has_a_section_and_a_readme_line() -> None:
    presets = (PROJECT_ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
    assert not [pid for pid in PRESETS if f"## `{pid}`" not in presets]
    assert not [pid for pid in PRESETS if f"| `{pid}` |" not in README]


def test_every_block_that_shows_an_output_is_named() -> None:
    """A block showing an output has a ``<!-- NAME -->`` marker, so that a test produces it."""
    unnamed = [
        f"{b.where}: {reason}" for b in all_blocks(DOCS) if b.name is None and (reason := shows_output(b)) is not None
    ]
    assert not unnamed, f"blocks that show an output without a name: {unnamed}"


def test_no_named_block_is_outside_the_documents() -> None:
    """A Markdown file with a named block is on the list of documents, so its blocks are run."""
    outside = [
        block.where
        for path in _tracked(".md")
        if path not in DOCUMENTS
        for block in fenced_blocks((PROJECT_ROOT / path).read_text(encoding="utf-8"), path)
        if block.name is not None
    ]
    assert not outside, f"named blocks in files not in tests/helpers/readme.py's DOCUMENTS: {outside}"


def test_every_output_block_follows_its_command() -> None:
    named = named_blocks(DOCS)
    orphans = [
        name
        for name, block in named.items()
        if name.endswith("-output")
        and (
            (command := named.get(name[: -len("-output")])) is None
            or command.document != block.document
            or command.line > block.line
        )
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
        f"{block.where}: {path}"
        for block in all_blocks(DOCS)
        for path, made in _named_paths(block)
        if os.path.normpath(path) not in tracked | folders and not any(path.startswith(m) for m in made)
    ]
    assert not missing, f"shown commands name files the repository does not have: {missing}"


def test_the_paths_check_sees_the_commands_files() -> None:
    """The check above reads the paths it must: a session's commands and not their output, a
    continued command, a redirection's file, a wheel's extras, a Python ``open``."""
    session = Block(1, "sh", "$ handfoot score a/b.json \\\n    --x c.csv\nout/put.json\n$ jq . > made.json\n", None)
    assert [path for path, _ in _named_paths(session)] == ["a/b.json", "c.csv"]
    script = Block(1, "sh", "make dist\npip install 'dist/h-1.whl[server]' --find-links dist\n", None)
    assert _named_paths(script) == [("dist/h-1.whl", {".venv/", "dist/"})]
    assert _named_paths(Block(1, "python", 'json.load(open("x/y.json"))\n', None)) == [("x/y.json", set())]


def test_the_wheels_the_docs_name_carry_the_packages_version() -> None:
    text = "".join((PROJECT_ROOT / path).read_text(encoding="utf-8") for path in _tracked(".md"))
    named = set(re.findall(r"dist/handfoot(?:_server)?-([0-9][^-\s]*)-", text))
    assert named == {__version__}, named


# `pip install` of a distribution by name, from an index: handfoot and handfoot-server are not
# published, so such a line fails as written (a path, `.`, `./api`, `dist/...whl`, is what works).
_PIP_INSTALL = re.compile(r"pip install\b([^`\n]*)")
_FROM_INDEX = re.compile(r"""(?:^|\s)['"]?handfoot(?:-server)?(?:\[[\w,]+\])?['"]?(?=\s|$)""")


def pypi_installs(text: str) -> list[str]:
    """The ``pip install`` commands of ``text`` that ask an index for handfoot or handfoot-server."""
    return [m.group(0) for m in _PIP_INSTALL.finditer(text) if _FROM_INDEX.search(m.group(1).split(" #")[0])]


def test_no_install_line_asks_pypi_for_handfoot() -> None:
    found = [
        f"{path}: {command}"
        for path in _tracked(".md")
        if not path.startswith("tests/")
        for command in pypi_installs((PROJECT_ROOT / path).read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_the_install_check_sees_an_index_install() -> None:
    assert pypi_installs("`pip install 'handfoot[async]'`") == ["pip install 'handfoot[async]'"]
    found = pypi_installs('pip install "handfoot-server[postgres]"  # and a comment')
    assert found == ['pip install "handfoot-server[postgres]"  # and a comment']
    assert pypi_installs("pip install -e '.[async]' and pip install dist/handfoot-0.1.0-py3-none-any.whl") == []
    assert pypi_installs("pip install --find-links dist 'dist/handfoot-0.1.0-py3-none-any.whl[server]'") == []


def readme_extras(readme: str) -> set[str]:
    """The names in backquotes of the README's paragraph that lists the extras (``Extras: ...``)."""
    [paragraph] = [p for p in readme.split("\n\n") if "Extras:" in p]
    return set(re.findall(r"`([\w-]+)`", paragraph.split("Extras:", 1)[1]))


def test_the_readme_names_every_extra() -> None:
    """Why: the notebooks' extra (Jupyter) was named nowhere a newcomer reads first (issue 44)."""
    files = (PROJECT_ROOT / "pyproject.toml", PROJECT_ROOT / "api" / "pyproject.toml")
    extras = {name for path in files for name in tomllib.loads(path.read_text())["project"]["optional-dependencies"]}
    assert extras >= {"async", "notebooks", "postgres"}  # read from both files
    assert extras - readme_extras(README) == set()
    assert "notebooks" not in readme_extras("Extras: `async` (httpx) on `handfoot`.\n\n`notebooks`")


# --- Links between the Markdown files --------------------------------------------------------------

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of ``text``, a repeated heading's as GitHub numbers it (``-1``, ...)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for heading in _sections(text):
        anchor = github_anchor(heading)
        found.add(f"{anchor}-{seen[anchor]}" if anchor in seen else anchor)
        seen[anchor] = seen.get(anchor, 0) + 1
    return found


def broken_links(path: str, text: str, root: Path) -> list[str]:
    """The relative links of ``text`` (the file ``path`` under ``root``) to a file that is not there,
    or to a heading its Markdown file lacks; links to the web and images' sizes are not checked."""
    outside = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    broken: list[str] = []
    for target in _LINK.findall(outside):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file_part, _, anchor = target.partition("#")
        resolved = (root / path).parent / file_part
        if file_part and not resolved.exists():
            broken.append(f"{path}: {target} (no such file)")
            continue
        if anchor and (not file_part or resolved.suffix == ".md"):
            headings = anchors(resolved.read_text(encoding="utf-8") if file_part else text)
            if anchor not in headings:
                broken.append(f"{path}: {target} (no such heading)")
    return broken


def test_every_link_between_the_docs_leads_somewhere() -> None:
    broken = [
        link
        for path in _tracked(".md")
        for link in broken_links(path, (PROJECT_ROOT / path).read_text(encoding="utf-8"), PROJECT_ROOT)
    ]
    assert not broken, broken


def test_the_link_check_sees_a_missing_file_and_heading(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\n## The game's words: `x`\n\n## Twice\n\n## Twice\n")
    text = "[ok](docs/a.md#the-games-words-x) [two](docs/a.md#twice-1) [web](https://x.org/#y) [gone](docs/b.md)"
    text += " [no](docs/a.md#nowhere) [self](#here) [away](#away)\n\n## Here\n"
    assert broken_links("README.md", text, tmp_path) == [
        "README.md: docs/b.md (no such file)",
        "README.md: docs/a.md#nowhere (no such heading)",
        "README.md: #away (no such heading)",
    ]
