"""Schemas of the rounds resource: scoring one round, and comparing presets on it."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from handfoot.engine.bodies import MAX_CUTS, MAX_RANK_BOOKS, MAX_TALLY, player_problems, side_problems
from handfoot.engine.errors import Problem
from handfoot.server.problems import CodedMessage
from handfoot.server.schemas import (
    MAX_PLAYERS_PER_TEAM,
    MAX_TEAMS,
    Bool,
    Cards,
    Doc,
    EngineProblemSchema,
    Int,
    Melds,
    Name,
    PresetId,
    Problems,
    Required,
    RoundNumber,
    Rules,
    Schema,
)

_COUNT = {"minimum": 0}


def _count(description: str) -> Any:
    # No lower bound in the validator: the engine answers a negative count with its own code
    # (negative_tally, naming the field); the spec still documents the minimum. Omitted, a count is
    # 0 (the spec's default), as a blank on the score pad is "none".
    return Int(
        validate=validate.Range(max=MAX_TALLY),
        load_default=0,
        metadata={"description": description + " Omitted: 0.", **_COUNT},
    )


class RankBooksSchema(Schema):
    rank = Required(
        fields.String,
        "A rank with a bonus of its own (house rule rank_book_bonuses), e.g. `7`, or `3` for black threes.",
        validate=validate.Length(min=1, max=2),
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
    rank_books = Doc(
        fields.List,
        "Which of the side's books are of a rank with a bonus of its own (house rule "
        "rank_book_bonuses), one item a rank; they are counted in clean_books and dirty_books too.",
        fields.Nested(RankBooksSchema),
        validate=validate.Length(max=MAX_RANK_BOOKS),
        load_default=list,
    )
    has_melded = Doc(
        Bool,
        "Whether the side has melded (for red-three rules that depend on it); default: any points "
        "or books on the table.",
        allow_none=True,
        load_default=None,
    )


class PlayerSchema(Schema):
    name = Name("Player name.", required=True)
    hand = Cards("Cards left in the hand.", load_default=list)
    foot = Cards(
        "The foot, only when it was never picked up (it then counts whole).", allow_none=True, load_default=None
    )
    played_from_foot = Doc(
        Bool,
        "The player has played from the foot (rule going_out_needs_foot_play); null: not known.",
        allow_none=True,
        load_default=None,
    )


def problem_messages(problems: list[Problem]) -> dict[Any, Any]:
    """The engine's shape problems as marshmallow's messages (nested by path, each a
    :class:`CodedMessage` carrying its code), so that a field's errors read as the schema's own."""
    messages: dict[Any, Any] = {}
    for problem in problems:
        node = messages
        for key in problem.path:
            node = node.setdefault(key, {})
        node.setdefault("_schema", []).append(CodedMessage(problem.detail, problem.code))
    return messages


class EngineReadList(fields.List[Any]):
    """A list of sides or players, documented as ``List(Nested(schema))`` and checked by the engine's
    reader of round bodies (``handfoot.engine.bodies``), its one validator: taken as sent (the engine
    reads an absent member as its default), or refused with the reader's problems."""

    def __init__(self, schema: type[Schema], reader: Any, **kw: Any) -> None:
        super().__init__(fields.Nested(schema), **kw)
        self._reader = reader

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        problems = self._reader(value)
        if problems:
            raise ValidationError(problem_messages(problems))
        return value


def Players(description: str, **kw: Any) -> EngineReadList:  # noqa: N802 - a field factory
    """A side's players (at most ``MAX_PLAYERS_PER_TEAM``)."""
    return EngineReadList(
        PlayerSchema,
        player_problems,
        validate=validate.Length(max=MAX_PLAYERS_PER_TEAM),
        load_default=list,
        metadata={"description": description},
        **kw,
    )


