"""Result models: frozen dataclasses read from the API's JSON with ``from_json``.

Each model ignores JSON members it does not know (the server may add fields) and raises
``APIResponseValidationError`` when a member it needs is missing or has the wrong type.
Result models print as small text tables (``str``) and render as HTML tables in Jupyter.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import TypeVar

from ._errors import APIResponseValidationError, ProblemItem

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


def _opt_str(data: Mapping[str, object], key: str, what: str) -> str | None:
    if data.get(key) is None:
        return None
    return _str(data, key, what)


def _bool(data: Mapping[str, object], key: str, what: str, default: object = _MISSING) -> bool:
    value = _get(data, key, what, default)
    if not isinstance(value, bool):
        raise APIResponseValidationError(f"{what}.{key}: expected a boolean, got {_kind(value)}")
    return value


def _str_list(data: Mapping[str, object], key: str, what: str, default: object = _MISSING) -> tuple[str, ...]:
    value = _get(data, key, what, default)
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise APIResponseValidationError(f"{what}.{key}: expected an array of strings, got {_kind(value)}")
    return tuple(value)


def _int_list(data: Mapping[str, object], key: str, what: str) -> tuple[int, ...]:
    value = _get(data, key, what, _MISSING)
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise APIResponseValidationError(f"{what}.{key}: expected an array of integers, got {_kind(value)}")
    return tuple(value)


def _problems(data: Mapping[str, object], what: str) -> tuple[ProblemItem, ...]:
    value = data.get("problems")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise APIResponseValidationError(f"{what}.problems: expected an array, got {_kind(value)}")
    return tuple(ProblemItem.from_json(item) for item in value)


def _frozen_mapping(data: Mapping[str, object], key: str, what: str) -> Mapping[str, object]:
    value = data.get(key)
    if value is None:
        return MappingProxyType({})
    obj = _mapping(value, f"{what}.{key}")
    return MappingProxyType({str(k): _freeze(v) for k, v in obj.items()})


def _opt_datetime(data: Mapping[str, object], key: str, what: str) -> datetime | None:
    """An ISO 8601 timestamp (``2026-11-29T12:00:00+00:00`` or ``...Z``), or ``None``."""
    text = _opt_str(data, key, what)
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise APIResponseValidationError(f"{what}.{key}: not an ISO 8601 timestamp: {text!r}") from exc


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
class RuleField:
    """One rule of a preset, for display: its ``name`` (as used in ``rules`` overrides), ``group``,
    ``description`` (with its unit), ``value`` and ``provenance``."""

    name: str
    group: str
    description: str
    value: object
    provenance: Provenance | None

    @classmethod
    def from_json(cls, data: object, what: str = "field") -> RuleField:
        obj = _mapping(data, what)
        prov = obj.get("provenance")
        return cls(
            name=_str(obj, "name", what),
            group=_str(obj, "group", what, ""),
            description=_str(obj, "description", what, ""),
            value=_freeze(obj.get("value")),
            provenance=None if prov is None else Provenance.from_json(prov, f"{what}.provenance"),
        )

    def __str__(self) -> str:
        text = f"{self.name} = {_fmt_value(self.value)}"
        return f"{text}  ({self.description})" if self.description else text


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
    fields: tuple[RuleField, ...] = ()
    """Every rule in order with its group and description (empty if the server sends none)."""

    @classmethod
    def from_json(cls, data: object, what: str = "preset") -> Preset:
        obj = _mapping(data, what)
        rules = _mapping(_get(obj, "rules", what, _MISSING), f"{what}.rules")
        prov = _mapping(obj.get("provenance") or {}, f"{what}.provenance")
        return cls(
            fields=_list(obj, "fields", what, RuleField.from_json) if obj.get("fields") else (),
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
    rules_overridden: tuple[str, ...] = ()
    """The rule names whose values differ from the preset's (house rules)."""

    @classmethod
    def from_json(cls, data: object, what: str = "round score") -> RoundScore:
        obj = _mapping(data, what)
        return cls(
            preset=_str(obj, "preset", what),
            round=_int(obj, "round", what),
            teams=_list(obj, "teams", what, Breakdown.from_json),
            rules_overridden=_str_list(obj, "rules_overridden", what, None),
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


@dataclass(frozen=True, slots=True)
class Comparison:
    """One preset's answer in ``compare_presets``: a breakdown per team when the round is legal
    under it (``valid``), else ``teams`` is ``None`` and ``problems`` names the rules broken."""

    preset: str
    valid: bool
    teams: tuple[Breakdown, ...] | None
    problems: tuple[ProblemItem, ...] = ()

    @classmethod
    def from_json(cls, data: object, what: str = "result") -> Comparison:
        obj = _mapping(data, what)
        teams = obj.get("teams")
        return cls(
            preset=_str(obj, "preset", what),
            valid=_bool(obj, "valid", what),
            teams=None if teams is None else _list(obj, "teams", what, Breakdown.from_json),
            problems=_problems(obj, what),
        )

    @property
    def totals(self) -> dict[str, int] | None:
        """Team name → round total, or ``None`` when the round breaks this preset's rules."""
        return None if self.teams is None else {t.name: t.total for t in self.teams}

    def __str__(self) -> str:
        if self.teams is None:
            return "\n".join([f"{self.preset}: not legal under these rules", *_problem_lines(self.problems)])
        totals = ", ".join(f"{t.name} {_fmt_int(t.total)}" for t in self.teams)
        return f"{self.preset}: {totals}"


@dataclass(frozen=True, slots=True)
class RoundComparison:
    """The result of ``POST /v1/rounds/compare``: one ``Comparison`` per preset, in request order."""

    round: int
    results: tuple[Comparison, ...]

    @classmethod
    def from_json(cls, data: object, what: str = "comparison") -> RoundComparison:
        obj = _mapping(data, what)
        return cls(round=_int(obj, "round", what), results=_list(obj, "results", what, Comparison.from_json))

    def result(self, preset: str) -> Comparison | None:
        """The answer for ``preset``, or ``None``."""
        for result in self.results:
            if result.preset == preset:
                return result
        return None

    def _team_names(self) -> list[str]:
        names: list[str] = []
        for result in self.results:
            for team in result.teams or ():
                if team.name not in names:
                    names.append(team.name)
        return names

    def _table_rows(self) -> list[tuple[str, ...]]:
        names = self._team_names()
        rows = []
        for result in self.results:
            totals = result.totals
            if totals is None:
                codes = ", ".join(sorted({p.code for p in result.problems}))
                rows.append((result.preset, *("" for _ in names), f"not legal: {codes}"))
            else:
                rows.append((result.preset, *(_fmt_int(totals.get(n)) for n in names), ""))
        return rows

    def __str__(self) -> str:
        names = self._team_names()
        rows = [("preset", *names, ""), *self._table_rows()]
        table = _text_table(rows, (False, *(True for _ in names), False), indent="  ")
        lines = [f"Round {self.round} under {len(self.results)} presets", table]
        for result in self.results:
            if not result.valid:
                lines.append(f"{result.preset}:")
                lines.extend("  " + line for line in _problem_lines(result.problems))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        names = self._team_names()
        return _html_table(
            ("preset", *names, "problems"),
            self._table_rows(),
            caption=f"Round {self.round} under {len(self.results)} presets",
            numeric=(False, *(True for _ in names), False),
        )


# --------------------------------------------------------------------------- checks


def _problem_lines(problems: Sequence[ProblemItem]) -> list[str]:
    return [f"  - {p}" for p in problems]


def _problems_html(problems: Sequence[ProblemItem]) -> str:
    if not problems:
        return ""
    return _html_table(
        ("where", "code", "rule broken"),
        [(p.location, p.code, p.detail) for p in problems],
        caption="Problems",
    )


def _kv_html(caption: str, rows: Sequence[tuple[str, str]], problems: Sequence[ProblemItem]) -> str:
    return "<div>" + _html_table(("", ""), rows, caption=caption) + _problems_html(problems) + "</div>"


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The answer of ``POST /v1/melds/validate``: is this meld (or this meld after adding cards
    ``onto`` one on the table) legal? ``kind`` is ``clean``, ``dirty``, ``wild`` or ``None``
    (mixed ranks); ``problems`` lists every rule it breaks, each with a stable ``code``."""

    valid: bool
    kind: str | None
    rank: str | None
    complete: bool
    size: int
    naturals: int
    wilds: int
    points: int
    problems: tuple[ProblemItem, ...] = ()

    @classmethod
    def from_json(cls, data: object, what: str = "meld check") -> MeldCheck:
        obj = _mapping(data, what)
        return cls(
            valid=_bool(obj, "valid", what),
            kind=_opt_str(obj, "kind", what),
            rank=_opt_str(obj, "rank", what),
            complete=_bool(obj, "complete", what, False),
            size=_int(obj, "size", what),
            naturals=_int(obj, "naturals", what),
            wilds=_int(obj, "wilds", what),
            points=_int(obj, "points", what),
            problems=_problems(obj, what),
        )

    def __bool__(self) -> bool:
        return self.valid

    def _summary(self) -> str:
        kind = self.kind or "mixed"
        rank = f" of {self.rank}s" if self.rank else ""
        book = "a complete book" if self.complete else "not a book yet"
        return (
            f"{kind} meld{rank}: {self.size} cards ({self.naturals} natural, {self.wilds} wild), "
            f"{_fmt_int(self.points)} points, {book}"
        )

    def __str__(self) -> str:
        head = ("valid " if self.valid else "INVALID ") + self._summary()
        return "\n".join([head, *_problem_lines(self.problems)])

    def _repr_html_(self) -> str:
        rows = [
            ("valid", _yes_no(self.valid)),
            ("kind", self.kind or "mixed"),
            ("rank", self.rank or ""),
            ("complete (a book)", _yes_no(self.complete)),
            ("cards", f"{self.size} ({self.naturals} natural, {self.wilds} wild)"),
            ("points", _fmt_int(self.points)),
        ]
        return _kv_html("Meld check", rows, self.problems)


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """The answer of ``POST /v1/openings/check``: the ``points`` counted against the round's
    ``minimum``, whether the opening is legal and ``met``, and the ``problems``."""

    points: int
    minimum: int
    met: bool
    problems: tuple[ProblemItem, ...] = ()

    @classmethod
    def from_json(cls, data: object, what: str = "opening check") -> OpeningCheck:
        obj = _mapping(data, what)
        return cls(
            points=_int(obj, "points", what),
            minimum=_int(obj, "minimum", what),
            met=_bool(obj, "met", what),
            problems=_problems(obj, what),
        )

    def __bool__(self) -> bool:
        return self.met

    def __str__(self) -> str:
        head = f"opening {'met' if self.met else 'NOT met'}: {_fmt_int(self.points)} of {_fmt_int(self.minimum)} points"
        return "\n".join([head, *_problem_lines(self.problems)])

    def _repr_html_(self) -> str:
        rows = [
            ("met", _yes_no(self.met)),
            ("points", _fmt_int(self.points)),
            ("minimum", _fmt_int(self.minimum)),
        ]
        return _kv_html("Opening check", rows, self.problems)


@dataclass(frozen=True, slots=True)
class Books:
    """Books by kind (also a contract: the books a side needs to go out)."""

    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0

    @classmethod
    def from_json(cls, data: object, what: str = "books") -> Books:
        obj = _mapping(data, what)
        return cls(
            clean_books=_opt_int(obj, "clean_books", what) or 0,
            dirty_books=_opt_int(obj, "dirty_books", what) or 0,
            wild_books=_opt_int(obj, "wild_books", what) or 0,
        )

    @property
    def total(self) -> int:
        return self.clean_books + self.dirty_books + self.wild_books

    def __str__(self) -> str:
        return f"{self.clean_books} clean, {self.dirty_books} dirty, {self.wild_books} wild"


def _opt_books(obj: Mapping[str, object], key: str, what: str) -> Books | None:
    value = obj.get(key)
    return None if value is None else Books.from_json(value, f"{what}.{key}")


@dataclass(frozen=True, slots=True)
class GoingOutCheck:
    """The answer of ``POST /v1/going-out/check``: may the side go out? ``books`` on the table,
    ``missing`` books for the ``contract``, and the ``problems``."""

    met: bool
    books: Books
    missing: Books
    contract: Books | None = None
    problems: tuple[ProblemItem, ...] = ()

    @classmethod
    def from_json(cls, data: object, what: str = "going-out check") -> GoingOutCheck:
        obj = _mapping(data, what)
        return cls(
            met=_bool(obj, "met", what),
            books=Books.from_json(_get(obj, "books", what, _MISSING), f"{what}.books"),
            missing=Books.from_json(obj.get("missing") or {}, f"{what}.missing"),
            contract=_opt_books(obj, "contract", what),
            problems=_problems(obj, what),
        )

    def __bool__(self) -> bool:
        return self.met

    def __str__(self) -> str:
        head = f"may go out: {_yes_no(self.met)}; books {self.books}"
        if self.contract is not None:
            head += f"; contract {self.contract}"
        if self.missing.total:
            head += f"; missing {self.missing}"
        return "\n".join([head, *_problem_lines(self.problems)])

    def _repr_html_(self) -> str:
        rows = [("may go out", _yes_no(self.met)), ("books", str(self.books))]
        if self.contract is not None:
            rows.append(("contract", str(self.contract)))
        rows.append(("missing", str(self.missing)))
        return _kv_html("Going-out check", rows, self.problems)


@dataclass(frozen=True, slots=True)
class DiscardPileCheck:
    """The answer of ``POST /v1/discard-pile/check``: may the player take the pile
    (``allowed``), how many ``cards`` that takes, and the ``problems``."""

    allowed: bool
    cards: int
    problems: tuple[ProblemItem, ...] = ()

    @classmethod
    def from_json(cls, data: object, what: str = "discard-pile check") -> DiscardPileCheck:
        obj = _mapping(data, what)
        return cls(
            allowed=_bool(obj, "allowed", what),
            cards=_int(obj, "cards", what),
            problems=_problems(obj, what),
        )

    def __bool__(self) -> bool:
        return self.allowed

    def __str__(self) -> str:
        head = f"may take the pile: {_yes_no(self.allowed)} ({self.cards} cards)"
        return "\n".join([head, *_problem_lines(self.problems)])

    def _repr_html_(self) -> str:
        rows = [("may take the pile", _yes_no(self.allowed)), ("cards", str(self.cards))]
        return _kv_html("Discard-pile check", rows, self.problems)


@dataclass(frozen=True, slots=True)
class Health:
    """``GET /health``: ``status`` and ``database`` are ``"ok"`` on a healthy server."""

    status: str
    database: str

    @classmethod
    def from_json(cls, data: object, what: str = "health") -> Health:
        obj = _mapping(data, what)
        return cls(status=_str(obj, "status", what), database=_str(obj, "database", what, ""))

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.database in ("ok", "")

    def __str__(self) -> str:
        return f"status {self.status}, database {self.database}"

    def _repr_html_(self) -> str:
        return _html_table(("status", "database"), [(self.status, self.database)])


# --------------------------------------------------------------------------- games


def _empty_mapping() -> Mapping[str, object]:
    return MappingProxyType({})


def _empty_int_mapping() -> Mapping[str, int]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class TeamTotal:
    """A side's running total."""

    name: str
    total: int

    @classmethod
    def from_json(cls, data: object, what: str = "total") -> TeamTotal:
        obj = _mapping(data, what)
        return cls(name=_str(obj, "name", what), total=_int(obj, "total", what))

    def __str__(self) -> str:
        return f"{self.name} {_fmt_int(self.total)}"


@dataclass(frozen=True, slots=True)
class GameTeam:
    """A side of a stored game and its players."""

    name: str
    players: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: object, what: str = "team") -> GameTeam:
        if isinstance(data, str):
            return cls(name=data)
        obj = _mapping(data, what)
        players = obj.get("players") or []
        if not isinstance(players, list):
            raise APIResponseValidationError(f"{what}.players: expected an array, got {_kind(players)}")
        names = tuple(p if isinstance(p, str) else _str(_mapping(p, what), "name", what) for p in players)
        return cls(name=_str(obj, "name", what), players=names)

    def __str__(self) -> str:
        return f"{self.name} ({', '.join(self.players)})" if self.players else self.name


