"""Schemas of the rounds resource: scoring one round, and comparing presets on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from handfoot.server.names import Name, name_ok
from handfoot.server.schemas import (
    MAX_PLAYERS_PER_TEAM,
    MAX_TEAMS,
    Bool,
    Cards,
    EngineProblemSchema,
    Int,
    Melds,
    PresetId,
    Problems,
    RoundNumber,
    Rules,
    Schema,
    card_strings_ok,
    meld_lists_ok,
)

#: No tally value comes near this; it keeps numbers far from 64 bits (the engine's own ceilings, by
#: the decks in play, are tighter: invalid_tally).
MAX_TALLY = 10_000_000
_COUNT = {"minimum": 0}


def _count(description: str) -> Any:
    # No lower bound in the validator: the engine answers a negative count with its own code
    # (negative_tally, naming the field); the spec still documents the minimum. Omitted, a count is
    # 0 (the spec's default), as a blank on the score pad is "none".
    return Int(validate=validate.Range(max=MAX_TALLY), load_default=0,
               metadata={"description": description + " Omitted: 0.", **_COUNT})


class RankBooksSchema(Schema):
    rank = fields.String(
        required=True,
        validate=validate.Length(min=1, max=2),
        metadata={"description": "A rank with a bonus of its own (house rule rank_book_bonuses), e.g. `7`, or `3` for "
                  "black threes."},
    )
    clean_books = _count("Of the side's clean books, those of this rank.")
    dirty_books = _count("Of the side's dirty books, those of this rank.")


class TallySchema(Schema):
    """A side's round as counted at the table; every count may be omitted when it is 0."""

    clean_books = _count("Clean books completed.")
    dirty_books = _count("Dirty books completed.")
    wild_books = _count("Wild books completed.")
    red_threes_on_table = _count("Red threes laid out on the table.")
    red_threes_caught = _count("Red threes caught in hands or feet.")
    table_points = _count("Card points of every melded card on the table (complete or not), in points.")
    points_left = _count(
        "Card points left in hands and feet (a foot never picked up counts whole), in points; subtracted."
    )
    burn_points = _count("Card points of the burn pile (presets that burn), in points.")
    perfect_cuts = _count("Perfect cuts (house rule perfect_cut_bonus).")
    cuts_within_1 = _count("Cuts one card off the dealt count (house rule perfect_cut_within_1_bonus).")
    cuts_within_3 = _count("Cuts two or three cards off the dealt count (house rule perfect_cut_within_3_bonus).")
    rank_books = fields.List(
        fields.Nested(RankBooksSchema),
        validate=validate.Length(max=13),
        load_default=list,
        metadata={
            "description": "Which of the side's books are of a rank with a bonus of its own (house rule "
            "rank_book_bonuses), one item a rank; they are counted in clean_books and dirty_books too."
        },
    )
    has_melded = Bool(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "Whether the side has melded (for red-three rules that depend on it); default: any points "
            "or books on the table."
        },
    )


_PLAYER_KEYS = frozenset({"name", "hand", "foot", "played_from_foot"})
_CUT_KEYS = ("perfect_cuts", "cuts_within_1", "cuts_within_3")
_TEAM_KEYS = frozenset({"name", "went_out", "melds", "red_threes", "burn", "players", *_CUT_KEYS, "tally"})


class PlayerSchema(Schema):
    name = Name("Player name.", required=True)
    hand = Cards("Cards left in the hand.", load_default=list)
    foot = Cards(
        "The foot, only when it was never picked up (it then counts whole).", allow_none=True, load_default=None
    )
    played_from_foot = Bool(
        allow_none=True,
        load_default=None,
        metadata={"description": "The player has played from the foot (rule going_out_needs_foot_play); null: not "
                  "known."},
    )


