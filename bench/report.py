"""The benchmark's table: rows of figures (the median of the runs, with min and max), each against
its target where it has one, printed as Markdown and written as JSON by ``bench.run``."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Row:
    section: str
    measure: str
    unit: str
    values: list[float]
    concurrency: int | None = None
    target: str = ""
    met: bool | None = None
    note: str = ""

    def summary(self) -> dict[str, Any]:
        vals = [v for v in self.values if v is not None]
        return {
            "section": self.section,
            "measure": self.measure,
            "concurrency": self.concurrency,
            "unit": self.unit,
            "median": statistics.median(vals) if vals else None,
            "min": min(vals) if vals else None,
            "max": max(vals) if vals else None,
            "runs": len(vals),
            "values": vals,
            "target": self.target,
            "met": self.met,
            "note": self.note,
        }


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, *a: Any, **kw: Any) -> Row:
        row = Row(*a, **kw)
        self.rows.append(row)
        return row

    def misses(self) -> list[str]:
        return [f"{r.measure}" + (f" c={r.concurrency}" if r.concurrency else "") for r in self.rows if r.met is False]


def target(row: Row, text: str, ok: Callable[[float], bool]) -> None:
    """Judge ``row`` by its median."""
    row.target = text
    if row.values:
        row.met = ok(statistics.median(row.values))


def ratios(mine: list[float], floor: list[float]) -> list[float]:
    """Run by run: each run's figure over the same run's floor."""
    return [a / b for a, b in zip(mine, floor, strict=True)]


def fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def table(report: Report) -> str:
    lines = [
        "| section | measure | c | median | min | max | unit | target | note |",
        "|---|---|---:|---:|---:|---:|---|---|---|",
    ]
    for row in report.rows:
        s = row.summary()
        verdict = row.target + ("" if row.met is None else (" ✓" if row.met else " ✗ MISS"))
        lines.append(
            f"| {row.section} | {row.measure} | {row.concurrency or ''} | {fmt(s['median'])} | "
            f"{fmt(s['min'])} | {fmt(s['max'])} | {row.unit} | {verdict} | {row.note} |"
        )
    return "\n".join(lines)
