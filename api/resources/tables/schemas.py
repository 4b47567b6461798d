"""Schemas of the tables resource (docs/tables.md): a table's creation, its summary, a seat's view,
an action, an ended round."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from handfoot.engine.play import ACTION_MEMBERS, ACTION_TYPES, PHASES
from handfoot.engine.play.step import NOT_ACTIONS
from handfoot.server.codes import describe
from handfoot.server.problems import CodedMessage
from handfoot.server.resources.games.schemas import MAX_ID, GameTeamSchema
from handfoot.server.schemas import (
    MAX_CARD_LENGTH,
    MAX_MELDS_PER_TEAM,
    MAX_NAME_LENGTH,
    MAX_TEAMS,
    Bool,
    Cards,
    Doc,
    Int,
    Melds,
    Name,
    PresetId,
    Required,
    Rules,
    Schema,
)
from handfoot.server.services.tables import DEFAULT_ANSWER_TIMEOUT, MAX_SEED

#: The longest an unanswered "May I go out?" may wait (seconds): a day.
MAX_ANSWER_TIMEOUT = 86_400
#: The longest a long-poll waits (seconds), and a stream stays open.
MAX_WAIT = 60
MAX_STREAM = 900
DEFAULT_STREAM = 300
#: The largest body of an action (bytes): a thousand cards written out, with room to spare; a bigger
#: one is a 413 before it is read.
MAX_ACTION_BODY_BYTES = 32 * 1024

_CREATE_CODES = describe("team_count", "duplicate_player", "game_finished", "table_open")
_ACTION_CODES = describe(
    "version_moved",
    "table_finished",
    "not_your_turn",
    "wrong_phase",
    "card_not_held",
    "unknown_action",
    "pile_needs_match",
    "opening_below_minimum",
    "contract_not_met",
)

# -- requests ---------------------------------------------------------------------------------


class TableCreateSchema(Schema):
    game = Doc(
        Int,
        "A stored game to continue (in progress, with no table playing it): its preset, rules "
        "and sides are the table's. Without it, `name`, `preset` and `teams` make a new game (as POST /v1/games).",
        validate=validate.Range(min=1, max=MAX_ID),
    )
    name = Name(f"The new game's name (at most {MAX_NAME_LENGTH} characters).")
    preset = PresetId()
    rules = Rules()
    teams = Doc(
        fields.List,
        "The new game's sides; each side's players sit in turn with the other sides' (the first "
        f"player of each side, then the second of each, ...). Problem codes: {_CREATE_CODES}",
        fields.Nested(GameTeamSchema),
        validate=validate.Length(min=1, max=MAX_TEAMS),
    )
    seed = Doc(
        Int,
        "The table's seed: sending one makes the table a practice deal (`practice`: true), whose "
        "rounds' seeds are derived from it alone, so whoever knows it can compute every deal (for replays and "
        "tests). Default: a random one (63 bits), each round's seed then derived with the server's secret too, "
        "so no seat can compute a deal. A round's seed is shown once the round has ended, the table's never.",
        validate=validate.Range(min=0, max=MAX_SEED),
    )
    play = Doc(
        fields.Dict,
        "Play options overriding the preset's: `ask_partner` (true or false: a player with "
        'partners asks "May I go out?" first) and `stock_out` (`ends` or `pile_only`). Unknown options '
        "are a 422 `unknown_rule` at `/play/<name>`.",
        keys=fields.String(),
    )
    answer_timeout = Doc(
        Int,
        'Seconds an asked partner has to answer "May I go out?" before the answer counts as a '
        f"yes (default {DEFAULT_ANSWER_TIMEOUT}); shown as given by every read from then on, and stored by the "
        "table's next action.",
        validate=validate.Range(min=1, max=MAX_ANSWER_TIMEOUT),
    )

    @validates_schema
    def _game_or_new(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if "game" in data:
            # (rules load as {} when left out: only house rules actually sent are refused)
            extra = [k for k in ("name", "preset", "rules", "teams") if k in data and (k != "rules" or data[k])]
            if extra:
                raise ValidationError(
                    "A table continuing a stored game takes the game's own; leave it out.", field_name=extra[0]
                )
            return
        missing = [k for k in ("name", "preset", "teams") if k not in data]
        if missing:
            # marshmallow's own message: the problem's code is `required` (a new game needs name, preset and
            # teams; or send `game`)
            raise ValidationError("Missing data for required field.", field_name=missing[0])


class MeldAddSchema(Schema):
    to = Doc(
        Int,
        "The index of the side's meld the cards go onto (its `melds` in the view).",
        required=True,
        validate=validate.Range(min=0, max=MAX_MELDS_PER_TEAM),
    )
    cards = Cards("The cards from the hand added to it.", required=True)


#: What each member of an action holds, by its kind (the engine's ``ACTION_MEMBERS``), described
#: once per (type, member).
_MEMBER_DESCRIPTIONS = {
    ("take_pile", "cards"): "Cards from the hand melded with the pile's top card (a new meld, or onto meld `onto`).",
    ("take_pile", "onto"): "The side's meld the top card and `cards` go onto (null or left out: a new meld).",
    ("take_pile", "melds"): "Further new melds from the hand, counted with the take toward an opening.",
    ("meld", "melds"): "New melds from the hand.",
    ("meld", "add"): "Cards from the hand added to the side's melds.",
    ("meld", "burn"): "Cards from the hand burnt (where the preset burns a closed rank's extras).",
    ("discard", "card"): "The card discarded: it ends the turn (or goes out, with the last card).",
    ("answer", "yes"): 'The partner\'s answer to "May I go out?".',
}


def _member_field(kind: str, description: str) -> fields.Field[Any]:
    """The field of one action member of the engine's ``kind``."""
    if kind == "cards":
        return Cards(description)
    if kind == "melds":
        return Melds(description)
    if kind == "index":  # null: none (the engine's bots send a take's `onto` as its view gives it)
        return Doc(Int, description, allow_none=True, validate=validate.Range(min=0, max=MAX_MELDS_PER_TEAM))
    if kind == "card":
        return fields.String(validate=validate.Length(max=MAX_CARD_LENGTH), metadata={"description": description})
    if kind == "adds":
        return Doc(
            fields.List, description, fields.Nested(MeldAddSchema), validate=validate.Length(max=MAX_MELDS_PER_TEAM)
        )
    if kind == "yes_no":
        return Bool(required=True, metadata={"description": description})
    raise ValueError(f"no field for an action member of kind {kind!r}")