def plain_player(item: Any) -> dict[str, Any] | None:
    """What ``PlayerSchema().load(item)`` returns, when ``item`` is plainly valid; else ``None``.

    Plainly valid: a dict of ``name`` (a valid name), ``hand`` (absent or a card list) and ``foot``
    (absent, null or a card list) and nothing else. ``None`` does not mean invalid, only "let
    marshmallow decide": :class:`SideList` then loads the whole list through the schema, whose
    errors are the answer. tests/api/test_side_lists.py checks both against each other."""
    if type(item) is not dict or not item.keys() <= _PLAYER_KEYS or not name_ok(item.get("name")):
        return None
    hand, foot, played = item.get("hand", []), item.get("foot"), item.get("played_from_foot")
    if not card_strings_ok(hand) or (foot is not None and not card_strings_ok(foot)):
        return None
    if played is not None and type(played) is not bool:
        return None
    return {"name": item["name"], "hand": list(hand), "foot": None if foot is None else list(foot),
            "played_from_foot": played}


def plain_team(item: Any) -> dict[str, Any] | None:
    """What ``TeamSchema().load(item)`` returns, when ``item`` is a plainly valid side in cards form
    (no ``tally``); else ``None`` (see :func:`plain_player`)."""
    if type(item) is not dict or not item.keys() <= _TEAM_KEYS or not name_ok(item.get("name")):
        return None
    get = item.get
    if get("tally") is not None:
        return None
    went_out = get("went_out", False)
    cuts = [get(key, 0) for key in _CUT_KEYS]
    if type(went_out) is not bool or any(type(n) is not int or not 0 <= n <= 20 for n in cuts):
        return None
    melds, red_threes, burn = get("melds", []), get("red_threes", []), get("burn", [])
    if not (meld_lists_ok(melds) and card_strings_ok(red_threes) and card_strings_ok(burn)):
        return None
    players_in = get("players", [])
    if type(players_in) is not list or len(players_in) > MAX_PLAYERS_PER_TEAM:
        return None
    players = []
    for p in players_in:
        player = plain_player(p)
        if player is None:
            return None
        players.append(player)
    return {"name": item["name"], "went_out": went_out, "melds": [list(m) for m in melds],
            "red_threes": list(red_threes), "burn": list(burn), "players": players,
            **dict(zip(_CUT_KEYS, cuts, strict=True)), "tally": None}


class SideList(fields.List):
    """``List(Nested(schema))`` for sides and players, taken in one pass when every item is plainly
    valid (``plain`` returns what the schema would load); otherwise every item goes through the
    nested schema, so the answer and its errors are marshmallow's own.

    The one-pass path exists for speed: loading the benchmark round's 4 sides and 8 players field by
    field was about a quarter of ``POST /v1/rounds/score`` (docs/performance.md). Documented exactly
    as the ``List(Nested(...))`` it replaces."""

    def __init__(self, schema: type[Schema], plain: Callable[[Any], dict[str, Any] | None], **kw: Any) -> None:
        super().__init__(fields.Nested(schema), **kw)
        self._plain = plain

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if type(value) is list:
            out = []
            for item in value:
                loaded = self._plain(item)
                if loaded is None:
                    break
                out.append(loaded)
            else:
                return out
        return super()._deserialize(value, attr, data, **kwargs)


