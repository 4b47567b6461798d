"""The presets: every rule source as a named RuleSet with a provenance for every value.

Sources (``../shared/seeds/``, summarised in ``../shared/rules/PRESETS.md``): seed 000 (a score
keeper page on Pagat's partnership rules, with its Bicycle, Wikipedia, Saskatchewan and Steve Simpson
notes), seed 001 (an online 4-player game, ``online-11-13``), seed 002 (the Hodges family variant),
seed 003 (the Wages reunion sheet), seed 004 (an online game site's help page, ``bga``).

The presets are data: ``presets.json`` beside this module holds, per preset, each value a source states
with its provenance. Where a source is silent, the value is *filled from pagat* and labelled so, as
seed 000's keeper does;
values reported only by secondary summaries are labelled *reported*; values that are our reading of an
ambiguous source are labelled *decision* and recorded in ``docs/rules-decisions.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

from handfoot.engine.errors import Problem, RulesError, UnknownPresetError
from handfoot.engine.rule_fields import apply_overrides, parse_value
from handfoot.engine.rules import RuleSet

ProvenanceKind = Literal["stated", "filled", "reported", "option", "derived", "default", "decision"]


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a preset's value comes from.

    ``kind``: ``stated`` (the source states it; ``seed`` in ``presets.json``), ``option`` (the source
    states it as a configurable option; this is its default), ``filled`` (the source is silent; copied
    from ``source``, a preset id), ``reported`` (stated by secondary public summaries, not by the rule
    set's own text), ``derived`` (follows from other stated values), ``decision`` (our reading of a
    silent or ambiguous source, recorded in docs/rules-decisions.md), ``default`` (a rule dimension
    beyond the seeds, off unless set).
    """

    kind: ProvenanceKind
    source: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named RuleSet: ``id`` (stable, lower-kebab), display ``name``, ``source`` (the published rule set),
    one-line ``summary``, ``rules``, and ``provenance`` for every RuleSet field."""

    id: str
    name: str
    source: str
    summary: str
    rules: RuleSet
    provenance: Mapping[str, Provenance]


def _preset(pid: str, entry: Mapping[str, Any], published: Mapping[str, Preset]) -> Preset:
    """One preset of ``presets.json``: ``values`` gives each field stated for it as ``[value, kind,
    source, note?]`` (a :class:`Provenance`); every other field is filled from the preset
    ``filled_from`` (one of ``published``) and labelled so. Values are read by the rule model's own
    parser (:func:`~handfoot.engine.rule_fields.parse_value`), as house rules are."""
    base = published[entry["filled_from"]] if entry["filled_from"] else None
    values: dict[str, Any] = {}
    provenance: dict[str, Provenance] = {}
    for f in fields(RuleSet):
        given = entry["values"].get(f.name)
        if given is not None:
            value, kind, source, *note = given
            values[f.name] = parse_value(f.name, value, ("presets", pid, f.name))
            # the data file's "seed" (a developer's word) is what players read as "stated"
            provenance[f.name] = Provenance("stated" if kind == "seed" else kind, source, *note)
        elif base is not None:
            values[f.name] = getattr(base.rules, f.name)
            provenance[f.name] = Provenance("filled", base.id, f"{entry['source']} is silent; filled from {base.id}")
        else:
            raise AssertionError(f"{pid}: no value for {f.name}")
    unknown = set(entry["values"]) - set(values)
    assert not unknown, unknown
    return Preset(
        pid, entry["name"], entry["source"], entry["summary"], RuleSet(**values), MappingProxyType(provenance)
    )


def _load_presets() -> Mapping[str, Preset]:
    """Every preset of ``presets.json`` (the data file beside this module), in its order."""
    data = json.loads(resources.files(__package__).joinpath("presets.json").read_text(encoding="utf-8"))
    presets: dict[str, Preset] = {}
    for pid, entry in data.items():
        presets[pid] = _preset(pid, entry, presets)
    return MappingProxyType(presets)


#: Every preset by id. The values and their provenance are data: ``engine/presets.json``.
PRESETS: Mapping[str, Preset] = _load_presets()


def find_preset(preset_id: str, path: tuple[str | int, ...] = ("preset",)) -> Preset:
    """The preset with this id; raises :class:`UnknownPresetError` (code ``unknown_preset``)."""
    try:
        return PRESETS[preset_id]
    except (KeyError, TypeError):
        raise UnknownPresetError(
            [Problem("unknown_preset", f"no preset {preset_id!r}; presets: {', '.join(PRESETS)}", path)]
        ) from None


@dataclass(frozen=True, slots=True)
class ResolvedRules:
    """A preset plus house-rule overrides: the RuleSet in force and which fields differ."""

    preset: Preset
    rules: RuleSet
    overridden: tuple[str, ...]


def resolve_rules(preset_id: str, overrides: Mapping[str, Any] | None = None) -> ResolvedRules:
    """The RuleSet of ``preset_id`` with ``overrides`` (house rules) applied and validated.

    ``overrides``: an object of rule names and values, or ``None`` for none. Raises
    :class:`UnknownPresetError` (path ``("preset",)``) or :class:`~engine.errors.RulesError` (paths
    under ``("rules", key)``; ``invalid_input`` at ``("rules",)`` when ``overrides`` is not an object).

    A preset with the same overrides resolves once: the answer is cached by the overrides' hashable
    form (:func:`_hashable`), so every round of a game with house rules gets the same RuleSet object.
    """
    if overrides is None or (type(overrides) is dict and not overrides):  # the common case: made once
        resolved = _AS_PUBLISHED.get(preset_id) if type(preset_id) is str else None
        if resolved is not None:
            return resolved
    if type(preset_id) is str and isinstance(overrides, Mapping):
        key = _hashable(overrides)
        if key is not None:
            return _resolve_cached(preset_id, key)
    return _resolve(preset_id, overrides)


def _resolve(preset_id: str, overrides: Mapping[str, Any] | None) -> ResolvedRules:
    preset = find_preset(preset_id)
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RulesError(
            [
                Problem(
                    "invalid_input",
                    "house rules are an object of rule names and values, or "
                    f"null for none; not {type(overrides).__name__}",
                    ("rules",),
                )
            ]
        )
    rules = apply_overrides(preset.rules, overrides or {})
    return ResolvedRules(preset, rules, tuple(rules.differs_from(preset.rules)))


_Hashable = tuple[Any, ...]
#: The deepest overrides that are cached: a rule's value is at most a list of objects of numbers.
_DEPTH_MAX = 4


@lru_cache(maxsize=256)
def _resolve_cached(preset_id: str, overrides: _Hashable) -> ResolvedRules:
    """:func:`_resolve` of the overrides that :func:`_hashable` gave ``overrides`` for (errors are
    raised again on each call: ``lru_cache`` keeps only answers)."""
    return _resolve(preset_id, _unhashable(overrides))


def _hashable(value: Any, depth: int = 0) -> Any:
    """``value`` (plain data: dicts, lists, strings, numbers, bools, None) as nested tuples that
    compare equal only when the data is the same, types included (``True``, ``1`` and ``1.0`` are
    equal in Python, not here); ``None`` for anything else, or nested deeper than any rule's value
    (``_DEPTH_MAX``), which is then resolved uncached."""
    kind = type(value)
    if depth > _DEPTH_MAX:
        return None
    if kind is dict:
        items = []
        for k, v in value.items():
            item = _hashable(v, depth + 1)
            if type(k) is not str or item is None:
                return None
            items.append((k, item))
        return (dict, tuple(items))
    if kind is list or kind is tuple:
        parts = [_hashable(v, depth + 1) for v in value]
        return None if None in parts else (list, tuple(parts))
    if kind in (str, int, float, bool) or value is None:
        return (kind, value)
    return None


def _unhashable(key: Any) -> Any:
    """The plain data of a :func:`_hashable` form (lists for tuples)."""
    kind, value = key
    if kind is dict:
        return {k: _unhashable(v) for k, v in value}
    if kind is list:
        return [_unhashable(v) for v in value]
    return value


#: Every preset as published, resolved: what ``resolve_rules`` gives without overrides.
_AS_PUBLISHED: dict[str, ResolvedRules] = {pid: ResolvedRules(p, p.rules, ()) for pid, p in PRESETS.items()}
