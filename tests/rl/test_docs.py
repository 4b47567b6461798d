"""docs/rl.md tells the truth about the index and the observation: its tables are the ones built."""

from __future__ import annotations

import math
import re
from pathlib import Path

from handfoot.rl import actions
from handfoot.rl.actions import ACTION_COUNT, INDEX
from handfoot.rl.observation import LAYOUT, SIZE

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
#: The first index of each macro, in order.
FIRSTS = ("draw", "take_pile:pair", "take_pile:pair+melds", "meld:4", "wild_onto:4", "burn:4", "meld_all",
          "discard:AS", "ask", "answer:yes", "meld:4:joker", "wild_onto:4:joker", "take_pile:natural_joker",
          "take_pile:naturals", "meld:wild:new")  # fmt: skip


def index_rows(text: str, row: str) -> list[tuple[int, int]]:
    """``(first, last)`` of each row of an index table in ``text`` (``row``: the pattern before the numbers)."""
    found = re.findall(row + r"(\d+)(?:-(\d+)|, (\d+))?(?: {2,}| \|)", text, re.MULTILINE)
    return [(int(first), int(last or other or first)) for first, last, other in found]


def test_both_tables_of_the_index_are_the_index() -> None:
    for text, row in ((actions.__doc__ or "", "^"), (DOC, r"^\| ")):
        rows = index_rows(text, row)
        assert [i for first, last in rows for i in range(first, last + 1)] == list(range(ACTION_COUNT))
        assert [first for first, _ in rows] == [INDEX[name] for name in FIRSTS]
    assert f"`Discrete({ACTION_COUNT})`" in DOC and f"int8 array ({ACTION_COUNT},)" in DOC


def test_the_observation_table_is_the_layout() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+(?: x \d+)?) \|", DOC, re.MULTILINE)
    sizes = [(name, math.prod(int(n) for n in size.split(" x "))) for name, size in rows]
    assert sizes == list(LAYOUT)
    assert f"float32 array ({SIZE},)" in DOC


def test_the_python_examples_run() -> None:
    """Every Python block of docs/rl.md runs as shown (the AEC loop, the single seat)."""
    blocks = re.findall(r"^```python\n(.*?)^```", DOC, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 2 and any("SingleSeatEnv" in b for b in blocks)
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), {"__name__": "docs_rl"})  # the docs' own code, run as shown
