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
    "RULE_NAMES",
    "Preset",
    "PresetId",
    "PresetSummary",
    "Provenance",
    "ProvenanceKind",
    "RuleField",
    "RuleName",
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

#: The name of every rule of a rule set, in the server's order: the members of ``Preset.rules`` and
#: the keys ``rules=`` overrides take (``GET /v1/presets/{id}``'s ``Rules`` schema;
#: tests/contract/test_sdk_coverage.py keeps the two equal). Among them the rules of who may sit
#: (``players_alone_min``/``max``, ``players_in_teams_min``/``max``, ``sides_by_parity``), of the pile
#: (``pile_take_allowed``) and of a foot's red threes (``red_threes_automatic_foot``).
RuleName = Literal[
    "teams_min",
    "teams_max",
    "players_per_team_min",
    "players_per_team_max",
    "players_alone_min",
    "players_alone_max",
    "players_in_teams_min",
    "players_in_teams_max",
    "sides_by_parity",
    "decks_per_player",
    "decks_extra",
    "decks_by_players",
    "hand_size",
    "foot_size",
    "hand_size_by_round",
    "foot_size_by_round",
    "jokers_per_deck",
    "rounds",
    "target_score",
    "tie_rule",
    "tiebreaker_opening_minimum",
    "joker_points",
    "two_points",
    "ace_points",
    "high_points",
    "high_from",
    "low_points",
    "black_three_points",
    "threes_count_against",
    "meld_min",
    "book_size",
    "book_max_size",
    "one_open_meld_per_rank",
    "after_book",
    "all_wild_melds",
    "black_three_books",
    "wild_ratio",
    "min_naturals_with_wilds",
    "min_naturals_dirty_book",
    "max_wilds_per_book",
    "min_natural_share",
    "clean_books_grow",
    "illegal_melds_stand",
    "clean_book_bonus",
    "dirty_book_bonus",
    "wild_book_bonus",
    "going_out_bonus",
    "going_out_bonus_by_round",
    "rank_book_bonuses",
    "perfect_cut_bonus",
    "perfect_cut_within_1_bonus",
    "perfect_cut_within_3_bonus",
    "red_threes_laid_out",
    "red_threes_automatic",
    "red_threes_automatic_foot",
    "red_three_table_points",
    "red_three_table_points_unmelded",
    "red_three_caught_points",
    "opening_minimum_by_round",
    "opening_minimum",
    "opening_thresholds",
    "opening_pile_top_only",
    "opening_needs_book",
    "contract",
    "contract_by_round",
    "going_out_needs_feet",
    "going_out_needs_foot_play",
    "going_out_discard",
    "last_card_needs_contract",
    "draw_count",
    "pile_take_allowed",
    "pile_take_count",
    "pile_blocked_by",
    "pile_wild_top",
    "pile_later_take",
    "pile_freezes_on_wild",
    "pile_closed_rank_blocks",
]
RULE_NAMES: tuple[RuleName, ...] = typing.get_args(RuleName)


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
