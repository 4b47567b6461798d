"""flask-smorest subclasses: problem+json errors (``Api``), RFC 8288 ``Link`` paging.

``Api.handle_http_exception`` turns every ``HTTPException`` (and, through Flask, every unhandled
exception as a 500) into an RFC 9457 problem document; see ``api/problems.py`` for its shape.
webargs' validation messages (nested dicts keyed by field names and list indexes, under the
location) are flattened into ``errors`` items with JSON Pointers and a code from
:data:`SCHEMA_ERROR_CODES`.
"""

from __future__ import annotations

import http
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import flask
import flask_smorest
import marshmallow as ma
from apispec import BasePlugin
from flask_smorest import pagination as smorest_pagination
from flask_smorest.utils import prepare_response, resolve_schema_instance
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import HTTPException, PreconditionFailed, PreconditionRequired
from werkzeug.wrappers import Response

from handfoot.server import problems
from handfoot.server.problems import (
    PROBLEM_CONTENT_TYPE,
    ProblemHTTPException,
    ProblemSchema,
    abort_problem,
    json_pointer,
    make_problem,
    problem_response,
)

#: The codes of schema (422) and JSON (400) errors in ``errors[].code``. Stable: clients may
#: switch on them. Rule problems use the engine's codes (``handfoot.engine.errors.PROBLEM_CODES``).
SCHEMA_ERROR_CODES: dict[str, str] = {
    "malformed_json": "The body is not valid JSON, or not UTF-8 (400).",
    "required": "A required member or parameter is missing.",
    "unknown_field": "A member the schema does not have (bodies reject unknown members).",
    "invalid_type": "A value of the wrong JSON type: a string where an integer belongs, null "
    "where a value is required, an object where a list belongs, ...",
    "invalid_value": "A value of the right type that breaks a constraint (range, length, choice, format).",
}

# marshmallow 4's default messages → codes. Anything else (validators, custom messages) is
# "invalid_value".
_MESSAGE_CODES: dict[str, str] = {
    "Missing data for required field.": "required",
    "Unknown field.": "unknown_field",
    "Field may not be null.": "invalid_type",
    "Invalid input type.": "invalid_type",
    "Invalid type.": "invalid_type",
    "Not a valid list.": "invalid_type",
    "Not a valid tuple.": "invalid_type",
    "Not a valid string.": "invalid_type",
    "Not a valid number.": "invalid_type",
    "Not a valid integer.": "invalid_type",
    "Not a valid boolean.": "invalid_type",
    "Not a valid mapping type.": "invalid_type",
    "Invalid JSON body.": "malformed_json",
}

#: webargs locations whose errors point into the body (the rest name a ``parameter``).
_BODY_LOCATIONS = frozenset({"json", "form", "json_or_form", "files"})


def message_code(message: str) -> str:
    """The :data:`SCHEMA_ERROR_CODES` code for one marshmallow/webargs message."""
    return _MESSAGE_CODES.get(message, "invalid_value")


def flatten_messages(messages: Any) -> list[dict[str, str]]:
    """Flatten webargs ``{location: {field: {index: [msg]}}}`` into ``errors`` items.

    Body locations give ``pointer`` (``"/teams/0/melds/1/2"``; schema-level ``_schema`` messages
    point at their container); other locations give ``parameter`` (the top-level field name).
    """
    items: list[dict[str, str]] = []

    def add(location: str, path: tuple[str | int, ...], message: str) -> None:
        item: dict[str, str]
        if location in _BODY_LOCATIONS:
            item = {"pointer": json_pointer(path)}
        else:
            item = {"parameter": str(path[0]) if path else ""}
        item["code"] = message_code(message)
        item["detail"] = message
        items.append(item)

    def walk(location: str, node: Any, path: tuple[str | int, ...]) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                walk(location, value, path if key == "_schema" else (*path, key))
        elif isinstance(node, list | tuple):
            for value in node:
                walk(location, value, path)
        else:
            add(location, path, str(node))

    if isinstance(messages, Mapping):
        for location, node in messages.items():
            walk(str(location), node, ())
    else:
        walk("json", messages, ())
    return items


class ErrorResponsesPlugin(BasePlugin):  # type: ignore[misc]
    """Lists in every operation the errors any request to it can get (all problem+json).

    400 malformed JSON, 413 body too large and 415 a body that is not JSON on operations with a
    body; 404 on paths with parameters (an unknown id) and on every route for an unknown path; 405 for a wrong method;
    429 and 503 where the server throttles or its database is down; 500 as the last resort.
    Responses a view documents itself are kept.
    """

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None,
                         **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            responses = operation.setdefault("responses", {})
            wanted = ["405", "500"]
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
        super()._init_spec(extra_plugins=[*(extra_plugins or ()), ErrorResponsesPlugin()], **kwargs)

    def _register_error_handlers(self) -> None:
        super()._register_error_handlers()
        problems.register_error_handlers(self._app)

    def _register_responses(self) -> None:
        """Document every error response (and the default one) as ``application/problem+json``."""
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
                prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response, lazy=True)

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
            type_slug, title = "validation-error", "Request does not match the schema"
            detail = _count_phrase(len(errors))
        elif status == 413:
            limit = flask.current_app.config.get("MAX_CONTENT_LENGTH")
            detail = f"The request body is larger than the limit of {limit} bytes."
        elif status == 429:
            detail = (f"Too many requests for this API key or address (limit: {error.description}); "
                      "retry after the Retry-After header's seconds.")
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


