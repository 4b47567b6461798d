"""Schemas of the rounds resource: scoring one round, and comparing presets on it."""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from handfoot.server.names import Name, name_ok
from handfoot.server.schemas import (
    MAX_PLAYERS_PER_TEAM,
    MAX_PRESET_ID_LENGTH,
    MAX_ROUNDS_PER_GAME,
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
    card_list_bounded,
    card_strings_ok,
    meld_lists_bounded,
    meld_lists_ok,
    rules_ok,
)

#: No tally value comes near this; it keeps numbers far from 64 bits (the engine's own ceilings, by
#: the decks in play, are tighter: invalid_tally).
MAX_TALLY = 10_000_000
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
    rank = fields.String(
        required=True,
        validate=validate.Length(min=1, max=2),
        metadata={
            "description": "A rank with a bonus of its own (house rule rank_book_bonuses), e.g. `7`, or `3` for "
            "black threes."
        },
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
_CUT_KEYS = frozenset({"perfect_cuts", "cuts_within_1", "cuts_within_3"})
_TEAM_KEYS = frozenset({"name", "went_out", "melds", "red_threes", "burn", "players", *_CUT_KEYS, "tally"})
_CARD_KEYS = ("melds", "red_threes", "burn", "players")
_TALLY_KEYS = frozenset(
    {
        "clean_books",
        "dirty_books",
        "wild_books",
        "red_threes_on_table",
        "red_threes_caught",
        "table_points",
        "points_left",
        "burn_points",
        *_CUT_KEYS,
        "rank_books",
        "has_melded",
    }
)


class PlayerSchema(Schema):
    name = Name("Player name.", required=True)
    hand = Cards("Cards left in the hand.", load_default=list)
    foot = Cards(
        "The foot, only when it was never picked up (it then counts whole).", allow_none=True, load_default=None
    )
    played_from_foot = Bool(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "The player has played from the foot (rule going_out_needs_foot_play); null: not known."
        },
    )


def plain_player(item: Any, cards_read: bool = False) -> bool:
    """Whether ``PlayerSchema().load(item)`` takes ``item`` as it is (its defaults aside).

    Plain: a dict of ``name`` (a valid name), ``hand`` (absent or a card list), ``foot`` (absent,
    null or a card list) and ``played_from_foot`` (absent, null or a boolean), and nothing else.
    False does not mean invalid, only "let marshmallow decide": :class:`SideList` then loads the
    whole list through the schema, whose errors are the answer. tests/api/rounds/test_list_fields.py
    checks both against each other.

    ``cards_read``: the caller's reader reads every card and answers any it cannot read with the
    schema's load (``POST /v1/rounds/score``: the engine), so only the card lists' types and lengths
    are looked at here (:func:`~handfoot.server.schemas.card_list_bounded`), not their cards."""
    if type(item) is not dict or not item.keys() <= _PLAYER_KEYS or not name_ok(item.get("name")):
        return False
    cards = card_list_bounded if cards_read else card_strings_ok
    hand, foot, played = item.get("hand", ()), item.get("foot"), item.get("played_from_foot")
    return (hand == () or cards(hand)) and (foot is None or cards(foot)) and (played is None or type(played) is bool)


def _empty_list(value: Any) -> bool:
    return type(value) is list and not value


_INT_ONLY = frozenset({int})


def plain_tally(item: Any) -> bool:
    """Whether ``TallySchema().load(item)`` takes ``item`` as it is (its defaults aside): counts that
    are whole numbers up to ``MAX_TALLY`` (a negative one is the engine's ``negative_tally``), no
    ``rank_books`` (else marshmallow decides), ``has_melded`` null or a boolean."""
    if type(item) is not dict or not item.keys() <= _TALLY_KEYS or not _empty_list(item.get("rank_books", [])):
        return False
    melded = item.get("has_melded")
    counts = [v for k, v in item.items() if k != "has_melded" and k != "rank_books"]
    # Passes of built-ins over the counts, not a call per count; type() is int excludes booleans.
    return (melded is None or type(melded) is bool) and (
        not counts or (set(map(type, counts)) <= _INT_ONLY and max(counts) <= MAX_TALLY)
    )


