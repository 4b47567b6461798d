"""``/v1/tables`` (docs/tables.md): a table deals a stored game's rounds and takes each seat's actions.
A seat may wait for a change by long-poll or server-sent events, woken by the write that changes the
table through whichever API host it came (``handfoot.server.wakeups``).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

import flask
from flask.views import MethodView

from handfoot.server import auth, wakeups
from handfoot.server.auth import Actor, SeatActor
from handfoot.server.blueprint import Blueprint
from handfoot.server.db import get_db
from handfoot.server.idempotency import HEADER_DOC, RequestKey, idempotent
from handfoot.server.problems import abort_invalid_header
from handfoot.server.resources.games.routes import GAME_ID, LOCATION_HEADER, ROUND_NUMBER
from handfoot.server.resources.games.schemas import MAX_ID
from handfoot.server.secret import secret_key
from handfoot.server.security import SEAT_HEADER, no_store
from handfoot.server.services import tables as svc
from handfoot.server.services.errors import TableNotFoundError

from . import examples as ex
from . import serializers as doc
from . import view_spec, waits
from .schemas import (
    ACTION_SCHEMAS,
    MAX_ACTION_BODY_BYTES,
    ActionCreateSchema,
    EventsQueryArgsSchema,
    SeatViewQueryArgsSchema,
    SeatViewSchema,
    TableCreatedSchema,
    TableCreateSchema,
    TableRoundSchema,
    TableSchema,
    action_component,
)

#: Seconds between two keep-alive comments of an event stream.
KEEP_ALIVE_SECONDS = 15.0
EVENT_STREAM = "text/event-stream"
LAST_EVENT_ID = "Last-Event-ID"
_VERSION_TEXT = re.compile(r"[0-9]{1,10}")

blp = Blueprint(
    "Tables",
    __name__,
    url_prefix="/v1/tables",
    description="Tables where programs (or people) play Hand and Foot by the rules: a table deals a stored game's "
    "rounds, shows each seat only what its player may see, takes each seat's actions (with its secret "
    "`Seat-Token`) and stores every ended round in the game's history with its seed and action log. Creating "
    "a table and its public summary need the games' API key (once the server has keys).",
)

TABLE_ID = GAME_ID  # the same range: an SQL INTEGER

blp.after_request(no_store)  # a seat's answers hold its hand, a creation's the tokens

SEAT_TOKEN_DOC = {
    "name": SEAT_HEADER,
    "in": "header",
    "required": True,
    "schema": {"type": "string"},
    "description": "The seat's token, from the table's creation. A token that is not a seat of "
    "this table (or none) is a 404 `table_not_found`, as for an unknown table.",
}


_NO_SEAT = (
    "No such table, or the Seat-Token is missing or not one of its seats (`table_not_found`: the same answer "
    "either way)."
)
_WAITS_FULL = (
    "This client address, this table's owner (its API key, or the keyless tables) or this server "
    "process already has as many waiting requests as it allows (waits-full; `Retry-After`, longer "
    "while the process refuses many seats), or the database is unreachable (service-unavailable)."
)


def _seat_docs(func: Any) -> Any:
    return blp.doc(security=[{"seatToken": []}])(blp.problem(404, _NO_SEAT)(func))


def _created_table_visible(actor: Actor, answer: Any) -> None:
    """A replayed creation answers only while the table it created is there (else a 404)."""
    svc.get_table(get_db(), actor, int(answer["id"]))


@blp.route("")
class TableCollection(MethodView):
    @auth.authenticated
    @idempotent(replayed=_created_table_visible)
    @blp.key_docs
    @blp.arguments(TableCreateSchema, example=ex.TABLE_CREATE_REQUEST)
    @blp.response(201, TableCreatedSchema, example=ex.TABLE_CREATED, headers=LOCATION_HEADER)
    @blp.doc(parameters=[HEADER_DOC])
    @blp.problem(404, "`game` is not a game of this API key (not-found).")
    @blp.problem(
        409,
        "The game is over (game-finished), already has a table playing it (table-open), or the "
        "Idempotency-Key's first request is still running (idempotency-in-flight).",
    )
    def post(self, body: dict[str, Any], actor: Actor, request_key: RequestKey) -> Any:
        """Create a table

        A table dealing the next round of a new game (`name`, `preset`, `rules`, `teams`: as POST
        /v1/games, which this creates) or of the stored game `game` (in progress, and played at no
        other table). The answer holds each seat's secret token, in turn order: it is shown only
        here (the server keeps their hashes); a seat sends it as `Seat-Token`. `Idempotency-Key` is
        honoured: a replay gives the same answer, tokens included (kept with the key for its 24 hours).
        """
        idempotency_key = request_key(doc.created_answer)
        created = svc.create_table.run(get_db(), idempotency_key, actor, body, secret=secret_key())
        response = flask.jsonify(doc.created_doc(created))
        response.status_code = 201
        return response, {"Location": doc.table_location(created.table.id)}


@blp.route(f"/<{TABLE_ID}:table_id>")
class TableItem(MethodView):
    @auth.authenticated
    @blp.key_docs
    @blp.response(200, TableSchema, example=ex.TABLE)
    @blp.problem(404, "No table of this API key has this id (not-found).")
    def get(self, table_id: int, actor: Actor) -> dict[str, Any]:
        """Get a table

        The public summary: status, the round and phase, whose turn, each seat's card counts and each
        side's score before the round. No card.
        """
        return doc.summary_doc(svc.get_table(get_db(), actor, table_id))


@blp.route(f"/<{TABLE_ID}:table_id>/view")
class SeatView(MethodView):
    @auth.seated
    @_seat_docs
    @blp.arguments(SeatViewQueryArgsSchema, location="query")
    @blp.response(200, SeatViewSchema, example=ex.SEAT_VIEW)
    @blp.doc(parameters=[SEAT_TOKEN_DOC])
    @blp.problem(503, _WAITS_FULL)
    def get(self, args: dict[str, Any], table_id: int, actor: SeatActor) -> dict[str, Any]:
        """Get a seat's view

        What the seat may see now: its hand, its foot's size, every side's melds, the pile's top,
        counts of the rest, and `view.actions`, the actions open to it (empty: not its move). With
        `version` and `wait`, a long-poll: the answer waits until the table's version is not
        `version`, or `wait` seconds pass, or the seat waits again (the new wait replaces this one:
        200 each way).
        """
        db, version = get_db(), args.get("version")
        if version is None or args["wait"] <= 0:
            return doc.seat_view_doc(svc.get_table(db, actor, table_id), actor.seat)
        deadline = time.monotonic() + args["wait"]
        db.end_session()  # no transaction held while waiting (a PostgreSQL one would hold its locks)
        with wakeups.watch(db, table_id) as waiter:  # before the first read: no change goes unheard
            due = _due_if_unchanged(db, table_id, version)
            if due is not _CHANGED:
                # admitted or refused on the table's version alone: a refused wait decodes no table
                with waits.admit(actor) as ticket:
                    _wait_for_change(db, table_id, version, deadline, ticket, waiter, due)
        return doc.seat_view_doc(svc.get_table(db, actor, table_id, fresh=True), actor.seat)


_CHANGED: Any = object()  # _due_if_unchanged's "no wait"


def _due_if_unchanged(db: Any, table_id: int, version: int) -> Any:
    """The table's due answer (a datetime, or ``None``) while it is still at ``version``, playing,
    with no answer due yet; else :data:`_CHANGED`."""
    current, status, due = svc.poll(db, table_id)
    return _CHANGED if current != version or status != "playing" or svc.answer_is_due(due) else due


def _wait_for_change(
    db: Any, table_id: int, version: int, deadline: float, ticket: waits.Ticket, waiter: wakeups.Waiter, due: Any
) -> None:
    """Return once the table's version is not ``version``, an answer falls due, ``deadline``, or the
    seat's next wait supersedes this one; woken by the change (``waiter``), not by polling."""
    _wake_superseded(db, table_id, ticket)
    while (left := deadline - time.monotonic()) > 0:
        waiter.wait(_until(left, due))
        if ticket.superseded.is_set():
            return
        due = _due_if_unchanged(db, table_id, version)
        if due is _CHANGED:
            return


