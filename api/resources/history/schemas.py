"""Schemas of the history resource (docs/games-api.md, "Histories in bulk"): filters and statistics."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from handfoot.engine import PRESETS
from handfoot.engine.history import BOOK_KINDS
from handfoot.server.schemas import Doc, Required, Schema

#: The export's formats, by ``format`` value: its media type.
FORMATS = {"ndjson": "application/x-ndjson", "csv": "text/csv"}


#: The lengths of a date (``2026-11-01``) and of the longest date-time accepted.
MIN_MOMENT, MAX_MOMENT = 10, 40


class Moment(fields.String):
    """A date (``2026-11-01``: its midnight UTC) or an ISO 8601 date-time (no offset: UTC), read as
    an aware datetime in UTC."""

    # a String on the wire (so apispec documents it as one), a datetime once loaded
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:  # type: ignore[override]
        text = super()._deserialize(value, attr, data, **kwargs)
        if not MIN_MOMENT <= len(text) <= MAX_MOMENT:
            raise ValidationError(f"Not a valid date or date-time: {MIN_MOMENT} to {MAX_MOMENT} characters.")
        try:
            moment = (
                datetime.combine(date.fromisoformat(text), time(), UTC)
                if len(text) == 10
                else datetime.fromisoformat(text)
            )
        except ValueError as exc:
            raise ValidationError("Not a valid date or date-time: give 2026-11-01 or 2026-11-01T18:30:00Z.") from exc
        # in UTC, as games' created_at is stored (SQLite keeps no offset: it compares the text)
        try:
            return moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
        except OverflowError as exc:  # 0001-01-01T00:00+05:00 is in year 0, 9999-12-31T23:00-05:00 in 10000
            raise ValidationError(
                "Not a date-time this server can hold: in UTC it falls outside years 1 to 9999."
            ) from exc


def _moment(description: str) -> Moment:
    return Moment(
        metadata={"description": description, "example": "2026-11-01", "minLength": MIN_MOMENT, "maxLength": MAX_MOMENT}
    )


class HistoryQueryArgsSchema(Schema):
    since = _moment(
        "Only games created at or after this date (midnight UTC) or date-time (ISO 8601; without an offset, UTC)."
    )
    until = _moment(
        "Only games created before this date (midnight UTC) or date-time: the range is "
        "half-open, `since` <= created < `until`; `until` must be after `since` (422 naming `until`)."
    )
    preset = fields.String(
        validate=validate.OneOf(sorted(PRESETS)),
        metadata={
            "description": "Only games under this preset (an id of GET /v1/presets; an "
            "unknown id is a 422 naming `preset`).",
            "example": "pagat",
        },
    )

    @validates_schema
    def _range(self, data: dict[str, Any], **_kw: Any) -> None:
        since, until = data.get("since"), data.get("until")
        if since is not None and until is not None and until <= since:
            raise ValidationError(
                f"`until` ({until.isoformat()}) must be after `since` ({since.isoformat()}): "
                "the range is since <= created < until.",
                field_name="until",
            )


class ExportQueryArgsSchema(HistoryQueryArgsSchema):
    format = Doc(
        fields.String,
        "`ndjson` (one game a line) or `csv` (one row per side per round); when given it wins over `Accept`.",
        validate=validate.OneOf(sorted(FORMATS)),
    )


_BOOKS = ", ".join(BOOK_KINDS)


class _Figures(Schema):
    names = Required(fields.List, "Every spelling of the name used, the most recent game's last.", fields.String())
    games = Required(fields.Integer, "Games played (matching the filters).")
    finished = Required(fields.Integer, "Of those, the games that are finished.")
    wins = Required(fields.Integer, "Finished games won (a tie is no win).")
    rounds = Required(fields.Integer, "Rounds played, in every game (finished or not).")
    points = Required(fields.Integer, "The sum of the round scores (points).")
    average_round = Required(
        fields.Float, "Mean round score (points, to one decimal); null before any round.", allow_none=True
    )
    best_round = Required(fields.Integer, "Highest round score (points); null before any round.", allow_none=True)
    went_out = Required(fields.Integer, "Rounds in which the side (the player's side) went out.")
    books = Required(
        fields.Dict,
        f"Books made, by kind: always {_BOOKS}, and any other kind the stored breakdowns hold.",
        keys=fields.String(),
        values=fields.Integer(),
    )


class PlayerStatisticsSchema(_Figures):
    name = Required(
        fields.String,
        "The player's name as written in their most recent game. "
        "Players are matched across games by name, ignoring case (Unicode NFC, "
        "case-folded): `Ann` and `ann` are one player.",
    )


class SideStatisticsSchema(_Figures):
    players = Required(
        fields.List,
        "The side's players (as written in its most "
        "recent game). A side is its players, matched as players "
        "are and in any order: its name may differ from game to game.",
        fields.String(),
    )


class StatisticsSchema(Schema):
    games = Required(fields.Integer, "Games counted (the caller's, matching the filters).")
    rounds = Required(fields.Integer, "Rounds in those games.")
    players = Required(
        fields.List,
        "Per player: most games first, then most wins, then by name.",
        fields.Nested(PlayerStatisticsSchema),
    )
    sides = Required(
        fields.List,
        "Per side (the same players together): most games first, then most wins, then by players.",
        fields.Nested(SideStatisticsSchema),
    )
