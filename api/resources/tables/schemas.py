"""Schemas of the tables resource (docs/tables.md): a table's creation, its summary, a seat's view,
an action, an ended round."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from handfoot.server.codes import describe
from handfoot.server.names import Name
from handfoot.server.resources.games.schemas import MAX_ID, GameTeamSchema
from handfoot.server.schemas import MAX_NAME_LENGTH, MAX_TEAMS, Int, PresetId, Rules, Schema
from handfoot.server.services.tables import DEFAULT_ANSWER_TIMEOUT, MAX_SEED

#: The longest an unanswered "May I go out?" may wait (seconds): a day.
MAX_ANSWER_TIMEOUT = 86_400
#: The longest a long-poll waits (seconds), and a stream stays open.
MAX_WAIT = 60
MAX_STREAM = 900
DEFAULT_STREAM = 300

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
    game = Int(
        validate=validate.Range(min=1, max=MAX_ID),
        metadata={
            "description": "A stored game to continue (in progress, with no table playing it): its preset, rules "
            "and sides are the table's. Without it, `name`, `preset` and `teams` make a new game (as POST /v1/games)."
        },
    )
    name = Name(f"The new game's name (at most {MAX_NAME_LENGTH} characters).")
    preset = PresetId()
    rules = Rules()
    teams = fields.List(
        fields.Nested(GameTeamSchema),
        validate=validate.Length(min=1, max=MAX_TEAMS),
        metadata={
            "description": "The new game's sides; each side's players sit in turn with the other sides' (the first "
            f"player of each side, then the second of each, ...). Problem codes: {_CREATE_CODES}"
        },
    )
    seed = Int(
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={
            "description": "The table's seed (default: a random one). Each round is dealt from a seed derived from it "
            "and the round number; a round's seed is shown once the round has ended, the table's never."
        },
    )
    play = fields.Dict(
        keys=fields.String(),
        metadata={
            "description": "Play options overriding the preset's: `ask_partner` (true or false: a player with "
            'partners asks "May I go out?" first) and `stock_out` (`ends` or `pile_only`). Unknown options '
            "are a 422 `unknown_rule` at `/play/<name>`."
        },
    )
    answer_timeout = Int(
        validate=validate.Range(min=1, max=MAX_ANSWER_TIMEOUT),
        metadata={
            "description": 'Seconds an asked partner has to answer "May I go out?" before the answer counts as a '
            f"yes (default {DEFAULT_ANSWER_TIMEOUT}); shown as given by every read from then on, and stored by the "
            "table's next action."
        },
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


class ActionCreateSchema(Schema):
    version = Int(
        required=True,
        validate=validate.Range(min=0),
        metadata={
            "description": "The table's version the seat saw (`version` of its view): the action is taken only if "
            "the table is still at it (409 `version_moved` otherwise)."
        },
    )
    action = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={
            "description": 'The engine\'s action without `seat` (the Seat-Token names it): `{"type": "draw"}`, '
            '`{"type": "take_pile", "cards": [...], "onto"?: i, "melds"?: [[...]]}`, `{"type": "meld", '
            '"melds"?: [[...]], "add"?: [{"to": i, "cards": [...]}], "burn"?: [...]}`, `{"type": '
            '"discard", "card": "7H"}`, `{"type": "ask"}`, `{"type": "answer", "yes": true}`. '
            f"Problem codes: {_ACTION_CODES}"
        },
    )


class SeatViewQueryArgsSchema(Schema):
    version = fields.Integer(
        validate=validate.Range(min=0),
        metadata={"description": "With `wait`: answer once the table's version is not this one (a long-poll)."},
    )
    wait = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_WAIT),
        metadata={
            "description": f"Seconds to wait for a change of `version` (0 to {MAX_WAIT}; default 0: at once). "
            "The answer is the current view either way (200)."
        },
    )


class EventsQueryArgsSchema(Schema):
    wait = fields.Integer(
        load_default=DEFAULT_STREAM,
        validate=validate.Range(min=1, max=MAX_STREAM),
        metadata={
            "description": f"Seconds the stream stays open (1 to {MAX_STREAM}; default {DEFAULT_STREAM}); then it "
            "ends and the client reconnects (with `Last-Event-ID`)."
        },
    )


# -- answers ----------------------------------------------------------------------------------


class SeatTokenSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat's index, in turn order."})
    name = fields.String(required=True, metadata={"description": "The player's name."})
    side = fields.Integer(required=True, metadata={"description": "The index of the player's side."})
    token = fields.String(
        required=True,
        metadata={"description": "The seat's secret token (`Seat-Token` header): shown only in this answer."},
    )


def _d(text: str) -> dict[str, str]:
    return {"description": text}


_ID = _d("The table's id.")
_GAME = _d("The stored game the table plays (GET /v1/games/{id}: its rounds so far).")
_HREF = _d("The table's URL.")
_STATUS = _d("`playing`, or `finished` once its game has ended.")
_ROUND = _d("The game's round in play (the last round once finished).")
_VERSION = _d("The table's version: the actions taken, over all rounds (monotonic).")


class _TableHeadSchema(Schema):
    """What every answer about a table starts with (a base, not a component of its own)."""

    id = fields.Integer(required=True, metadata=_ID)
    game = fields.Integer(required=True, metadata=_GAME)
    href = fields.String(required=True, metadata=_HREF)
    status = fields.String(required=True, metadata=_STATUS)
    round = fields.Integer(required=True, metadata=_ROUND)
    version = fields.Integer(required=True, metadata=_VERSION)


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
    phase = fields.String(required=True, metadata=_d("draw, play, answer (a partner is asked) or ended."))
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
    lines = fields.List(fields.Dict(), required=True, metadata={"description": "The Breakdown's lines."})


class LastRoundSchema(Schema):
    round = fields.Integer(required=True, metadata=_d("The round's number in the game."))
    ended = fields.String(required=True, metadata={"description": "went_out or stock_out."})
    out_side = fields.Integer(allow_none=True, required=True, metadata=_d("The side that went out (null: none)."))
    seed = fields.Integer(required=True, metadata={"description": "The round's seed (public once ended)."})
    score = fields.List(fields.Nested(ScoreSchema), required=True, metadata=_d("Each side's Breakdown of the round."))
    href = fields.String(required=True, metadata={"description": "The round's log: GET it."})


class SeatViewSchema(Schema):
    table = fields.Integer(required=True, metadata=_ID)
    game = fields.Integer(required=True, metadata=_GAME)
    status = fields.String(required=True, metadata={"description": "`finished`: the game has ended."})
    version = fields.Integer(
        required=True,
        metadata={"description": "The table's version (every action over all rounds): send it with an action."},
    )
    round = fields.Integer(required=True, metadata=_ROUND)
    rounds = fields.Integer(
        allow_none=True, required=True, metadata={"description": "The game's rounds (null: played to a target score)."}
    )
    preset = fields.String(
        required=True,
        metadata={"description": "The game's preset id (GET /v1/presets/{id}): with `rules`, the rules in force."},
    )
    rules = fields.Dict(
        required=True,
        metadata={
            "description": "The game's house-rule overrides on top of `preset`, as stored with the game (`{}`: none)."
        },
    )
    view = fields.Dict(
        required=True,
        metadata={
            "description": "What this seat may see (the engine's view): seat, side, round, step (the round's "
            "actions so far; `version` above is the table's), phase, turn, hand, foot_size, played_from_foot, "
            "sides (melds, books, red threes, burn, score), seats (hand and foot sizes), pile (top, size, frozen, "
            "taken), stock_size, opening_minimum, contract, asked, permission, answerer, and `actions`: the "
            "actions open to the seat now (empty: not its move). Once the round has ended also ended, out_side, "
            "seed, hands, feet and score."
        },
    )
    last_round = fields.Nested(
        LastRoundSchema,
        allow_none=True,
        required=True,
        metadata={"description": "The last round ended at this table (null before the first ends)."},
    )


class TableRoundSchema(Schema):
    round = fields.Integer(required=True, metadata=_d("The round's number in the game."))
    seed = fields.Integer(required=True, metadata=_d("The seed the round was dealt from (engine new_round)."))
    ended = fields.String(required=True, metadata=_d("went_out or stock_out."))
    out_side = fields.Integer(allow_none=True, required=True, metadata=_d("The side that went out (null: none)."))
    actions = fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": "Every action of the round in order, each with its `seat` (with the seed, replays it)."
        },
    )
    score = fields.List(fields.Nested(ScoreSchema), required=True, metadata=_d("Each side's Breakdown of the round."))
    game_round_href = fields.String(required=True, metadata={"description": "The round in the game's history."})
