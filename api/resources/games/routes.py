"""``/v1/games`` (docs/games-api.md): stored games, their rounds and score sheets. Views take the
caller as ``actor``, call the services and return the documents of ``serializers.py``."""

from __future__ import annotations

import json
from typing import Any

import flask
from flask.views import MethodView

from handfoot.server import auth
from handfoot.server.auth import Actor
from handfoot.server.blueprint import Blueprint
from handfoot.server.db import get_db
from handfoot.server.idempotency import HEADER_DOC, RequestKey, idempotent
from handfoot.server.jsonio import json_response
from handfoot.server.models import Game, Round
from handfoot.server.pagination import cursor_link_header, encode_cursor, link_header
from handfoot.server.parsing import body_as_sent
from handfoot.server.schemas import MAX_ROUNDS_PER_GAME
from handfoot.server.secret import secret_key
from handfoot.server.security import no_store_for_keys
from handfoot.server.services import errors as svc_errors
from handfoot.server.services import games as svc
from handfoot.server.services import rounds as rounds_svc

from . import examples as ex
from . import serializers as doc
from .schemas import (
    MAX_ID,
    GameCreateSchema,
    GameQueryArgsSchema,
    GameSchema,
    GameSummarySchema,
    RevisionSchema,
    RoundCreateSchema,
    RoundSchema,
    RoundUpdateSchema,
    ScoresheetSchema,
)

blp = Blueprint(
    "Games",
    __name__,
    url_prefix="/v1/games",
    description="Stored games: create one, append each round (scored by the engine against the game's rule "
    "snapshot), correct rounds with an audit trail, read the score sheet (JSON or CSV). Once the server has "
    "API keys, every games request needs `Authorization: Bearer <key>` and a key sees only its own games.",
)

# `handfoot-server keys create|list|revoke`
blp.record_once(lambda state: state.app.cli.add_command(auth.keys_cli))
# `Cache-Control: no-store` on answers to requests made with a key (api/security.py).
blp.after_request(no_store_for_keys)

CSV_TYPE = "text/csv"

#: Path converters: an id out of an SQL INTEGER's range, or a round number past MAX_ROUNDS_PER_GAME,
#: is a 404 that never reaches the database (and the OpenAPI document states the range).
GAME_ID = f"int(min=1, max={MAX_ID})"
ROUND_NUMBER = f"int(min=1, max={MAX_ROUNDS_PER_GAME})"

LOCATION_HEADER = {"Location": {"description": "The new resource's URL.", "schema": {"type": "string"}}}


def _if_match(required: bool, description: str) -> dict[str, Any]:
    return {
        "name": "If-Match",
        "in": "header",
        "required": required,
        "schema": {"type": "string"},
        "description": description,
    }


IF_MATCH_OPTIONAL = _if_match(
    False, "The game's ETag: when sent, the game is deleted only if unchanged (412 otherwise)."
)
IF_MATCH_ROUND = _if_match(
    True,
    "The round's ETag (from GET /v1/games/{id}/rounds/{n}): the round is corrected only if unchanged "
    "(412 otherwise); `*` for the round as it stands.",
)
IF_MATCH_GAME = _if_match(
    True, "The game's ETag (from GET /v1/games/{id}): the round is deleted only if the game is unchanged."
)


def _created_game_visible(actor: auth.Actor, answer: Any) -> None:
    """A replayed creation answers only while the game it created is there (else a 404)."""
    svc.require_game(get_db(), actor, int(answer["id"]))


LIST_HEADERS = {
    "Link": {
        "description": "RFC 8288 links: `first` (the list without a cursor) and, unless this is the last "
        "page, `next` (the same query with the next page's `cursor`). With the deprecated `page`: "
        "`first`, `prev`, `next` and `last` numbered pages.",
        "schema": {"type": "string"},
    },
    "X-Pagination": "PAGINATION",
}


def _list_headers(args: dict[str, Any], page: svc.GamesPage) -> dict[str, str]:
    """``Link``, and ``X-Pagination`` where its total costs nothing more: on the deprecated numbered
    pages (which count), and on a first page that holds the whole list (its length is the total)."""
    size = args["page_size"]
    if "page" in args:
        meta = blp._make_pagination_metadata(args["page"], size, page.total)  # flask-smorest's own metadata
        headers = {"X-Pagination": json.dumps(meta)}
        link = link_header(meta, page_size=size)
        if link:
            headers["Link"] = link
        return headers
    last = page.games[-1] if page.more else None
    headers = {
        "Link": cursor_link_header(
            None if last is None else encode_cursor(last.created_at, last.id, secret_key()), page_size=size
        )
    }
    if "cursor" not in args and not page.more:
        headers["X-Pagination"] = json.dumps(blp._make_pagination_metadata(1, size, len(page.games)))
    return headers


