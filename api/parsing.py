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
    """webargs' Flask parser, hardened where a body becomes JSON: anything ``json.loads`` cannot decode is
    a 400 malformed-json (:func:`decode_json`), a body past the count limits a 413 body-too-large
    (:func:`check_counts`), and a non-empty body that is not JSON (``application/json``, ``*+json``) a
    415 unsupported-media-type rather than missing members."""

    def read_body(self, schema: ma.Schema) -> Any:
        """The request's JSON body as sent, checked as every body is (415, 400, 413 above) and not
        loaded: what webargs would hand ``schema`` (``{}`` when there is none)."""
        data = self.load_json(flask.request, schema)
        return {} if data is core.missing else data

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            if req.content_length or req.get_data(cache=True):
                detail = problems.not_json_detail(req.mimetype or "untyped")
                problems.abort_problem(415, "Unsupported media type", detail, errors=[problems.NOT_JSON])
            return core.missing
        data = req.get_data(cache=True)
        parsed = decode_json(data)  # first: a body that is not JSON is a 400 whatever its counts
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


def decode_json(data: bytes) -> Any:
    """Untrusted bytes as a JSON value, or ``json.JSONDecodeError`` whatever went wrong: syntax, bytes not
    UTF-8, nesting past the recursion limit, an integer past Python's 4,300 digits. Used by the body
    parser and the Idempotency-Key's fingerprint."""
    try:
        return core.parse_json(data)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as err:  # UnicodeDecodeError is a ValueError
        raise json.JSONDecodeError(f"not decodable as JSON ({type(err).__name__})", "<body>", 0) from None


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
