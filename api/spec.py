"""The OpenAPI document's finishing, in one place: operationIds, headers sent, problem examples.

- :data:`OPERATION_IDS`: every operation's stable camelCase ``operationId`` (a new one gets its line).
- :data:`HEADERS`: the response headers the server sends, listed on the answers that carry them
  (:func:`sent_headers`).
- :func:`problem_example`: a real problem document per status.
- :func:`spec_options`: ``info`` and ``servers``.
"""

from __future__ import annotations

import http
import json
from typing import Any

from apispec import APISpec, BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin

from handfoot.server.problems import (
    DEFAULT_TYPE_SLUGS,
    ETAG_MOVED,
    IF_MATCH_NEEDED,
    IF_MATCH_REQUIRED,
    NO_KEY,
    NOT_JSON,
    PROBLEM_CONTENT_TYPE,
    VALIDATION_TITLE,
    count_phrase,
    etag_mismatch,
    make_problem,
    not_json_detail,
    unauthorized_item,
)

#: ``(METHOD, path)`` → ``operationId``. camelCase, a verb first; never renamed once published
#: (generated clients name their functions after it).
OPERATION_IDS: dict[tuple[str, str], str] = {
    ("GET", "/health"): "getHealth",
    ("GET", "/health/live"): "getLiveness",
    ("GET", "/health/ready"): "getReadiness",
    ("GET", "/v1/presets"): "listPresets",
    ("GET", "/v1/presets/{preset_id}"): "getPreset",
    ("POST", "/v1/rounds/score"): "scoreRound",
    ("POST", "/v1/rounds/compare"): "comparePresets",
    ("POST", "/v1/melds/validate"): "validateMeld",
    ("POST", "/v1/openings/check"): "checkOpening",
    ("POST", "/v1/going-out/check"): "checkGoingOut",
    ("POST", "/v1/discard-pile/check"): "checkDiscardPile",
    ("GET", "/v1/games"): "listGames",
    ("POST", "/v1/games"): "createGame",
    ("GET", "/v1/games/{game_id}"): "getGame",
    ("DELETE", "/v1/games/{game_id}"): "deleteGame",
    ("POST", "/v1/games/{game_id}/rounds"): "appendRound",
    ("GET", "/v1/games/{game_id}/rounds/{number}"): "getRound",
    ("PUT", "/v1/games/{game_id}/rounds/{number}"): "correctRound",
    ("GET", "/v1/games/{game_id}/rounds/{number}/revisions"): "listRoundRevisions",
    ("GET", "/v1/games/{game_id}/scoresheet"): "getScoresheet",
    ("DELETE", "/v1/games/{game_id}/rounds/{number}"): "deleteRound",
    ("GET", "/v1/games/export"): "exportGames",
    ("GET", "/v1/games/stats"): "getStatistics",
    ("POST", "/v1/tables"): "createTable",
    ("GET", "/v1/tables/{table_id}"): "getTable",
    ("GET", "/v1/tables/{table_id}/view"): "getSeatView",
    ("GET", "/v1/tables/{table_id}/events"): "streamSeatViews",
    ("POST", "/v1/tables/{table_id}/actions"): "postAction",
    ("GET", "/v1/tables/{table_id}/rounds/{number}"): "getTableRound",
}

_INT = {"type": "integer"}
_STR = {"type": "string"}


def _header(name: str, description: str, example: Any, schema: dict[str, Any] = _STR) -> tuple[str, dict[str, Any]]:
    return name, {"description": description, "schema": schema, "example": example}


