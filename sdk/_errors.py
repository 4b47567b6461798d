"""Exceptions raised by the SDK; the RFC 9457 problem details they carry are in ``handfoot.client.types.problems``.

Hierarchy::

    HandFootError
    ├── APIConnectionError            the request never got an HTTP answer
    │   ├── APITimeoutError           ... because it timed out (says what, and the seconds)
    │   └── ClientClosedError         ... because the client was closed (never retried)
    ├── APIResponseValidationError    the server answered 2xx with a body the SDK cannot read
    └── APIStatusError                the server answered 4xx/5xx (carries ``problem``)
        ├── BadRequestError           400
        ├── AuthenticationError       401, 403
        ├── NotFoundError             404
        ├── ConflictError             409
        │   └── VersionMovedError     409 ``version_moved``: a table moved on (``version``: its current one)
        ├── PreconditionFailedError   412
        ├── PayloadTooLargeError      413
        ├── UnprocessableEntityError  422 (alias ValidationError; ``problems``: each rule broken)
        ├── PreconditionRequiredError 428
        ├── RateLimitError            429
        └── ServerError               5xx
"""

from __future__ import annotations

import http
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ._http import HTTPResponse, parse_retry_after

if TYPE_CHECKING:
    from .types.problems import ProblemDetails, ProblemItem

__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ClientClosedError",
    "ConflictError",
    "HandFootError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PreconditionFailedError",
    "PreconditionRequiredError",
    "RateLimitError",
    "ServerError",
    "UnprocessableEntityError",
    "ValidationError",
    "VersionMovedError",
]


class HandFootError(Exception):
    """Base class of every error the SDK raises."""


class APIConnectionError(HandFootError):
    """The request did not get an HTTP response (DNS, refused connection, reset, ...).

    ``idempotency_key``: the ``Idempotency-Key`` the request carried (a write such as ``add_round``),
    else ``None``. When the request may have reached the server (``outcome_unknown``), the server may
    have stored it: resend the same call with ``idempotency_key=error.idempotency_key`` and it is
    stored once, whatever happened (the server replays the first answer).
    """

    def __init__(
        self, message: str = "Connection error.", *, idempotency_key: str | None = None, outcome_unknown: bool = False
    ) -> None:
        super().__init__(message)
        self.message = message
        self.idempotency_key = idempotency_key
        self.outcome_unknown = outcome_unknown


class APITimeoutError(APIConnectionError):
    """The request timed out (connecting or reading)."""

    def __init__(
        self, message: str = "Request timed out.", *, idempotency_key: str | None = None, outcome_unknown: bool = False
    ) -> None:
        super().__init__(message, idempotency_key=idempotency_key, outcome_unknown=outcome_unknown)


class ClientClosedError(APIConnectionError):
    """The client was closed (``close()`` / ``aclose()``) before or while the request was sent; such a
    request is not retried."""


class APIResponseValidationError(HandFootError, ValueError):
    """A successful response whose body does not have the shape the SDK expects."""


def problem_code(problem_type: str, status: int) -> str:
    """The short name of a problem ``type`` URI to branch on: its last path segment with ``-`` as
    ``_`` (``https://handfoot.dev/problems/version-moved`` -> ``"version_moved"``). For
    ``about:blank`` (a problem that is only its status, RFC 9457 §4.2.1) the status phrase in the
    same form (502 -> ``"bad_gateway"``)."""
    if problem_type and problem_type != "about:blank":
        segment = urlsplit(problem_type).path.rstrip("/").rsplit("/", 1)[-1]
        if segment:
            return segment.replace("-", "_")
    try:
        phrase = http.HTTPStatus(status).phrase
    except ValueError:
        return "http_error"
    return re.sub(r"[^a-z0-9]+", "_", phrase.lower()).strip("_")


class APIStatusError(HandFootError):
    """The server answered with an error status. ``problem`` holds its RFC 9457 details; ``code``
    names its type for branching (``problem_code``); ``request_id`` is the answer's
    ``X-Request-ID`` (quote it when reporting a problem)."""

    def __init__(
        self,
        status: int,
        problem: ProblemDetails,
        response: HTTPResponse | None = None,
    ) -> None:
        self.status = status
        self.problem = problem
        self.response = response
        super().__init__(str(problem))

    @property
    def status_code(self) -> int:
        return self.status

    @property
    def type(self) -> str:
        return self.problem.type

    @property
    def code(self) -> str:
        """The problem type's last path segment with ``-`` as ``_``: ``"version_moved"``,
        ``"invalid_round"``, ``"not_found"``... (``problem_code``)."""
        return problem_code(self.problem.type, self.status)

    @property
    def request_id(self) -> str | None:
        """The answer's ``X-Request-ID`` (``None`` when the server sent none)."""
        if self.response is None:
            return None
        return self.response.headers.get("X-Request-ID") or None

    @property
    def title(self) -> str:
        return self.problem.title

    @property
    def detail(self) -> str | None:
        return self.problem.detail

    @property
    def problems(self) -> list[ProblemItem]:
        """Each item of the problem's ``errors`` list (rule broken, schema field, ...)."""
        return list(self.problem.errors)

    def __str__(self) -> str:
        return str(self.problem)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, code={self.code!r}, title={self.problem.title!r})"


class BadRequestError(APIStatusError):
    """400: malformed JSON, or a missing Idempotency-Key where one is required."""


class AuthenticationError(APIStatusError):
    """401 or 403: the API key is missing, unknown or not allowed."""


class NotFoundError(APIStatusError):
    """404: unknown id (also another key's game)."""


class ConflictError(APIStatusError):
    """409: a concurrent change, a duplicate, or the same Idempotency-Key still in flight."""


class VersionMovedError(ConflictError):
    """409 ``version_moved``: the table's version is no longer the one the action was sent with
    (another action came first). ``version`` is the table's current version: read the view again."""

    @property
    def version(self) -> int | None:
        value = self.problem.extra.get("version")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def _is_version_moved(problem: ProblemDetails) -> bool:
    return (
        problem.type.endswith("/version-moved")
        or problem.type.endswith("/version_moved")
        or any(item.code == "version_moved" for item in problem.errors)
    )


class PreconditionFailedError(APIStatusError):
    """412: the If-Match ETag no longer matches; reload and retry the change."""


class PayloadTooLargeError(APIStatusError):
    """413: the request body is too large."""


class UnprocessableEntityError(APIStatusError):
    """422: a rule or schema constraint was broken; ``problems`` lists each one."""


ValidationError = UnprocessableEntityError


class PreconditionRequiredError(APIStatusError):
    """428: the operation needs an If-Match header."""


class RateLimitError(APIStatusError):
    """429: too many requests; ``retry_after`` is the server's advice in seconds, if any."""

    @property
    def retry_after(self) -> float | None:
        if self.response is None:
            return None
        return parse_retry_after(self.response.headers.get("Retry-After"))


class ServerError(APIStatusError):
    """5xx: the server failed."""


_STATUS_ERRORS: Mapping[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: AuthenticationError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    413: PayloadTooLargeError,
    422: UnprocessableEntityError,
    428: PreconditionRequiredError,
    429: RateLimitError,
}


def error_class_for_status(status: int) -> type[APIStatusError]:
    if status >= 500:
        return ServerError
    return _STATUS_ERRORS.get(status, APIStatusError)


def status_error_from_response(response: HTTPResponse, problem: ProblemDetails) -> APIStatusError:
    """The exception for an error response and the problem read from it."""
    if response.status_code == 409 and _is_version_moved(problem):
        return VersionMovedError(response.status_code, problem, response)
    return error_class_for_status(response.status_code)(response.status_code, problem, response)
