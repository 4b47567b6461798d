"""Request bodies: the JSON parser the blueprints read bodies with, and the body as sent."""

from __future__ import annotations

import json
from typing import Any

import flask
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from handfoot.server import problems


class JSONBodyParser(FlaskParser):  # type: ignore[misc]
    """webargs' Flask parser, hardened at the point where a body becomes JSON.

    - A body that ``json.loads`` cannot turn into a value for any reason is a 400 malformed-json:
      besides syntax errors (which webargs handles), nesting past the interpreter's recursion limit
      (``RecursionError``) and integers longer than Python's 4,300-digit conversion limit
      (``ValueError``), which would otherwise escape as a 500 (:func:`decode_json`).
    - A non-empty body whose Content-Type is not JSON (``application/json`` or ``*+json``) is a 415
      unsupported-media-type, instead of being ignored and reported as missing members.
    """

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            if req.content_length or req.get_data(cache=True):
                problems.abort_problem(
                    415, "Unsupported media type",
                    f"The body must be JSON (Content-Type: application/json), not {req.mimetype or 'untyped'}.",
                    errors=[{"parameter": "Content-Type", "code": "invalid_value",
                             "detail": "expected application/json"}])
            return core.missing
        parsed = decode_json(req.get_data(cache=True))
        flask.g.handfoot_body = parsed  # the body as sent, for the routes that store it: body_as_sent()
        return parsed


def decode_json(data: bytes) -> Any:
    """Untrusted bytes as a JSON value, or ``json.JSONDecodeError`` whatever went wrong (the one
    error its callers catch, each answering a 4xx): syntax, bytes that are not UTF-8
    (``UnicodeDecodeError``), nesting past the interpreter's recursion limit (``RecursionError``),
    an integer longer than Python's 4,300-digit conversion limit (``ValueError``). Used by the body
    parser and by the Idempotency-Key's fingerprint (api/idempotency.py)."""
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