def plain_team(item: Any, cards_read: bool = False) -> bool:
    """Whether ``TeamSchema().load(item)`` takes ``item`` as it is (its defaults aside): a side in
    cards form, or in tally form with no cards (see :func:`plain_player`, and its ``cards_read``)."""
    if type(item) is not dict or not item.keys() <= _TEAM_KEYS or not name_ok(item.get("name")):
        return False
    get = item.get
    went_out = get("went_out", False)
    if type(went_out) is not bool:
        return False
    # Most sides send no cuts: their members are looked for only when one is there.
    if not _CUT_KEYS.isdisjoint(item) and not all(
        type(n) is int and 0 <= n <= 20 for n in map(get, _CUT_KEYS, repeat(0))
    ):
        return False
    tally = get("tally")
    if tally is not None:
        return plain_tally(tally) and all(map(_empty_list, map(get, _CARD_KEYS, repeat([]))))
    cards, melds_ok = (card_list_bounded, meld_lists_bounded) if cards_read else (card_strings_ok, meld_lists_ok)
    melds, red_threes, burn = get("melds", ()), get("red_threes", ()), get("burn", ())
    if not (
        (melds == () or melds_ok(melds)) and (red_threes == () or cards(red_threes)) and (burn == () or cards(burn))
    ):
        return False
    players = get("players", ())
    return players == () or (
        type(players) is list
        and len(players) <= MAX_PLAYERS_PER_TEAM
        and all(map(plain_player, players, repeat(cards_read)))
    )


class SideList(fields.List[Any]):
    """``List(Nested(schema))`` for sides and players, taken as it is when every item is plainly
    valid (``plain`` says so); otherwise every item goes through the nested schema, so the answer and
    its errors are marshmallow's own.

    Taken as it is, the list is not copied and its items' defaults are not filled in: the engine
    (``handfoot.engine.operations``), the one reader of round bodies, reads an absent member as its
    default. Documented exactly as the ``List(Nested(...))`` it stands for."""

    def __init__(self, schema: type[Schema], plain: Callable[[Any], bool], **kw: Any) -> None:
        super().__init__(fields.Nested(schema), **kw)
        self._plain = plain

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if type(value) is list and all(map(self._plain, value)):
            return value
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
        metadata={
            "description": "Cards form: cuts one card off the dealt count (house rule perfect_cut_within_1_bonus)."
        },
    )
    cuts_within_3 = Int(
        load_default=0,
        validate=validate.Range(0, 20),
        metadata={
            "description": "Cards form: cuts two or three cards off the dealt count (house rule "
            "perfect_cut_within_3_bonus)."
        },
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
    return SideList(
        TeamSchema,
        plain_team,
        required=True,
        validate=validate.Length(min=1, max=MAX_TEAMS),
        metadata={"description": description},
    )


class RoundBodyMixin(Schema):
    rules = Rules()
    round = RoundNumber("Round number (1 = first): sets the contract and bonuses by round.", load_default=1)
    teams = Sides("Every side, cards form or tally form (sides may mix forms).")


_SCORE_KEYS = frozenset({"preset", "rules", "round", "teams"})


def plain_score_body(body: Any, cards_read: bool = False) -> bool:
    """Whether ``RoundScoreRequestSchema().load(body)`` takes ``body`` as it is (its defaults aside):
    a preset id, a round number or none, house rules absent, empty or taken by the rules' own schema
    (``RulesSchema``, which is what the body's schema loads them with: :func:`rules_ok`), and 1 to ``MAX_TEAMS`` sides
    that :func:`plain_team` takes (``cards_read``: see :func:`plain_player`)."""
    if type(body) is not dict or not body.keys() <= _SCORE_KEYS:
        return False
    get = body.get
    preset, number, rules, teams = get("preset"), get("round", 1), get("rules", _NO_RULES), get("teams")
    return (
        type(preset) is str
        and 1 <= len(preset) <= MAX_PRESET_ID_LENGTH
        and type(number) is int
        and 1 <= number <= MAX_ROUNDS_PER_GAME
        and type(rules) is dict
        and type(teams) is list
        and 1 <= len(teams) <= MAX_TEAMS
        and all(map(plain_team, teams, repeat(cards_read)))
        and (not rules or rules_ok(rules))
    )


_NO_RULES: dict[str, Any] = {}


class RoundScoreRequestSchema(RoundBodyMixin):
    preset = PresetId(required=True)

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: Any = None) -> Any:
        """The body itself when :func:`plain_score_body` takes it (no copy, defaults left to the
        engine, which reads an absent member as its default); otherwise marshmallow's load, whose
        errors are the answer. The schema documents the shape either way."""
        if many is None and partial is None and plain_score_body(data):
            return data
        return super().load(data, many=many, partial=partial, unknown=unknown)


