"""Request bodies: the JSON parser the blueprints read bodies with, and the body as sent."""

from __future__ import annotations

import json
from typing import Any

import flask
import marshmallow as ma
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from handfoot.server import problems


def body_limit() -> int | None:
    """The largest body (bytes) the request's operation takes: the app's ``MAX_CONTENT_LENGTH``
    (``HANDFOOT_MAX_BODY_BYTES``), or less where the operation's view class sets ``max_body_bytes``
    (a seat's action: ``handfoot.server.resources.tables``). ``None``: no limit."""
    limit = flask.request.max_content_length
    view = flask.current_app.view_functions.get(flask.request.endpoint or "")
    own: int | None = getattr(getattr(view, "view_class", view), "max_body_bytes", None)
    if own is None:
        return limit
    return own if limit is None else min(own, limit)


class JSONBodyParser(FlaskParser):
    """webargs' Flask parser, hardened where a body becomes JSON (:meth:`load_json`)."""

    def load_json(self, req: flask.Request, schema: ma.Schema | None = None) -> Any:
        """The request's JSON body as sent, decoded once, ``core.missing`` when it is empty: a
        non-empty body that is not JSON (``application/json``, ``*+json``) is a 415
        unsupported-media-type rather than missing members; anything ``json.loads`` cannot decode
        (syntax, bytes not UTF-8, nesting past the recursion limit, an integer past Python's 4,300
        digits) a 400 malformed-json; a body past the count limits (:func:`check_counts`) a 413
        body-too-large. The schema (unused) is webargs' argument: a view reading its body for the
        engine's reader calls this with none."""
        if not is_json_request(req):
            if req.content_length or req.get_data(cache=True):
                detail = problems.not_json_detail(req.mimetype or "untyped")
                problems.abort_problem(415, "Unsupported media type", detail, errors=[problems.NOT_JSON])
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        try:  # first: a body that is not JSON is a 400 whatever its counts
            parsed = json.loads(data.decode())
        except (RecursionError, ValueError) as err:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            reason = f"not decodable as JSON ({type(err).__name__})"
            self._handle_invalid_json_error(json.JSONDecodeError(reason, "<body>", 0), req)
        try:
            check_counts(data)
        except BodyTooComplexError as err:
            problems.abort_problem(
                413,
                "Body too complex",
                f"The request body is too complex: {err}.",
                type_slug="body-too-large",
                errors=[{"pointer": "", "code": "body_too_complex", "detail": str(err)}],
            )
        flask.g.handfoot_body = parsed  # the body as sent, for the routes that store it: body_as_sent()
        return parsed


def body_as_sent() -> Any:
    """The request's JSON body as parsed once by :class:`JSONBodyParser` (the schemas copy what they
    load and never change it), else parsed now by Flask."""
    if "handfoot_body" in flask.g:
        return flask.g.handfoot_body
    return flask.request.get_json()


#: The most JSON values (objects, lists, strings, numbers, booleans, nulls) a body may hold: more than
#: the card strings of every meld and hand of four sides at the schema's list limits (60 melds of 200
#: cards a side, ``handfoot.server.schemas``), far more than a game's decks hold.
MAX_BODY_VALUES = 50_000
#: The most JSON objects: each is a schema's load (a side, a player, a tally, a contract). A round of
#: the schema's 12 sides of 8 players with house rules holds a few hundred.
MAX_BODY_OBJECTS = 1_000


class BodyTooComplexError(ValueError):
    """A body past :data:`MAX_BODY_VALUES` or :data:`MAX_BODY_OBJECTS`."""


def check_counts(data: bytes) -> None:
    """Raise :class:`BodyTooComplexError` when the JSON text ``data`` may hold more values or objects than
    the limits allow, counted on the bytes: a body holds at most one value more than its ``,``, ``[``
    and ``{`` (those inside strings count too: it errs towards refusing, far above any real request)."""
    # Each byte counted is a byte of the body: a body too short to reach a limit is not counted for it.
    if len(data) <= MAX_BODY_OBJECTS:
        return
    objects = data.count(b"{")
    if objects > MAX_BODY_OBJECTS:
        raise BodyTooComplexError(f"more than {MAX_BODY_OBJECTS} JSON objects")
    if len(data) + 1 > MAX_BODY_VALUES and objects + data.count(b"[") + data.count(b",") + 1 > MAX_BODY_VALUES:
        raise BodyTooComplexError(f"more than {MAX_BODY_VALUES} JSON values")
