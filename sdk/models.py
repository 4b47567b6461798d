"""Result models: frozen dataclasses read from the API's JSON with ``from_json``.

Each model ignores JSON members it does not know (the server may add fields) and raises
``APIResponseValidationError`` when a member it needs is missing or has the wrong type.
Result models print as small text tables (``str``) and render as HTML tables in Jupyter.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from ._errors import APIResponseValidationError

__all__ = [
    "PROVENANCE_KINDS",
    "Breakdown",
    "Line",
    "Preset",
    "PresetSummary",
    "Provenance",
    "RoundScore",
]

#: The provenance kinds the API documents; other values are passed through unchanged.
PROVENANCE_KINDS = ("seed", "filled", "reported", "option", "derived")

_T = TypeVar("_T")
_MISSING = object()


# --------------------------------------------------------------------------- JSON reading helpers


def _mapping(data: object, what: str) -> Mapping[str, object]:
    if not isinstance(data, Mapping):
        raise APIResponseValidationError(f"{what}: expected a JSON object, got {_kind(data)}")
    return data


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list):
        return "array"
    return type(value).__name__


def _get(data: Mapping[str, object], key: str, what: str, default: object) -> object:
    if key in data:
        return data[key]
    if default is _MISSING:
        raise APIResponseValidationError(f"{what}: missing member {key!r}")
    return default


def _str(data: Mapping[str, object], key: str, what: str, default: object = _MISSING) -> str:
    value = _get(data, key, what, default)
    if not isinstance(value, str):
        raise APIResponseValidationError(f"{what}.{key}: expected a string, got {_kind(value)}")
    return value


def _int(data: Mapping[str, object], key: str, what: str) -> int:
    value = _get(data, key, what, _MISSING)
    if not isinstance(value, int) or isinstance(value, bool):
        raise APIResponseValidationError(f"{what}.{key}: expected an integer, got {_kind(value)}")
    return value


def _opt_int(data: Mapping[str, object], key: str, what: str) -> int | None:
    if data.get(key) is None:
        return None
    return _int(data, key, what)


def _list(
    data: Mapping[str, object], key: str, what: str, parse: Callable[[object, str], _T]
) -> tuple[_T, ...]:
    value = _get(data, key, what, _MISSING)
    if not isinstance(value, list):
        raise APIResponseValidationError(f"{what}.{key}: expected an array, got {_kind(value)}")
    return tuple(parse(item, f"{what}.{key}[{i}]") for i, item in enumerate(value))


def _freeze(value: object) -> object:
    """Deep read-only copy of parsed JSON: objects become mappingproxies, arrays tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


# --------------------------------------------------------------------------- rendering helpers