class LineSchema(Schema):
    code = fields.String(
        required=True,
        metadata={
            "description": "clean_books, dirty_books, wild_books, going_out, "
            "books_of_<rank> (house rule rank_book_bonuses, e.g. books_of_7), red_threes_on_table, "
            "red_threes_caught, perfect_cut, cut_within_1, cut_within_3, table_points, burn, points_left."
        },
    )
    label = fields.String(required=True, metadata={"description": "The line in words."})
    count = fields.Integer(
        required=True, allow_none=True, metadata={"description": "How many (books, red threes...), where it applies."}
    )
    points_each = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Points per item, where it applies."}
    )
    points = fields.Integer(required=True, metadata={"description": "The line's points (signed)."})


class BreakdownSchema(Schema):
    name = fields.String(required=True, metadata={"description": "Side name, as sent."})
    total = fields.Integer(
        required=True, metadata={"description": "The side's round score: the sum of its lines (points)."}
    )
    lines = fields.List(
        fields.Nested(LineSchema), required=True, metadata={"description": "One line per item, in order."}
    )
    warnings = fields.List(
        fields.Nested(EngineProblemSchema),
        required=True,
        metadata={
            "description": "What is scored but breaks a rule: the meld rules the side's table breaks that stand "
            "and score all the same (rule illegal_melds_stand, the Hodges family rules' \"what's layed is "
            'played"; under every other rule set such a meld is a 422), each with its stable code and the '
            "pointer of its meld; and table_below_opening_minimum, the side's card points on the table below "
            "the round's opening minimum (pointer: the side). Empty when none."
        },
    )


class RoundScoreSchema(Schema):
    preset = PresetId("The preset scored under.", required=True)
    round = fields.Integer(required=True, metadata={"description": "Round number."})
    rules_overridden = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The rule names whose values differ from the preset's (house rules)."},
    )
    teams = fields.List(
        fields.Nested(BreakdownSchema), required=True, metadata={"description": "A Breakdown per side, in order."}
    )


class RoundCompareRequestSchema(RoundBodyMixin):
    presets = fields.List(
        PresetId(),
        required=True,
        validate=validate.Length(min=1, max=20),
        metadata={"description": "The presets to score the round under (house `rules` apply to each)."},
    )


class ComparisonSchema(Schema):
    preset = PresetId("Preset id.", required=True)
    valid = fields.Boolean(required=True, metadata={"description": "Whether the round is legal under this preset."})
    teams = fields.List(
        fields.Nested(BreakdownSchema),
        required=True,
        allow_none=True,
        metadata={"description": "A Breakdown per side when valid, else null."},
    )
    problems = Problems(required=True)


class RoundComparisonSchema(Schema):
    round = fields.Integer(required=True, metadata={"description": "Round number."})
    results = fields.List(
        fields.Nested(ComparisonSchema), required=True, metadata={"description": "One result per preset, in order."}
    )