def _count_phrase(n: int) -> str:
    return "1 problem in the request." if n == 1 else f"{n} problems in the request."


#: The highest ``page`` a paginated list accepts (documented; 422 past it). Unbounded, a page like
#: 92233720368547760 made an OFFSET past 64 bits: a 500 from both drivers (found by schemathesis).
MAX_PAGE = 1_000_000

_smorest_page_schema_factory = smorest_pagination._pagination_parameters_schema_factory


def _bounded_page_schema_factory(def_page: int, def_page_size: int, def_max_page_size: int) -> Any:
    """flask-smorest's pagination schema with ``page`` bounded by :data:`MAX_PAGE`."""
    base = _smorest_page_schema_factory(def_page, def_page_size, def_max_page_size)

    class PaginationParametersSchema(base):  # type: ignore[misc,valid-type]
        page = ma.fields.Integer(load_default=def_page, validate=ma.validate.Range(min=1, max=MAX_PAGE))

    return PaginationParametersSchema


# flask-smorest builds this schema in Blueprint.paginate through the module-level factory (a private
# hook, like _register_responses; flask-smorest is pinned <0.48 and tests/api/test_limits.py checks
# the documented maximum).
smorest_pagination._pagination_parameters_schema_factory = _bounded_page_schema_factory


class JSONBodyParser(FlaskParser):  # type: ignore[misc]
    """webargs' Flask parser, hardened at the point where a body becomes JSON.

    - A body that ``json.loads`` cannot turn into a value for any reason is a 400 malformed-json:
      besides syntax errors (which webargs handles), nesting past the interpreter's recursion limit
      (``RecursionError``) and integers longer than Python's 4,300-digit conversion limit
      (``ValueError``), which would otherwise escape as a 500.
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
        try:
            parsed = core.parse_json(req.get_data(cache=True))
            flask.g.handfoot_body = parsed  # the body as sent, for the routes that store it: body_as_sent()
            return parsed
        except json.JSONDecodeError:
            raise
        except (RecursionError, ValueError) as err:
            raise json.JSONDecodeError(f"not decodable as JSON ({type(err).__name__})", "<body>", 0) from None


def body_as_sent() -> Any:
    """The request's JSON body as parsed once by :class:`JSONBodyParser` (the schemas copy what they
    load and never change it), else parsed now by Flask."""
    if "handfoot_body" in flask.g:
        return flask.g.handfoot_body
    return flask.request.get_json()


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest ``Blueprint`` adding an RFC 8288 ``Link`` header to paginated responses.

    Bodies are read by :class:`JSONBodyParser`.

    ``X-Pagination`` stays (it is documented by flask-smorest); ``Link`` carries absolute URLs
    with ``rel`` ``first``, ``prev``, ``next`` and ``last``, keeping the other query arguments.
    """

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """flask-smorest's ``arguments`` with one schema instance per route, made here, once.

        Given a schema class, webargs builds a new instance on every request, and with it every
        nested schema (teams, players, the ~60 house rules): about a third of the time of
        ``POST /v1/rounds/score`` went there (docs/performance.md). Schemas keep no per-request
        state (marshmallow 4 has no ``context``), so one instance serves every request.
        """
        return super().arguments(resolve_schema_instance(schema), *args, **kwargs)

    ARGUMENTS_PARSER = JSONBodyParser()

    def _check_precondition(self) -> None:
        """428 without If-Match on PUT/PATCH/DELETE, naming the header and what to send."""
        try:
            super()._check_precondition()
        except PreconditionRequired:
            abort_problem(428, "Precondition Required", "This change needs an If-Match header.", errors=[{
                "parameter": "If-Match", "code": "required",
                "detail": "send If-Match with the resource's current ETag (the ETag header of a GET of it), "
                "so that a change made meanwhile by someone else is not overwritten"}])

    def check_etag(self, etag_data: Any, etag_schema: Any = None) -> None:
        """412 on a stale If-Match, naming the header, the ETag sent and the current one."""
        try:
            super().check_etag(etag_data, etag_schema)
        except PreconditionFailed:
            if etag_schema is not None:
                etag_data = resolve_schema_instance(etag_schema).dump(etag_data)
            current = f'"{self._generate_etag(etag_data)}"'
            sent = flask.request.headers.get("If-Match", "")
            abort_problem(412, "Precondition Failed", "The resource changed since its ETag was read.", errors=[{
                "parameter": "If-Match", "code": "etag_mismatch",
                "detail": f"If-Match {sent} does not match the current ETag {current}: someone changed it "
                "since you read it; read it again (GET), re-apply your change, and send its new ETag"}],
                headers={"ETag": current})

    def _set_pagination_metadata(self, page_params: Any, result: Any, headers: Any) -> tuple[Any, Any]:
        result, headers = super()._set_pagination_metadata(page_params, result, headers)
        metadata = json.loads(headers[self.PAGINATION_HEADER_NAME])
        link = pagination_link_header(metadata, page_size=page_params.page_size)
        if link:
            headers["Link"] = link
        return result, headers


def pagination_link_header(metadata: Mapping[str, Any], *, page_size: int) -> str:
    """``Link`` header value for flask-smorest pagination ``metadata`` in the current request."""
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
