"""Paginated lists: ``page`` bounded by :data:`MAX_PAGE` (flask-smorest's is unbounded, and a huge
one made an OFFSET past 64 bits: a 500), the RFC 8288 ``Link`` header, and the opaque cursors of
keyset pagination (the games list: :func:`encode_cursor`, :func:`decode_cursor`).
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import flask
import marshmallow as ma
from apispec import BasePlugin
from flask_smorest import pagination as smorest_pagination
from webargs.flaskparser import FlaskParser

from handfoot.server.secret import sign

#: The highest ``page`` a paginated list accepts (documented; 422 past it).
MAX_PAGE = 1_000_000


class PaginationMetadataSchema(smorest_pagination.PaginationMetadataSchema):  # type: ignore[misc]
    """flask-smorest's page metadata, with the members it always sends marked ``required``: ``total``
    and ``total_pages`` (the page numbers are left out of an empty list, ``previous_page`` and
    ``next_page`` at the ends: ``Blueprint._make_pagination_metadata``)."""

    total = ma.fields.Int(required=True, metadata={"description": "Total number of items."})
    total_pages = ma.fields.Int(required=True, metadata={"description": "Total number of pages."})


#: The ``X-Pagination`` header as sent: JSON text of the page's metadata (flask-smorest's own
#: document gives it an object schema, which a header's string value never matches).
PAGINATION_HEADER: dict[str, Any] = {
    "description": "The page's metadata as JSON text, e.g. "
    '`{"total": 41, "total_pages": 3, "first_page": 1, "last_page": 3, "page": 1, "next_page": 2}`.',
    "content": {"application/json": {"schema": PaginationMetadataSchema}},
}


def _page_in_range(params: Any) -> None:
    if params.page > MAX_PAGE:
        raise ma.ValidationError(
            f"Must be greater than or equal to 1 and less than or equal to {MAX_PAGE}.", field_name="page"
        )


class PageArgumentsParser(FlaskParser):
    """The parser of ``page``/``page_size``: webargs' own, refusing a ``page`` past :data:`MAX_PAGE`."""

    def parse(self, argmap: Any, req: Any = None, *, validate: Any = None, **kwargs: Any) -> Any:
        validators = [] if validate is None else list(validate) if isinstance(validate, list | tuple) else [validate]
        return super().parse(argmap, req, validate=[*validators, _page_in_range], **kwargs)


class PageLimitPlugin(BasePlugin):
    """Documents :data:`MAX_PAGE` as the ``maximum`` of every operation's ``page`` query parameter
    (runs after the marshmallow plugin, which has turned the pagination schema into parameters)."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for operation in (operations or {}).values():
            for parameter in operation.get("parameters", []):
                if isinstance(parameter, dict) and parameter.get("in") == "query" and parameter.get("name") == "page":
                    parameter.setdefault("schema", {})["maximum"] = MAX_PAGE


def link_header(metadata: Mapping[str, Any], *, page_size: int) -> str:
    """``Link`` for flask-smorest pagination ``metadata``: ``first``, ``prev``, ``next``, ``last``."""
    rels = (
        ("first", metadata.get("first_page")),
        ("prev", metadata.get("previous_page")),
        ("next", metadata.get("next_page")),
        ("last", metadata.get("last_page")),
    )
    request = flask.request
    links = []
    for rel, page in rels:
        if page is None:
            continue
        args = [(k, v) for k, v in request.args.items(multi=True) if k not in ("page", "page_size")]
        args += [("page", str(page)), ("page_size", str(page_size))]
        links.append(f'<{page_url()}?{urlencode(args)}>; rel="{rel}"')
    return ", ".join(links)


def page_url() -> str:
    """This request's URL without its query, for a ``Link``: on the server's public URL
    (``HANDFOOT_PUBLIC_URL``) where one is configured, so a forged ``Host`` header never makes the
    links point elsewhere; else as the request reached the server."""
    request = flask.request
    public = flask.current_app.config.get("PUBLIC_URL")
    return f"{public.rstrip('/')}{request.path}" if public else request.base_url


# --------------------------------------------------------------------------------------------
# Keyset (cursor) pagination: the games list


class CursorError(ValueError):
    """A ``cursor`` this server did not give (or a damaged one)."""


#: What the server signs a cursor for (:func:`handfoot.server.secret.sign`'s purpose).
CURSOR_PURPOSE = "handfoot-games-cursor"
#: Bytes of the HMAC a cursor carries (128 bits: a forger's guess is right once in 2**128).
CURSOR_MAC_BYTES = 16


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_cursor(created_at: datetime, row_id: int, key: bytes) -> str:
    """The opaque ``cursor`` after the row ``(created_at, row_id)`` of a newest-first list: base64url of
    ``<ISO 8601 UTC>|<id>``, a ``.``, and base64url of the first :data:`CURSOR_MAC_BYTES` bytes of its
    HMAC-SHA256 with the server's secret ``key``. Clients must not build or read one."""
    raw = f"{created_at.astimezone(UTC).isoformat()}|{row_id}".encode()
    return f"{_b64(raw)}.{_b64(sign(key, CURSOR_PURPOSE, raw)[:CURSOR_MAC_BYTES])}"


def decode_cursor(cursor: str, *, max_id: int, key: bytes) -> tuple[datetime, int]:
    """The ``(created_at, id)`` (UTC) of a cursor :func:`encode_cursor` signed with ``key``; raises
    :class:`CursorError` for anything else (altered, another key's, an id outside 1 to ``max_id``)."""
    if not cursor or len(cursor) > MAX_CURSOR_LENGTH:
        raise CursorError("not a cursor of this list")
    body, _, mac = cursor.partition(".")
    try:
        raw = _unb64(body)
        if not hmac.compare_digest(_unb64(mac), sign(key, CURSOR_PURPOSE, raw)[:CURSOR_MAC_BYTES]):
            raise CursorError("not a cursor of this list")
        instant, _, ident = raw.decode("ascii").partition("|")
        moment = datetime.fromisoformat(instant)
        row_id = int(ident) if ident.isdigit() and len(ident) <= 10 else 0
        if moment.tzinfo is None or not 1 <= row_id <= max_id:
            raise CursorError("not a cursor of this list")
        return moment.astimezone(UTC), row_id
    except (ValueError, OverflowError, UnicodeDecodeError, binascii.Error) as exc:  # year 1 at +01:00 overflows
        raise CursorError("not a cursor of this list") from exc


#: Longer than any cursor :func:`encode_cursor` makes (about 85 characters).
MAX_CURSOR_LENGTH = 200


def cursor_link_header(next_cursor: str | None, *, page_size: int) -> str:
    """``Link`` of a keyset page: ``first`` (no cursor) and, unless last, ``next`` (``cursor=next_cursor``);
    the deprecated ``page`` dropped."""
    request = flask.request
    args = [(k, v) for k, v in request.args.items(multi=True) if k not in ("page", "page_size", "cursor")]
    base = [*args, ("page_size", str(page_size))]
    url = page_url()
    links = [f'<{url}?{urlencode(base)}>; rel="first"']
    if next_cursor is not None:
        links.append(f'<{url}?{urlencode([*base, ("cursor", next_cursor)])}>; rel="next"')
    return ", ".join(links)
