"""The README's fenced blocks and the markers that name them.

A block is named by an HTML comment alone on the line right above its opening fence,
``<!-- NAME -->``. By convention ``NAME`` is a command or snippet, ``NAME-output`` what it prints
and ``NAME-<role>`` another block the same run reads (the request a recipe is piped, the command
line that runs a shown program). tests/process/test_readme_outputs.py runs every named block;
tests/contract/test_readme.py checks that every block which shows an output has a name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
README_PATH = PROJECT_ROOT / "README.md"

_MARKER = re.compile(r"<!-- ([a-z0-9][a-z0-9-]*) -->")
_FENCE = "```"


@dataclass(frozen=True)
class Block:
    """One fenced block: ``line`` is the 1-based line of its opening fence, ``info`` the info string
    (``"python"``, ``"sh"``, ``"text"`` or ``""``), ``text`` its lines, each ending in ``\\n``, and
    ``name`` the marker above it (``None`` when unnamed)."""

    line: int
    info: str
    text: str
    name: str | None


def read_readme() -> str:
    return README_PATH.read_text(encoding="utf-8")


def fenced_blocks(readme: str) -> list[Block]:
    """Every fenced block of ``readme``, in order. Raises ``ValueError`` on a fence left open."""
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
            raise ValueError(f"README.md line {opening + 1}: a fenced block is never closed")
        above = _MARKER.fullmatch(lines[opening - 1].strip()) if opening > 0 else None
        text = "".join(line + "\n" for line in lines[opening + 1 : index])
        found.append(Block(opening + 1, lines[opening][len(_FENCE) :].strip(), text, above and above.group(1)))
        index += 1
    return found


def named_blocks(readme: str) -> dict[str, Block]:
    """The named blocks by name. Raises ``ValueError`` when two blocks have one name."""
    named: dict[str, Block] = {}
    for block in fenced_blocks(readme):
        if block.name is None:
            continue
        if block.name in named:
            raise ValueError(
                f"README.md: two blocks are named {block.name!r} (lines {named[block.name].line} and {block.line})"
            )
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


def replace_block(readme: str, name: str, text: str) -> str:
    """``readme`` with the content of the block named ``name`` replaced by ``text`` (its lines, each
    ending in ``\\n``). Raises ``KeyError`` when no block has that name."""
    block = named_blocks(readme)[name]
    lines = readme.split("\n")
    closing = block.line + len(block.text.splitlines())  # 0-based index of the closing fence
    return "\n".join([*lines[: block.line], *text.splitlines(), *lines[closing:]])
