"""Exceptions raised by the SDK, and the RFC 9457 problem details they carry.

Hierarchy::

    HandFootError
    ├── APIConnectionError            the request never got an HTTP answer
    │   └── APITimeoutError           ... because it timed out
    ├── APIResponseValidationError    the server answered 2xx with a body the SDK cannot read
    └── APIStatusError                the server answered 4xx/5xx (carries ``problem``)
        ├── BadRequestError           400
        ├── AuthenticationError       401, 403
        ├── NotFoundError             404
        ├── ConflictError             409
        ├── PreconditionFailedError   412
        ├── PayloadTooLargeError      413
        ├── UnprocessableEntityError  422 (alias ValidationError; ``problems``: each rule broken)
        ├── PreconditionRequiredError 428
        ├── RateLimitError            429
        └── ServerError               5xx
"""

from __future__ import annotations

import html
import http
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import requests

from ._http import parse_retry_after

__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "HandFootError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PreconditionFailedError",
    "PreconditionRequiredError",
    "ProblemDetails",
    "ProblemItem",
    "RateLimitError",
    "ServerError",
    "UnprocessableEntityError",
    "ValidationError",
    "status_error_from_response",
]

#: Problem members that ``ProblemDetails`` maps to attributes; the rest go to ``extra``.
_STANDARD_MEMBERS = frozenset({"type", "title", "status", "detail", "instance", "errors"})
#: webargs / flask-smorest error locations that name query, header or path fields (not the body).
_PARAMETER_LOCATIONS = frozenset(
    {"query", "querystring", "headers", "cookies", "path", "view_args", "files"}
)
_BODY_LOCATIONS = frozenset({"json", "form", "json_or_form"})
_MAX_TEXT_DETAIL = 500


def _status_phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "HTTP error"


