"""Small HTTP helpers: Retry-After, structured-field strings, origins, JSON bodies."""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


class HTTPResponse(Protocol):
    """What the SDK reads of an answer: a ``requests.Response`` and an ``httpx.Response`` both fit."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    @property
    def content(self) -> bytes: ...

    @property
    def text(self) -> str: ...

    def json(self, **kwargs: Any) -> Any: ...


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from ``Retry-After``: delay-seconds or an HTTP date (RFC 9110 §10.2.3).

    Returns ``None`` when absent or unreadable; a date in the past gives ``0.0``.
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        if seconds != seconds or seconds in (float("inf"), float("-inf")):  # NaN / inf
            return None
        return max(seconds, 0.0)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT
        return None
    current = time.time() if now is None else now
    return max(when.timestamp() - current, 0.0)


def sf_string(value: str) -> str:
    """Serialise ``value`` as an RFC 8941 structured-field String (quoted, with escapes)."""
    if any(not (0x20 <= ord(ch) <= 0x7E) for ch in value):
        raise ValueError(f"not a valid structured-field string (printable ASCII only): {value!r}")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def origin(url: str) -> tuple[str, str, int | None]:
    """The (scheme, host, port) origin of an absolute URL, default ports made explicit."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port if parts.port is not None else _DEFAULT_PORTS.get(scheme)
    return scheme, (parts.hostname or "").lower(), port


def _json_default(obj: object) -> object:
    # Models hold read-only mappings and tuples; let them be sent back as JSON.
    if isinstance(obj, Mapping):
        return dict(obj)
    if isinstance(obj, Sequence) and not isinstance(obj, str | bytes | bytearray):
        return list(obj)
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def dumps_json(body: object) -> bytes:
    """Encode a request body as compact UTF-8 JSON (any Mapping/Sequence accepted)."""
    text = json.dumps(body, default=_json_default, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8")