def _side_minimum(data: object, what: str) -> TeamTotal:
    obj = _mapping(data, what)
    return TeamTotal(name=_str(obj, "name", what), total=_int(obj, "minimum", what))


def _totals_text(totals: Sequence[TeamTotal]) -> str:
    return ", ".join(str(t) for t in totals)


def _outcome(
    status: str, leaders: Sequence[str], winner: str | None, tie: bool, end_reason: str | None
) -> str:
    if winner is not None:
        text = f"{winner} won"
    elif tie:
        text = f"tie between {' and '.join(leaders)}"
    elif leaders:
        text = f"{' and '.join(leaders)} {'lead' if len(leaders) > 1 else 'leads'}"
    else:
        text = "no rounds yet"
    text = f"{status.replace('_', ' ')}: {text}"
    return f"{text} ({end_reason})" if end_reason else text


@dataclass(frozen=True, slots=True)
class Round:
    """A stored round of a game: the ``request`` as sent, a ``Breakdown`` per side, and the running
    totals after it. ``revision`` increments on each correction; ``etag`` (from the response
    header) is what ``correct_round(..., if_match=...)`` sends."""

    number: int
    revision: int
    request: Mapping[str, object] = field(repr=False)
    teams: tuple[Breakdown, ...]
    totals_after: tuple[TeamTotal, ...] = ()
    created_at: datetime | None = None
    updated_at: datetime | None = None
    etag: str | None = None

    @classmethod
    def from_json(cls, data: object, what: str = "round", *, etag: str | None = None) -> Round:
        obj = _mapping(data, what)
        return cls(
            number=_int(obj, "number", what),
            revision=_opt_int(obj, "revision", what) or 1,
            request=_frozen_mapping(obj, "request", what),
            teams=_list(obj, "teams", what, Breakdown.from_json),
            totals_after=_list(obj, "totals_after", what, TeamTotal.from_json) if "totals_after" in obj else (),
            created_at=_opt_datetime(obj, "created_at", what),
            updated_at=_opt_datetime(obj, "updated_at", what),
            etag=etag,
        )

    @property
    def totals(self) -> dict[str, int]:
        """Side name → this round's score."""
        return {team.name: team.total for team in self.teams}

    def __str__(self) -> str:
        head = f"Round {self.number}" + (f" (revision {self.revision})" if self.revision > 1 else "")
        parts = [head, *(str(team) for team in self.teams)]
        if self.totals_after:
            parts.append(f"Running totals: {_totals_text(self.totals_after)}")
        return "\n\n".join(parts)

    def _repr_html_(self) -> str:
        head = f"Round {self.number}" + (f" (revision {self.revision})" if self.revision > 1 else "")
        out = [f"<p><strong>{html.escape(head)}</strong></p>"]
        out.extend(team._repr_html_() for team in self.teams)
        if self.totals_after:
            out.append(f"<p>{html.escape('Running totals: ' + _totals_text(self.totals_after))}</p>")
        return "<div>" + "".join(out) + "</div>"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One item of ``GET /v1/games`` (newest first)."""

    id: int
    name: str
    preset: str
    status: str
    teams: tuple[GameTeam, ...]
    totals: tuple[TeamTotal, ...]
    leaders: tuple[str, ...] = ()
    winner: str | None = None
    tie: bool = False
    rounds_played: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @classmethod
    def from_json(cls, data: object, what: str = "game") -> GameSummary:
        obj = _mapping(data, what)
        return cls(
            id=_int(obj, "id", what),
            name=_str(obj, "name", what, ""),
            preset=_str(obj, "preset", what),
            status=_str(obj, "status", what),
            teams=_list(obj, "teams", what, GameTeam.from_json) if "teams" in obj else (),
            totals=_list(obj, "totals", what, TeamTotal.from_json) if "totals" in obj else (),
            leaders=_str_list(obj, "leaders", what, None),
            winner=_opt_str(obj, "winner", what),
            tie=_bool(obj, "tie", what, False),
            rounds_played=_opt_int(obj, "rounds_played", what) or 0,
            created_at=_opt_datetime(obj, "created_at", what),
            updated_at=_opt_datetime(obj, "updated_at", what),
        )

    def __str__(self) -> str:
        rounds = f"{self.rounds_played} round{'s' if self.rounds_played != 1 else ''}"
        totals = _totals_text(self.totals) or ", ".join(t.name for t in self.teams)
        outcome = _outcome(self.status, self.leaders, self.winner, self.tie, None)
        return f"#{self.id} {self.name} ({self.preset}, {rounds}): {totals} - {outcome}"

    def _repr_html_(self) -> str:
        return _html_table(
            ("id", "name", "preset", "rounds", "totals", "status"),
            [
                (
                    str(self.id),
                    self.name,
                    self.preset,
                    str(self.rounds_played),
                    _totals_text(self.totals),
                    _outcome(self.status, self.leaders, self.winner, self.tie, None),
                )
            ],
        )


@dataclass(frozen=True, slots=True)
class Game:
    """A stored game (``GET /v1/games/{id}``): its rules snapshot, sides, rounds, running
    ``totals``, ``status`` (``in_progress``, ``tiebreaker`` or ``finished``), ``leaders``,
    ``winner`` or ``tie``, and what the next round needs. ``etag`` comes from the response."""

    id: int
    name: str
    preset: str
    status: str
    teams: tuple[GameTeam, ...]
    totals: tuple[TeamTotal, ...]
    rounds: tuple[Round, ...] = field(default=(), repr=False)
    rules: Mapping[str, object] = field(default_factory=_empty_mapping, repr=False)
    rules_overridden: tuple[str, ...] = ()
    house_rules: Mapping[str, object] = field(default_factory=_empty_mapping)
    rounds_played: int = 0
    next_round: int | None = None
    next_opening_minimum: int | None = None
    next_opening_minimums: Mapping[str, int] = field(default_factory=_empty_int_mapping)
    """Side name → its opening minimum next round (they differ only under score thresholds)."""
    next_contract: Books | None = None
    leaders: tuple[str, ...] = ()
    winner: str | None = None
    tie: bool = False
    end_reason: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    version: int | None = None
    etag: str | None = None

    @classmethod
    def from_json(cls, data: object, what: str = "game", *, etag: str | None = None) -> Game:
        obj = _mapping(data, what)
        return cls(
            id=_int(obj, "id", what),
            name=_str(obj, "name", what, ""),
            preset=_str(obj, "preset", what),
            status=_str(obj, "status", what),
            teams=_list(obj, "teams", what, GameTeam.from_json),
            totals=_list(obj, "totals", what, TeamTotal.from_json) if "totals" in obj else (),
            rounds=_list(obj, "rounds", what, Round.from_json) if obj.get("rounds") is not None else (),
            rules=_frozen_mapping(obj, "rules", what),
            rules_overridden=_str_list(obj, "rules_overridden", what, None),
            house_rules=_frozen_mapping(obj, "house_rules", what),
            rounds_played=_opt_int(obj, "rounds_played", what) or 0,
            next_round=_opt_int(obj, "next_round", what),
            next_opening_minimum=_opt_int(obj, "next_opening_minimum", what),
            next_opening_minimums=MappingProxyType(
                {
                    m.name: m.total
                    for m in (
                        _list(obj, "next_opening_minimums", what, _side_minimum)
                        if obj.get("next_opening_minimums") is not None
                        else ()
                    )
                }
            ),
            next_contract=_opt_books(obj, "next_contract", what),
            leaders=_str_list(obj, "leaders", what, None),
            winner=_opt_str(obj, "winner", what),
            tie=_bool(obj, "tie", what, False),
            end_reason=_opt_str(obj, "end_reason", what),
            created_at=_opt_datetime(obj, "created_at", what),
            updated_at=_opt_datetime(obj, "updated_at", what),
            version=_opt_int(obj, "version", what),
            etag=etag,
        )

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def round(self, number: int) -> Round | None:
        """The stored round ``number`` (1-based), or ``None``."""
        for r in self.rounds:
            if r.number == number:
                return r
        return None

    def _sheet_rows(self) -> list[tuple[str, ...]]:
        names = [t.name for t in self.teams]
        rows: list[tuple[str, ...]] = []
        for r in self.rounds:
            scores = r.totals
            after = {t.name: t.total for t in r.totals_after}
            rows.append(
                (str(r.number), *(f"{_fmt_int(scores.get(n))} ({_fmt_int(after.get(n))})" for n in names))
            )
        return rows

    def _next(self) -> str:
        if self.next_round is None:
            return ""
        text = f"next: round {self.next_round}"
        if self.next_opening_minimum is not None:
            text += f", opening minimum {_fmt_int(self.next_opening_minimum)}"
        if self.next_contract is not None:
            text += f", contract {self.next_contract}"
        return text

    def __str__(self) -> str:
        lines = [f"Game #{self.id} {self.name} ({self.preset})".rstrip()]
        if self.house_rules:
            lines.append("house rules: " + ", ".join(f"{k}={_fmt_value(v)}" for k, v in self.house_rules.items()))
        lines.append("sides: " + "; ".join(str(t) for t in self.teams))
        if self.rounds:
            header = ("round", *(t.name for t in self.teams))
            lines.append(_text_table([header, *self._sheet_rows()], (True, *(True for _ in self.teams)), "  "))
        lines.append("totals: " + (_totals_text(self.totals) or "-"))
        lines.append(_outcome(self.status, self.leaders, self.winner, self.tie, self.end_reason))
        if self._next():
            lines.append(self._next())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        names = [t.name for t in self.teams]
        totals = {t.name: t.total for t in self.totals}
        caption = f"Game #{self.id} {self.name} ({self.preset}) - " + _outcome(
            self.status, self.leaders, self.winner, self.tie, self.end_reason
        )
        return _html_table(
            ("round", *names),
            self._sheet_rows(),
            caption=caption,
            numeric=(True, *(True for _ in names)),
            footer=("total", *(_fmt_int(totals.get(n)) for n in names)),
        )


@dataclass(frozen=True, slots=True)
class Revision:
    """One revision of a stored round (``GET .../rounds/{n}/revisions``, oldest first)."""

    revision: int
    current: bool
    request: Mapping[str, object] = field(repr=False)
    teams: tuple[Breakdown, ...]
    created_at: datetime | None = None
    replaced_at: datetime | None = None
    author: str | None = None

    @classmethod
    def from_json(cls, data: object, what: str = "revision") -> Revision:
        obj = _mapping(data, what)
        return cls(
            revision=_int(obj, "revision", what),
            current=_bool(obj, "current", what, False),
            request=_frozen_mapping(obj, "request", what),
            teams=_list(obj, "teams", what, Breakdown.from_json),
            created_at=_opt_datetime(obj, "created_at", what),
            replaced_at=_opt_datetime(obj, "replaced_at", what),
            author=_opt_str(obj, "author", what),
        )

    def __str__(self) -> str:
        if self.current:
            state = "current"
        elif self.replaced_at is not None:
            state = f"replaced {self.replaced_at:%Y-%m-%d %H:%M}"
        else:
            state = "replaced"
        by = f" by {self.author}" if self.author else ""
        totals = ", ".join(f"{t.name} {_fmt_int(t.total)}" for t in self.teams)
        return f"revision {self.revision} ({state}{by}): {totals}"

    def _repr_html_(self) -> str:
        return _html_table(
            ("revision", "current", "author", "created", "replaced", *(t.name for t in self.teams)),
            [
                (
                    str(self.revision),
                    _yes_no(self.current),
                    self.author or "",
                    "" if self.created_at is None else self.created_at.isoformat(),
                    "" if self.replaced_at is None else self.replaced_at.isoformat(),
                    *(_fmt_int(t.total) for t in self.teams),
                )
            ],
        )


@dataclass(frozen=True, slots=True)
class ScoresheetRound:
    """One line of a score sheet: each side's score in ``round`` and the running ``totals``."""

    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]

    @classmethod
    def from_json(cls, data: object, what: str = "row") -> ScoresheetRound:
        obj = _mapping(data, what)
        return cls(
            round=_int(obj, "round", what), scores=_int_list(obj, "scores", what), totals=_int_list(obj, "totals", what)
        )


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """A game's score sheet: rounds × sides with running totals (``GET .../scoresheet``).

    ``rows()`` gives plain dicts that ``pandas.DataFrame(sheet.rows())`` takes as is.
    """

    game_id: int
    name: str
    teams: tuple[str, ...]
    rounds: tuple[ScoresheetRound, ...]
    totals: tuple[int, ...] = ()
    status: str = ""
    leaders: tuple[str, ...] = ()
    winner: str | None = None
    tie: bool = False

    @classmethod
    def from_json(cls, data: object, what: str = "scoresheet") -> Scoresheet:
        obj = _mapping(data, what)
        teams = _get(obj, "teams", what, _MISSING)
        if isinstance(teams, list) and all(isinstance(t, Mapping) for t in teams):
            names = tuple(_str(_mapping(t, what), "name", f"{what}.teams") for t in teams)
        else:
            names = _str_list(obj, "teams", what)
        return cls(
            game_id=_int(obj, "game_id", what),
            name=_str(obj, "name", what, ""),
            teams=names,
            rounds=_list(obj, "rows", what, ScoresheetRound.from_json),
            totals=_int_list(obj, "totals", what) if obj.get("totals") is not None else (),
            status=_str(obj, "status", what, ""),
            leaders=_str_list(obj, "leaders", what, None),
            winner=_opt_str(obj, "winner", what),
            tie=_bool(obj, "tie", what, False),
        )

    def columns(self) -> list[str]:
        """The column names of ``rows()``: ``round``, then ``<side>`` and ``<side> total`` per side
        (the same header as the CSV form)."""
        cols = ["round"]
        for name in self.teams:
            cols.extend((name, f"{name} total"))
        return cols

    def rows(self) -> list[dict[str, int]]:
        """One dict per round, keyed by ``columns()``: ready for ``pandas.DataFrame(rows)``."""
        out = []
        for r in self.rounds:
            row = {"round": r.round}
            for name, score, total in zip(self.teams, r.scores, r.totals, strict=False):
                row[name] = score
                row[f"{name} total"] = total
            out.append(row)
        return out

    def running_totals(self) -> dict[str, list[int]]:
        """Side name → its running total after each round (for plotting)."""
        return {name: [r.totals[i] for r in self.rounds if i < len(r.totals)] for i, name in enumerate(self.teams)}

    def _cells(self) -> list[tuple[str, ...]]:
        return [tuple(_fmt_int(v) for v in row.values()) for row in self.rows()]

    def _outcome(self) -> str:
        return _outcome(self.status or "in_progress", self.leaders, self.winner, self.tie, None)

    def __str__(self) -> str:
        head = f"Score sheet of game #{self.game_id} {self.name}".rstrip()
        cols = self.columns()
        lines = [head, _text_table([tuple(cols), *self._cells()], [True] * len(cols), "  ")]
        if self.status:
            lines.append(self._outcome())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        cols = self.columns()
        caption = f"Game #{self.game_id} {self.name}" + (f" - {self._outcome()}" if self.status else "")
        return _html_table(cols, self._cells(), caption=caption, numeric=[True] * len(cols))