def _wake_superseded(db: Any, table_id: int, ticket: waits.Ticket) -> None:
    """The seat's wait that ``ticket`` replaced sees it when woken: wake the table's waiters here."""
    if ticket.replaced:
        wakeups.of(db).hub.notify([table_id])


def _until(left: float, due: Any) -> float:
    """Seconds a waiter sleeps: ``left``, but no later than a due answer or the safety re-read."""
    wait = min(left, wakeups.SAFETY_SECONDS)
    if due is not None:
        wait = min(wait, max(0.0, (due - svc.now()).total_seconds()))
    return wait


@blp.route(f"/<{TABLE_ID}:table_id>/events")
class SeatEvents(MethodView):
    @auth.seated
    @_seat_docs
    @blp.arguments(EventsQueryArgsSchema, location="query")
    @blp.response(
        200,
        content_type=EVENT_STREAM,
        description="Server-sent events: `id: <table version>`, "
        "`event: view`, `data: <SeatView JSON>`, at once and after every change; a comment line "
        "every 15 s.",
    )
    @blp.doc(
        parameters=[
            SEAT_TOKEN_DOC,
            {
                "name": LAST_EVENT_ID,
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": "^[0-9]{0,10}$"},
                "description": "The last event's id (a table version, 0 to 2147483647, in decimal digits; empty: "
                "none): the stream sends the current view only if the table has moved on since. Anything else is "
                "a 422 `invalid_value` naming the header.",
            },
        ]
    )
    @blp.problem(503, _WAITS_FULL)
    def get(self, args: dict[str, Any], table_id: int, actor: SeatActor) -> Any:
        """Stream a seat's views

        Server-sent events (`text/event-stream`): the seat's view (a SeatView, as GET .../view) at
        once and after every change of the table, each with `id:` the table's version. `Last-Event-ID`
        resumes: the current view is sent only if it is newer. The stream ends when the table is
        finished or deleted (with its game), or after `wait` seconds, or when the seat waits again
        (a long-poll or another stream replaces it); clients reconnect. It is woken by every change,
        made through any API host.
        """
        seen = _last_event_id()
        db, seat = get_db(), actor.seat
        # A seat already known to this process (auth.seat_named) is not read again: a table deleted
        # with its game is a 404 here, before the stream begins.
        svc.poll(db, table_id)
        db.end_session()  # no transaction held while the stream runs
        deadline = time.monotonic() + args["wait"]
        admitted = contextlib.ExitStack()
        ticket = admitted.enter_context(waits.admit(actor))  # a 503 here, before the stream

        def events() -> Iterator[str]:
            nonlocal seen
            beat = time.monotonic()
            with wakeups.watch(db, table_id) as waiter:  # before each read: no change goes unheard
                _wake_superseded(db, table_id, ticket)
                while not ticket.superseded.is_set():
                    try:
                        current, status, due = svc.poll(db, table_id)
                        fresh = current != seen or svc.answer_is_due(due)
                        data = svc.get_table(db, actor, table_id, fresh=True) if fresh else None
                    except TableNotFoundError:  # its game was deleted: the stream ends, as a finished one does
                        return
                    if data is not None:
                        db.end_session()  # no transaction held between events
                        status = data.status
                        if data.version != seen:
                            seen = data.version
                            beat = time.monotonic()
                            yield doc.sse_event(doc.seat_view_doc(data, seat))
                    if status != "playing" or time.monotonic() >= deadline:
                        return
                    if time.monotonic() - beat >= KEEP_ALIVE_SECONDS:
                        beat = time.monotonic()
                        yield ": keep-alive\n\n"
                    now = time.monotonic()
                    waiter.wait(_until(min(deadline - now, KEEP_ALIVE_SECONDS - (now - beat)), due))

        response = flask.Response(flask.stream_with_context(events()), mimetype=EVENT_STREAM)
        response.call_on_close(admitted.close)  # the wait ends with the response, sent or not
        response.headers["X-Accel-Buffering"] = "no"  # a buffering proxy would hold the events back
        return response


