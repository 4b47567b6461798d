"""The blueprint every resource uses: flask-smorest's, with this API's parsing, ETag and paging."""

from __future__ import annotations

import json
from typing import Any

import flask
import flask_smorest
from flask_smorest.utils import resolve_schema_instance
from werkzeug.exceptions import PreconditionFailed, PreconditionRequired

from handfoot.server.pagination import PageArgumentsParser, link_header
from handfoot.server.parsing import JSONBodyParser
from handfoot.server.problems import (
    ETAG_MOVED,
    IF_MATCH_NEEDED,
    IF_MATCH_REQUIRED,
    PROBLEM_CONTENT_TYPE,
    abort_problem,
    etag_mismatch,
)
from handfoot.server.schemas import ProblemSchema

#: The 401 of an operation that takes the games' API key.
_NO_KEY = (
    "This server has API keys and the request sent none, or an unknown or revoked one "
    "(problem type unauthorized; `WWW-Authenticate: Bearer`)."
)


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest ``Blueprint``: bodies read by :class:`~handfoot.server.parsing.JSONBodyParser`,
    ``page`` bounded (:mod:`handfoot.server.pagination`), an RFC 8288 ``Link`` header beside
    ``X-Pagination`` on paginated answers, and 412/428 problems naming ``If-Match``."""

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """flask-smorest's ``arguments`` with one schema instance per route: given a class, webargs built one
        (with every nested schema) per request, a third of a score request's time (docs/performance.md)."""
        return super().arguments(resolve_schema_instance(schema), *args, **kwargs)

    def documented_body(self, schema: Any, **kwargs: Any) -> Any:
        """Document ``schema`` as the request body as :meth:`arguments` does, without parsing: the view
        reads the body itself (``ARGUMENTS_PARSER.load_json``) for its one reader, the engine's."""
        documented = self.arguments(schema, **kwargs)

        def decorator(func: Any) -> Any:
            # What flask-smorest's doc reads (a copy: arguments() leaves func's own untouched); no parsing.
            func._apidoc = documented(func)._apidoc
            return func

        return decorator

    def problem(self, status: int, description: str, **kwargs: Any) -> Any:
        """Document a problem+json answer of ``status`` for the operation."""
        return self.alt_response(
            status, schema=ProblemSchema, content_type=PROBLEM_CONTENT_TYPE, description=description, **kwargs
        )

    def key_docs(self, func: Any) -> Any:
        """Document an operation that takes the games' API key: its 401, and the document's security."""
        return self.doc(security=[{"bearerAuth": []}, {}])(self.problem(401, _NO_KEY)(func))

    ARGUMENTS_PARSER = JSONBodyParser()
    PAGINATION_ARGUMENTS_PARSER = PageArgumentsParser()

    def _check_precondition(self) -> None:
        """428 without If-Match on PUT/PATCH/DELETE, naming the header and what to send."""
        try:
            super()._check_precondition()
        except PreconditionRequired:
            abort_problem(428, "Precondition Required", IF_MATCH_NEEDED, errors=[IF_MATCH_REQUIRED])

    def check_etag(self, etag_data: Any, etag_schema: Any = None) -> None:
        """412 on a stale If-Match, naming the header, the ETag sent and the current one."""
        try:
            super().check_etag(etag_data, etag_schema)
        except PreconditionFailed:
            if etag_schema is not None:
                etag_data = resolve_schema_instance(etag_schema).dump(etag_data)
            current = f'"{self._generate_etag(etag_data)}"'
            sent = flask.request.headers.get("If-Match", "")
            abort_problem(
                412, "Precondition Failed", ETAG_MOVED, errors=[etag_mismatch(sent, current)], headers={"ETag": current}
            )

    def _set_pagination_metadata(self, page_params: Any, result: Any, headers: Any) -> tuple[Any, Any]:
        result, headers = super()._set_pagination_metadata(page_params, result, headers)
        metadata = json.loads(headers[self.PAGINATION_HEADER_NAME])
        link = link_header(metadata, page_size=page_params.page_size)
        if link:
            headers["Link"] = link
        return result, headers

    def etag_sent(self, etag_data: Any) -> bool:
        """Whether the request's If-Match names the ETag of ``etag_data`` (no error either way)."""
        return bool(flask.request.if_match.contains(self._generate_etag(etag_data)))
