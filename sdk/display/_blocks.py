"""Building blocks of the renderers: number formats, aligned text tables, escaped HTML tables,
and the registration of a renderer for its result type (``handfoot.client._loader.TEXT`` / ``HTML``)."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from .._loader import HTML, TEXT
from ..types import ProblemItem

_T = TypeVar("_T")
Render = Callable[[_T], str]


def text_of(cls: type[_T]) -> Callable[[Render[_T]], Render[_T]]:
    """Register the function as ``str()`` of ``cls``."""

    def register(render: Render[_T]) -> Render[_T]:
        TEXT[cls] = render
        return render

    return register


def html_of(cls: type[_T]) -> Callable[[Render[_T]], Render[_T]]:
    """Register the function as ``_repr_html_()`` of ``cls`` (Jupyter)."""

    def register(render: Render[_T]) -> Render[_T]:
        HTML[cls] = render
        return render

    return register


def fmt_int(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def fmt_value(value: object) -> str:
    """A rule value as JSON (``[50, 90]``, ``{"JK": 50}``); strings as they are."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def text_table(rows: Sequence[Sequence[str]], right: Sequence[bool], indent: str = "") -> str:
    """Rows as aligned columns (``right[i]``: right-align column i); columns empty in every row
    are left out."""
    columns = [i for i in range(len(right)) if any(row[i] for row in rows)]
    widths = {i: max(len(row[i]) for row in rows) for i in columns}
    out = []
    for row in rows:
        cells = [row[i].rjust(widths[i]) if right[i] else row[i].ljust(widths[i]) for i in columns]
        out.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(out)


def html_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    numeric: Sequence[bool] = (),
    footer: Sequence[str] | None = None,
) -> str:
    """An HTML ``<table>``; every cell and the caption are escaped."""

    def cells(tag: str, values: Sequence[str]) -> str:
        parts = []
        for i, v in enumerate(values):
            style = ' style="text-align:right"' if i < len(numeric) and numeric[i] else ""
            parts.append(f"<{tag}{style}>{html.escape(v)}</{tag}>")
        return "<tr>" + "".join(parts) + "</tr>"

    out = ["<table>"]
    if caption is not None:
        out.append(f"<caption>{html.escape(caption)}</caption>")
    out.append("<thead>" + cells("th", header) + "</thead>")
    out.append("<tbody>" + "".join(cells("td", row) for row in rows) + "</tbody>")
    if footer is not None:
        out.append("<tfoot>" + cells("th", footer) + "</tfoot>")
    out.append("</table>")
    return "".join(out)


def problem_lines(problems: Sequence[ProblemItem]) -> list[str]:
    return [f"  - {p}" for p in problems]


def with_problems(head: str, problems: Sequence[ProblemItem]) -> str:
    return "\n".join([head, *problem_lines(problems)])
