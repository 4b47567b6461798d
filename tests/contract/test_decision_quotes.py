"""Every rules decision cites a sentence the seed it names holds (docs/rules-decisions.md).

Each entry's ``Source`` bullet quotes the rule texts: a quote belongs to the last source named before
it (``seed 000`` to ``seed 004``, or a rule set's name: Pagat, Bicycle, Wikipedia, Saskatchewan and
Steve Simpson are seed 000; the online 11/13 game seed 001; the Hodges family rules seed 002; the
Wages reunion rules seed 003; Board Game Arena seed 004). Quotes after an issue, PRESETS.md, a
decision or a worked case are not a seed's and are not checked. A quote's parts around ``...`` must
each be in the seed, compared with whitespace collapsed, case folded and quotation marks made one.

The seeds are read from ``../shared/seeds`` beside the project where present; elsewhere from the
project's copy of the quoted lines, ``tests/cases/seed-lines.json`` (for each seed, the runs of its
lines that hold a quote). Where the seeds are present the copy must be current: ``UPDATE_SEED_LINES=1``
rewrites it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
COPY = ROOT / "tests" / "cases" / "seed-lines.json"
DECISIONS = ROOT / "docs" / "rules-decisions.md"

#: What names a source in a Source bullet: a seed (its number), or None for sources that are not seeds.
_NAMES: tuple[tuple[str, str | None], ...] = (
    (r"seed (00\d)", ""),
    (r"\bPagat\b|\bBicycle\b|\bWikipedia\b|Saskatchewan|Steve Simpson", "000"),
    (r"online 11/13", "001"),
    (r"Hodges", "002"),
    (r"Wages", "003"),
    (r"Board Game Arena|\bBGA\b", "004"),
    (r"\b[Ii]ssue\b|PRESETS\.md|DESIGN|\bD\d+\b|worked case", None),
)
_QUOTE = re.compile(r'"([^"]+)"|\u201c([^\u201d]+)\u201d')
_MARKS = str.maketrans({"\u201c": "'", "\u201d": "'", "\u2018": "'", "\u2019": "'", '"': "'", "\u2212": "-"})


def norm(text: str) -> str:
    """Whitespace collapsed, case folded, every quotation mark one."""
    return re.sub(r"\s+", " ", text.translate(_MARKS)).strip().casefold()


def quotes() -> list[tuple[str, str, str]]:
    """(entry heading, seed number, quoted part) for every part of every seed quote of every entry."""
    out: list[tuple[str, str, str]] = []
    for entry in re.split(r"^## ", DECISIONS.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
        heading = entry.split("\n", 1)[0]
        source = re.search(r"^- Sources?: (.*?)(?=^- [A-Z]|\Z)", entry, flags=re.MULTILINE | re.DOTALL)
        if source is None:
            continue
        text = source.group(1)
        marks: list[tuple[int, str, str | None]] = []
        for pattern, seed in _NAMES:
            for m in re.finditer(pattern, text):
                marks.append((m.start(), "name", m.group(1) if seed == "" else seed))
        for m in _QUOTE.finditer(text):
            marks.append((m.start(), "quote", next(g for g in m.groups() if g)))
        current: str | None = None
        for _, kind, value in sorted(marks, key=lambda mark: mark[0]):
            if kind == "name":
                current = value
            elif current is not None and value is not None:
                out += [(heading, current, part) for part in re.split(r"\.\.\.|\u2026", value) if part.strip()]
    return out


def _part(part: str) -> str:
    return norm(part).strip(" .,;:")


def _seed_texts() -> dict[str, str]:
    return {path.name[:3]: path.read_text(encoding="utf-8") for path in sorted(SEEDS.glob("00*.txt"))}


def _lines_holding(seed: str, part: str) -> str:
    """The shortest run of ``seed``'s lines that holds ``part``."""
    lines = seed.split("\n")
    for size in range(1, len(lines) + 1):
        for start in range(len(lines) - size + 1):
            run = "\n".join(lines[start : start + size])
            if part in norm(run):
                return run
    raise AssertionError(part)


def _copy_from_seeds() -> dict[str, list[str]]:
    texts = _seed_texts()
    copy: dict[str, list[str]] = {}
    for _, seed, part in quotes():
        if _part(part) in norm(texts[seed]):
            run = _lines_holding(texts[seed], _part(part))
            if run not in copy.setdefault(seed, []):
                copy[seed].append(run)
    return {seed: copy[seed] for seed in sorted(copy)}


def test_every_quote_is_in_the_seed_it_names() -> None:
    found = quotes()
    assert len(found) > 100  # the parse finds the quotes (about two a decision)
    if SEEDS.is_dir():
        texts = {seed: norm(text) for seed, text in _seed_texts().items()}
    else:
        copy = json.loads(COPY.read_text(encoding="utf-8"))
        texts = {seed: "\n".join(norm(run) for run in runs) for seed, runs in copy.items()}
    missing = [
        f"{heading}: seed {seed} {part.strip()!r}"
        for heading, seed, part in found
        if _part(part) not in texts.get(seed, "")
    ]
    assert not missing, "quotes not found in the seed named:\n" + "\n".join(missing)


def test_the_project_copy_of_the_quoted_lines_is_current() -> None:
    """Where the seeds are beside the project the copy is what they give; elsewhere (a clone with
    nothing beside it, where CI=true allows no skip) the copy must at least hold every seed's lines."""
    copy = json.loads(COPY.read_text(encoding="utf-8"))
    assert set(copy) == {"000", "001", "002", "003", "004"} and all(copy.values())
    if not SEEDS.is_dir():
        return
    fresh = _copy_from_seeds()
    if os.environ.get("UPDATE_SEED_LINES"):
        COPY.write_text(json.dumps(fresh, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert json.loads(COPY.read_text(encoding="utf-8")) == fresh, "run with UPDATE_SEED_LINES=1 and commit"


def test_a_misquote_is_caught() -> None:
    """The check can fail: a quote with a word changed is not in its seed."""
    texts = (
        _seed_texts()
        if SEEDS.is_dir()
        else {seed: "\n".join(runs) for seed, runs in json.loads(COPY.read_text(encoding="utf-8")).items()}
    )
    assert _part("Each following round increases by 50 points minimum to lay down") in norm(texts["002"])
    assert _part("Each following round increases by 60 points minimum to lay down") not in norm(texts["002"])