def _last_event_id() -> int | None:
    """The request's ``Last-Event-ID`` as a table version (``None``: absent or empty, as the SSE
    standard resets it); a 422 ``invalid_value`` naming the header for anything but a version."""
    sent = flask.request.headers.get(LAST_EVENT_ID, "").strip()
    if not sent:
        return None
    if not _VERSION_TEXT.fullmatch(sent) or int(sent) > MAX_ID:
        detail = f"{LAST_EVENT_ID}: the id of an event of this stream (a table version, 0 to {MAX_ID})"
        abort_invalid_header(LAST_EVENT_ID, detail)
    return int(sent)


@blp.route(f"/<{TABLE_ID}:table_id>/actions")
class ActionCollection(MethodView):
    max_body_bytes = MAX_ACTION_BODY_BYTES  # a bigger body is a 413 (handfoot.server.parsing.body_limit)

    @auth.seated
    @idempotent
    @_seat_docs
    @blp.arguments(ActionCreateSchema, example=ex.ACTION_REQUEST)
    @blp.response(200, SeatViewSchema, example=ex.SEAT_VIEW)
    @blp.doc(parameters=[SEAT_TOKEN_DOC, HEADER_DOC])
    @blp.problem(
        409,
        "`version` is not the table's (version-moved; `version` is the current one), the game is "
        "over (table-finished), or the Idempotency-Key's first request is still running.",
    )
    def post(self, body: dict[str, Any], table_id: int, actor: SeatActor, request_key: RequestKey) -> Any:
        """Take an action

        The seat's action (the engine's, without `seat`: the token says it) on the table's
        `version`. Two actions on one version: one is taken, the other is a 409 `version_moved`.
        An action the rules refuse is a 422 naming each rule broken with the checks' codes, its
        pointers into `action` (e.g. `/action/melds/0/2`); nothing is stored. An action that ends
        the round scores it (as POST /v1/rounds/score), stores it in the game's history with its
        seed and log, and deals the next round unless the game has ended. The answer is the
        seat's view after it. `Idempotency-Key` is honoured (per seat).
        """
        answer = doc.SeatViewAnswer(actor.seat)
        version, action = body["version"], body["action"]
        data = svc.act.run(get_db(), request_key(answer), table_id, actor.seat, version, action, secret=secret_key())
        return answer.response(data)


