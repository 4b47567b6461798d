"""Presets: ``GET /v1/presets`` (``PresetSummary``) and ``GET /v1/presets/{id}`` (``Preset``)."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .._loader import Result

__all__ = [
    "PRESET_IDS",
    "PROVENANCE_KINDS",
    "Preset",
    "PresetId",
    "PresetSummary",
    "Provenance",
    "ProvenanceKind",
    "RuleField",
]

#: The ids of the server's presets (``GET /v1/presets``), in its order; tests/contract/test_sdk_coverage.py
#: keeps them equal to the server's. The client's ``preset`` parameters take a ``PresetId``, so mypy
#: refuses ``preset="pagatt"``; a preset that a newer server knows and this SDK does not passes as
#: ``typing.cast(PresetId, "its-id")`` (the client sends any string; the server judges it). Results
#: keep the server's ``str``, so an older client still reads a newer server's games.
PresetId = Literal[
    "pagat", "bicycle", "wikipedia", "house", "saskatchewan", "steve-simpson", "online-11-13", "hodges", "wages", "bga"
]
PRESET_IDS: tuple[PresetId, ...] = typing.get_args(PresetId)

#: Where a preset's value comes from: the enum of ``Provenance.kind`` in openapi/openapi.json
#: (tests/contract/test_sdk_coverage.py compares the two). ``stated``: stated by the rule set; ``filled``:
#: taken from another preset where the source is silent; the rest as ``note`` explains.
ProvenanceKind = Literal["stated", "option", "filled", "reported", "derived", "decision", "default"]
PROVENANCE_KINDS: tuple[ProvenanceKind, ...] = typing.get_args(ProvenanceKind)


@dataclass(frozen=True, slots=True)
class PresetSummary(Result):
    """One entry of ``GET /v1/presets``: a preset's stable ``id``, display ``name``, ``source``
    and one-line ``summary``."""

    id: str
    name: str
    source: str
    summary: str


@dataclass(frozen=True, slots=True)
class Provenance(Result):
    """Where a preset's value comes from: ``kind`` (one of ``PROVENANCE_KINDS``), the ``source``
    that states it (or the preset it was filled from) and a ``note``."""

    kind: ProvenanceKind
    source: str
    note: str


@dataclass(frozen=True, slots=True)
class RuleField(Result):
    """One rule of a preset, for display: its ``name`` (as used in ``rules`` overrides), ``group``,
    ``description`` (with its unit), ``value`` and ``provenance``."""

    name: str
    group: str
    description: str
    value: object
    provenance: Provenance


@dataclass(frozen=True, slots=True, kw_only=True)
class Preset(PresetSummary):
    """A full preset (``GET /v1/presets/{id}``): its rules and the provenance of each value.

    ``rules`` is read-only (nested objects are read-only dicts, arrays are tuples); it can be
    passed back as ``rules=`` to a scoring call, or copied with ``dict(preset.rules)`` to build
    house rules.
    """

    rules: Mapping[str, object]
    provenance: Mapping[str, Provenance]
    fields: tuple[RuleField, ...]
    """Every rule in order with its group and description."""