def _action_schema(kind: str) -> type[Schema]:
    """The schema of one action type: ``type``, ``seat`` and the members the engine lists for it
    (``ACTION_MEMBERS``), except those only the table writes into a log (``logged``: a seat that
    sends one gets a 422 ``unknown_field`` naming it)."""
    attrs: dict[str, Any] = {
        "type": Required(fields.String, f"`{kind}`.", validate=validate.OneOf([kind])),
        "seat": Doc(
            Int,
            "Leave it out (the Seat-Token names the seat), or send the token's own seat.",
            validate=validate.Range(min=0, max=MAX_ID),
        ),
    }
    for name, member in ACTION_MEMBERS[kind].items():
        if member != "logged":
            attrs[name] = _member_field(member, _MEMBER_DESCRIPTIONS[kind, name])
    camel = "".join(part.capitalize() for part in kind.split("_"))
    return type(f"{camel}ActionSchema", (Schema,), attrs)


#: Each action type's schema, by ``type``: its members only (the engine's ``ACTION_MEMBERS``).
ACTION_SCHEMAS: dict[str, type[Schema]] = {kind: _action_schema(kind) for kind in ACTION_TYPES}
_ACTION_LOADERS = {kind: schema() for kind, schema in ACTION_SCHEMAS.items()}


def action_component(kind: str) -> str:
    """The OpenAPI component name of the action type ``kind`` (``DrawAction``, ...)."""
    return ACTION_SCHEMAS[kind].__name__.removesuffix("Schema")


class Action(fields.Field[dict[str, Any]]):
    """A seat's action: an object whose ``type`` picks its schema (:data:`ACTION_SCHEMAS`), which
    refuses every member the type does not have, each by its pointer (``/action/<member>``)."""

    default_error_messages = {  # noqa: RUF012 - marshmallow types it an instance variable
        "invalid": "Not a valid mapping type.",
    }
    #: The engine's code for a type it does not have (the code this answer had before the schema)
    unknown_type = CodedMessage(f"Not an action type: one of {', '.join(ACTION_TYPES)}.", "unknown_action")

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        if "type" not in value:
            raise ValidationError({"type": ["Missing data for required field."]})
        kind = value["type"]
        loader = _ACTION_LOADERS.get(kind) if isinstance(kind, str) else None
        if loader is None:
            hint = NOT_ACTIONS.get(kind) if isinstance(kind, str) else None  # go_out: the engine's own word
            message = (
                CodedMessage(f"{self.unknown_type[:-1]}; {hint}.", "unknown_action") if hint else self.unknown_type
            )
            raise ValidationError({"type": [message]})
        loaded: dict[str, Any] = loader.load(value)
        return loaded