@blp.route("")
class GameCollection(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.arguments(GameQueryArgsSchema, location="query")
    @blp.response(200, GameSummarySchema(many=True), example=[ex.GAME_SUMMARY], headers=LIST_HEADERS)
    def get(self, args: dict[str, Any], actor: Actor) -> Any:
        """List games

        The games of the caller's API key (or, on a server without keys, every game), newest first,
        `page_size` (up to 100) at a time. Keyset pages: follow `Link: <...>; rel="next"` (its URL
        carries an opaque `cursor`) until no `next` is sent. Every page costs the same however deep
        in the list, and a game created or deleted meanwhile shifts no other game between pages.
        `X-Pagination` (with `total`) comes only where it is cheap: when the first page holds the
        whole list. The deprecated `page` still gives numbered pages with totals, at the cost of a
        count and an OFFSET on each. Filter by `status`, `player` (a player name in any side,
        ignoring case) and `preset`.
        """
        size = args["page_size"]
        filters = {"status": args.get("status"), "player": args.get("player"), "preset": args.get("preset")}
        if "page" in args:
            page = svc.list_games(get_db(), actor, **filters, offset=(args["page"] - 1) * size, limit=size)
        else:
            page = svc.list_games(get_db(), actor, **filters, after=args.get("cursor"), limit=size)
        return [doc.summary_doc(g) for g in page.games], _list_headers(args, page)

    @auth.authenticated
    @idempotent(replayed=_created_game_visible)
    @blp.key_docs
    @blp.etag
    @blp.arguments(GameCreateSchema, example=ex.GAME_CREATE_REQUEST)
    @blp.response(
        201,
        GameSchema,
        example={
            **ex.GAME_RESPONSE,
            "rounds": [],
            "rounds_played": 0,
            "totals": [{"name": "Team 1", "total": 0}, {"name": "Team 2", "total": 0}],
            "leaders": [],
            "next_round": 1,
            "next_opening_minimum": 50,
            "next_opening_minimums": None,
            "version": 1,
        },
        headers=LOCATION_HEADER,
    )
    @blp.doc(parameters=[HEADER_DOC])
    @blp.problem(409, "The Idempotency-Key's first request is still running (idempotency-in-flight).")
    @blp.problem(
        404,
        "The Idempotency-Key's first request created a game that has since been deleted "
        "(not-found): its replay never answers 201.",
    )
    def post(self, body: dict[str, Any], actor: Actor, request_key: RequestKey) -> Any:
        """Create a game

        A new game from a preset plus optional house rules: the resolved RuleSet is stored with the
        game (a snapshot, so later preset changes never alter it). Sides and players are checked
        against the rules (`team_count`), side names must be unique and a player may play once.
        `Idempotency-Key` is honoured. Name length at most 100; a game holds at most 50 rounds.
        """
        game = svc.create_game.run(get_db(), request_key(doc.created_game_answer), actor, body)
        blp.set_etag(doc.game_etag(game))
        return doc.game_doc(game), {"Location": doc.game_location(game.id)}


@blp.route(f"/<{GAME_ID}:game_id>")
class GameItem(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.etag
    @blp.response(200, GameSchema, example=ex.GAME_RESPONSE)
    def get(self, game_id: int, actor: Actor) -> Any:
        """Get a game

        The game with its rules snapshot, every round summarised (number, revision, each side's
        score and the running totals, and `href`: the round's URL, whose GET gives the request as
        sent and the Breakdowns), status, leaders, and once finished the winner or the tie and why
        it ended. The ETag follows `version`; `If-None-Match` gives a 304 when unchanged.
        """
        game, numbers = svc.read_game(get_db(), actor, game_id)
        blp.set_etag(doc.game_etag(game))
        # a ready answer (as an append's): tests/api/app/test_ready_answers.py checks it is GameSchema's
        return flask.jsonify(doc.game_answer(game, numbers))

    @auth.authenticated
    @blp.key_docs
    @blp.response(204)
    @blp.doc(parameters=[IF_MATCH_OPTIONAL])
    @blp.problem(412, "If-Match was sent and does not match the game's ETag (precondition-failed).")
    def delete(self, game_id: int, actor: Actor) -> None:
        """Delete a game

        Deletes the game, its rounds and their revisions. `If-Match` is optional: when sent, the
        game is deleted only if its ETag matches (412 otherwise).
        """
        if_match = None
        if flask.request.if_match:

            def if_match(game: Game) -> None:
                blp.check_etag(doc.game_etag(game))

        svc.delete_game(get_db(), actor, game_id, if_match)


def _visible_game(actor: auth.Actor, game_id: int, **_round: int) -> None:
    """A replayed append or correction answers only while its game is there (a deleted game's
    replay is a 404)."""
    svc.require_game(get_db(), actor, game_id)


def _round_standing(actor: auth.Actor, answer: Any) -> None:
    """A replayed append or correction answers only while the round it stored stands (a round
    since deleted, or deleted and played again, is a 404: the replay must not say it is stored)."""
    game_id, number = int(flask.request.view_args["game_id"]), int(answer["number"])  # type: ignore[index]
    _game, rnd = rounds_svc.get_round(get_db(), actor, game_id, number)
    if doc.iso(rnd.created_at) != answer.get("created_at"):
        raise svc_errors.RoundNotFoundError(game_id, number)


#: The 409 of a round written straight on a game a table is playing (D51).
TABLE_OPEN = "a table is playing the game (table-open: `table` and `href` name it; its rounds are the table's to store)"


@blp.route(f"/<{GAME_ID}:game_id>/rounds")
class RoundCollection(MethodView):
    @auth.authenticated
    @idempotent(before=_visible_game, replayed=_round_standing)
    @blp.key_docs
    @blp.etag
    @blp.arguments(RoundCreateSchema, example=ex.ROUND_REQUEST)
    @blp.response(201, RoundSchema, example=ex.ROUND_RESPONSE, headers=LOCATION_HEADER)
    @blp.doc(parameters=[HEADER_DOC])
    @blp.problem(
        409,
        "The game is over (game-finished, naming why), `round` is not the next number "
        f"(round-number), the game holds {MAX_ROUNDS_PER_GAME} rounds already, " + TABLE_OPEN + ", or the "
        "Idempotency-Key's first request is still running (idempotency-in-flight).",
    )
    def post(self, body: dict[str, Any], game_id: int, actor: Actor, request_key: RequestKey) -> Any:
        """Append a round

        Scores the next round with the engine against the game's rules snapshot and stores it with
        the request as sent. Every side of the game appears exactly once, matched by name, in cards
        or tally form as in POST /v1/rounds/score. A round that breaks the rules is a 422 naming each
        rule; after the end of the game it is a 409 `game-finished`. In a tiebreaker the round is
        played with the tiebreaker's opening minimum. `Idempotency-Key` is honoured: a retry never
        stores a round twice.
        """
        idempotency_key = request_key(doc.appended_round_answer)
        appended = rounds_svc.append_round.run(get_db(), idempotency_key, actor, game_id, body, body_as_sent())
        rnd = appended[1]
        blp.set_etag(doc.round_etag(game_id, rnd))
        # A ready response: flask-smorest sends it as it is, without dumping it through RoundSchema
        # (which documents it: tests/api/test_ready_answers.py).
        return json_response(doc.round_answer(appended), 201), {"Location": doc.round_location(game_id, rnd.number)}


@blp.route(f"/<{GAME_ID}:game_id>/rounds/<{ROUND_NUMBER}:number>")
class RoundItem(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.etag
    @blp.response(200, RoundSchema, example=ex.ROUND_RESPONSE)
    def get(self, game_id: int, number: int, actor: Actor) -> dict[str, Any]:
        """Get a round

        One round: the request as sent, every side's Breakdown and the running totals after it.
        Its ETag follows `revision`: send it as `If-Match` to correct the round.
        """
        game, rnd = rounds_svc.get_round(get_db(), actor, game_id, number)
        blp.set_etag(doc.round_etag(game_id, rnd))
        return doc.round_doc(game, rnd)

    @auth.authenticated
    @idempotent(before=_visible_game, replayed=_round_standing)
    @blp.key_docs
    @blp.etag
    @blp.arguments(RoundUpdateSchema, example=ex.ROUND_UPDATE_REQUEST)
    @blp.response(200, RoundSchema, example={**ex.ROUND_RESPONSE, "revision": 2})
    @blp.doc(parameters=[IF_MATCH_ROUND, HEADER_DOC])
    @blp.problem(
        409,
        "The round has the most revisions a round may have (revision_limit), " + TABLE_OPEN + ", or the "
        "Idempotency-Key's first request is still running (idempotency-in-flight).",
    )
    def put(self, body: dict[str, Any], game_id: int, number: int, actor: Actor, request_key: RequestKey) -> Any:
        """Correct a round

        Re-scores the round from the corrected body (every side once, as when appending); the
        earlier version is kept as a revision with who and when. Later running totals and the
        game's status (finished, tie, tiebreaker) are recomputed. `If-Match` with the round's ETag
        is required: 428 without it, 412 when the round changed since. A retry after a lost answer
        stores nothing twice: `Idempotency-Key` is honoured (the first answer again, with
        `Idempotent-Replayed: true`), and without one, the same body from the same caller on the
        ETag the correction replaced (or `If-Match: *`) answers 200 with the round as it stands,
        no new revision.
        """

        def if_match(rnd: Round) -> None:
            blp.check_etag(doc.round_etag(game_id, rnd))

        def sent(revision: int) -> bool:
            etag = doc.round_etag_at(game_id, number, revision)
            if not blp.etag_sent(etag):
                return False
            blp.check_etag(etag)  # passes (sent): the check is on record
            return True

        idempotency_key = request_key(doc.corrected_round_answer)
        game, rnd = rounds_svc.correct_round.run(
            get_db(), idempotency_key, actor, game_id, number, body, body_as_sent(), if_match, sent
        )
        blp.set_etag(doc.round_etag(game_id, rnd))
        return doc.round_members(game.sides, game.state["running"], rnd)

    @auth.authenticated
    @blp.key_docs
    @blp.etag
    @blp.response(204)
    @blp.doc(parameters=[IF_MATCH_GAME])
    @blp.problem(
        409,
        "The round is not the game's last (not-last-round, naming the last round): an earlier "
        "round is corrected, not deleted; or " + TABLE_OPEN + ".",
    )
    def delete(self, game_id: int, number: int, actor: Actor) -> None:
        """Delete the last round

        Takes back the game's last round (an undo of a round saved by mistake): the game's state is
        recomputed from the rounds left, and a finished game is in progress again. Only the last
        round can be deleted (409 `not-last-round` for any other: correct it instead). What the
        round was, with its revisions, who deleted it and when, is kept on the server. `If-Match`
        with the game's ETag is required: 428 without it, 412 when the game changed since. A repeat
        of the same request while nothing else changed answers 204 again.
        """

        def if_match(version: int) -> None:
            blp.check_etag(doc.game_version_etag(game_id, version))

        def sent(version: int) -> bool:
            return blp.etag_sent(doc.game_version_etag(game_id, version))

        rounds_svc.delete_round(get_db(), actor, game_id, number, if_match, sent)


@blp.route(f"/<{GAME_ID}:game_id>/rounds/<{ROUND_NUMBER}:number>/revisions")
class RoundRevisions(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.response(200, RevisionSchema(many=True), example=ex.REVISIONS_RESPONSE)
    @blp.paginate(page_size=rounds_svc.MAX_REVISIONS_PER_ROUND, max_page_size=rounds_svc.MAX_REVISIONS_PER_ROUND)
    def get(self, game_id: int, number: int, pagination_parameters: Any, actor: Actor) -> list[dict[str, Any]]:
        """List a round's revisions

        The audit trail of a round, oldest first: every earlier version (its request, Breakdowns,
        author and when it was written and replaced), then the current one (`current` true).
        Paginated (`page`, `page_size`; `X-Pagination` and `Link`); a round has at most
        100 revisions, so the default page holds them all.
        """
        pp = pagination_parameters
        rnd, revisions, total = rounds_svc.round_revisions(
            get_db(), actor, game_id, number, offset=pp.first_item, limit=pp.page_size
        )
        pp.item_count = total
        return doc.revisions_doc(rnd, revisions, with_current=pp.first_item + pp.page_size >= total)


@blp.route(f"/<{GAME_ID}:game_id>/scoresheet")
class Scoresheet(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.response(200, ScoresheetSchema, example=ex.SCORESHEET_RESPONSE)
    @blp.alt_response(
        200,
        schema={"type": "string"},
        content_type=CSV_TYPE,
        example=ex.SCORESHEET_CSV,
        description="The score sheet: JSON by default; CSV with `Accept: text/csv` (a header "
        "`round,<side>,<side> total,...` and one line per round).",
        success=True,
    )
    @blp.problem(406, "The Accept header allows neither application/json nor text/csv.")
    def get(self, game_id: int, actor: Actor) -> Any:
        """Get the score sheet

        Rounds x sides with each round's scores and the running totals, as on paper. JSON by default;
        CSV with `Accept: text/csv` (header `"round","Us","Us total","Them","Them total"`, one line
        per round; text cells quoted, and neutralised where a spreadsheet would run them).
        """
        accept = flask.request.accept_mimetypes
        best = accept.best_match(["application/json", CSV_TYPE]) if accept else "application/json"
        if best is None:
            flask.abort(406)
        game = svc.get_game(get_db(), actor, game_id, rounds="none")
        sheet = doc.scoresheet(game)
        if best == CSV_TYPE:
            response = flask.current_app.response_class(doc.scoresheet_csv(sheet), mimetype=CSV_TYPE)
            response.headers["Content-Disposition"] = f'inline; filename="game-{game.id}-scoresheet.csv"'
            return response
        return sheet


def register_spec(api: Any) -> None:
    """The bearer-token security scheme the games operations use."""
    api.spec.components.security_scheme(
        "bearerAuth",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key from `handfoot-server keys create NAME`. Needed on every games "
            "operation once the server has any key; not needed while it has none.",
        },
    )
