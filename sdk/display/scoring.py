"""How round scores and preset comparisons print; ``score_plain`` is the ``handfoot score`` output."""

from __future__ import annotations

import html

from ..types import (
    Breakdown,
    Comparison,
    Line,
    RoundComparison,
    RoundScore,
)
from ._blocks import fmt_int, html_of, html_table, problem_lines, text_of, text_table, with_problems


def _line_cells(line: Line) -> tuple[str, str, str, str]:
    each = "" if line.points_each is None else f"x {fmt_int(line.points_each)}"
    return (line.label, fmt_int(line.count), each, fmt_int(line.points))


@text_of(Line)
def line_text(line: Line) -> str:
    label, count, each, points = _line_cells(line)
    middle = " ".join(p for p in (count, each) if p)
    return f"{label}: {middle} = {points}" if middle else f"{label}: {points}"


@text_of(Breakdown)
def breakdown_text(team: Breakdown) -> str:
    rows = [_line_cells(line) for line in team.lines]
    rows.append(("Total", "", "", fmt_int(team.total)))
    out = f"{team.name}\n{text_table(rows, (False, True, True, True), indent='  ')}"
    if team.warnings:  # scored, but breaking a rule (melds that stand, a table below the opening)
        out = with_problems(f"{out}\n  Warnings: scored as laid", team.warnings)
    return out


@html_of(Breakdown)
def breakdown_html(team: Breakdown) -> str:
    rows = [(line.label, fmt_int(line.count), fmt_int(line.points_each), fmt_int(line.points)) for line in team.lines]
    table = html_table(
        ("item", "count", "each", "points"),
        rows,
        caption=team.name,
        numeric=(False, True, True, True),
        footer=("Total", "", "", fmt_int(team.total)),
    )
    if not team.warnings:
        return table
    items = "".join(f"<li>{html.escape(str(p))}</li>" for p in team.warnings)
    return f"{table}<p>Warnings: scored as laid</p><ul>{items}</ul>"


@text_of(RoundScore)
def round_score_text(score: RoundScore) -> str:
    return "\n\n".join([f"Round {score.round} ({score.preset})", *(str(team) for team in score.teams)])


@html_of(RoundScore)
def round_score_html(score: RoundScore) -> str:
    head = f"<p><strong>{html.escape(f'Round {score.round} ({score.preset})')}</strong></p>"
    return "<div>" + head + "".join(breakdown_html(team) for team in score.teams) + "</div>"


def score_plain(score: RoundScore) -> str:
    """A round's breakdowns as plain tables, integers without separators (easy to grep)."""

    def num(value: int | None) -> str:
        return "" if value is None else str(value)

    head = f"Round {score.round} ({score.preset})"
    if score.rules_overridden:
        head += f", house rules: {', '.join(score.rules_overridden)}"
    parts = [head]
    for team in score.teams:
        rows = [("item", "count", "each", "points")]
        rows.extend((line.label, num(line.count), num(line.points_each), str(line.points)) for line in team.lines)
        rows.append(("Total", "", "", str(team.total)))
        parts.append(f"{team.name}\n{text_table(rows, (False, True, True, True))}")
    parts.append("\n".join(f"{team.name}: {team.total}" for team in score.teams))
    return "\n\n".join(parts) + "\n"


@text_of(Comparison)
def comparison_text(result: Comparison) -> str:
    if result.teams is None:
        return with_problems(f"{result.preset}: not legal under these rules", result.problems)
    return f"{result.preset}: " + ", ".join(f"{t.name} {fmt_int(t.total)}" for t in result.teams)


def _comparison_rows(comparison: RoundComparison) -> tuple[list[str], list[tuple[str, ...]]]:
    names: list[str] = []
    for result in comparison.results:
        for team in result.teams or ():
            if team.name not in names:
                names.append(team.name)
    rows = []
    for result in comparison.results:
        totals = result.totals
        if totals is None:
            codes = ", ".join(sorted({p.code for p in result.problems}))
            rows.append((result.preset, *("" for _ in names), f"not legal: {codes}"))
        else:
            rows.append((result.preset, *(fmt_int(totals.get(n)) for n in names), ""))
    return names, rows


@text_of(RoundComparison)
def round_comparison_text(comparison: RoundComparison) -> str:
    names, rows = _comparison_rows(comparison)
    table = text_table([("preset", *names, ""), *rows], (False, *(True for _ in names), False), indent="  ")
    lines = [f"Round {comparison.round} under {len(comparison.results)} presets", table]
    for result in comparison.results:
        if not result.valid:
            lines.append(f"{result.preset}:")
            lines.extend("  " + line for line in problem_lines(result.problems))
    return "\n".join(lines)


@html_of(RoundComparison)
def round_comparison_html(comparison: RoundComparison) -> str:
    names, rows = _comparison_rows(comparison)
    return html_table(
        ("preset", *names, "problems"),
        rows,
        caption=f"Round {comparison.round} under {len(comparison.results)} presets",
        numeric=(False, *(True for _ in names), False),
    )