class ActionCreateSchema(Schema):
    version = Doc(
        Int,
        "The table's version the seat saw (`version` of its view): the action is taken only if "
        "the table is still at it (409 `version_moved` otherwise).",
        required=True,
        validate=validate.Range(min=0),
    )
    action = Action(
        required=True,
        metadata={
            "description": "The engine's action without `seat` (the Seat-Token names it), one of the types below, "
            "each with its own members only: any other is a 422 `unknown_field` at `/action/<member>` (among them "
            "`timed_out`, which only the table writes into a log, for the yes its clock gave). A body over "
            f"{MAX_ACTION_BODY_BYTES} bytes is a 413. Problem codes: {_ACTION_CODES}",
            "oneOf": [{"$ref": f"#/components/schemas/{action_component(kind)}"} for kind in ACTION_TYPES],
        },
    )


class SeatViewQueryArgsSchema(Schema):
    version = Doc(
        fields.Integer,
        "With `wait`: answer once the table's version is not this one (a long-poll).",
        validate=validate.Range(min=0),
    )
    wait = Doc(
        fields.Integer,
        f"Seconds to wait for a change of `version` (0 to {MAX_WAIT}; default 0: at once). "
        "The answer is the current view either way (200).",
        load_default=0,
        validate=validate.Range(min=0, max=MAX_WAIT),
    )


class EventsQueryArgsSchema(Schema):
    wait = Doc(
        fields.Integer,
        f"Seconds the stream stays open (1 to {MAX_STREAM}; default {DEFAULT_STREAM}); then it "
        "ends and the client reconnects (with `Last-Event-ID`).",
        load_default=DEFAULT_STREAM,
        validate=validate.Range(min=1, max=MAX_STREAM),
    )


# -- answers ----------------------------------------------------------------------------------


class SeatTokenSchema(Schema):
    seat = Required(fields.Integer, "The seat's index, in turn order.")
    name = Required(fields.String, "The player's name.")
    side = Required(fields.Integer, "The index of the player's side.")
    token = Required(fields.String, "The seat's secret token (`Seat-Token` header): shown only in this answer.")


def _d(text: str) -> dict[str, str]:
    return {"description": text}


_ID = _d("The table's id.")
_GAME = _d("The stored game the table plays (GET /v1/games/{id}: its rounds so far).")
_HREF = _d("The table's URL.")
#: A table's ``status``: ``playing`` until its game has ended (the SDK's ``TableStatus``).
TABLE_STATUSES = ("playing", "finished")
_STATUS = {"description": "`playing`, or `finished` once its game has ended.", "enum": list(TABLE_STATUSES)}
_ROUND = _d("The game's round in play (the last round once finished).")
_VERSION = _d("The table's version: the actions taken, over all rounds (monotonic).")
_PRACTICE = _d(
    "true: the table's creator chose its seed (a practice deal: whoever knows the seed can compute every round's "
    "deal); false: a random seed, each round's derived with the server's secret (no seat can compute a deal)."
)


class _TableHeadSchema(Schema):
    """What every answer about a table starts with (a base, not a component of its own)."""

    id = fields.Integer(required=True, metadata=_ID)
    game = fields.Integer(required=True, metadata=_GAME)
    href = fields.String(required=True, metadata=_HREF)
    status = fields.String(required=True, metadata=_STATUS)
    round = fields.Integer(required=True, metadata=_ROUND)
    version = fields.Integer(required=True, metadata=_VERSION)
    practice = fields.Boolean(required=True, metadata=_PRACTICE)


class TableCreatedSchema(_TableHeadSchema):
    seats = fields.List(
        fields.Nested(SeatTokenSchema),
        required=True,
        metadata=_d("The seats in turn order, each with its token (shown only here)."),
    )


