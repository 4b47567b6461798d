"""``/v1/games``: stored games, their rounds (appended, corrected, audited) and score sheets.

The HTTP contract is docs/games-api.md. Views are thin: they authenticate (``g.actor``), call
``handfoot.server.services.games`` and shape its rows into documents; the service errors map to problems in
:func:`_service_error`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import flask
from flask.views import MethodView
from sqlalchemy import Connection
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import Session

from handfoot.server import auth
from handfoot.server.db import get_db
from handfoot.server.extensions import Blueprint, body_as_sent
from handfoot.server.idempotency import HEADER_DOC, IdempotencyLostError, current_claim, idempotent
from handfoot.server.models import Game, Round, RoundRevision
from handfoot.server.problems import PROBLEM_CONTENT_TYPE, ProblemSchema, json_pointer, make_problem, problem_response
from handfoot.server.security import no_store_for_keys
from handfoot.server.services import games as svc

from . import examples as ex
from .schemas import (
    DEFAULT_PAGE_SIZE,
    MAX_PAGE_SIZE,
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

# `flask --app api:create_app keys create|list|revoke`
blp.record_once(lambda state: state.app.cli.add_command(auth.keys_cli))
# `Cache-Control: no-store` on answers to requests made with a key (api/security.py).
blp.after_request(no_store_for_keys)

#: Seconds a client should wait after a 503 (database unreachable or locked too long).
RETRY_AFTER_SECONDS = 2

CSV_TYPE = "text/csv"

#: Path converters: ids are 1 to 2**31 - 1 (an SQL INTEGER on every backend) and round numbers 1 to
#: MAX_ROUNDS_PER_GAME, so an id out of range is a 404 that never reaches the database, and the
#: OpenAPI document states the range.
MAX_ID = 2**31 - 1
GAME_ID = f"int(min=1, max={MAX_ID})"
ROUND_NUMBER = f"int(min=1, max={svc.MAX_ROUNDS_PER_GAME})"

LOCATION_HEADER = {"Location": {"description": "The new resource's URL.", "schema": {"type": "string"}}}
RETRY_AFTER_HEADER = {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}}
IF_MATCH_OPTIONAL = {
    "name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
    "description": "The game's ETag: when sent, the game is deleted only if unchanged (412 otherwise).",
}


def _problem_doc(status: int, description: str, **kw: Any) -> Any:
    return blp.alt_response(status, schema=ProblemSchema, content_type=PROBLEM_CONTENT_TYPE,
                            description=description, **kw)


def _auth_docs(func: Any) -> Any:
    func = _problem_doc(401, "This server has API keys and the request sent none, or an unknown or revoked one "
                        "(problem type unauthorized; `WWW-Authenticate: Bearer`).")(func)
    return blp.doc(security=[{"bearerAuth": []}, {}])(func)


# --------------------------------------------------------------------------------------------
# Authentication and errors


#: The endpoint of ``POST /v1/games/{id}/rounds`` (flask-smorest names a MethodView's after its class).
APPEND_ENDPOINT = "Games.RoundCollection"


@blp.before_request
def _authenticate() -> None:
    request = flask.request
    any_key = None
    if (request.endpoint == APPEND_ENDPOINT and request.method == "POST" and request.view_args
            and not request.headers.get("Authorization", "").strip()):
        # An anonymous append: its key check and its read of the game are one statement (the check
        # runs alone when no game row came back).
        read = flask.g.append_read = svc.read_anonymous_append(get_db(), request.view_args["game_id"])
        any_key = read.any_key
    flask.g.actor = auth.authenticate(any_key)


def _actor() -> auth.Actor:
    actor: auth.Actor = flask.g.actor
    return actor


@blp.errorhandler(svc.GameServiceError)
def _service_error(error: svc.GameServiceError) -> flask.Response:
    headers: dict[str, str] = {}
    if isinstance(error, svc.GameNotFoundError):
        problem = make_problem(404, "Game not found", f"There is no game {error.game_id}.")
    elif isinstance(error, svc.RoundNotFoundError):
        problem = make_problem(404, "Round not found", f"Game {error.game_id} has no round {error.number}.")
    elif isinstance(error, svc.GameFinishedError):
        problem = make_problem(409, "Game finished", f"The game is over ({error.reason}): no more rounds.",
                               type_slug="game-finished", end_reason=error.reason,
                               errors=[{"pointer": "", "code": "game_finished", "detail": error.reason}])
    elif isinstance(error, svc.RoundNumberError):
        problem = make_problem(409, "Not the next round", f"The next round is {error.expected}, not {error.given}.",
                               type_slug="round-number", next_round=error.expected,
                               errors=[{"pointer": "/round", "code": "round_number",
                                        "detail": f"the next round is {error.expected}"}])
    elif isinstance(error, svc.RoundLimitError):
        problem = make_problem(409, "Too many rounds", str(error),
                               errors=[{"pointer": "", "code": "round_limit", "detail": str(error)}])
    elif isinstance(error, svc.InvalidRequestError):
        problem = make_problem(
            422, "Request does not fit the game", str(error), type_slug="validation-error",
            errors=[{"pointer": json_pointer(p.path), "code": p.code, "detail": p.detail} for p in error.problems])
    elif isinstance(error, svc.WriteConflictError):
        problem = make_problem(409, "Write conflict", str(error))
    elif isinstance(error, svc.StoreUnavailableError):
        problem = make_problem(503, "Database unavailable", "The database is unreachable or busy; retry later.")
        headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    else:  # pragma: no cover - every subclass is listed above
        problem = make_problem(500)
    return problem_response(problem, headers)


@blp.errorhandler(IdempotencyLostError)
def _idempotency_lost(error: IdempotencyLostError) -> flask.Response:
    return problem_response(make_problem(409, "Request in flight", "Another request took over this "
                                         "Idempotency-Key; retry.", type_slug="idempotency-in-flight"),
                            {"Retry-After": "1"})


@blp.errorhandler(OperationalError)
@blp.errorhandler(InterfaceError)
@blp.errorhandler(PoolTimeoutError)  # every pooled connection stayed in use for the pool's timeout
def _database_down(error: Exception) -> flask.Response:
    problem = make_problem(503, "Database unavailable", "The database is unreachable or busy; retry later.")
    return problem_response(problem, {"Retry-After": str(RETRY_AFTER_SECONDS)})


# --------------------------------------------------------------------------------------------
# Documents


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _totals(names: list[str], values: list[int]) -> list[dict[str, Any]]:
    return [{"name": n, "total": t} for n, t in zip(names, values, strict=True)]


def _round_members(sides: list[str], running: list[list[int]], rnd: Round | svc.AppendedRound) -> dict[str, Any]:
    after = running[rnd.number - 1] if rnd.number <= len(running) else [0] * len(sides)
    return {
        "number": rnd.number, "revision": rnd.revision, "request": rnd.request, "teams": rnd.teams,
        "totals_after": _totals(sides, after),
        "created_at": _utc(rnd.created_at), "updated_at": _utc(rnd.updated_at),
    }


def round_doc(game: Game, rnd: Round) -> dict[str, Any]:
    return _round_members(svc.side_names(game), game.state["running"], rnd)


def _iso(value: datetime | None) -> str | None:
    utc = _utc(value)
    return None if utc is None else utc.isoformat()


def round_answer(game: svc.AppendedGame, rnd: svc.AppendedRound) -> dict[str, Any]:
    """The answer to an append: what ``RoundSchema().dump(round_doc(...))`` gives, without marshmallow
    (the same members in the same order, with the same values: timestamps as ISO 8601, ``request``
    a shallow copy, the Breakdowns already plain data from ``breakdown_data``).

    Dumping the appended round through a new ``RoundSchema`` (four Breakdowns of ~8 lines, every
    value read one field at a time) was ~240 µs of an append; RoundSchema still documents the
    answer, and tests/api/test_append_storage.py checks this against its dump."""
    doc = _round_members(game.sides, game.state["running"], rnd)
    doc["request"] = dict(rnd.request)
    doc["created_at"] = _iso(rnd.created_at)
    doc["updated_at"] = _iso(rnd.updated_at)
    return doc


def summary_doc(game: Game) -> dict[str, Any]:
    state = game.state
    return {
        "id": game.id, "name": game.name, "preset": game.preset, "status": state["status"], "teams": game.teams,
        "totals": state["totals"], "leaders": state["leaders"], "winner": state["winner"], "tie": state["tie"],
        "rounds_played": state["rounds_played"],
        "created_at": _utc(game.created_at), "updated_at": _utc(game.updated_at),
    }


def game_doc(game: Game) -> dict[str, Any]:
    state = game.state
    return {
        **summary_doc(game),
        "rules": game.rules_snapshot, "rules_overridden": game.rules_overridden, "house_rules": game.house_rules,
        "next_round": state["next_round"], "next_opening_minimum": state["next_opening_minimum"],
        "next_opening_minimums": state["next_opening_minimums"], "next_contract": state["next_contract"],
        "end_reason": state["end_reason"], "rounds": [round_doc(game, r) for r in game.rounds],
        "version": game.version,
    }


def game_etag(game: Game) -> dict[str, int]:
    return {"game": game.id, "version": game.version}


def round_etag(game_id: int, rnd: Round | svc.AppendedRound) -> dict[str, int]:
    return {"game": game_id, "round": rnd.number, "revision": rnd.revision}


def _complete_claim(session: Session | Connection, status: int, body: Callable[[], Mapping[str, Any]],
                    location: Callable[[], str], etag: Any) -> None:
    """Store the answer with the request's Idempotency-Key claim, if it has one (``body`` and
    ``location`` are only made then: most appends carry no key, and the dump was ~10% of an append)."""
    claim = current_claim()
    if claim is not None:
        headers = {"Location": location(), "ETag": f'"{Blueprint._generate_etag(etag)}"'}
        claim.complete(session, status, headers, body())


def _round_location(game_id: int, number: int) -> str:
    return flask.url_for("Games.RoundItem", game_id=game_id, number=number)


# --------------------------------------------------------------------------------------------
# Routes


@blp.route("")
class GameCollection(MethodView):
    @_auth_docs
    @blp.arguments(GameQueryArgsSchema, location="query")
    @blp.response(200, GameSummarySchema(many=True), example=[ex.GAME_SUMMARY])
    @blp.paginate(page_size=DEFAULT_PAGE_SIZE, max_page_size=MAX_PAGE_SIZE)
    def get(self, args: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
        """List games

        The games of the caller's API key (or, on a server without keys, every game), newest first,
        paginated (`page`, `page_size` up to 100; `X-Pagination` and `Link` headers). Filter by
        `status`, `player` (a player name in any side, ignoring case) and `preset`.
        """
        pp = pagination_parameters
        games, count = svc.list_games(get_db(), _actor(), status=args.get("status"), player=args.get("player"),
                                      preset=args.get("preset"), offset=pp.first_item, limit=pp.page_size)
        pp.item_count = count
        return [summary_doc(g) for g in games]

    @idempotent
    @_auth_docs
    @blp.etag
    @blp.arguments(GameCreateSchema, example=ex.GAME_CREATE_REQUEST)
    @blp.response(201, GameSchema, example={**ex.GAME_RESPONSE, "rounds": [], "rounds_played": 0, "totals": [
        {"name": "Team 1", "total": 0}, {"name": "Team 2", "total": 0}], "leaders": [], "next_round": 1,
        "next_opening_minimum": 50, "next_opening_minimums": None, "version": 1}, headers=LOCATION_HEADER)
    @blp.doc(parameters=[HEADER_DOC])
    @_problem_doc(409, "The Idempotency-Key's first request is still running (idempotency-in-flight).")
    def post(self, body: dict[str, Any]) -> Any:
        """Create a game

        A new game from a preset plus optional house rules: the resolved RuleSet is stored with the
        game (a snapshot, so later preset changes never alter it). Sides and players are checked
        against the rules (`team_count`), side names must be unique and a player may play once.
        `Idempotency-Key` is honoured. Name length at most 100; a game holds at most 50 rounds.
        """

        def finalize(session: Session, game: Game) -> None:
            _complete_claim(session, 201, lambda: GameSchema().dump(game_doc(game)),
                            lambda: flask.url_for("Games.GameItem", game_id=game.id), game_etag(game))

        game = svc.create_game(get_db(), _actor(), body, finalize)
        blp.set_etag(game_etag(game))
        return game_doc(game), {"Location": flask.url_for("Games.GameItem", game_id=game.id)}


@blp.route(f"/<{GAME_ID}:game_id>")
class GameItem(MethodView):
    @_auth_docs
    @blp.etag
    @blp.response(200, GameSchema, example=ex.GAME_RESPONSE)
    def get(self, game_id: int) -> dict[str, Any]:
        """Get a game

        The game with its rules snapshot, every round (request as sent and Breakdowns), running
        totals, status, leaders, and once finished the winner or the tie and why it ended. The ETag
        follows `version`; `If-None-Match` gives a 304 when unchanged.
        """
        game = svc.get_game(get_db(), _actor(), game_id)
        blp.set_etag(game_etag(game))
        return game_doc(game)

    @_auth_docs
    @blp.response(204)
    @blp.doc(parameters=[IF_MATCH_OPTIONAL])
    @_problem_doc(412, "If-Match was sent and does not match the game's ETag (precondition-failed).")
    def delete(self, game_id: int) -> None:
        """Delete a game

        Deletes the game, its rounds and their revisions. `If-Match` is optional: when sent, the
        game is deleted only if its ETag matches (412 otherwise).
        """
        check = None
        if flask.request.if_match:
            def check(game: Game) -> None:
                blp.check_etag(game_etag(game))
        svc.delete_game(get_db(), _actor(), game_id, check)


def _visible_game(game_id: int) -> None:
    svc.require_game(get_db(), _actor(), game_id)


@blp.route(f"/<{GAME_ID}:game_id>/rounds")
class RoundCollection(MethodView):
    @idempotent(before=_visible_game)
    @_auth_docs
    @blp.etag
    @blp.arguments(RoundCreateSchema, example=ex.ROUND_REQUEST)
    @blp.response(201, RoundSchema, example=ex.ROUND_RESPONSE, headers=LOCATION_HEADER)
    @blp.doc(parameters=[HEADER_DOC])
    @_problem_doc(409, "The game is over (game-finished, naming why), `round` is not the next number "
                  "(round-number), the game holds 50 rounds already, or the Idempotency-Key's first request "
                  "is still running (idempotency-in-flight).")
    def post(self, body: dict[str, Any], game_id: int) -> Any:
        """Append a round

        Scores the next round with the engine against the game's rules snapshot and stores it with
        the request as sent. Every side of the game appears exactly once, matched by name, in cards
        or tally form as in POST /v1/rounds/score. A round that breaks the rules is a 422 naming each
        rule; after the end of the game it is a 409 `game-finished`. In a tiebreaker the round is
        played with the tiebreaker's opening minimum. `Idempotency-Key` is honoured: a retry never
        stores a round twice.
        """
        game_id_ = game_id

        def finalize(connection: Connection, game: svc.AppendedGame, rnd: svc.AppendedRound) -> None:
            _complete_claim(connection, 201, lambda: round_answer(game, rnd),
                            lambda: _round_location(game_id_, rnd.number), round_etag(game_id_, rnd))

        raw = body_as_sent()
        game, rnd = svc.append_round(get_db(), _actor(), game_id, body, raw,
                                     finalize if current_claim() is not None else None,
                                     flask.g.pop("append_read", None))
        blp.set_etag(round_etag(game_id, rnd))
        # A ready response: flask-smorest returns it as it is, without dumping it through RoundSchema
        # (which documents it; round_answer gives the same data).
        response = flask.jsonify(round_answer(game, rnd))
        response.status_code = 201
        return response, {"Location": _round_location(game_id, rnd.number)}


@blp.route(f"/<{GAME_ID}:game_id>/rounds/<{ROUND_NUMBER}:number>")
class RoundItem(MethodView):
    @_auth_docs
    @blp.etag
    @blp.response(200, RoundSchema, example=ex.ROUND_RESPONSE)
    def get(self, game_id: int, number: int) -> dict[str, Any]:
        """Get a round

        One round: the request as sent, every side's Breakdown and the running totals after it.
        Its ETag follows `revision`: send it as `If-Match` to correct the round.
        """
        game, rnd = svc.get_round(get_db(), _actor(), game_id, number)
        blp.set_etag(round_etag(game_id, rnd))
        return round_doc(game, rnd)

    @_auth_docs
    @blp.etag
    @blp.arguments(RoundUpdateSchema, example=ex.ROUND_UPDATE_REQUEST)
    @blp.response(200, RoundSchema, example={**ex.ROUND_RESPONSE, "revision": 2})
    def put(self, body: dict[str, Any], game_id: int, number: int) -> dict[str, Any]:
        """Correct a round

        Re-scores the round from the corrected body (every side once, as when appending); the
        earlier version is kept as a revision with who and when. Later running totals and the
        game's status (finished, tie, tiebreaker) are recomputed. `If-Match` with the round's ETag
        is required: 428 without it, 412 when the round changed since.
        """

        def check(rnd: Round) -> None:
            blp.check_etag(round_etag(game_id, rnd))

        raw = body_as_sent()
        game, rnd = svc.correct_round(get_db(), _actor(), game_id, number, body, raw, check)
        blp.set_etag(round_etag(game_id, rnd))
        return round_doc(game, rnd)


@blp.route(f"/<{GAME_ID}:game_id>/rounds/<{ROUND_NUMBER}:number>/revisions")
class RoundRevisions(MethodView):
    @_auth_docs
    @blp.response(200, RevisionSchema(many=True), example=ex.REVISIONS_RESPONSE)
    def get(self, game_id: int, number: int) -> list[dict[str, Any]]:
        """List a round's revisions

        The audit trail of a round, oldest first: every earlier version (its request, Breakdowns,
        author and when it was written and replaced), then the current one (`current` true).
        """
        rnd, revisions = svc.round_revisions(get_db(), _actor(), game_id, number)

        def old(r: RoundRevision) -> dict[str, Any]:
            return {"revision": r.revision, "current": False, "request": r.request, "teams": r.teams,
                    "created_at": _utc(r.created_at), "replaced_at": _utc(r.replaced_at), "author": r.author}

        return [*(old(r) for r in revisions), {
            "revision": rnd.revision, "current": True, "request": rnd.request, "teams": rnd.teams,
            "created_at": _utc(rnd.updated_at), "replaced_at": None, "author": rnd.author}]


def scoresheet(game: Game) -> dict[str, Any]:
    state = game.state
    rows = [{"round": r.number, "scores": [b["total"] for b in r.teams], "totals": state["running"][i]}
            for i, r in enumerate(game.rounds)]
    return {
        "game_id": game.id, "name": game.name, "teams": svc.side_names(game), "rows": rows,
        "totals": [t["total"] for t in state["totals"]], "status": state["status"], "leaders": state["leaders"],
        "winner": state["winner"], "tie": state["tie"],
    }


def scoresheet_csv(sheet: Mapping[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", *(c for name in sheet["teams"] for c in (name, f"{name} total"))])
    for row in sheet["rows"]:
        writer.writerow([row["round"], *(v for pair in zip(row["scores"], row["totals"], strict=True) for v in pair)])
    return out.getvalue()


@blp.route(f"/<{GAME_ID}:game_id>/scoresheet")
class Scoresheet(MethodView):
    @_auth_docs
    @blp.response(200, ScoresheetSchema, example=ex.SCORESHEET_RESPONSE)
    @blp.alt_response(200, schema={"type": "string"}, content_type=CSV_TYPE, example=ex.SCORESHEET_CSV,
                      description="The score sheet: JSON by default; CSV with `Accept: text/csv` (a header "
                      "`round,<side>,<side> total,...` and one line per round).", success=True)
    @_problem_doc(406, "The Accept header allows neither application/json nor text/csv.")
    def get(self, game_id: int) -> Any:
        """Get the score sheet

        Rounds x sides with each round's scores and the running totals, as on paper. JSON by default;
        CSV with `Accept: text/csv` (header `round,Us,Us total,Them,Them total`, one line per round).
        """
        accept = flask.request.accept_mimetypes
        best = accept.best_match(["application/json", CSV_TYPE]) if accept else "application/json"
        if best is None:
            flask.abort(406)
        game = svc.get_game(get_db(), _actor(), game_id)
        sheet = scoresheet(game)
        if best == CSV_TYPE:
            response = flask.current_app.response_class(scoresheet_csv(sheet), mimetype=CSV_TYPE)
            response.headers["Content-Disposition"] = f'inline; filename="game-{game.id}-scoresheet.csv"'
            return response
        return sheet


def register_spec(api: Any) -> None:
    """The bearer-token security scheme the games operations use."""
    api.spec.components.security_scheme(
        "bearerAuth",
        {"type": "http", "scheme": "bearer",
         "description": "An API key from `flask --app api:create_app keys create NAME`. Needed on every games "
         "operation once the server has any key; not needed while it has none."},
    )
