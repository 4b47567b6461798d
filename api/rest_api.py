"""The app's flask-smorest ``Api``: it documents the API (every error response as RFC 9457
``application/problem+json``) and sends every HTTP error, and every unhandled exception as a 500,
as a problem (``api/problems.py``)."""

from __future__ import annotations

import http
from typing import Any

import flask
import flask_smorest
from apispec import BasePlugin
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from handfoot.server import problems
from handfoot.server.pagination import PAGINATION_HEADER, PageLimitPlugin
from handfoot.server.parsing import body_limit
from handfoot.server.problems import (
    PROBLEM_CONTENT_TYPE,
    VALIDATION_TITLE,
    ProblemHTTPException,
    count_phrase,
    flatten_messages,
    make_problem,
    problem_response,
)
from handfoot.server.schemas import ProblemSchema
from handfoot.server.spec import (
    SpecFinishingPlugin,
    add_headers,
    component_headers,
    problem_example,
    register_headers,
)


class ErrorResponsesPlugin(BasePlugin):
    """Lists in every operation the problems any request to it can get: 400, 413 and 415 with a body, 404
    with path parameters, 429 on ``/v1``, 503 on games, 500 always (a view's own are kept). 405 is not
    listed: generated clients read it as an answer of the operation."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            responses = operation.setdefault("responses", {})
            wanted = ["500"]
            if method in ("post", "put", "patch"):
                wanted += ["400", "413", "415"]
            if "{" in (path or "") or "<" in (path or ""):
                wanted.append("404")
            if (path or "").startswith("/v1/"):
                wanted.append("429")  # when the server has a rate limit (HANDFOOT_RATE_LIMIT)
            if (path or "").startswith("/v1/games"):
                wanted += ["503"]
            for status in wanted:
                responses.setdefault(status, http.HTTPStatus(int(status)).name)


class Api(flask_smorest.Api):  # type: ignore[misc]
    """flask-smorest ``Api`` sending and documenting RFC 9457 ``application/problem+json``."""

    ERROR_SCHEMA = ProblemSchema

    def _init_spec(self, *, extra_plugins: Any = None, **kwargs: Any) -> None:
        super()._init_spec(
            extra_plugins=[*(extra_plugins or ()), ErrorResponsesPlugin(), PageLimitPlugin(), SpecFinishingPlugin()],
            **kwargs,
        )
        register_headers(self.spec)

    def _register_pagination_header(self) -> None:
        """``X-Pagination`` documented as the JSON text it is (:data:`PAGINATION_HEADER`)."""
        self.spec.components.header("PAGINATION", PAGINATION_HEADER, lazy=True)

    def _register_error_handlers(self) -> None:
        super()._register_error_handlers()
        problems.register_error_handlers(self._app)

    def _register_responses(self) -> None:
        """Document every error response (and the default one) as ``application/problem+json``."""
        shared = [(status.name, status.phrase, status) for status in http.HTTPStatus]
        for name, description, status in [*shared, (self.DEFAULT_ERROR_RESPONSE_NAME, "Default error response", 500)]:
            response: dict[str, Any] = {"description": description}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
                response["example"] = problem_example(status)
                prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            add_headers(response, component_headers(status))
            self.spec.components.response(name, response, lazy=True)

    def handle_http_exception(self, error: HTTPException) -> Response:
        """Every ``HTTPException`` (and unhandled exceptions, as 500) → problem+json."""
        status = error.code or 500
        headers: dict[str, str] = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        if status < 400:  # e.g. 304 Not Modified from flask-smorest's ETag support
            response = error.get_response()
            response.headers.update(_data_headers(error))
            return response

        if isinstance(error, ProblemHTTPException):
            headers.update(error.extra_headers)
            return problem_response(error.problem, headers)

        data = getattr(error, "data", None) or {}
        headers.update(_data_headers(error))
        errors: list[dict[str, str]] = []
        detail: str | None = None
        type_slug: str | None = None
        title: str | None = None

        if isinstance(data.get("errors"), list):
            errors = list(data["errors"])
        elif "messages" in data or "errors" in data:
            errors = flatten_messages(data.get("messages", data.get("errors")))

        if status == 400 and any(e["code"] == "malformed_json" for e in errors):
            type_slug, title = "malformed-json", "Malformed JSON"
            detail = "The request body is not valid JSON."
        elif status == 422 and errors:
            type_slug, title = "validation-error", VALIDATION_TITLE
            detail = count_phrase(len(errors))
        elif status == 413:
            limit = body_limit()
            detail = f"The request body is larger than the limit of {limit} bytes."
        elif status == 429:
            who = "seat" if flask.g.get("rate_limit_seat") else "API key or address"
            detail = (
                f"Too many requests for this {who} (limit: {error.description}); "
                "retry after the Retry-After header's seconds."
            )
        elif status >= 500:
            detail = "The server hit an unexpected error. It has been logged."
        if isinstance(data.get("message"), str):
            detail = data["message"]
        if detail is None:
            detail = error.description

        problem = make_problem(status, title, detail, errors=errors, type_slug=type_slug)
        return problem_response(problem, headers)


def _data_headers(error: HTTPException) -> dict[str, str]:
    data = getattr(error, "data", None) or {}
    return dict(data.get("headers") or {})