class SeatSummarySchema(Schema):
    seat = fields.Integer(required=True, metadata=_d("The seat's index, in turn order."))
    name = fields.String(required=True, metadata=_d("The player's name."))
    side = fields.Integer(required=True, metadata=_d("The index of the player's side."))
    hand_size = fields.Integer(required=True, metadata=_d("Cards in the player's hand."))
    foot_size = fields.Integer(
        allow_none=True, required=True, metadata=_d("Cards in the player's foot; null once picked up.")
    )


class SideSummarySchema(Schema):
    name = fields.String(required=True, metadata=_d("The side's name."))
    score = fields.Integer(required=True, metadata=_d("The side's game total before this round (points)."))


class TableSchema(_TableHeadSchema):
    phase = fields.String(
        required=True,
        metadata={"description": "`draw`, `play`, `answer` (a partner is asked) or `ended`.", "enum": list(PHASES)},
    )
    turn = fields.Integer(required=True, metadata=_d("The seat whose turn it is."))
    seats = fields.List(
        fields.Nested(SeatSummarySchema), required=True, metadata=_d("Every seat, in turn order, with its card counts.")
    )
    sides = fields.List(fields.Nested(SideSummarySchema), required=True, metadata=_d("Every side, in game order."))
    created_at = fields.AwareDateTime(default_timezone=None, required=True, metadata=_d("When the table was made."))
    updated_at = fields.AwareDateTime(
        default_timezone=None, required=True, metadata=_d("When the table last changed (its last action).")
    )


class ScoreSchema(Schema):
    name = fields.String(required=True, metadata=_d("The side's name."))
    total = fields.Integer(required=True, metadata=_d("The side's score for the round (points)."))
    lines = Required(fields.List, "The Breakdown's lines.", fields.Dict())


class LastRoundSchema(Schema):
    round = fields.Integer(required=True, metadata=_d("The round's number in the game."))
    ended = Required(fields.String, "went_out or stock_out.")
    out_side = fields.Integer(allow_none=True, required=True, metadata=_d("The side that went out (null: none)."))
    seed = Required(fields.Integer, "The round's seed (public once ended).")
    score = fields.List(fields.Nested(ScoreSchema), required=True, metadata=_d("Each side's Breakdown of the round."))
    href = Required(fields.String, "The round's log: GET it.")


class SeatViewSchema(Schema):
    table = fields.Integer(required=True, metadata=_ID)
    game = fields.Integer(required=True, metadata=_GAME)
    status = fields.String(required=True, metadata=_STATUS)
    version = Required(fields.Integer, "The table's version (every action over all rounds): send it with an action.")
    round = fields.Integer(required=True, metadata=_ROUND)
    rounds = Required(fields.Integer, "The game's rounds (null: played to a target score).", allow_none=True)
    preset = PresetId("The game's preset id (GET /v1/presets/{id}): with `rules`, the rules in force.", required=True)
    rules = Required(
        fields.Dict, "The game's house-rule overrides on top of `preset`, as stored with the game (`{}`: none)."
    )
    view = fields.Dict(
        required=True,
        metadata={
            "description": "What this seat may see (the engine's view): its hand, every side's melds, the pile's "
            "top, counts of the rest, `cards` (each hand card's points and whether it is wild), `going_out`, and "
            "`actions`: the actions open to the seat now (empty: not its move), each with `send`, the bodies to "
            "post, every one accepted now. Once the round has ended also ended, out_side, seed, hands, feet and "
            "score.",
            "allOf": [{"$ref": "#/components/schemas/SeatViewBody"}],
        },
    )
    last_round = Required(
        fields.Nested,
        "The last round ended at this table (null before the first ends).",
        LastRoundSchema,
        allow_none=True,
    )


class TableRoundSchema(Schema):
    round = fields.Integer(required=True, metadata=_d("The round's number in the game."))
    seed = fields.Integer(required=True, metadata=_d("The seed the round was dealt from (engine new_round)."))
    ended = fields.String(required=True, metadata=_d("went_out or stock_out."))
    out_side = fields.Integer(allow_none=True, required=True, metadata=_d("The side that went out (null: none)."))
    actions = Required(
        fields.List,
        "Every action of the round in order, each with its `seat` (with the seed, replays it).",
        fields.Dict(),
    )
    score = fields.List(fields.Nested(ScoreSchema), required=True, metadata=_d("Each side's Breakdown of the round."))
    game_round_href = Required(fields.String, "The round in the game's history.")
