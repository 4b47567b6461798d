"""How problems, ``/health`` and presets print."""

from __future__ import annotations

from ..types import (
    Health,
    Preset,
    PresetSummary,
    ProblemDetails,
    ProblemItem,
    Provenance,
    RuleField,
)
from ._blocks import fmt_value, html_of, html_table, text_of, text_table, with_problems


@text_of(ProblemItem)
def problem_item_text(item: ProblemItem) -> str:
    text = f"{item.location}: {item.detail}" if item.location else item.detail
    return f"{text} [{item.code}]" if item.code else text


@text_of(ProblemDetails)
def problem_text(problem: ProblemDetails) -> str:
    head = f"{problem.status} {problem.title}"
    if problem.detail and problem.detail != problem.title:
        head += f": {problem.detail}"
    return with_problems(head, problem.errors)


@text_of(Health)
def health_text(health: Health) -> str:
    return f"status {health.status}, database {health.database}"


@html_of(Health)
def health_html(health: Health) -> str:
    return html_table(("status", "database"), [(health.status, health.database)])


# --------------------------------------------------------------------------- presets


@text_of(PresetSummary)
def preset_summary_text(preset: PresetSummary) -> str:
    head = f"{preset.id}: {preset.name}" + (f" ({preset.source})" if preset.source else "")
    return f"{head} - {preset.summary}" if preset.summary else head


@html_of(PresetSummary)
def preset_summary_html(preset: PresetSummary) -> str:
    return html_table(("id", "name", "source", "summary"), [(preset.id, preset.name, preset.source, preset.summary)])


@text_of(Provenance)
def provenance_text(provenance: Provenance) -> str:
    source = f": {provenance.source}" if provenance.source else ""
    note = f" ({provenance.note})" if provenance.note else ""
    return provenance.kind + source + note


@text_of(RuleField)
def rule_field_text(rule: RuleField) -> str:
    text = f"{rule.name} = {fmt_value(rule.value)}"
    return f"{text}  ({rule.description})" if rule.description else text


def _preset_rows(preset: Preset) -> list[tuple[str, str, str, str, str]]:
    rows: list[tuple[str, str, str, str, str]] = []
    for key, value in preset.rules.items():
        p = preset.provenance.get(key)
        rows.append((key, fmt_value(value), p.kind if p else "", p.source if p else "", p.note if p else ""))
    return rows


@text_of(Preset)
def preset_text(preset: Preset) -> str:
    lines = [f"{preset.name} ({preset.id})" + (f" - {preset.source}" if preset.source else "")]
    if preset.summary:
        lines.append(preset.summary)
    rows = [
        (key, value, f"[{kind}: {source}]" if source else (f"[{kind}]" if kind else ""))
        for key, value, kind, source, _note in _preset_rows(preset)
    ]
    if rows:
        lines.append(text_table(rows, (False, False, False), indent="  "))
    return "\n".join(lines)


@html_of(Preset)
def preset_html(preset: Preset) -> str:
    caption = f"{preset.name} ({preset.id})" + (f" - {preset.summary}" if preset.summary else "")
    return html_table(("rule", "value", "provenance", "source", "note"), _preset_rows(preset), caption=caption)
