"""Typed request inputs (``TypedDict``): plain dicts that mypy can check.

Card lists are passed to the server as given, so input aliases such as ``"T"`` for ten or suit
symbols (``"10♠"``) are accepted; the server answers with canonical cards (``"10S"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NotRequired, Required, TypedDict

__all__ = ["Card", "GameTeamInput", "PlayerInput", "TallyInput", "TeamInput"]

#: A card string: rank then suit (``"10H"``, ``"QS"``), or ``"JK"`` for a joker.
Card = str


class TallyInput(TypedDict, total=False):
    """A team's round as counted at the table, instead of its cards."""

    clean_books: int
    dirty_books: int
    wild_books: int
    red_threes_on_table: int
    red_threes_caught: int
    table_points: int
    points_left: int
    """Card points left in hands and feet, as a positive number (it is subtracted)."""
    burn_points: int
    """Card points of the burn pile (presets that burn)."""
    perfect_cuts: int
    has_melded: bool | None


class PlayerInput(TypedDict):
    """A player's cards at the end of the round. Omit ``foot`` once the foot was picked up."""

    name: str
    hand: Sequence[Card]
    foot: NotRequired[Sequence[Card]]


class TeamInput(TypedDict, total=False):
    """One team of a round: either its cards (``melds``, ``red_threes``, ``burn``, ``players``)
    or a ``tally``. A player playing alone is a team of one."""

    name: Required[str]
    went_out: bool
    melds: Sequence[Sequence[Card]]
    """Everything the team has on the table, one list per meld or book."""
    red_threes: Sequence[Card]
    """Red threes laid out."""
    burn: Sequence[Card]
    """The burn pile, where the preset has one."""
    players: Sequence[PlayerInput]
    perfect_cuts: int
    tally: TallyInput


class GameTeamInput(TypedDict):
    """A side of a new game: its name and its players' names (one player for a side of one)."""

    name: str
    players: Sequence[str]