def _fmt_int(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def _fmt_value(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(
        value,
        default=lambda o: dict(o) if isinstance(o, Mapping) else list(o),
        ensure_ascii=False,
    )


def _text_table(rows: Sequence[Sequence[str]], right: Sequence[bool], indent: str = "") -> str:
    # Columns that are empty in every row are left out.
    columns = [i for i in range(len(right)) if any(row[i] for row in rows)]
    widths = {i: max(len(row[i]) for row in rows) for i in columns}
    out = []
    for row in rows:
        cells = [row[i].rjust(widths[i]) if right[i] else row[i].ljust(widths[i]) for i in columns]
        out.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(out)


def _html_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    numeric: Sequence[bool] = (),
    footer: Sequence[str] | None = None,
) -> str:
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


# --------------------------------------------------------------------------- presets


@dataclass(frozen=True, slots=True)
class PresetSummary:
    """One entry of ``GET /v1/presets``."""

    id: str
    name: str
    source: str
    summary: str

    @classmethod
    def from_json(cls, data: object, what: str = "preset") -> PresetSummary:
        obj = _mapping(data, what)
        return cls(
            id=_str(obj, "id", what),
            name=_str(obj, "name", what),
            source=_str(obj, "source", what, ""),
            summary=_str(obj, "summary", what, ""),
        )

    def __str__(self) -> str:
        head = f"{self.id}: {self.name}"
        if self.source:
            head += f" ({self.source})"
        return f"{head} - {self.summary}" if self.summary else head

    def _repr_html_(self) -> str:
        return _html_table(
            ("id", "name", "source", "summary"), [(self.id, self.name, self.source, self.summary)]
        )


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a preset's value comes from: ``kind`` is one of ``PROVENANCE_KINDS``."""

    kind: str
    source: str
    note: str = ""

    @classmethod
    def from_json(cls, data: object, what: str = "provenance") -> Provenance:
        obj = _mapping(data, what)
        return cls(
            kind=_str(obj, "kind", what),
            source=_str(obj, "source", what, ""),
            note=_str(obj, "note", what, "") if obj.get("note") is not None else "",
        )

    def __str__(self) -> str:
        text = f"{self.kind}: {self.source}" if self.source else self.kind
        return f"{text} ({self.note})" if self.note else text


@dataclass(frozen=True, slots=True)
class Preset:
    """A full preset (``GET /v1/presets/{id}``): its rules and the provenance of each value.

    ``rules`` is read-only (nested objects are mappings, arrays are tuples); it can be passed back
    as ``rules=`` to a scoring call, or copied with ``dict(preset.rules)`` to build house rules.
    """

    id: str
    name: str
    source: str
    summary: str
    rules: Mapping[str, object]
    provenance: Mapping[str, Provenance]

    @classmethod
    def from_json(cls, data: object, what: str = "preset") -> Preset:
        obj = _mapping(data, what)
        rules = _mapping(_get(obj, "rules", what, _MISSING), f"{what}.rules")
        prov = _mapping(obj.get("provenance") or {}, f"{what}.provenance")
        return cls(
            id=_str(obj, "id", what),
            name=_str(obj, "name", what),
            source=_str(obj, "source", what, ""),
            summary=_str(obj, "summary", what, ""),
            rules=MappingProxyType({str(k): _freeze(v) for k, v in rules.items()}),
            provenance=MappingProxyType(
                {str(k): Provenance.from_json(v, f"{what}.provenance.{k}") for k, v in prov.items()}
            ),
        )

    def _rows(self) -> Iterator[tuple[str, str, str, str, str]]:
        for key, value in self.rules.items():
            p = self.provenance.get(key)
            yield (
                key,
                _fmt_value(value),
                p.kind if p else "",
                p.source if p else "",
                p.note if p else "",
            )

    def __str__(self) -> str:
        head = f"{self.name} ({self.id})"
        if self.source:
            head += f" - {self.source}"
        lines = [head]
        if self.summary:
            lines.append(self.summary)
        rows = [
            (key, value, f"[{kind}: {source}]" if source else (f"[{kind}]" if kind else ""))
            for key, value, kind, source, _note in self._rows()
        ]
        if rows:
            lines.append(_text_table(rows, (False, False, False), indent="  "))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        caption = f"{self.name} ({self.id})" + (f" - {self.summary}" if self.summary else "")
        return _html_table(
            ("rule", "value", "provenance", "source", "note"), list(self._rows()), caption=caption
        )


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Line:
    """One item of a breakdown: ``count`` × ``points_each`` = ``points`` where those apply."""

    code: str
    label: str
    count: int | None
    points_each: int | None
    points: int

    @classmethod
    def from_json(cls, data: object, what: str = "line") -> Line:
        obj = _mapping(data, what)
        return cls(
            code=_str(obj, "code", what),
            label=_str(obj, "label", what, "") or _str(obj, "code", what),
            count=_opt_int(obj, "count", what),
            points_each=_opt_int(obj, "points_each", what),
            points=_int(obj, "points", what),
        )

    def _cells(self) -> tuple[str, str, str, str]:
        return (
            self.label,
            _fmt_int(self.count),
            "" if self.points_each is None else f"x {_fmt_int(self.points_each)}",
            _fmt_int(self.points),
        )

    def __str__(self) -> str:
        label, count, each, points = self._cells()
        middle = " ".join(p for p in (count, each) if p)
        return f"{label}: {middle} = {points}" if middle else f"{label}: {points}"


@dataclass(frozen=True, slots=True)
class Breakdown:
    """One team's score for a round: ``total`` and the ``lines`` that add up to it."""

    name: str
    total: int
    lines: tuple[Line, ...]

    @classmethod
    def from_json(cls, data: object, what: str = "team") -> Breakdown:
        obj = _mapping(data, what)
        return cls(
            name=_str(obj, "name", what),
            total=_int(obj, "total", what),
            lines=_list(obj, "lines", what, Line.from_json),
        )

    def line(self, code: str) -> Line | None:
        """The line with this ``code`` (e.g. ``"clean_books"``), or ``None``."""
        for line in self.lines:
            if line.code == code:
                return line
        return None

    def points(self, code: str) -> int:
        """Points of the line ``code``; 0 when absent (a line worth 0 may be omitted)."""
        line = self.line(code)
        return 0 if line is None else line.points

    def _text(self, indent: str) -> str:
        rows = [line._cells() for line in self.lines]
        rows.append(("Total", "", "", _fmt_int(self.total)))
        return _text_table(rows, (False, True, True, True), indent=indent)

    def __str__(self) -> str:
        return f"{self.name}\n{self._text('  ')}"

    def _repr_html_(self) -> str:
        return _html_table(
            ("item", "count", "each", "points"),
            [
                (
                    line.label,
                    _fmt_int(line.count),
                    _fmt_int(line.points_each),
                    _fmt_int(line.points),
                )
                for line in self.lines
            ],
            caption=self.name,
            numeric=(False, True, True, True),
            footer=("Total", "", "", _fmt_int(self.total)),
        )


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The result of ``POST /v1/rounds/score``: one ``Breakdown`` per team, in request order."""

    preset: str
    round: int
    teams: tuple[Breakdown, ...]

    @classmethod
    def from_json(cls, data: object, what: str = "round score") -> RoundScore:
        obj = _mapping(data, what)
        return cls(
            preset=_str(obj, "preset", what),
            round=_int(obj, "round", what),
            teams=_list(obj, "teams", what, Breakdown.from_json),
        )

    def team(self, name: str) -> Breakdown | None:
        """The breakdown of the team called ``name``, or ``None``."""
        for team in self.teams:
            if team.name == name:
                return team
        return None

    @property
    def totals(self) -> dict[str, int]:
        """Team name → round total."""
        return {team.name: team.total for team in self.teams}

    def __str__(self) -> str:
        parts = [f"Round {self.round} ({self.preset})"]
        parts.extend(str(team) for team in self.teams)
        return "\n\n".join(parts)

    def _repr_html_(self) -> str:
        head = f"<p><strong>{html.escape(f'Round {self.round} ({self.preset})')}</strong></p>"
        return "<div>" + head + "".join(team._repr_html_() for team in self.teams) + "</div>"