def _pointer_token(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


@dataclass(frozen=True, slots=True)
class ProblemItem:
    """One entry of a problem's ``errors`` list: a rule or schema constraint that was broken.

    ``pointer`` is a JSON Pointer into the request body (``/teams/0/melds/1/2``); ``parameter``
    names a query or header field instead. At most one of them is usually set.
    """

    code: str
    detail: str
    pointer: str | None = None
    parameter: str | None = None

    @classmethod
    def from_json(cls, data: object) -> ProblemItem:
        if not isinstance(data, Mapping):
            return cls(code="invalid", detail=str(data))
        code = data.get("code")
        detail = data.get("detail", data.get("message"))
        pointer = data.get("pointer")
        parameter = data.get("parameter")
        return cls(
            code=str(code) if code is not None else "invalid",
            detail=str(detail) if detail is not None else "",
            pointer=pointer if isinstance(pointer, str) else None,
            parameter=parameter if isinstance(parameter, str) else None,
        )

    @property
    def location(self) -> str:
        """Where the problem is: the pointer, else ``parameter <name>``, else ``""``."""
        if self.pointer is not None:
            return self.pointer or "/"
        if self.parameter is not None:
            return f"parameter {self.parameter}"
        return ""

    def __str__(self) -> str:
        where = self.location
        text = f"{where}: {self.detail}" if where else self.detail
        return f"{text} [{self.code}]" if self.code else text


def _items_from_messages(
    value: object, path: tuple[str, ...], *, as_parameter: bool
) -> Iterator[ProblemItem]:
    """Flatten a webargs/marshmallow ``{"field": ["message", ...]}`` tree into items."""
    if isinstance(value, Mapping):
        for key, sub in value.items():
            yield from _items_from_messages(sub, (*path, str(key)), as_parameter=as_parameter)
        return
    messages = value if isinstance(value, list) else [value]
    for message in messages:
        if isinstance(message, Mapping | list):
            yield from _items_from_messages(message, path, as_parameter=as_parameter)
            continue
        if as_parameter:
            yield ProblemItem("invalid", str(message), parameter=".".join(path) or None)
        else:
            pointer = "".join("/" + _pointer_token(p) for p in path)
            yield ProblemItem("invalid", str(message), pointer=pointer)


def _parse_errors(value: object) -> tuple[ProblemItem, ...]:
    if isinstance(value, list):
        return tuple(ProblemItem.from_json(item) for item in value)
    if isinstance(value, Mapping):
        items: list[ProblemItem] = []
        for location, sub in value.items():
            if location in _PARAMETER_LOCATIONS:
                items.extend(_items_from_messages(sub, (), as_parameter=True))
            elif location in _BODY_LOCATIONS:
                items.extend(_items_from_messages(sub, (), as_parameter=False))
            else:
                items.extend(_items_from_messages(sub, (str(location),), as_parameter=False))
        return tuple(items)
    return ()


@dataclass(frozen=True, slots=True)
class ProblemDetails:
    """An RFC 9457 problem document. Unknown members are kept, read-only, in ``extra``."""

    type: str
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    errors: tuple[ProblemItem, ...] = ()
    extra: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_json(cls, data: object, *, status: int) -> ProblemDetails:
        """Read a problem document leniently; ``status`` is the HTTP status, used as a fallback.

        Also reads flask-smorest's default error body (``code``/``status``/``message``/``errors``
        keyed by location), so a server without problem+json still gives useful details.
        """
        if not isinstance(data, Mapping):
            return cls.from_status(status)
        body_status = data.get("status")
        if isinstance(body_status, int) and not isinstance(body_status, bool):
            status_value = body_status
        else:
            status_value = status
        type_ = data.get("type")
        title = data.get("title")
        detail = data.get("detail")
        if detail is None and isinstance(data.get("message"), str):
            detail = data["message"]
        instance = data.get("instance")
        extra = {
            str(k): v
            for k, v in data.items()
            if k not in _STANDARD_MEMBERS and not (k == "message" and detail == v)
        }
        if "status" in data and status_value != data["status"]:
            extra["status"] = data["status"]
        return cls(
            type=type_ if isinstance(type_, str) and type_ else "about:blank",
            title=title if isinstance(title, str) and title else _status_phrase(status_value),
            status=status_value,
            detail=detail if isinstance(detail, str) else None,
            instance=instance if isinstance(instance, str) else None,
            errors=_parse_errors(data.get("errors")),
            extra=MappingProxyType(extra),
        )

    @classmethod
    def from_status(cls, status: int, detail: str | None = None) -> ProblemDetails:
        return cls(type="about:blank", title=_status_phrase(status), status=status, detail=detail)

    @classmethod
    def from_response(cls, response: requests.Response) -> ProblemDetails:
        """Build problem details from any error response, problem+json or not."""
        status = response.status_code
        content_type = response.headers.get("Content-Type", "").lower()
        text = response.text if response.content else ""
        if not text.strip():
            return cls.from_status(status)
        if "json" in content_type or text.lstrip()[:1] in ("{", "["):
            try:
                data: Any = response.json()
            except ValueError:
                pass
            else:
                if isinstance(data, Mapping):
                    return cls.from_json(data, status=status)
        if "html" in content_type:
            text = html.unescape(re.sub(r"<[^>]*>", " ", text))
        detail = " ".join(text.split())
        if len(detail) > _MAX_TEXT_DETAIL:
            detail = detail[: _MAX_TEXT_DETAIL - 1] + "…"
        return cls.from_status(status, detail or None)

    def __str__(self) -> str:
        head = f"{self.status} {self.title}"
        if self.detail and self.detail != self.title:
            head += f": {self.detail}"
        lines = [head]
        lines.extend(f"  - {item}" for item in self.errors)
        return "\n".join(lines)


class HandFootError(Exception):
    """Base class of every error the SDK raises."""


class APIConnectionError(HandFootError):
    """The request did not get an HTTP response (DNS, refused connection, reset, ...)."""

    def __init__(self, message: str = "Connection error.") -> None:
        super().__init__(message)
        self.message = message


class APITimeoutError(APIConnectionError):
    """The request timed out (connecting or reading)."""

    def __init__(self, message: str = "Request timed out.") -> None:
        super().__init__(message)


class APIResponseValidationError(HandFootError, ValueError):
    """A successful response whose body does not have the shape the SDK expects."""


class APIStatusError(HandFootError):
    """The server answered with an error status. ``problem`` holds its RFC 9457 details."""

    def __init__(
        self,
        status: int,
        problem: ProblemDetails,
        response: requests.Response | None = None,
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
        return f"{type(self).__name__}(status={self.status}, title={self.problem.title!r})"


class BadRequestError(APIStatusError):
    """400: malformed JSON, or a missing Idempotency-Key where one is required."""


class AuthenticationError(APIStatusError):
    """401 or 403: the API key is missing, unknown or not allowed."""


class NotFoundError(APIStatusError):
    """404: unknown id (also another key's game)."""


class ConflictError(APIStatusError):
    """409: a concurrent change, a duplicate, or the same Idempotency-Key still in flight."""


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


def status_error_from_response(
    response: requests.Response, problem: ProblemDetails | None = None
) -> APIStatusError:
    """The exception for an error response (``problem`` is parsed from it when not given)."""
    if problem is None:
        problem = ProblemDetails.from_response(response)
    status = response.status_code
    return error_class_for_status(status)(status, problem, response)
