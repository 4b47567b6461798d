"""Schemas of the rounds resource: scoring one round, and comparing presets on it."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from api.names import Name
from api.schemas import (
    MAX_PLAYERS_PER_TEAM,
    MAX_TEAMS,
    Bool,
    Cards,
    Int,
    Melds,
    PresetId,
    Problems,
    Rules,
    Schema,
)

#: No tally value comes near this; it keeps numbers far from 64 bits (the engine's own ceilings, by
#: the decks in play, are tighter: invalid_tally).
MAX_TALLY = 10_000_000
_COUNT = {"minimum": 0}


def _count(description: str, required: bool = True) -> Any:
    # No lower bound in the validator: the engine answers a negative count with its own code
    # (negative_tally, naming the field); the spec still documents the minimum.
    kw: dict[str, Any] = {"required": True} if required else {"load_default": 0}
    return Int(validate=validate.Range(max=MAX_TALLY), metadata={"description": description, **_COUNT}, **kw)


class TallySchema(Schema):
    clean_books = _count("Clean books completed.")
    dirty_books = _count("Dirty books completed.")
    wild_books = _count("Wild books completed.")
    red_threes_on_table = _count("Red threes laid out on the table.")
    red_threes_caught = _count("Red threes caught in hands or feet.")
    table_points = _count("Card points of every melded card on the table (complete or not), in points.")
    points_left = _count(
        "Card points left in hands and feet (a foot never picked up counts whole), in points; subtracted."
    )
    burn_points = _count("Card points of the burn pile (presets that burn), in points.", required=False)
    perfect_cuts = _count("Perfect cuts (house rule perfect_cut_bonus).", required=False)
    has_melded = Bool(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "Whether the side has melded (for red-three rules that depend on it); default: any points "
            "or books on the table."
        },
    )


class PlayerSchema(Schema):
    name = Name("Player name.", required=True)
    hand = Cards("Cards left in the hand.", load_default=list)
    foot = Cards(
        "The foot, only when it was never picked up (it then counts whole).", allow_none=True, load_default=None
    )


class TeamSchema(Schema):
    name = Name("Side name (a team, or a player playing alone).", required=True)
    went_out = Bool(load_default=False, metadata={"description": "This side went out (ended the round)."})
    melds = Melds("Cards form: every meld on the table, complete or not.", load_default=list)
    red_threes = Cards("Cards form: red threes laid out on the table.", load_default=list)
    burn = Cards("Cards form: the burn pile (presets that burn).", load_default=list)
    players = fields.List(
        fields.Nested(PlayerSchema),
        validate=validate.Length(max=MAX_PLAYERS_PER_TEAM),
        load_default=list,
        metadata={"description": "Cards form: the side's players."},
    )
    perfect_cuts = Int(
        load_default=0,
        validate=validate.Range(0, 20),
        metadata={"description": "Cards form: perfect cuts (house rule perfect_cut_bonus)."},
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


class RoundBodyMixin(Schema):
    rules = Rules()
    round = Int(
        load_default=1,
        validate=validate.Range(1, 50),
        metadata={"description": "Round number (1 = first): sets the contract and bonuses by round."},
    )
    teams = fields.List(
        fields.Nested(TeamSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_TEAMS),
        metadata={"description": "Every side, cards form or tally form (sides may mix forms)."},
    )


class RoundScoreRequestSchema(RoundBodyMixin):
    preset = PresetId(required=True)


class LineSchema(Schema):
    code = fields.String(
        metadata={
            "description": "clean_books, dirty_books, wild_books, going_out, "
            "red_threes_on_table, red_threes_caught, perfect_cut, table_points, burn, "
            "points_left."
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
