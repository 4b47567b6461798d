"""``/v1/games/export`` and ``/v1/games/stats``: the caller's games in bulk, and figures across them.

The export streams (NDJSON or CSV), reading the games in batches (``services.history``); both see
only the caller's games, as the games list does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flask
from flask.views import MethodView

from handfoot.server import auth
from handfoot.server.auth import Actor
from handfoot.server.blueprint import Blueprint
from handfoot.server.db import get_db
from handfoot.server.resources.games.schemas import GameSchema
from handfoot.server.security import no_store_for_keys
from handfoot.server.services import history as svc

from . import examples as ex
from . import serializers as doc
from .schemas import FORMATS, ExportQueryArgsSchema, HistoryQueryArgsSchema, StatisticsSchema

blp = Blueprint(
    "History",
    __name__,
    url_prefix="/v1/games",
    description="Histories in bulk: every round of every game the caller owns, streamed as NDJSON or CSV, and "
    "statistics per player and per side across those games. Filter by creation date and preset. Once the "
    "server has API keys these need `Authorization: Bearer <key>`, and a key sees only its own games.",
)
blp.after_request(no_store_for_keys)

NDJSON_TYPE = FORMATS["ndjson"]
CSV_TYPE = FORMATS["csv"]


_BAD_FILTER = (
    "A filter is malformed or out of range: `since`/`until` not a date or date-time, `until` not "
    "after `since`, an unknown `preset` or `format` (validation-error, naming the parameter)."
)


_EXPORTED = (
    "Streamed, games oldest first. NDJSON (`application/x-ndjson`, the default): one game a line, each "
    "as GET /v1/games/{game_id} gives it (the schema and example are one line's). CSV (`Accept: text/csv` "
    "or `format=csv`): a header, then one row per side per round, rounds in order."
)


def _filter(args: dict[str, Any]) -> svc.HistoryFilter:
    return svc.HistoryFilter(since=args.get("since"), until=args.get("until"), preset=args.get("preset"))


def _export_format(args: dict[str, Any]) -> str | None:
    """``ndjson`` or ``csv``: the ``format`` argument, else the best of ``Accept`` (NDJSON when
    ``Accept`` is absent or ``*/*``); ``None`` when ``Accept`` allows neither."""
    if args.get("format"):
        return str(args["format"])
    accept = flask.request.accept_mimetypes
    if not accept:
        return "ndjson"
    best = accept.best_match([NDJSON_TYPE, CSV_TYPE, "application/json"])
    return None if best is None else ("csv" if best == CSV_TYPE else "ndjson")


@blp.route("/export")
class Export(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.arguments(ExportQueryArgsSchema, location="query")
    @blp.response(200, GameSchema, content_type=NDJSON_TYPE, example=ex.EXPORT_LINE, description=_EXPORTED)
    @blp.alt_response(
        200,
        schema={"type": "string"},
        content_type=CSV_TYPE,
        example=ex.EXPORT_CSV,
        success=True,
        description=_EXPORTED,
    )
    @blp.problem(422, _BAD_FILTER)
    @blp.problem(406, "The Accept header allows neither application/x-ndjson nor text/csv (and no `format`).")
    def get(self, args: dict[str, Any], actor: Actor) -> Any:
        """Export games with their rounds

        Every game of the caller matching the filters (`since` <= created < `until`, `preset`), with
        every round, streamed: NDJSON by default (one game a line, the document of GET
        /v1/games/{game_id}), CSV with `Accept: text/csv` or `format=csv` (header `game_id,game,preset,
        game_created_at,game_status,round,side,players,score,total_after,went_out,won_game,<kind>_books...,
        <line>_points...`: one row per side per round; every text cell quoted, and one that a
        spreadsheet would run as a formula starts with `'`). Games come oldest first; the answer is
        one snapshot of the store.
        """
        fmt = _export_format(args)
        if fmt is None:
            flask.abort(406)
        batches = svc.game_batches(get_db(), actor, _filter(args))
        chunks: Iterator[str] = doc.csv_chunks(batches) if fmt == "csv" else doc.ndjson_lines(batches)
        response = flask.current_app.response_class(flask.stream_with_context(chunks), mimetype=FORMATS[fmt])
        if fmt == "csv":
            response.headers["Content-Disposition"] = 'attachment; filename="handfoot-export.csv"'
        return response


@blp.route("/stats")
class Stats(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.arguments(HistoryQueryArgsSchema, location="query")
    @blp.response(200, StatisticsSchema, example=ex.STATISTICS)
    @blp.problem(422, _BAD_FILTER)
    def get(self, args: dict[str, Any], actor: Actor) -> dict[str, Any]:
        """Statistics per player and per side

        Across the caller's games matching the filters: games, finished games, wins, rounds, total,
        average and best round (points), rounds gone out, and books by kind, per player and per side.
        A player is the same player in every game where the name matches ignoring case (Unicode NFC,
        case-folded); a side is its players together, whatever it was called. A win is a finished
        game the side won (a tie is none). The figures come from the stored rounds (their Breakdowns),
        read in one snapshot.
        """
        return doc.statistics_doc(svc.statistics(get_db(), actor, _filter(args)))
