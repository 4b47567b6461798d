"""Typed request inputs (``TypedDict``): plain dicts that mypy can check, and builders for them.

Each TypedDict's required keys are its OpenAPI schema's ``required`` members, exactly
(tests/contract/test_sdk_coverage.py holds them equal), so mypy refuses what the server would.
``tally(...)`` and ``side(...)`` build the common shapes with the counts that are zero filled in.

Card lists are passed to the server as given, so input aliases such as ``"T"`` for ten or suit
symbols (``"10♠"``) are accepted; the server answers with canonical cards (``"10S"``).
"""

from collections.abc import Sequence
from typing import NotRequired, Required, TypedDict

__all__ = ["Card", "GameTeamInput", "PlayerInput", "RankBooksInput", "TallyInput", "TeamInput", "side", "tally"]

#: A card string: rank then suit (``"10H"``, ``"QS"``), or ``"JK"`` for a joker.
Card = str


class RankBooksInput(TypedDict, total=False):
    """Of a tallied team's books, those of one rank with a bonus of its own (house rule
    ``rank_book_bonuses``); counted in the tally's ``clean_books`` and ``dirty_books`` too."""

    rank: Required[str]
    clean_books: int
    dirty_books: int


class TallyInput(TypedDict, total=False):
    """A team's round as counted at the table, instead of its cards (counts; points as counted).
    Every count may be omitted: the server takes it as 0."""

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
    cuts_within_1: int
    """Cuts one card off the dealt count (house rule perfect_cut_within_1_bonus)."""
    cuts_within_3: int
    """Cuts two or three cards off the dealt count (house rule perfect_cut_within_3_bonus)."""
    has_melded: bool | None
    rank_books: Sequence[RankBooksInput]


class PlayerInput(TypedDict):
    """A player's cards at the end of the round. Omit ``foot`` once the foot was picked up."""

    name: str
    hand: NotRequired[Sequence[Card]]
    foot: NotRequired[Sequence[Card]]
    #: Whether the player played from their foot (Pagat's going-out rule); omitted: not known.
    played_from_foot: NotRequired[bool]


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
    cuts_within_1: int
    """Cuts one card off the dealt count (house rule perfect_cut_within_1_bonus)."""
    cuts_within_3: int
    """Cuts two or three cards off the dealt count (house rule perfect_cut_within_3_bonus)."""
    tally: TallyInput


class GameTeamInput(TypedDict):
    """A side of a new game: its name and its players' names (one player for a side of one)."""

    name: str
    players: Sequence[str]


def tally(
    *,
    clean_books: int = 0,
    dirty_books: int = 0,
    wild_books: int = 0,
    red_threes_on_table: int = 0,
    red_threes_caught: int = 0,
    table_points: int = 0,
    points_left: int = 0,
    burn_points: int | None = None,
    perfect_cuts: int | None = None,
    cuts_within_1: int | None = None,
    cuts_within_3: int | None = None,
    has_melded: bool | None = None,
) -> TallyInput:
    """A ``TallyInput`` with the counts not given as 0 (the table's "none"); ``burn_points``,
    ``perfect_cuts``, ``cuts_within_1``, ``cuts_within_3`` and ``has_melded`` are sent only when
    given (the preset's default otherwise).
    ``points_left`` is positive: the card points left in hands and feet, subtracted."""
    out: TallyInput = {
        "clean_books": clean_books,
        "dirty_books": dirty_books,
        "wild_books": wild_books,
        "red_threes_on_table": red_threes_on_table,
        "red_threes_caught": red_threes_caught,
        "table_points": table_points,
        "points_left": points_left,
    }
    if burn_points is not None:
        out["burn_points"] = burn_points
    if perfect_cuts is not None:
        out["perfect_cuts"] = perfect_cuts
    if cuts_within_1 is not None:
        out["cuts_within_1"] = cuts_within_1
    if cuts_within_3 is not None:
        out["cuts_within_3"] = cuts_within_3
    if has_melded is not None:
        out["has_melded"] = has_melded
    return out


def side(name: str, tally: TallyInput, *, went_out: bool = False) -> TeamInput:
    """One side of a round as tallied: ``side("Us", tally(clean_books=2, ...), went_out=True)``."""
    return {"name": name, "went_out": went_out, "tally": tally}