#: Header components: name in ``components.headers`` → (header name, its description and schema).
HEADERS: dict[str, tuple[str, dict[str, Any]]] = {
    "ETAG": _header(
        "ETag",
        "The resource's entity tag: send it as `If-Match` to change it, "
        "or as `If-None-Match` to read it only when it changed (304).",
        '"2c6ef5a3a0e3b1c4d1c9f0e1b2a3c4d5e6f7a8b9"',
    ),
    "LINK": _header(
        "Link",
        "RFC 8288 links to the `first`, `prev`, `next` and `last` pages (absolute "
        "URLs keeping the other query arguments); absent when there is one page.",
        '<http://127.0.0.1:8000/v1/games?page=2&page_size=20>; rel="next"',
    ),
    "IDEMPOTENT_REPLAYED": _header(
        "Idempotent-Replayed",
        "`true` when this is the stored answer to an earlier request with the same "
        "Idempotency-Key and body (nothing was done again); absent on a first answer.",
        "true",
        {"type": "string", "enum": ["true"]},
    ),
    "RETRY_AFTER": _header("Retry-After", "Seconds to wait before trying again.", 5, {**_INT, "minimum": 1}),
    "RATE_LIMIT_LIMIT": _header(
        "X-RateLimit-Limit",
        "Requests allowed in the current window (sent when the server has a rate limit, HANDFOOT_RATE_LIMIT).",
        600,
        _INT,
    ),
    "RATE_LIMIT_REMAINING": _header(
        "X-RateLimit-Remaining", "Requests left in the current window (with a rate limit).", 599, _INT
    ),
    "RATE_LIMIT_RESET": _header(
        "X-RateLimit-Reset",
        "When the current window ends, in seconds since the Unix epoch (with a rate limit).",
        1796083260,
        _INT,
    ),
    "CACHE_CONTROL": _header(
        "Cache-Control",
        "`no-store` on answers to requests made with an API key (they are that key's own), "
        "and on every tables answer (a seat's view holds its hand; a creation, the seats' tokens).",
        "no-store",
    ),
    "CONTENT_DISPOSITION": _header(
        "Content-Disposition",
        "On the CSV form only: `inline` with a file name.",
        'inline; filename="game-7-scoresheet.csv"',
    ),
    "REQUEST_ID": _header(
        "X-Request-ID",
        "This request's id, on every answer: the `X-Request-ID` the client sent when it is "
        "1-64 letters, digits, `.`, `_` or `-`, else one the server made (32 hex digits). Quote it when "
        "reporting a problem.",
        "5f0c6a1e2b7d4c39a8e1f20b6d4c9a73",
        {**_STR, "pattern": "^[A-Za-z0-9._-]{1,64}$"},
    ),
    "WWW_AUTHENTICATE": _header("WWW-Authenticate", "The scheme to authenticate with.", 'Bearer realm="handfoot"'),
}

_RATE_LIMIT = ("RATE_LIMIT_LIMIT", "RATE_LIMIT_REMAINING", "RATE_LIMIT_RESET")


#: ``info.description``: what the API is, in a paragraph a generated client's README can carry.
DESCRIPTION = (
    "Scores for the card game Hand and Foot: score a finished round under a published rule set "
    "(Pagat, Bicycle, Board Game Arena's rules, family rules) with every line explained, check "
    "melds, opening melds, going out and picking up the discard pile, and keep games: append "
    "rounds, correct them with an audit trail, read the score sheet.\n\n"
    "Errors are RFC 9457 `application/problem+json` documents naming the field (`pointer`) or "
    "header (`parameter`) and the rule (`code`). Appends honour `Idempotency-Key`; corrections "
    "need `If-Match`. Once the server has API keys, the games operations need "
    "`Authorization: Bearer <key>`.\n\n"
    "`info.version` is the version of this HTTP contract (api/config.py's API_VERSION), not of "
    "the packages that serve or call it."
)


#: The document's own ``security``: an API key where the server has keys, none where it has none.
#: The games, history and tables operations inherit it (:class:`SpecFinishingPlugin` drops their
#: copy), so a generated client calls them with or without a key; the others declare their own.
KEY_WHERE_THE_SERVER_HAS_KEYS: list[dict[str, list[str]]] = [{"bearerAuth": []}, {}]


