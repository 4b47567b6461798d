"""RFC 9457 problem details: the problem types, the document shape, and errors → HTTP.

Every error response of the API is ``application/problem+json``::

    {"type": "https://handfoot.dev/problems/validation-error", "title": "Request does not match
     the schema", "status": 422, "detail": "...", "instance": "/v1/rounds/score",
     "errors": [{"pointer": "/teams/0/melds/1/2", "code": "invalid_type", "detail": "..."}]}

``errors`` is always present: each item has a ``pointer`` (RFC 6901, into the body) or a
``parameter``, a stable ``code`` and a ``detail``. Engine and service errors carry their problem
(:func:`register_error_handlers`); HTTP errors are answered by ``handfoot.server.rest_api.Api``.
"""

from __future__ import annotations

import http
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import flask
from werkzeug.exceptions import HTTPException

from handfoot.engine.errors import HandFootError
from handfoot.server import db
from handfoot.server.services.errors import GameServiceError, StoreUnavailableError, json_pointer

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://handfoot.dev/problems/"
#: Seconds a client should wait after a 503 of the database (unreachable or locked too long).
RETRY_AFTER_SECONDS = 2

#: Every problem type the API sends: slug (the last segment of ``type``) → what it means.
#: The ``type`` URI is ``PROBLEM_TYPE_BASE + slug``. Adding one is an API change: list it in
#: docs/problems.md too.
problem_types: dict[str, str] = {
    # HTTP-level problems
    "malformed-json": "400: the request body is not valid JSON (or not UTF-8).",
    "bad-request": "400: the request is malformed in another way (e.g. a missing required header).",
    "unauthorized": "401: the request needs an API key (Authorization: Bearer ...).",
    "forbidden": "403: the API key may not do this.",
    "not-found": "404: no such route, or no such resource (e.g. an unknown game id).",
    "method-not-allowed": "405: the route exists but not for this method; see the Allow header.",
    "not-acceptable": "406: the server cannot produce a representation the Accept header allows.",
    "conflict": "409: the request conflicts with the current state (e.g. a duplicate).",
    "body-too-large": "413: the request body is larger than HANDFOOT_MAX_BODY_BYTES.",
    "unsupported-media-type": "415: the request body's Content-Type is not supported.",
    "precondition-failed": "412: If-Match does not match the resource's current ETag.",
    "precondition-required": "428: this write needs an If-Match header with the resource's ETag.",
    "validation-error": "422: the body or parameters do not match the schema; see `errors`.",
    "too-many-requests": "429: too many requests; retry after the Retry-After header's seconds.",
    "internal-error": "500: an unexpected server error (logged; never caused by valid input).",
    "service-unavailable": "503: a dependency (the database) is unreachable; see Retry-After.",
    # Games (docs/games-api.md)
    "game-finished": "409: the game is over (its `end_reason` says why); no round can be appended.",
    "round-number": "409: the round number sent is not the game's next round (`next_round`).",
    "not-last-round": "409: only the game's last round can be deleted (`last_round`); correct an earlier one.",
    "idempotency-key-reused": "422: this Idempotency-Key was used for a different request (method, path or body).",
    "idempotency-in-flight": "409: the first request with this Idempotency-Key is still running; retry shortly.",
    # Tables (docs/tables.md)
    "version-moved": "409: the table's version is not the one sent (`version`: the current one); read the view again.",
    "table-finished": "409: the table's game is over; no action is taken.",
    "waits-full": "503: this client address, or the server, has as many waiting requests (long-polls, "
    "event streams) as it allows; wait again after Retry-After seconds.",
    "table-open": "409: the game has a table playing it (`table`, `href`): no second table, and no round written "
    "straight on the game.",
    "round-in-play": "409: the table's round is still in play; its log is shown once it ends.",
    # Engine (rules) problems, all 422; `errors[].code` is one of engine.errors.PROBLEM_CODES.
    "rules-broken": "422: the input breaks the rules of the game.",
    "invalid-card": "422: a string is not a card.",
    "unknown-preset": "422: no preset has this id.",
    "invalid-rules": "422: house-rule overrides are unknown, out of range or inconsistent.",
    "invalid-meld": "422: a meld breaks the rule set.",
    "invalid-round": "422: a round sent to be scored breaks the rules (going out, contract, card counts...).",
}

#: The problem type used for a status when the raiser names none.
DEFAULT_TYPE_SLUGS: dict[int, str] = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    412: "precondition-failed",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "validation-error",
    428: "precondition-required",
    429: "too-many-requests",
    500: "internal-error",
    503: "service-unavailable",
}

