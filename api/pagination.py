"""Paginated lists: ``page`` bounded by :data:`MAX_PAGE`, and the RFC 8288 ``Link`` header.

flask-smorest's ``Blueprint.paginate`` keeps ``page``/``page_size`` and ``X-Pagination`` (documented
by flask-smorest). Its ``page`` has no upper bound; unbounded, a page like 92233720368547760 made an
OFFSET past 64 bits: a 500 from both drivers (found by schemathesis). Two public hooks bound it:
the blueprint's ``PAGINATION_ARGUMENTS_PARSER`` (:class:`PageArgumentsParser`, a 422 naming
``page``) and an apispec plugin (:class:`PageLimitPlugin`, the documented ``maximum``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import flask
import marshmallow as ma
from apispec import BasePlugin
from flask_smorest.pagination import PaginationMetadataSchema
from webargs.flaskparser import FlaskParser

#: The highest ``page`` a paginated list accepts (documented; 422 past it).
MAX_PAGE = 1_000_000


#: The ``X-Pagination`` header as sent: JSON text of the page's metadata (flask-smorest's own
#: document gives it an object schema, which a header's string value never matches).
PAGINATION_HEADER: dict[str, Any] = {
    "description": "The page's metadata as JSON text, e.g. "
    '`{"total": 41, "total_pages": 3, "first_page": 1, "last_page": 3, "page": 1, "next_page": 2}`.',
    "content": {"application/json": {"schema": PaginationMetadataSchema}},
}


def _page_in_range(params: Any) -> None:
    if params.page > MAX_PAGE:
        raise ma.ValidationError(f"Must be greater than or equal to 1 and less than or equal to {MAX_PAGE}.",
                                 field_name="page")


class PageArgumentsParser(FlaskParser):  # type: ignore[misc]
    """The parser of ``page``/``page_size``: webargs' own, refusing a ``page`` past :data:`MAX_PAGE`."""

    def parse(self, argmap: Any, req: Any = None, *, validate: Any = None, **kwargs: Any) -> Any:
        validators = [] if validate is None else list(validate) if isinstance(validate, list | tuple) else [validate]
        return super().parse(argmap, req, validate=[*validators, _page_in_range], **kwargs)


class PageLimitPlugin(BasePlugin):  # type: ignore[misc]
    """Documents :data:`MAX_PAGE` as the ``maximum`` of every operation's ``page`` query parameter
    (runs after the marshmallow plugin, which has turned the pagination schema into parameters)."""

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None,
                         **kwargs: Any) -> None:
        for operation in (operations or {}).values():
            for parameter in operation.get("parameters", []):
                if isinstance(parameter, dict) and parameter.get("in") == "query" and parameter.get("name") == "page":
                    parameter.setdefault("schema", {})["maximum"] = MAX_PAGE


def link_header(metadata: Mapping[str, Any], *, page_size: int) -> str:
    """``Link`` header value for flask-smorest pagination ``metadata`` in the current request:
    absolute URLs with ``rel`` ``first``, ``prev``, ``next`` and ``last``, keeping the other query
    arguments."""
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
        links.append(f'<{request.base_url}?{urlencode(args)}>; rel="{rel}"')
    return ", ".join(links)