def spec_options() -> dict[str, Any]:
    """The document's ``info`` additions, ``servers`` and ``security`` (flask-smorest's
    ``API_SPEC_OPTIONS``)."""
    return {
        "security": KEY_WHERE_THE_SERVER_HAS_KEYS,
        "info": {
            "description": DESCRIPTION,
            "contact": {"name": "The handfoot maintainers (vulnerabilities: see SECURITY.md, reported privately)"},
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [
            {"url": "/", "description": "The server this document is served by"},
            {"url": "http://127.0.0.1:8000", "description": "`make run` on this machine"},
        ],
    }


def register_headers(spec: APISpec) -> None:
    """Add :data:`HEADERS` to ``components.headers``."""
    for component, (_name, header) in HEADERS.items():
        spec.components.header(component, header)


# --------------------------------------------------------------------------------------------
# Problem examples


_GAME = "/v1/games/7"
_SCORE = "/v1/rounds/score"
#: Each status's example: its type's slug, title (``None``: the status's phrase), detail, path and
#: ``errors`` (the items the server's own raise sites send, where they are constants).
_EXAMPLES: dict[int, tuple[str, str | None, str, str, list[dict[str, str]]]] = {
    400: (
        "malformed-json",
        "Malformed JSON",
        "The request body is not valid JSON.",
        _SCORE,
        [{"pointer": "", "code": "malformed_json", "detail": "Invalid JSON body."}],
    ),
    401: ("unauthorized", "API key required", NO_KEY, "/v1/games", [unauthorized_item(NO_KEY)]),
    404: ("not-found", "Game not found", "There is no game 7.", _GAME, []),
    406: (
        "not-acceptable",
        None,
        "The Accept header allows neither application/json nor text/csv.",
        _GAME + "/scoresheet",
        [],
    ),
    409: (
        "round-number",
        "Not the next round",
        "The next round is 2, not 3.",
        _GAME + "/rounds",
        [{"pointer": "/round", "code": "round_number", "detail": "the next round is 2"}],
    ),
    412: ("precondition-failed", None, ETAG_MOVED, _GAME + "/rounds/1", [etag_mismatch('"1a2b"', '"3c4d"')]),
    413: ("body-too-large", None, "The request body is larger than the limit of 1048576 bytes.", _SCORE, []),
    415: ("unsupported-media-type", "Unsupported media type", not_json_detail("text/plain"), _SCORE, [NOT_JSON]),
    422: (
        "validation-error",
        VALIDATION_TITLE,
        count_phrase(1),
        _SCORE,
        [{"pointer": "/teams/0/tally/clean_books", "code": "invalid_type", "detail": "Not a valid integer."}],
    ),
    428: ("precondition-required", None, IF_MATCH_NEEDED, _GAME + "/rounds/1", [IF_MATCH_REQUIRED]),
    429: (
        "too-many-requests",
        None,
        "Too many requests for this API key or address (limit: 600 "
        "per 1 minute); retry after the Retry-After header's seconds.",
        _SCORE,
        [],
    ),
    500: ("internal-error", None, "The server hit an unexpected error. It has been logged.", _SCORE, []),
    503: (
        "service-unavailable",
        "Database unavailable",
        "The database is unreachable or busy; retry later.",
        "/v1/games",
        [],
    ),
}


def problem_example(status: int) -> dict[str, Any]:
    """A problem document as the server sends it for ``status`` (its ``type``, ``title`` and an
    ``errors`` item where that status names a field or header)."""
    default = (DEFAULT_TYPE_SLUGS.get(status, "bad-request" if status < 500 else "internal-error"), None)
    slug, title, detail, path, errors = _EXAMPLES.get(
        status, (*default, f"{http.HTTPStatus(status).phrase}.", _SCORE, [])
    )
    return make_problem(status, title, detail, errors=errors, type_slug=slug, instance=path)


# --------------------------------------------------------------------------------------------
# The plugin


def _ok(status: str) -> bool:
    return status.startswith("2") and status != "204"


def sent_headers(method: str, path: str, status: str, response: dict[str, Any], operation: dict[str, Any]) -> list[str]:
    """The :data:`HEADERS` components an answer of ``operation`` with ``status`` carries: ``ETag`` where
    flask-smorest checks ETags (a 304 or 428 listed) and on a creation (a 201 with ``Location``);
    ``Link`` beside ``X-Pagination``; ``Idempotent-Replayed`` on successes taking ``Idempotency-Key``;
    ``Cache-Control`` on games and tables; ``Content-Disposition`` on CSV; the rest by status
    (:func:`component_headers`). tests/api/test_sent_headers_documented.py holds it to what is sent."""
    statuses = operation.get("responses", {})
    headers = response.get("headers", {})
    parameters = [p.get("name") for p in operation.get("parameters", []) if isinstance(p, dict)]
    out = ["REQUEST_ID"]
    if _ok(status) and ("304" in statuses or "428" in statuses or (status == "201" and "Location" in headers)):
        out.append("ETAG")
    if _ok(status) and "X-Pagination" in headers:
        out.append("LINK")
    if status.startswith("2") and "Idempotency-Key" in parameters:
        out.append("IDEMPOTENT_REPLAYED")
    if path.startswith("/v1/"):
        out += _RATE_LIMIT
    if path.startswith(("/v1/games", "/v1/tables")):
        out.append("CACHE_CONTROL")
    if "text/csv" in response.get("content", {}):
        out.append("CONTENT_DISPOSITION")
    return out + [name for name in component_headers(int(status) if status.isdigit() else 0) if name not in _SHARED]


#: On every shared answer (``components.responses``): they serve ``/v1`` and games operations too.
_SHARED = ("REQUEST_ID", *_RATE_LIMIT, "CACHE_CONTROL")


def component_headers(status: int) -> list[str]:
    """The :data:`HEADERS` components of the shared answer for ``status`` (``components.responses``):
    :data:`_SHARED`, ``WWW-Authenticate`` on a 401, ``ETag`` on a 304 or 412, ``Retry-After`` on a
    429 or 503."""
    out = list(_SHARED)
    if status == 401:
        out.append("WWW_AUTHENTICATE")
    if status in (304, 412):
        out.append("ETAG")
    if status in (429, 503):
        out.append("RETRY_AFTER")
    return out


def add_headers(response: dict[str, Any], components: list[str]) -> None:
    """List the header ``components`` on ``response`` (one it documents itself is kept)."""
    for component in components:
        name = HEADERS[component][0]
        response.setdefault("headers", {}).setdefault(name, component)


def default_in_words(converter: Any, field: Any, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a member's ``default`` said in its description, since TypeScript
    generators read ``default`` as "always present" and would make members the server fills required."""
    if "default" not in ret:
        return {}
    value = ret.pop("default")
    said = f"Default: `{json.dumps(value)}`."
    description = ret.get("description")
    return {"description": f"{description} {said}" if description else said}


class SpecFinishingPlugin(BasePlugin):
    """Per operation: its ``operationId``, its ``security``, the headers its answers carry
    (:func:`sent_headers`), a problem example on each problem answer, every ``default`` in words."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        for plugin in spec.plugins:
            if isinstance(plugin, MarshmallowPlugin) and plugin.converter is not None:
                plugin.converter.add_attribute_function(default_in_words)  # type: ignore[no-untyped-call]

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        path = path or ""
        for method, operation in (operations or {}).items():
            operation_id = OPERATION_IDS.get((method.upper(), path))
            if operation_id is not None:
                operation.setdefault("operationId", operation_id)
            if operation.get("security") == KEY_WHERE_THE_SERVER_HAS_KEYS:
                del operation["security"]  # the document's
            else:
                operation.setdefault("security", [])  # open: it asks for no key
            for status, response in operation.get("responses", {}).items():
                if not isinstance(response, dict):
                    continue
                add_headers(response, sent_headers(method.upper(), path, str(status), response, operation))
                problem = response.get("content", {}).get(PROBLEM_CONTENT_TYPE)
                if problem is not None and "example" not in problem and "examples" not in problem:
                    problem["example"] = problem_example(int(status))