class TeamSchema(Schema):
    name = Name("Side name (a team, or a player playing alone).", required=True)
    went_out = Bool(load_default=False, metadata={"description": "This side went out (ended the round)."})
    melds = Melds("Cards form: every meld on the table, complete or not.", load_default=list)
    red_threes = Cards("Cards form: red threes laid out on the table.", load_default=list)
    burn = Cards("Cards form: the burn pile (presets that burn).", load_default=list)
    players = SideList(
        PlayerSchema,
        plain_player,
        validate=validate.Length(max=MAX_PLAYERS_PER_TEAM),
        load_default=list,
        metadata={"description": "Cards form: the side's players."},
    )
    perfect_cuts = Int(
        load_default=0,
        validate=validate.Range(0, 20),
        metadata={"description": "Cards form: perfect cuts (house rule perfect_cut_bonus)."},
    )
    cuts_within_1 = Int(
        load_default=0,
        validate=validate.Range(0, 20),
        metadata={"description": "Cards form: cuts one card off the dealt count (house rule "
                  "perfect_cut_within_1_bonus)."},
    )
    cuts_within_3 = Int(
        load_default=0,
        validate=validate.Range(0, 20),
        metadata={"description": "Cards form: cuts two or three cards off the dealt count (house rule "
                  "perfect_cut_within_3_bonus)."},
    )
    tally = fields.Nested(
        TallySchema,
        allow_none=True,
        load_default=None,
        metadata={"description": "Tally form: the side's round as counted at the table (instead of cards)."},
    )

    @validates_schema
    def _one_form(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("tally") is not None and (
            data.get("melds") or data.get("players") or data.get("red_threes") or data.get("burn")
        ):
            raise ValidationError(
                "give either `tally` or the cards (`melds`, `red_threes`, `burn`, `players`), not both",
                field_name="tally",
            )


def Sides(description: str) -> SideList:  # noqa: N802 - a field factory
    """The sides of a round body (required, 1 to ``MAX_TEAMS``), each cards form or tally form."""
    return SideList(TeamSchema, plain_team, required=True, validate=validate.Length(min=1, max=MAX_TEAMS),
                    metadata={"description": description})


class RoundBodyMixin(Schema):
    rules = Rules()
    round = RoundNumber("Round number (1 = first): sets the contract and bonuses by round.", load_default=1)
    teams = Sides("Every side, cards form or tally form (sides may mix forms).")


class RoundScoreRequestSchema(RoundBodyMixin):
    preset = PresetId(required=True)


class LineSchema(Schema):
    code = fields.String(
        metadata={
            "description": "clean_books, dirty_books, wild_books, going_out, "
            "books_of_<rank> (house rule rank_book_bonuses, e.g. books_of_7), red_threes_on_table, "
            "red_threes_caught, perfect_cut, cut_within_1, cut_within_3, table_points, burn, points_left."
        }
    )
    label = fields.String(metadata={"description": "The line in words."})
    count = fields.Integer(
        allow_none=True, metadata={"description": "How many (books, red threes...), where it applies."}
    )
    points_each = fields.Integer(allow_none=True, metadata={"description": "Points per item, where it applies."})
    points = fields.Integer(metadata={"description": "The line's points (signed)."})


class BreakdownSchema(Schema):
    name = fields.String(metadata={"description": "Side name, as sent."})
    total = fields.Integer(metadata={"description": "The side's round score: the sum of its lines (points)."})
    lines = fields.List(fields.Nested(LineSchema), metadata={"description": "One line per item, in order."})
    warnings = fields.List(
        fields.Nested(EngineProblemSchema),
        metadata={
            "description": "The meld rules the side's table breaks that stand and score all the same (rule "
            "illegal_melds_stand, the Hodges family rules' \"what's layed is played\"), each with its stable "
            "code and the pointer of its meld; empty when none. Under every other rule set such a meld is a 422."
        },
    )


class RoundScoreSchema(Schema):
    preset = fields.String(metadata={"description": "The preset scored under."})
    round = fields.Integer(metadata={"description": "Round number."})
    rules_overridden = fields.List(
        fields.String(), metadata={"description": "The rule names whose values differ from the preset's (house rules)."}
    )
    teams = fields.List(fields.Nested(BreakdownSchema), metadata={"description": "A Breakdown per side, in order."})


class RoundCompareRequestSchema(RoundBodyMixin):
    presets = fields.List(
        PresetId(),
        required=True,
        validate=validate.Length(min=1, max=20),
        metadata={"description": "The presets to score the round under (house `rules` apply to each)."},
    )


class ComparisonSchema(Schema):
    preset = fields.String(metadata={"description": "Preset id."})
    valid = fields.Boolean(metadata={"description": "Whether the round is legal under this preset."})
    teams = fields.List(
        fields.Nested(BreakdownSchema),
        allow_none=True,
        metadata={"description": "A Breakdown per side when valid, else null."},
    )
    problems = Problems()


class RoundComparisonSchema(Schema):
    round = fields.Integer(metadata={"description": "Round number."})
    results = fields.List(fields.Nested(ComparisonSchema), metadata={"description": "One result per preset, in order."})
