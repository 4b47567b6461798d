"""Schemas of the games resource (docs/games-api.md): games, rounds, revisions, score sheets."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from handfoot.engine import GAME_STATUSES
from handfoot.server.codes import describe
from handfoot.server.pagination import MAX_CURSOR_LENGTH, MAX_PAGE, CursorError, decode_cursor
from handfoot.server.resources.rounds.schemas import BreakdownSchema, Sides
from handfoot.server.schemas import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS_PER_TEAM,
    MAX_ROUNDS_PER_GAME,
    MAX_TEAMS,
    Doc,
    Name,
    PresetId,
    Required,
    RoundNumber,
    Rules,
    Schema,
)
from handfoot.server.secret import secret_key

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20
#: The highest game id (an SQL INTEGER on every backend; the routes' path converters use it too).
MAX_ID = 2**31 - 1

#: The codes a game's sides and rounds may be refused with (``handfoot.server.codes``).
_CODES = describe(
    "duplicate_player", "unknown_side", "missing_side", "team_count", "game_finished", "round_number", "round_limit"
)


def _ts(description: str, *, allow_none: bool = False, required: bool = False) -> fields.DateTime:
    return Doc(fields.AwareDateTime, description, default_timezone=None, allow_none=allow_none, required=required)


# -- requests ---------------------------------------------------------------------------------


class GameTeamSchema(Schema):
    name = Name(f"Side name (unique in the game; at most {MAX_NAME_LENGTH} characters).", required=True)
    players = Required(
        fields.List,
        "The side's players, by name (unique in the game, ignoring case); a player "
        "playing alone is a side of one. Counted against the rules' players_per_team_min/max.",
        Name(f"Player name (at most {MAX_NAME_LENGTH} characters)."),
        validate=validate.Length(min=1, max=MAX_PLAYERS_PER_TEAM),
    )


class GameCreateSchema(Schema):
    name = Name(f"The game's name (at most {MAX_NAME_LENGTH} characters).", required=True)
    preset = PresetId(required=True)
    rules = Rules()
    teams = Required(
        fields.List,
        "The sides, in the order score sheets show them; checked against the rules' "
        "teams_min/teams_max, players_per_team_min/max, the players at the table "
        "(players_alone_min/max, players_in_teams_min/max) and sides_by_parity (422 `team_count`). "
        f"Problem codes: {_CODES}",
        fields.Nested(GameTeamSchema),
        validate=validate.Length(min=1, max=MAX_TEAMS),
    )


class Cursor(fields.String):
    """The opaque ``cursor`` of the games list: deserialised to the ``(created_at, id)`` it follows."""

    default_error_messages = {  # noqa: RUF012 - marshmallow types it an instance variable
        "invalid": 'Not a cursor of this list: follow the `Link` header\'s rel="next" '
        "URL as it is (a cursor is opaque and signed by the server; it is not built from ids or pages, and one "
        "given before a restart or by another host may be refused: start the list again)."
    }

    # a String on the wire (so apispec documents it as one), a (created_at, id) once loaded
    def _deserialize(  # type: ignore[override]
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> tuple[datetime, int]:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return decode_cursor(text, max_id=MAX_ID, key=secret_key())
        except CursorError as exc:
            raise self.make_error("invalid") from exc


class GameQueryArgsSchema(Schema):
    status = Doc(
        fields.String,
        "Only games with this status: in_progress, tiebreaker or finished.",
        validate=validate.OneOf(GAME_STATUSES),
    )
    player = Name("Only games where a side has a player of this name (ignoring case).")
    preset = PresetId()
    cursor = Doc(
        Cursor,
        "Where the page starts: opaque and signed by the server (a cursor truncated, altered "
        "or built by hand is a 422 `invalid_value` naming `cursor`), from the `cursor` of the previous "
        'page\'s `Link: <...>; rel="next"` URL (follow that URL as it is). Without it, '
        "the first page. Not with `page`.",
        validate=validate.Length(min=1, max=MAX_CURSOR_LENGTH),
    )
    page_size = Doc(
        fields.Integer,
        f"Games per page (1 to {MAX_PAGE_SIZE}; default {DEFAULT_PAGE_SIZE}).",
        load_default=DEFAULT_PAGE_SIZE,
        validate=validate.Range(min=1, max=MAX_PAGE_SIZE),
    )
    page = fields.Integer(
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={
            "deprecated": True,
            "description": "Deprecated: numbered pages, kept for existing clients. "
            "Each such page counts every matching game and skips the earlier ones (OFFSET), so late pages "
            "cost more the longer the list; follow the `Link` header's `next` (a `cursor`) instead. With "
            "`page`, `X-Pagination` carries the total and the `Link` header numbered pages, as before.",
        },
    )

    @validates_schema
    def _cursor_or_page(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if "cursor" in data and "page" in data:
            raise ValidationError(
                "Send either `cursor` (keyset pages) or the deprecated `page`, not both.", field_name="cursor"
            )


class RoundCreateSchema(Schema):
    round = RoundNumber(
        "The round's number; when given it must be the game's next round (409 `round-number` "
        f"otherwise). A game holds at most {MAX_ROUNDS_PER_GAME} rounds."
    )
    teams = Sides(
        "Every side of the game exactly once, matched by name, in cards form or tally form (as POST "
        f"/v1/rounds/score). Problem codes: {_CODES}"
    )


class RoundUpdateSchema(Schema):
    teams = Sides(
        "The corrected round: every side of the game exactly once, matched by name (as POST /v1/rounds/score)."
    )


# -- answers ----------------------------------------------------------------------------------


class SideTotalSchema(Schema):
    name = Required(fields.String, "Side name.")
    total = Required(fields.Integer, "The side's total (points).")


class SideMinimumSchema(Schema):
    name = Required(fields.String, "Side name.")
    minimum = Required(fields.Integer, "The side's opening minimum next round (points).")


class ContractOutSchema(Schema):
    clean_books = Required(fields.Integer, "Clean books needed to go out.")
    dirty_books = Required(fields.Integer, "Dirty books needed to go out.")
    wild_books = Required(fields.Integer, "Wild books needed to go out.")


class GameTeamOutSchema(Schema):
    name = Required(fields.String, "Side name.")
    players = Required(fields.List, "The side's players.", fields.String())


class RoundSchema(Schema):
    number = Required(fields.Integer, "Round number (1 = first).")
    revision = Required(fields.Integer, "1, plus one per correction; the round's ETag follows it.")
    request = Required(fields.Dict, "The body as sent (cards or tallies), with its round number.")
    teams = Required(
        fields.List,
        "A Breakdown per side, in the game's side order (as POST /v1/rounds/score).",
        fields.Nested(BreakdownSchema),
    )
    totals_after = Required(fields.List, "Running totals after this round.", fields.Nested(SideTotalSchema))
    created_at = _ts("When the round was first stored.", required=True)
    updated_at = _ts("When the current revision was stored.", required=True)


class RoundSummarySchema(Schema):
    """A round in a game's read: its scores from the game's stored running totals, and its URL."""

    number = Required(fields.Integer, "Round number (1 = first).")
    revision = Required(
        fields.Integer, "1, plus one per correction (above 1: the round was corrected; its revisions are its history)."
    )
    scores = Required(
        fields.List,
        "Each side's score in this round (points; its Breakdown's `total`), in side order.",
        fields.Nested(SideTotalSchema),
    )
    totals_after = Required(fields.List, "Running totals after this round.", fields.Nested(SideTotalSchema))
    href = Required(
        fields.String, "The round's URL: GET it for the request as sent, every side's Breakdown and its ETag."
    )


class _GameStateFields(Schema):
    id = Required(fields.Integer, "Game id.")
    name = Required(fields.String, "The game's name.")
    preset = PresetId("The preset the game's rules start from.", required=True)
    status = Required(
        fields.String,
        "in_progress, tiebreaker (level after the end: one more round), or finished.",
        validate=validate.OneOf(GAME_STATUSES),  # documents the enum; an answer is not validated
    )
    teams = Required(fields.List, "The sides and their players.", fields.Nested(GameTeamOutSchema))
    totals = Required(fields.List, "Every side's total so far.", fields.Nested(SideTotalSchema))
    leaders = Required(
        fields.List,
        "Every side with the top total (two or more when level; empty before the first round).",
        fields.String(),
    )
    winner = Required(fields.String, "The winning side once finished without a tie; null otherwise.", allow_none=True)
    tie = Required(fields.Boolean, "Finished level, and the rules let the tie stand.")
    rounds_played = Required(fields.Integer, "Rounds stored.")
    created_at = _ts("When the game was created.", required=True)
    updated_at = _ts("When the game last changed (a round appended or corrected).", required=True)


class GameSummarySchema(_GameStateFields):
    """A game in a list: its state without rules or rounds."""


class GameSchema(_GameStateFields):
    rules = Required(
        fields.Dict,
        "The full resolved RuleSet snapshot (as GET /v1/presets/{id} "
        "`rules`): the game keeps it even if the preset changes later.",
    )
    rules_overridden = Required(
        fields.List, "Rule names whose values differ from the preset's (house rules).", fields.String()
    )
    house_rules = Required(fields.Dict, "The house-rule overrides as sent.")
    next_round = Required(fields.Integer, "The round to play next; null when finished.", allow_none=True)
    next_opening_minimum = Required(
        fields.Integer,
        "The next round's opening minimum (points; the tiebreaker's minimum in a "
        "tiebreaker); null when finished. The lowest of next_opening_minimums.",
        allow_none=True,
    )
    next_opening_minimums = Required(
        fields.List,
        "The next opening minimum per side (they differ only under opening_thresholds); null when finished.",
        fields.Nested(SideMinimumSchema),
        allow_none=True,
    )
    next_contract = Required(
        fields.Nested, "The books needed to go out next round; null when finished.", ContractOutSchema, allow_none=True
    )
    end_reason = Required(
        fields.String,
        'Why the game ended, e.g. "4 rounds '
        'played", "Us reached 10000", "4 rounds played; tie '
        'stands"; null until finished.',
        allow_none=True,
    )
    rounds = Required(
        fields.List,
        "Every round, in order, summarised: number, revision, scores and running totals, with "
        "`href`, the round's URL for its full Breakdowns (GET /v1/games/{game_id}/rounds/{number}).",
        fields.Nested(RoundSummarySchema),
    )
    version = Required(fields.Integer, "Increments on every change; the game's ETag follows it.")


class RevisionSchema(Schema):
    revision = Required(fields.Integer, "Revision number (1 = as first stored).")
    current = Required(fields.Boolean, "Whether this is the round as it stands now.")
    request = Required(fields.Dict, "The body of this revision, as sent.")
    teams = Required(fields.List, "Its Breakdowns.", fields.Nested(BreakdownSchema))
    created_at = _ts("When this revision was stored.", required=True)
    replaced_at = _ts("When a correction replaced it; null for the current one.", required=True, allow_none=True)
    author = Required(fields.String, "The name of the API key that wrote it; null without keys.", allow_none=True)


class ScoresheetRowSchema(Schema):
    round = Required(fields.Integer, "Round number.")
    scores = Required(fields.List, "Each side's score in the round (side order).", fields.Integer())
    totals = Required(fields.List, "Each side's running total after it.", fields.Integer())


class ScoresheetSchema(Schema):
    game_id = Required(fields.Integer, "Game id.")
    name = Required(fields.String, "The game's name.")
    teams = Required(fields.List, "Side names: the columns.", fields.String())
    rows = Required(fields.List, "One row per round.", fields.Nested(ScoresheetRowSchema))
    totals = Required(fields.List, "Each side's total.", fields.Integer())
    status = Required(fields.String, "in_progress, tiebreaker or finished.", validate=validate.OneOf(GAME_STATUSES))
    leaders = Required(fields.List, "Every side with the top total.", fields.String())
    winner = Required(fields.String, "The winner once finished without a tie.", allow_none=True)
    tie = Required(fields.Boolean, "Finished level, and the tie stands.")
