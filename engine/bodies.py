"""The shape of a round body (``POST /v1/rounds/score``, a game's round, a going-out check's
players): the one reader that checks it, before :func:`~handfoot.engine.operations.round_from_mapping`
builds the round from it.

Every problem of the body is listed at once, each with its path (``("teams", 0, "name")``) and a
code of the API's schema codes: ``required`` (a member missing), ``unknown_field`` (a member no
schema has), ``invalid_type`` (a value of the wrong JSON type, ``null`` included) and
``invalid_value`` (a value of the right type out of its range or length). The API's schemas
(``api/resources/rounds/schemas.py``) document the same shape with the limits below; they do not
walk a round body again. The rules themselves (unknown cards, contracts, a negative tally, ...) are
the engine's, after this; so is reading each card string (an item that is no card string is
named with the codes above by the engine's card reader, before any unknown card).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from handfoot.engine.errors import Path, Problem

#: Limits on request sizes (documented in docs/reliability.md): more than any real table needs.
MAX_CARDS_PER_LIST = 200
MAX_MELDS_PER_TEAM = 60
MAX_TEAMS = 12
MAX_PLAYERS_PER_TEAM = 8
MAX_NAME_LENGTH = 100
MAX_PRESET_ID_LENGTH = 40
#: Rounds a stored game holds at most (and the highest round number a round body may give).
MAX_ROUNDS_PER_GAME = 50
#: Longest card string accepted (``10♠`` is 3 characters; room for spaces and aliases).
MAX_CARD_LENGTH = 8
#: No tally value comes near this; it keeps numbers far from 64 bits (the engine's own ceilings, by
#: the decks in play, are tighter: invalid_tally). A negative count is the engine's negative_tally.
MAX_TALLY = 10_000_000
#: Cuts a side may claim in a round (each of perfect_cuts, cuts_within_1, cuts_within_3).
MAX_CUTS = 20
#: Ranks a tally's ``rank_books`` may list (4-10, J, Q, K, A and black threes).
MAX_RANK_BOOKS = 13

CUTS = ("perfect_cuts", "cuts_within_1", "cuts_within_3")
TALLY_COUNTS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "red_threes_on_table",
    "red_threes_caught",
    "table_points",
    "points_left",
    "burn_points",
    *CUTS,
)
_TEAM_CARDS = ("melds", "red_threes", "burn", "players")
_CUT_KEYS = frozenset(CUTS)
_TEAM_KEYS = frozenset({"name", "went_out", *_TEAM_CARDS, *CUTS, "tally"})
_PLAYER_KEYS = frozenset({"name", "hand", "foot", "played_from_foot"})
_TALLY_KEYS = frozenset({*TALLY_COUNTS, "rank_books", "has_melded"})
_RANK_BOOK_KEYS = frozenset({"rank", "clean_books", "dirty_books"})
_SCORE_KEYS = frozenset({"preset", "rules", "round", "teams"})
_LIST_TYPES = frozenset({list})


BLANK_NAME = "a name needs at least one visible character (not only spaces or invisible ones)"


def _invisible(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp")


def name_characters_problem(value: str) -> str | None:
    """What is wrong with the characters of the name ``value``, or ``None``: a control character
    (Cc) or a lone surrogate (Cs), or nothing to show (only spaces and invisible format characters
    such as U+200B). Names are otherwise stored and returned exactly as sent."""
    if value.isascii() and value.isprintable():
        # U+0020..U+007E only: no control character, no surrogate; the one invisible one is the space.
        return BLANK_NAME if value and not value.strip(" ") else None
    if value and all(_invisible(ch) for ch in value):
        return BLANK_NAME
    for i, ch in enumerate(value):
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs"):
            what = "a lone surrogate" if category == "Cs" else "a control character"
            return f"character {i} is {what} (U+{ord(ch):04X}); names may hold any other Unicode text"
    return None


def _plain_name(value: Any) -> bool:
    """A name :meth:`_Reader.name` takes (the same rule: :func:`name_characters_problem`), tested
    without building its path."""
    return type(value) is str and 0 < len(value) <= MAX_NAME_LENGTH and name_characters_problem(value) is None


def _plain_cards(value: Any) -> bool:
    """A list :meth:`_Reader.cards` takes."""
    return type(value) is list and len(value) <= MAX_CARDS_PER_LIST


class _Reader:
    """Collects the problems of one body (``problems``), each at its path. A value's own problems
    come first; a list's length and a side's one form are looked at once its items are sound (as
    the schemas' ``Length`` and the side's validator did)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, code: str, detail: str, path: Path) -> None:
        self.problems.append(Problem(code, detail, path))

    def object(self, value: Any, path: Path, known: frozenset[str], required: str | None = None) -> bool:
        """Whether ``value`` is an object (unknown and missing members listed)."""
        if type(value) is not dict:
            self.add("invalid_type", "expected an object", path)
            return False
        if not value.keys() <= known:
            for key in value.keys() - known:
                self.add("unknown_field", f"{key}: no such member", (*path, key))
        if required is not None and required not in value:
            self.add("required", f"{required}: a required member is missing", (*path, required))
        return True

    def each(self, value: Any, path: Path, item: Callable[[Any, Path], None], high: int, low: int = 0) -> None:
        """A list of at most ``high`` items (at least ``low``), each read by ``item``."""
        if type(value) is not list:
            self.add("invalid_type", "expected a list", path)
            return
        before = len(self.problems)
        for i, one in enumerate(value):
            item(one, (*path, i))
        if len(self.problems) == before and not low <= len(value) <= high:
            self.add("invalid_value", f"expected {low} to {high} items", path)

    def integer(self, value: Any, path: Path, low: int | None, high: int) -> None:
        if type(value) is not int:
            self.add("invalid_type", "expected a whole number", path)
        elif value > high or (low is not None and value < low):
            self.add("invalid_value", f"expected a whole number from {low or 0} to {high}", path)

    def boolean(self, value: Any, path: Path, nullable: bool = False) -> None:
        if type(value) is not bool and not (nullable and value is None):
            self.add("invalid_type", "expected true or false" + (" or null" if nullable else ""), path)

    def string(self, value: Any, path: Path, low: int, high: int) -> bool:
        if type(value) is not str:
            self.add("invalid_type", "expected a string", path)
        elif not low <= len(value) <= high:
            self.add("invalid_value", f"expected {low} to {high} characters", path)
        else:
            return True
        return False

    def name(self, value: Any, path: Path) -> None:
        if self.string(value, path, 1, MAX_NAME_LENGTH) and (problem := name_characters_problem(value)):
            self.add("invalid_value", problem, path)

    def cards(self, value: Any, path: Path) -> None:
        """A list of cards (each card string is read by the engine's card reader, which names an item
        that is no card string with this module's codes: ``handfoot.engine.operations``)."""
        if _plain_cards(value):
            return
        if type(value) is not list:
            self.add("invalid_type", "expected a list of cards", path)
        else:
            self.add("invalid_value", f"expected 0 to {MAX_CARDS_PER_LIST} items", path)

    def melds(self, value: Any, path: Path) -> None:
        if not (
            type(value) is list
            and len(value) <= MAX_MELDS_PER_TEAM
            and (not value or (set(map(type, value)) <= _LIST_TYPES and max(map(len, value)) <= MAX_CARDS_PER_LIST))
        ):  # else every meld a list of at most MAX_CARDS_PER_LIST: the common case, in passes of built-ins
            self.each(value, path, self.cards, MAX_MELDS_PER_TEAM)

    def player(self, value: Any, path: Path) -> None:
        # A member as it should be is passed by a test of its own, before any path is built: the
        # reader runs on every round body (docs/performance.md).
        if self.object(value, path, _PLAYER_KEYS, "name"):
            get = value.get
            if "name" in value and not _plain_name(value["name"]):
                self.name(value["name"], (*path, "name"))
            if "hand" in value and not _plain_cards(value["hand"]):
                self.cards(value["hand"], (*path, "hand"))
            if get("foot") is not None and not _plain_cards(value["foot"]):
                self.cards(value["foot"], (*path, "foot"))
            if get("played_from_foot") is not None:
                self.boolean(value["played_from_foot"], (*path, "played_from_foot"))

    def players(self, value: Any, path: Path) -> None:
        self.each(value, path, self.player, MAX_PLAYERS_PER_TEAM)

    def rank_books(self, value: Any, path: Path) -> None:
        if self.object(value, path, _RANK_BOOK_KEYS, "rank"):
            if "rank" in value:
                self.string(value["rank"], (*path, "rank"), 1, 2)
            for key in ("clean_books", "dirty_books"):
                if key in value:
                    self.integer(value[key], (*path, key), None, MAX_TALLY)

    def tally(self, value: Any, path: Path) -> None:
        if self.object(value, path, _TALLY_KEYS):
            for key in TALLY_COUNTS:
                if key in value:
                    self.integer(value[key], (*path, key), None, MAX_TALLY)
            if value.get("has_melded") is not None:
                self.boolean(value["has_melded"], (*path, "has_melded"))
            if "rank_books" in value:
                self.each(value["rank_books"], (*path, "rank_books"), self.rank_books, MAX_RANK_BOOKS)

    def team(self, value: Any, path: Path) -> None:
        before = len(self.problems)
        if not self.object(value, path, _TEAM_KEYS, "name"):
            return
        get = value.get
        if "name" in value and not _plain_name(value["name"]):
            self.name(value["name"], (*path, "name"))
        if "went_out" in value:
            self.boolean(value["went_out"], (*path, "went_out"))
        if "melds" in value:
            self.melds(value["melds"], (*path, "melds"))
        for key in ("red_threes", "burn"):
            if key in value and not _plain_cards(value[key]):
                self.cards(value[key], (*path, key))
        if "players" in value:
            self.players(value["players"], (*path, "players"))
        if not _CUT_KEYS.isdisjoint(value):
            for key in CUTS:
                if key in value:
                    self.integer(value[key], (*path, key), 0, MAX_CUTS)
        if get("tally") is not None:
            self.tally(value["tally"], (*path, "tally"))
            if len(self.problems) == before and any(map(get, _TEAM_CARDS)):
                self.add(
                    "invalid_value",
                    "give either `tally` or the cards (`melds`, `red_threes`, `burn`, `players`), not both",
                    (*path, "tally"),
                )

    def sides(self, value: Any, path: Path) -> None:
        self.each(value, path, self.team, MAX_TEAMS, 1)