# --------------------------------------------------------------------------------------------
# Helpers


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Error"


#: The most ``errors`` a problem lists; past it, ``errors_found`` counts them all and
#: ``errors_not_listed`` the rest (issue 18: one error per item made a 9.4 MB answer).
MAX_ERRORS_LISTED = 100


def make_problem(
    status: int,
    title: str | None = None,
    detail: str | None = None,
    *,
    errors: Sequence[Mapping[str, Any]] = (),
    type_slug: str | None = None,
    instance: str | None = None,
    **extensions: Any,
) -> dict[str, Any]:
    """Build a problem document (a dict). ``instance`` defaults to the request path."""
    if type_slug is None:
        type_slug = DEFAULT_TYPE_SLUGS.get(status)
    if instance is None and flask.has_request_context():
        instance = flask.request.path
    problem: dict[str, Any] = {
        "type": "about:blank" if type_slug is None else PROBLEM_TYPE_BASE + type_slug,
        "title": title or _phrase(status),
        "status": status,
    }
    if detail is not None:
        problem["detail"] = detail
    if instance is not None:
        problem["instance"] = instance
    problem["errors"] = [dict(item) for item in errors[:MAX_ERRORS_LISTED]]
    if len(errors) > MAX_ERRORS_LISTED:  # the rest counted, not listed: an answer's size is bounded
        problem["errors_found"] = len(errors)
        problem["errors_not_listed"] = len(errors) - MAX_ERRORS_LISTED
    problem.update(extensions)
    return problem


def problem_response(problem: Mapping[str, Any], headers: Mapping[str, str] | None = None) -> flask.Response:
    """A ``Response`` carrying ``problem`` as ``application/problem+json``."""
    response = flask.current_app.response_class(
        flask.json.dumps(problem), status=int(problem["status"]), mimetype=PROBLEM_CONTENT_TYPE
    )
    for name, value in (headers or {}).items():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


class ProblemHTTPException(HTTPException):
    """Carries a ready problem document to the Api's HTTP error handler."""

    def __init__(self, status: int, problem: dict[str, Any], headers: Mapping[str, str] | None = None) -> None:
        super().__init__(description=problem.get("detail"))
        self.code = status
        self.problem = problem
        self.extra_headers = dict(headers or {})


def abort_problem(
    status: int,
    title: str | None = None,
    detail: str | None = None,
    *,
    errors: Sequence[Mapping[str, Any]] = (),
    type_slug: str | None = None,
    headers: Mapping[str, str] | None = None,
    retry_after: int | None = None,
    **extensions: Any,
) -> NoReturn:
    """Stop the request with a problem+json response; ``type_slug`` defaults by status, ``retry_after``
    (seconds) sets ``Retry-After``, other keyword arguments become extension members."""
    all_headers = dict(headers or {})
    if retry_after is not None:
        all_headers["Retry-After"] = str(int(retry_after))
    problem = make_problem(status, title, detail, errors=errors, type_slug=type_slug, **extensions)
    raise ProblemHTTPException(status, problem, all_headers)


#: A change without If-Match (428), and one whose If-Match is stale (412: :func:`etag_mismatch`).
IF_MATCH_NEEDED = "This change needs an If-Match header."
IF_MATCH_REQUIRED = {
    "parameter": "If-Match",
    "code": "required",
    "detail": "send If-Match with the resource's current ETag (the ETag header of a GET of it), "
    "so that a change made meanwhile by someone else is not overwritten",
}
ETAG_MOVED = "The resource changed since its ETag was read."


def etag_mismatch(sent: str, current: str) -> dict[str, str]:
    """The ``errors`` item of a stale If-Match: the ETag ``sent`` and the ``current`` one."""
    return {
        "parameter": "If-Match",
        "code": "etag_mismatch",
        "detail": f"If-Match {sent} does not match the current ETag {current}: someone changed it "
        "since you read it; read it again (GET), re-apply your change, and send its new ETag",
    }


#: A body that is not JSON (415), and a games request without a key on a server with keys (401).
NOT_JSON = {"parameter": "Content-Type", "code": "invalid_value", "detail": "expected application/json"}
NO_KEY = "This server has API keys: send Authorization: Bearer <key>."


def not_json_detail(mimetype: str) -> str:
    return f"The body must be JSON (Content-Type: application/json), not {mimetype}."


def unauthorized_item(detail: str) -> dict[str, str]:
    return {"parameter": "Authorization", "code": "unauthorized", "detail": detail}


