"""The fenced blocks of the README and of the docs files that show outputs, and the markers that
name them.

The documents are :data:`DOCUMENTS`: README.md first, then each docs file holding a named block
(the README's long sections moved there with their outputs). A block is named by an HTML comment
alone on the line right above its opening fence, ``<!-- NAME -->``. By convention ``NAME`` is a
command or snippet, ``NAME-output`` what it prints and ``NAME-<role>`` another block the same run
reads (the request a recipe is piped, the command line that runs a shown program); a name is unique
across all the documents. tests/process/test_readme_outputs.py runs every named block;
tests/contract/test_readme.py checks that every block which shows an output has a name, and that no
file outside :data:`DOCUMENTS` has one.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
README_PATH = PROJECT_ROOT / "README.md"

#: Every document with named blocks, as paths from the project's root: the README, then the docs
#: files its long sections moved to. One list, read by both README tests.
DOCUMENTS: tuple[str, ...] = (
    "README.md",
    "docs/sdk.md",
    "docs/cli.md",
    "docs/play.md",
    "docs/bots.md",
    "docs/problems.md",
)

_MARKER = re.compile(r"<!-- ([a-z0-9][a-z0-9-]*) -->")
_FENCE = "```"


@dataclass(frozen=True)
class Block:
    """One fenced block: ``line`` is the 1-based line of its opening fence, ``info`` the info string
    (``"python"``, ``"sh"``, ``"text"`` or ``""``), ``text`` its lines, each ending in ``\\n``, and
    ``name`` the marker above it (``None`` when unnamed); ``document`` the file it is in (a path of
    :data:`DOCUMENTS`)."""

    line: int
    info: str
    text: str
    name: str | None
    document: str = "README.md"

    @property
    def where(self) -> str:
        """``"docs/sdk.md line 12"``: where a reader finds the block."""
        return f"{self.document} line {self.line}"


def read_readme() -> str:
    return README_PATH.read_text(encoding="utf-8")


def read_documents() -> dict[str, str]:
    """The text of each of :data:`DOCUMENTS`, by path, in the list's order."""
    return {path: (PROJECT_ROOT / path).read_text(encoding="utf-8") for path in DOCUMENTS}


def fenced_blocks(readme: str, document: str = "README.md") -> list[Block]:
    """Every fenced block of ``readme`` (the text of ``document``), in order. Raises ``ValueError``
    on a fence left open."""
    lines = readme.split("\n")
    found: list[Block] = []
    index = 0
    while index < len(lines):
        if not lines[index].startswith(_FENCE):
            index += 1
            continue
        opening = index
        index += 1
        while index < len(lines) and not lines[index].startswith(_FENCE):
            index += 1
        if index == len(lines):
            raise ValueError(f"{document} line {opening + 1}: a fenced block is never closed")
        above = _MARKER.fullmatch(lines[opening - 1].strip()) if opening > 0 else None
        text = "".join(line + "\n" for line in lines[opening + 1 : index])
        info = lines[opening][len(_FENCE) :].strip()
        found.append(Block(opening + 1, info, text, above and above.group(1), document))
        index += 1
    return found


def all_blocks(documents: Mapping[str, str]) -> list[Block]:
    """Every fenced block of ``documents`` (text by path, as :func:`read_documents` gives), in order."""
    return [block for path, text in documents.items() for block in fenced_blocks(text, path)]


def named_blocks(documents: Mapping[str, str]) -> dict[str, Block]:
    """The named blocks of all ``documents`` by name. Raises ``ValueError`` when two blocks have one
    name (in one document or in two)."""
    named: dict[str, Block] = {}
    for block in all_blocks(documents):
        if block.name is None:
            continue
        if block.name in named:
            raise ValueError(f"two blocks are named {block.name!r}: {named[block.name].where} and {block.where}")
        named[block.name] = block
    return named


# A comment that says what a command prints or serves, on a shell line: `... # prints game #1`,
# `make run  # ..., (SQLite path printed), serve http://...`.
_SHELL_OUTPUT_COMMENT = re.compile(r"#.*\b(prints?|printed|serves?)\b")
# A Python print with what it prints in a trailing comment: `print(x)    # [('Team 1', 3740)]`.
_PRINT_COMMENT = re.compile(r"^\s*print\(.*\)\s+#\s")


def shows_output(block: Block) -> str | None:
    """Why ``block`` shows an output (so a test must produce it), or ``None`` when it shows none.

    An output is shown by: a block of info ``text`` or none (an output, or a transcript); a line
    beginning ``$ `` or ``>>> `` (a shell or Python session with its answers); a Python ``print``
    whose trailing comment is what it prints; a shell comment saying what a command prints or serves.
    """
    if block.info in ("text", ""):
        return "an output block (info string text or none)"
    lines = block.text.splitlines()
    if any(line.startswith(("$ ", ">>> ")) for line in lines):
        return "a session: commands with their answers"
    if block.info == "python" and any(_PRINT_COMMENT.match(line) for line in lines):
        return "a print with what it prints in a comment"
    if block.info == "sh" and any(_SHELL_OUTPUT_COMMENT.search(line) for line in lines):
        return "a shell comment saying what a command prints or serves"
    return None


def replace_block(documents: Mapping[str, str], name: str, text: str) -> dict[str, str]:
    """``documents`` with the content of the block named ``name`` replaced by ``text`` (its lines,
    each ending in ``\\n``), in whichever document holds it. Raises ``KeyError`` when no block has
    that name."""
    block = named_blocks(documents)[name]
    lines = documents[block.document].split("\n")
    closing = block.line + len(block.text.splitlines())  # 0-based index of the closing fence
    replaced = "\n".join([*lines[: block.line], *text.splitlines(), *lines[closing:]])
    return {**documents, block.document: replaced}


def planned_commands(target: str, venv: Path) -> list[str]:
    """The commands ``make -n target`` would run with ``VENV=venv`` (nothing is run), one a line."""
    done = subprocess.run(
        ["make", "-n", "-C", str(PROJECT_ROOT), target, f"VENV={venv}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in done.stdout.splitlines() if line.strip()]
