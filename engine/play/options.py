"""The rules of play that scoring never reads: asking the partner before going out, and what happens
when the stock runs out. Each preset's value has a provenance naming its published rule set.

Kept beside the play engine rather than in :class:`~handfoot.engine.rules.RuleSet` because no check
or score depends on them (docs/rules-decisions.md D35). Everything else the play engine needs is a
RuleSet field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from handfoot.engine.errors import Problem, RulesError
from handfoot.engine.presets import PRESETS, Provenance

StockOut = Literal["ends", "pile_only"]
STOCK_OUT_CHOICES: tuple[str, ...] = ("ends", "pile_only")


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """``ask_partner``: a player of a side with partners asks "May I go out?" and needs a yes before
    going out. ``stock_out``: with the stock empty at a draw, the round ends (``ends``), or play goes
    on only while each player takes the discard pile (``pile_only``)."""

    ask_partner: bool = True
    stock_out: StockOut = "ends"

    def to_mapping(self) -> dict[str, Any]:
        return {"ask_partner": self.ask_partner, "stock_out": self.stock_out}


_PAGAT = "Pagat"
#: preset id -> (options, provenance by option). Presets not listed are filled from Pagat.
_STATED: dict[str, tuple[PlayOptions, dict[str, Provenance]]] = {
    "pagat": (
        PlayOptions(True, "ends"),
        {
            "ask_partner": Provenance("stated", _PAGAT, 'Ask your partner "May I go out?"'),
            "stock_out": Provenance(
                "stated", _PAGAT, "play also ends when the stock runs out and someone wants to draw"
            ),
        },
    ),
    "wikipedia": (
        PlayOptions(True, "ends"),
        {
            "ask_partner": Provenance(
                "stated", "Wikipedia", "Pagat and Wikipedia also have you ask your partner first"
            ),
            "stock_out": Provenance("filled", "pagat"),
        },
    ),
    "online-11-13": (
        PlayOptions(True, "pile_only"),
        {
            "ask_partner": Provenance(
                "stated",
                "the online 11/13 game's rules",
                "you must also ask for and receive permission from your partner",
            ),
            "stock_out": Provenance(
                "stated", "the online 11/13 game's rules", "play goes on only while each player takes the discard pile"
            ),
        },
    ),
    "hodges": (
        PlayOptions(False, "ends"),
        {
            "ask_partner": Provenance(
                "decision",
                "the Hodges family rules",
                "going out is described with no asking (docs/rules-decisions.md D36)",
            ),
            "stock_out": Provenance("filled", "pagat"),
        },
    ),
    "wages": (
        PlayOptions(False, "ends"),
        {
            "ask_partner": Provenance(
                "decision",
                "the Wages reunion rules",
                "going out is described with no asking (docs/rules-decisions.md D36)",
            ),
            "stock_out": Provenance("filled", "pagat"),
        },
    ),
    "bga": (
        PlayOptions(False, "ends"),
        {
            "ask_partner": Provenance(
                "decision",
                "Board Game Arena's rules",
                "going out is described with no asking (docs/rules-decisions.md D36)",
            ),
            "stock_out": Provenance(
                "stated", "Board Game Arena's rules", "if the draw pile is exhausted, the round ends"
            ),
        },
    ),
}


def preset_play_options(preset_id: str) -> tuple[PlayOptions, Mapping[str, Provenance]]:
    """A preset's play options and the provenance of each (silent presets: filled from Pagat)."""
    if preset_id in _STATED:
        return _STATED[preset_id]
    options, _ = _STATED["pagat"]
    return options, {name: Provenance("filled", "pagat") for name in ("ask_partner", "stock_out")}


def play_options(preset_id: str, overrides: Mapping[str, Any] | None = None) -> PlayOptions:
    """The play options of ``preset_id`` (a known preset) with house-rule ``overrides``
    (``ask_partner``: bool, ``stock_out``: ``ends`` or ``pile_only``).

    Raises :class:`RulesError`: ``unknown_rule`` or ``invalid_rule_value`` (paths ``("play", key)``)."""
    if preset_id not in PRESETS:
        preset_id = "pagat"
    options, _ = preset_play_options(preset_id)
    if not overrides:
        return options
    problems: list[Problem] = []
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if (key == "ask_partner" and isinstance(value, bool)) or (key == "stock_out" and value in STOCK_OUT_CHOICES):
            changes[key] = value
        elif key in ("ask_partner", "stock_out"):
            problems.append(
                Problem(
                    "invalid_rule_value",
                    f"{key}: expected {'true or false' if key == 'ask_partner' else 'ends or pile_only'}",
                    ("play", key),
                )
            )
        else:
            problems.append(
                Problem("unknown_rule", f"{key!r} is not a rule of play (ask_partner, stock_out)", ("play", str(key)))
            )
    if problems:
        raise RulesError(problems)
    return replace(options, **changes)