#: The title of every 422 validation-error of a body or parameters that do not match the schema.
VALIDATION_TITLE = "Request does not match the schema"


def count_phrase(n: int) -> str:
    """A validation-error's ``detail``: how many problems it lists."""
    return "1 problem in the request." if n == 1 else f"{n} problems in the request."


def abort_invalid(errors: Sequence[Mapping[str, Any]]) -> NoReturn:
    """Stop the request with the 422 validation-error of ``errors`` (each at its pointer), as the
    schemas' errors are answered."""
    abort_problem(422, VALIDATION_TITLE, count_phrase(len(errors)), errors=errors, type_slug="validation-error")


def abort_invalid_header(header: str, detail: str) -> NoReturn:
    """A 422 ``validation-error`` for a request header's value (``Idempotency-Key``, ``Last-Event-ID``):
    one error, ``invalid_value``, naming the header as its ``parameter``."""
    abort_problem(
        422,
        f"Invalid {header}",
        detail,
        type_slug="validation-error",
        errors=[{"parameter": header, "code": "invalid_value", "detail": detail}],
    )


def engine_problem(error: HandFootError) -> dict[str, Any]:
    """The problem document of an engine error: always a 422 (the engine refuses only its input),
    of the error's type (``slug``), an item per problem with its pointer into the body."""
    return make_problem(
        422,
        error.title,
        "; ".join(p.detail for p in error.problems),
        errors=[{"pointer": json_pointer(p.path), "code": p.code, "detail": p.detail} for p in error.problems],
        type_slug=error.slug,
    )


def service_problem(error: GameServiceError) -> flask.Response:
    """The one handler of the services' errors: each carries its status, type and title
    (``api/services/errors.py``) and the rest of its document."""
    members = error.problem(flask.url_for, flask.request.view_args or {})
    problem = make_problem(error.status, error.title, type_slug=error.slug, **members)
    headers = None
    if isinstance(error, StoreUnavailableError):
        db.log_failure(error.__cause__ or error)
    if error.status == 503:
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return problem_response(problem, headers)


def database_down(error: Exception) -> flask.Response:
    """503 with Retry-After: the database unreachable, locked past the busy timeout, or the pool
    exhausted (``StoreUnavailableError``'s answer)."""
    unavailable = StoreUnavailableError(str(error))
    unavailable.__cause__ = error
    return service_problem(unavailable)


def register_error_handlers(app: flask.Flask) -> None:
    """Answer the engine's and the services' errors, and a database that is down, as problems
    (HTTP errors are answered by ``handfoot.server.rest_api.Api``)."""
    app.register_error_handler(HandFootError, lambda error: problem_response(engine_problem(error)))
    app.register_error_handler(GameServiceError, service_problem)
    for error in db.DATABASE_DOWN:
        app.register_error_handler(error, database_down)


# --------------------------------------------------------------------------------------------
# webargs' messages as ``errors`` items

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


class CodedMessage(str):
    """A schema's message that carries its problem code (one of ``handfoot.server.codes``), for a
    message no marshmallow default gives (an action's unknown ``type``: the engine's ``unknown_action``)."""

    code: str

    def __new__(cls, message: str, code: str) -> CodedMessage:
        self = super().__new__(cls, message)
        self.code = code
        return self


def message_code(message: str) -> str:
    """The ``handfoot.server.codes`` code for one marshmallow/webargs message: its own
    (:class:`CodedMessage`), else the one of :data:`_MESSAGE_CODES`, else ``invalid_value``."""
    if isinstance(message, CodedMessage):
        return message.code
    return _MESSAGE_CODES.get(message, "invalid_value")


def flatten_messages(messages: Any) -> list[dict[str, str]]:
    """Flatten webargs ``{location: {field: {index: [msg]}}}`` into ``errors`` items: a ``pointer`` for
    body locations (``_schema`` messages point at their container), else the top-level ``parameter``."""
    items: list[dict[str, str]] = []

    def walk(location: str, node: Any, path: tuple[str | int, ...]) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                walk(location, value, path if key == "_schema" else (*path, key))
        elif isinstance(node, list | tuple):
            for value in node:
                walk(location, value, path)
        else:
            where = (
                {"pointer": json_pointer(path)}
                if location in _BODY_LOCATIONS
                else {"parameter": str(path[0]) if path else ""}
            )
            items.append({**where, "code": message_code(node), "detail": str(node)})

    if isinstance(messages, Mapping):
        for location, node in messages.items():
            walk(str(location), node, ())
    else:
        walk("json", messages, ())
    return items