class TeamSchema(Schema):
    name = Name("Side name (a team, or a player playing alone).", required=True)
    went_out = Bool(load_default=False, metadata={"description": "This side went out (ended the round)."})
    melds = Melds("Cards form: every meld on the table, complete or not.", load_default=list)
    red_threes = Cards("Cards form: red threes laid out on the table.", load_default=list)
    burn = Cards("Cards form: the burn pile (presets that burn).", load_default=list)
    players = Players("Cards form: the side's players.")
    perfect_cuts = Doc(
        Int,
        "Cards form: perfect cuts (house rule perfect_cut_bonus).",
        load_default=0,
        validate=validate.Range(0, MAX_CUTS),
    )
    cuts_within_1 = Doc(
        Int,
        "Cards form: cuts one card off the dealt count (house rule perfect_cut_within_1_bonus).",
        load_default=0,
        validate=validate.Range(0, MAX_CUTS),
    )
    cuts_within_3 = Doc(
        Int,
        "Cards form: cuts two or three cards off the dealt count (house rule perfect_cut_within_3_bonus).",
        load_default=0,
        validate=validate.Range(0, MAX_CUTS),
    )
    tally = Doc(
        fields.Nested,
        "Tally form: the side's round as counted at the table (instead of cards).",
        TallySchema,
        allow_none=True,
        load_default=None,
    )


def Sides(description: str) -> EngineReadList:  # noqa: N802 - a field factory
    """The sides of a round body (required, 1 to ``MAX_TEAMS``), each cards form or tally form."""
    return EngineReadList(
        TeamSchema,
        side_problems,
        required=True,
        validate=validate.Length(min=1, max=MAX_TEAMS),
        metadata={"description": description},
    )


class RoundBodyMixin(Schema):
    rules = Rules()
    round = RoundNumber("Round number (1 = first): sets the contract and bonuses by round.", load_default=1)
    teams = Sides("Every side, cards form or tally form (sides may mix forms).")


class RoundScoreRequestSchema(RoundBodyMixin):
    """Documents the body of ``POST /v1/rounds/score``; the engine's reader checks it
    (``handfoot.engine.bodies.score_body_problems``)."""

    preset = PresetId(required=True)


class LineSchema(Schema):
    code = Required(
        fields.String,
        "clean_books, dirty_books, wild_books, going_out, "
        "books_of_<rank> (house rule rank_book_bonuses, e.g. books_of_7), red_threes_on_table, "
        "red_threes_caught, perfect_cut, cut_within_1, cut_within_3, table_points, burn, points_left.",
    )
    label = Required(fields.String, "The line in words.")
    count = Required(fields.Integer, "How many (books, red threes...), where it applies.", allow_none=True)
    points_each = Required(fields.Integer, "Points per item, where it applies.", allow_none=True)
    points = Required(fields.Integer, "The line's points (signed).")


class BreakdownSchema(Schema):
    name = Required(fields.String, "Side name, as sent.")
    total = Required(fields.Integer, "The side's round score: the sum of its lines (points).")
    lines = Required(fields.List, "One line per item, in order.", fields.Nested(LineSchema))
    warnings = Required(
        fields.List,
        "What is scored but breaks a rule: the meld rules the side's table breaks that stand "
        "and score all the same (rule illegal_melds_stand, the Hodges family rules' \"what's layed is "
        'played"; under every other rule set such a meld is a 422), each with its stable code and the '
        "pointer of its meld; and table_below_opening_minimum, the side's card points on the table below "
        "the round's opening minimum (pointer: the side). Empty when none.",
        fields.Nested(EngineProblemSchema),
    )


class RoundScoreSchema(Schema):
    preset = PresetId("The preset scored under.", required=True)
    round = Required(fields.Integer, "Round number.")
    rules_overridden = Required(
        fields.List, "The rule names whose values differ from the preset's (house rules).", fields.String()
    )
    teams = Required(fields.List, "A Breakdown per side, in order.", fields.Nested(BreakdownSchema))


class RoundCompareRequestSchema(RoundBodyMixin):
    presets = Required(
        fields.List,
        "The presets to score the round under (house `rules` apply to each).",
        PresetId(),
        validate=validate.Length(min=1, max=20),
    )


class ComparisonSchema(Schema):
    preset = PresetId("Preset id.", required=True)
    valid = Required(fields.Boolean, "Whether the round is legal under this preset.")
    teams = Required(
        fields.List, "A Breakdown per side when valid, else null.", fields.Nested(BreakdownSchema), allow_none=True
    )
    problems = Problems(required=True)


class RoundComparisonSchema(Schema):
    round = Required(fields.Integer, "Round number.")
    results = Required(fields.List, "One result per preset, in order.", fields.Nested(ComparisonSchema))
