"""JSON encoding for answers and stored columns, by orjson (much faster than ``json``:
docs/performance.md); stored columns are read by it too (:func:`loads`). Request bodies are decoded
by the standard library (through webargs: orjson reads an integer beyond 64 bits as a float).

What orjson does not encode (datetimes, decimals, integers beyond 64 bits) goes through the
standard library.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import DefaultJSONProvider

#: Datetimes and dataclasses go to ``default`` (Flask's rules), not orjson's own formats.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text (a stored column's value); the standard library for what orjson
    refuses (e.g. an integer beyond 64 bits)."""
    try:
        return orjson.dumps(obj).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(obj, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """A stored column's JSON value. Every value stored was written by this server from a checked
    body, within 64 bits (the bodies' limits, ``handfoot.engine.bodies``), where orjson and the
    standard library read the same values."""
    return orjson.loads(text)


def json_response(obj: Any, status: int = 200) -> Response:
    """``obj`` (plain JSON data) as an ``application/json`` response encoded once: ``jsonify``'s bytes
    (its final newline too) without orjson's text round trip."""
    try:
        data = orjson.dumps(obj)
    except (orjson.JSONEncodeError, TypeError):
        data = json.dumps(obj, separators=(",", ":")).encode()
    return current_app.response_class(data + b"\n", status=status, mimetype="application/json")


class JSONProvider(DefaultJSONProvider):
    """Flask's default provider, encoding with orjson; indented output (debug), ``sort_keys``, ``loads``
    and what orjson refuses take Flask's own path."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if not kwargs.get("indent") and not kwargs.get("sort_keys", self.sort_keys):
            try:
                return orjson.dumps(obj, default=kwargs.get("default", self.default), option=_OPTIONS).decode()
            except (orjson.JSONEncodeError, TypeError):
                pass
        return super().dumps(obj, **kwargs)
