"""Problem details (RFC 9457): what an error carries, and the items of a check's ``problems``."""

from __future__ import annotations

import html
import http
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._http import HTTPResponse
from .._loader import FrozenDict, Result, Shown, wire

__all__ = ["ProblemDetails", "ProblemItem"]

#: Problem members that ``ProblemDetails`` maps to attributes; the rest go to ``extra``.
_STANDARD_MEMBERS = frozenset({"type", "title", "status", "detail", "instance", "errors"})
#: webargs / flask-smorest error locations that name query, header or path fields (not the body).
_PARAMETER_LOCATIONS = frozenset({"query", "querystring", "headers", "cookies", "path", "view_args", "files"})
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
class ProblemItem(Result):
    """One rule or schema constraint that was broken: an item of a check's ``problems`` or of an
    error's ``errors`` list (both ``{pointer, code, detail}``).

    ``pointer`` is a JSON Pointer into the request body (``/teams/0/melds/1/2``); ``parameter``
    names a query or header field instead. At most one of them is usually set.
    """

    code: str
    detail: str
    pointer: str | None = field(default=None, metadata=wire(omit_none=True))
    parameter: str | None = field(default=None, metadata=wire(omit_none=True))

    @property
    def location(self) -> str:
        """Where the problem is: the pointer, else ``parameter <name>``, else ``""``."""
        if self.pointer is not None:
            return self.pointer or "/"
        if self.parameter is not None:
            return f"parameter {self.parameter}"
        return ""


def _problem_item(data: object) -> ProblemItem:
    """An ``errors`` item of any error body, read leniently: the server may be a proxy, or a
    flask-smorest default (``message`` for ``detail``, no ``code``)."""
    if not isinstance(data, Mapping):
        return ProblemItem(code="invalid", detail=str(data))
    code = data.get("code")
    detail = data.get("detail", data.get("message"))
    pointer = data.get("pointer")
    parameter = data.get("parameter")
    return ProblemItem(
        code=str(code) if code is not None else "invalid",
        detail=str(detail) if detail is not None else "",
        pointer=pointer if isinstance(pointer, str) else None,
        parameter=parameter if isinstance(parameter, str) else None,
    )


def _items_from_messages(value: object, path: tuple[str, ...], *, as_parameter: bool) -> Iterator[ProblemItem]:
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
        return tuple(_problem_item(item) for item in value)
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
class ProblemDetails(Shown):
    """An RFC 9457 problem document. Unknown members are kept, read-only, in ``extra``.

    Read by hand, not by the generic loader: an error body may come from any server or proxy
    (HTML, plain text, flask-smorest's own shape), and every one of them must give a problem.
    """

    type: str
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    errors: tuple[ProblemItem, ...] = ()
    extra: Mapping[str, object] = field(default_factory=FrozenDict)

    @classmethod
    def from_json(cls, data: object, *, status: int) -> ProblemDetails:
        """Read a problem document leniently; ``status`` is the HTTP status, used as a fallback.

        Also reads flask-smorest's default error body (``code``/``status``/``message``/``errors``
        keyed by location), so a server without problem+json still gives useful details.
        """
        if not isinstance(data, Mapping):
            return cls.from_status(status)
        body_status = data.get("status")
        status_value = body_status if isinstance(body_status, int) and not isinstance(body_status, bool) else status
        type_ = data.get("type")
        title = data.get("title")
        detail = data.get("detail")
        if detail is None and isinstance(data.get("message"), str):
            detail = data["message"]
        instance = data.get("instance")
        extra = {
            str(k): v for k, v in data.items() if k not in _STANDARD_MEMBERS and not (k == "message" and detail == v)
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
            extra=FrozenDict(extra),
        )

    @classmethod
    def from_status(cls, status: int, detail: str | None = None) -> ProblemDetails:
        return cls(type="about:blank", title=_status_phrase(status), status=status, detail=detail)

    @classmethod
    def from_response(cls, response: HTTPResponse) -> ProblemDetails:
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
