"""Arranged positions for the play tests: a dealt round with chosen hands, pile and tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from handfoot.engine import PRESETS, parse_cards
from handfoot.engine.errors import PlayError
from handfoot.engine.play import State, new_round, step
from handfoot.engine.play.state import Side
from handfoot.engine.rules import RuleSet

TEAMS = [("North-South", ["North", "South"]), ("East-West", ["East", "West"])]
ALONE = [("Ann", ["Ann"]), ("Bob", ["Bob"])]
BOOK_OF_SEVENS = "7S 7H 7D 7C 7S 7H 7D"
TAKE = {"type": "take_pile", "seat": 0, "cards": ["7S", "7D"]}


def table_of(preset: str) -> list[tuple[str, list[str]]]:
    return ALONE if preset == "steve-simpson" else TEAMS


def arrange(
    preset: str = "pagat",
    *,
    hands: Mapping[int, str] | None = None,
    feet: Mapping[int, str | None] | None = None,
    pile: str | None = None,
    melds: Mapping[int, Sequence[str]] | None = None,
    stock: str | None = None,
    phase: str = "draw",
    turn: int = 0,
    overrides: Mapping[str, Any] | None = None,
    play: Mapping[str, Any] | None = None,
    **state: Any,
) -> State:
    """A round of ``preset`` (seats 0 North, 1 East, 2 South, 3 West) with the given cards: each a
    space-separated string; ``feet`` ``None`` for a foot picked up; ``melds`` by side."""
    base = new_round(preset, table_of(preset), seed=1, overrides=overrides, play=play)
    seats = list(base.seats)
    for i, cards in (hands or {}).items():
        seats[i] = replace(seats[i], hand=parse_cards(cards.split()))
    for i, foot in (feet or {}).items():
        seats[i] = replace(seats[i], foot=None if foot is None else parse_cards(foot.split()))
    sides = [Side(side.name) for side in base.sides]  # no red threes from the deal
    for j, side_melds in (melds or {}).items():
        sides[j] = Side(sides[j].name, tuple(parse_cards(m.split()) for m in side_melds))
    return replace(
        base,
        seats=tuple(seats),
        sides=tuple(sides),
        pile=base.pile if pile is None else parse_cards(pile.split()),
        stock=base.stock if stock is None else parse_cards(stock.split()),
        phase=phase,
        turn=turn,
        **state,
    )


def codes(cards: Sequence[Any]) -> list[str]:
    return [c.code for c in cards]


def but(*covered: str) -> list[str]:
    """Every preset except those an existing test already covers for the rule."""
    return [p for p in PRESETS if p not in covered]


def takers(*covered: str) -> list[str]:
    """:func:`but`, less the presets that never take the discard pile (``pile_take_allowed`` false:
    the Hodges family rules; their refusal is tested on its own)."""
    return [p for p in but(*covered) if PRESETS[p].rules.pile_take_allowed]


def rules_of(preset: str) -> RuleSet:
    return PRESETS[preset].rules


def refused(state: State, action: Mapping[str, Any]) -> list[str]:
    """The codes of the refusal of ``action`` (fails if it is accepted)."""
    with pytest.raises(PlayError) as err:
        step(state, action)
    return [p.code for p in err.value.problems]


def meld(*melds: str, seat: int = 0) -> dict[str, Any]:
    return {"type": "meld", "seat": seat, "melds": [m.split() for m in melds]}


def discard(card: str, seat: int = 0) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "card": card}