@blp.route(f"/<{TABLE_ID}:table_id>/rounds/<{ROUND_NUMBER}:number>")
class TableRound(MethodView):
    @auth.seat_or_key
    @blp.response(200, TableRoundSchema, example=ex.TABLE_ROUND)
    @blp.doc(security=[{"seatToken": []}, {"bearerAuth": []}, {}])
    @blp.problem(
        401,
        "Without a Seat-Token: this server has API keys and the request sent none, or an unknown "
        "or revoked one (problem type unauthorized; `WWW-Authenticate: Bearer`).",
    )
    @blp.problem(404, "No such table for this API key or Seat-Token, or no such round ended at it.")
    @blp.problem(409, "The round is still in play (round-in-play): its log would show cards.")
    def get(self, table_id: int, number: int, actor: Actor) -> dict[str, Any]:
        """Get an ended round of a table

        A round ended at this table, public: its seed, why it ended, every action in order (with
        the seed, they replay the round), the score, and the round in the game's history. With a
        Seat-Token or the API key.
        """
        db = get_db()
        data = svc.get_table(db, actor, table_id)
        summary, actions = svc.round_log(db, data, number)
        return doc.round_doc(data, summary, actions)


def register_spec(api: Any) -> None:
    """The seat-token security scheme the seat operations use, and each action type's schema (an
    action's ``oneOf``)."""
    for kind, schema in ACTION_SCHEMAS.items():
        api.spec.components.schema(action_component(kind), schema=schema)
    for name, component in view_spec.open_action_components({k: action_component(k) for k in ACTION_SCHEMAS}).items():
        api.spec.components.schema(name, component)
    api.spec.components.schema(view_spec.SEAT_VIEW_BODY, view_spec.seat_view_body())
    api.spec.components.security_scheme(
        "seatToken",
        {
            "type": "apiKey",
            "in": "header",
            "name": SEAT_HEADER,
            "description": "A seat's token, shown once when the table is created.",
        },
    )