def side_problems(teams: Any, path: Path = ()) -> list[Problem]:
    """The shape problems of a round's sides (``teams``: 1 to ``MAX_TEAMS`` sides, each in cards
    form or tally form), their paths under ``path``; empty when none."""
    reader = _Reader()
    reader.sides(teams, path)
    return reader.problems


def player_problems(players: Any, path: Path = ()) -> list[Problem]:
    """The shape problems of a list of players (``name``, ``hand``, ``foot``, ``played_from_foot``)."""
    reader = _Reader()
    reader.players(players, path)
    return reader.problems


def score_body_problems(body: Any) -> list[Problem]:
    """The shape problems of a ``POST /v1/rounds/score`` body: ``{preset, rules?, round?, teams}``.
    ``rules`` must be an object; its members are the house rules' (checked by their own reader)."""
    reader = _Reader()
    if reader.object(body, (), _SCORE_KEYS, "preset"):
        if "teams" not in body:
            reader.add("required", "teams: a required member is missing", ("teams",))
        if "preset" in body:
            reader.string(body["preset"], ("preset",), 1, MAX_PRESET_ID_LENGTH)
        if "rules" in body and type(body["rules"]) is not dict:
            reader.add("invalid_type", "expected an object", ("rules",))
        if "round" in body:
            reader.integer(body["round"], ("round",), 1, MAX_ROUNDS_PER_GAME)
        if "teams" in body:
            reader.sides(body["teams"], ("teams",))
    return reader.problems
