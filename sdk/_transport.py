"""HTTP transport: one ``requests.Session``, default headers, error mapping and retries.

Which requests are retried, when and how long to wait: ``handfoot.client._retry`` (STYLE.md "SDK
shape" and pitfall P5), shared with the async transport (``handfoot.client.aio``). What a request
carries (URL, headers, JSON body, query) is prepared once for both by ``prepare``.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

import requests
from requests.structures import CaseInsensitiveDict

from ._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APITimeoutError,
    ClientClosedError,
    status_error_from_response,
)
from ._http import dumps_json, parse_retry_after, sf_string
from ._raw import record_answer
from ._retry import IDEMPOTENCY_IN_FLIGHT_SUFFIX, MAX_RETRY_AFTER, backoff_delay, is_naturally_idempotent, retry_wait
from ._retry import should_retry_status as _should_retry_status
from ._version import __version__
from .types.problems import ProblemDetails

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "IDEMPOTENCY_IN_FLIGHT_SUFFIX",
    "Timeout",
    "Transport",
    "parse_retry_after",
]

log = logging.getLogger(__name__)

#: ``HANDFOOT_LOG=debug`` logs every request and answer (method, URL, status, time, retry number,
#: Idempotency-Key; never the API key) to stderr through ``logging`` (logger ``handfoot.client``).
ENV_LOG = "HANDFOOT_LOG"
LOGGER = logging.getLogger("handfoot.client")


def _log_from_env() -> None:
    """Honour ``$HANDFOOT_LOG`` (``debug`` or ``info``): a stderr handler on ``handfoot.client``, once."""
    level = logging.getLevelName(os.environ.get(ENV_LOG, "").strip().upper())
    if not isinstance(level, int) or any(getattr(h, "_handfoot_env", False) for h in LOGGER.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    handler._handfoot_env = True  # type: ignore[attr-defined]  # marks the handler this function added
    LOGGER.addHandler(handler)
    LOGGER.setLevel(level)


Timeout: TypeAlias = float | tuple[float, float]
QueryParams: TypeAlias = Mapping[str, str | int | float | bool | None]

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT: tuple[float, float] = (3.05, 30)
DEFAULT_MAX_RETRIES = 2
USER_AGENT = f"handfoot-sdk/{__version__}"

_CONNECTION_ERRORS = (
    requests.ConnectionError,
    requests.exceptions.ChunkedEncodingError,
)
__all__ += ["MAX_RETRY_AFTER", "backoff_delay"]


@dataclass(frozen=True, slots=True)
class Prepared:
    """One logical request, ready to send (and re-send unchanged on each retry)."""

    method: str
    url: str
    headers: dict[str, str]
    body: bytes | None
    query: dict[str, str | int | float | bool] | None
    naturally_idempotent: bool
    max_retries: int
    idempotency_key: str | None = None
    """The ``Idempotency-Key`` as given (unquoted), for an error whose outcome is unknown."""


def prepare(
    method: str,
    url: str,
    default_headers: Mapping[str, str],
    *,
    max_retries: int,
    params: QueryParams | None = None,
    json: object = None,
    headers: Mapping[str, str] | None = None,
    idempotent: bool = False,
    idempotency_key: str | None = None,
    extra_query: QueryParams | None = None,
) -> Prepared:
    """Headers (defaults, then ``headers``, then the ``Idempotency-Key`` as a structured-field
    string), the JSON body, the query (``extra_query``, then ``params``) without ``None`` values, and
    the retry budget: ``max_retries`` for a request safe to repeat (``handfoot.client._retry``), else 0."""
    method = method.upper()
    all_headers: CaseInsensitiveDict[str] = CaseInsensitiveDict(default_headers)
    if headers:
        all_headers.update(headers)
    if idempotency_key is not None:
        all_headers["Idempotency-Key"] = sf_string(idempotency_key)
    body: bytes | None = None
    if json is not None:
        body = dumps_json(json)
        all_headers.setdefault("Content-Type", "application/json")
    naturally_idempotent = is_naturally_idempotent(method, idempotent)
    retryable = naturally_idempotent or "Idempotency-Key" in all_headers
    given = {k: v for k, v in (params or {}).items() if v is not None}  # None: the call leaves it out
    query = {k: v for k, v in {**(extra_query or {}), **given}.items() if v is not None} or None
    return Prepared(
        method,
        url,
        dict(all_headers),
        body,
        query,
        naturally_idempotent,
        max_retries if retryable else 0,
        idempotency_key,
    )


def no_answer_error(
    prepared: Prepared, base_url: str, message: str, *, connecting: bool, timed_out: bool = False, closed: bool = False
) -> APIConnectionError:
    """The error for a request that got no HTTP answer, with what the caller can do next.

    ``connecting``: it failed before reaching the server (refused, unknown host, connect timeout),
    so nothing was stored, and the message asks whether a server runs at ``base_url``. Otherwise a
    write that carried an ``Idempotency-Key`` may have been stored: the error is ``outcome_unknown``,
    carries the key, and says how to resend it safely. ``closed``: the client was closed
    (``ClientClosedError``; ``connecting`` then means before the request was sent)."""
    key = prepared.idempotency_key
    unknown = not connecting and key is not None and not prepared.naturally_idempotent
    if connecting and not (closed or timed_out):
        message += f" (is a handfoot server running at {base_url}? `handfoot-server serve` starts one)"
    elif unknown:
        message += f"; the server may have stored it: resend with idempotency_key={key!r} to store it once"
    cls = ClientClosedError if closed else APITimeoutError if timed_out else APIConnectionError
    return cls(message, idempotency_key=key, outcome_unknown=unknown)


def log_answer(prepared: Prepared, retry: int, status: int, headers: Mapping[str, str], started: float) -> None:
    """The debug line of one answer (``HANDFOOT_LOG=debug``); never the Authorization header."""
    if log.isEnabledFor(logging.DEBUG):
        key = prepared.headers.get("Idempotency-Key")
        log.debug(
            "%s %s%s -> %d in %.0f ms%s%s",
            prepared.method,
            prepared.url,
            f" (retry {retry})" if retry else "",
            status,
            (time.monotonic() - started) * 1000,
            f" Idempotency-Key {key}" if key is not None else "",
            " (Idempotent-Replayed)" if headers.get("Idempotent-Replayed") else "",
        )


def retry_wait_for(
    prepared: Prepared, retry: int, status: int, problem: ProblemDetails, retry_after: str | None
) -> float | None:
    """Seconds to wait before retrying this error answer, or ``None`` to raise it now."""
    if retry >= prepared.max_retries or not _should_retry_status(status, problem.type, prepared.naturally_idempotent):
        return None
    wait = retry_wait(retry, retry_after)
    if wait is None:
        log.debug(
            "not retrying %s %s: Retry-After %s > %.0f s", prepared.method, prepared.url, retry_after, MAX_RETRY_AFTER
        )
    return wait


def timeout_message(method: str, url: str, phase: str, timeout: Timeout, tries: int) -> str:
    """What timed out, and after how long: ``GET http://h/v1/games timed out reading the answer (no
    answer within 30 s; 3 tries)``. ``phase``: ``connecting``, ``sending the request``, ``reading the
    answer`` or ``waiting for a free connection`` (the connect limit applies to connecting, the read
    limit to the rest)."""
    connect, read = timeout if isinstance(timeout, tuple) else (timeout, timeout)
    seconds = connect if phase == "connecting" else read
    tried = f"; {tries} tries" if tries > 1 else ""
    return f"{method} {url} timed out {phase} (no answer within {seconds:g} s{tried})"


def _never_connected(exc: BaseException) -> bool:
    """Whether requests' connection error happened before the request reached a server: a refused
    connection or an unknown host (the socket's own error) in its chain of causes."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, (ConnectionRefusedError, socket.gaierror)):
            return True
        reason = getattr(seen, "reason", None)
        seen = reason if isinstance(reason, BaseException) else (seen.__cause__ or seen.__context__)
    # requests wraps urllib3's MaxRetryError in args, not as a cause
    return any(isinstance(arg, BaseException) and _never_connected(arg) for arg in exc.args)


def decode_json(response: requests.Response) -> Any:
    """The answer's JSON body (``None`` when empty); raises ``APIResponseValidationError`` when it is not JSON."""
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError as exc:
        raise APIResponseValidationError(
            f"{response.request.method} {response.url}: response is not JSON "
            f"(Content-Type {response.headers.get('Content-Type')!r})"
        ) from exc


class Lifecycle:
    """Whether a transport is closed; a ``with_options`` copy is closed with its parent, not the reverse."""

    __slots__ = ("_closed", "_parent")

    def __init__(self, parent: Lifecycle | None = None) -> None:
        self._closed = False
        self._parent = parent

    @property
    def closed(self) -> bool:
        return self._closed or (self._parent is not None and self._parent.closed)

    def close(self) -> None:
        self._closed = True


class BaseTransport:
    """What both transports keep: the base URL, the key, the defaults; URLs and default headers."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None,
        timeout: Timeout,
        max_retries: int,
        parent: BaseTransport | None = None,
        extra_headers: Mapping[str, str] | None = None,
        extra_query: QueryParams | None = None,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        #: Sent with every request of this transport (``with_options(extra_headers=..., extra_query=...)``);
        #: a call's own headers and query parameters win over them.
        self.extra_headers: dict[str, str] = dict(extra_headers or {})
        self.extra_query: dict[str, str | int | float | bool | None] = dict(extra_query or {})
        self.lifecycle: Lifecycle = Lifecycle(parent.lifecycle if parent is not None else None)

    def check_open(
        self, method: str, url: str, exc: BaseException | None = None, prepared: Prepared | None = None
    ) -> None:
        """Raise ``ClientClosedError`` once the client is closed (``exc``: the error the closing
        caused in a request in flight), so a closed client never retries. A keyed write closed in
        flight may have been stored: the error carries its key (``no_answer_error``)."""
        if self.lifecycle.closed:
            when = "while the request was in flight" if exc is not None else "before the request was sent"
            message = f"{method} {url} failed: client closed {when}"
            if prepared is None:
                raise ClientClosedError(message)
            raise no_answer_error(prepared, self.base_url, message, connecting=exc is None, closed=True)

    def url(self, path: str) -> str:
        """An absolute URL: ``path`` is joined to the base URL unless it is already absolute."""
        if path.startswith(("http://", "https://")):
            return path
        return f"{self.base_url}/{path.lstrip('/')}"

    def default_headers(self) -> dict[str, str]:
        headers = {
            "Accept": "application/json, application/problem+json",
            "User-Agent": USER_AGENT,
        }
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        headers.update(self.extra_headers)
        return headers

    def option_values(
        self,
        timeout: Timeout | None,
        max_retries: int | None,
        extra_headers: Mapping[str, str] | None,
        extra_query: QueryParams | None,
    ) -> dict[str, Any]:
        """The keyword arguments of a ``with_options`` copy: those given replace this transport's
        (``extra_headers`` and ``extra_query`` are added to its own)."""
        return {
            "api_key": self.api_key,
            "timeout": self.timeout if timeout is None else timeout,
            "max_retries": self.max_retries if max_retries is None else max_retries,
            "extra_headers": {**self.extra_headers, **(extra_headers or {})},
            "extra_query": {**self.extra_query, **(extra_query or {})},
        }


class Transport(BaseTransport):
    """Sends requests to one API base URL. Shared by ``Client`` and ``Page``; not public API."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        session: requests.Session | None = None,
        parent: Transport | None = None,
        extra_headers: Mapping[str, str] | None = None,
        extra_query: QueryParams | None = None,
    ) -> None:
        super().__init__(
            base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            parent=parent,
            extra_headers=extra_headers,
            extra_query=extra_query,
        )
        self._owns_session = session is None
        self.session = session if session is not None else requests.Session()
        #: The last HTTP answer received by any call (a success, or the error an exception was raised
        #: for); one slot shared by every thread: ``with_raw_response`` gives each call its own.
        self.last_response: requests.Response | None = None

    def with_options(
        self,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
        extra_query: QueryParams | None = None,
    ) -> Transport:
        """A transport on the same session and base URL with other defaults (the session stays this one's)."""
        options = self.option_values(timeout, max_retries, extra_headers, extra_query)
        return Transport(self.base_url, session=self.session, parent=self, **options)

    def close(self) -> None:
        """Close the session if this transport created it (a session passed in is left open); any
        later request, or one in flight, raises ``ClientClosedError``."""
        self.lifecycle.close()
        if self._owns_session:
            self.session.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        params: QueryParams | None = None,
        json: object = None,
        headers: Mapping[str, str] | None = None,
        idempotent: bool = False,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        stream: bool = False,
    ) -> requests.Response:
        """Send one logical request, retrying per the module policy; return a 2xx/3xx response.

        ``json`` (when not ``None``) is sent as the JSON body. ``idempotent=True`` declares a POST
        free of side effects so it may be retried. ``idempotency_key`` is sent as the
        ``Idempotency-Key`` header (a quoted structured-field string), the same on every retry.
        ``stream=True``: a 2xx body is read as the caller iterates it (requests' ``stream``).
        Raises an ``APIStatusError`` subclass for 4xx/5xx and ``APIConnectionError`` /
        ``APITimeoutError`` when no response arrives.
        """
        prepared = prepare(
            method,
            self.url(path),
            self.default_headers(),
            max_retries=self.max_retries,
            params=params,
            json=json,
            headers=headers,
            idempotent=idempotent,
            idempotency_key=idempotency_key,
            extra_query=self.extra_query,
        )
        method, url = prepared.method, prepared.url
        retry = 0
        limit = self.timeout if timeout is None else timeout
        while True:
            self.check_open(method, url)
            started = time.monotonic()
            try:
                response = self.session.request(
                    method,
                    url,
                    params=prepared.query,
                    data=prepared.body,
                    headers=prepared.headers,
                    timeout=limit,
                    stream=stream,
                )
            except requests.Timeout as exc:
                self.check_open(method, url, exc, prepared)
                phase = "connecting" if isinstance(exc, requests.ConnectTimeout) else "reading the answer"
                message = timeout_message(method, url, phase, limit, retry + 1)
                if retry < prepared.max_retries:
                    self._sleep(retry, backoff_delay(retry), message)
                    retry += 1
                    continue
                connecting = isinstance(exc, requests.ConnectTimeout)
                raise no_answer_error(prepared, self.base_url, message, connecting=connecting, timed_out=True) from exc
            except _CONNECTION_ERRORS as exc:
                self.check_open(method, url, exc, prepared)
                if retry < prepared.max_retries:
                    self._sleep(retry, backoff_delay(retry), f"{method} {url}: {exc}")
                    retry += 1
                    continue
                message = f"{method} {url} failed: {exc}"
                raise no_answer_error(prepared, self.base_url, message, connecting=_never_connected(exc)) from exc
            except requests.RequestException as exc:  # invalid URL, too many redirects, ...
                self.check_open(method, url, exc, prepared)
                raise APIConnectionError(f"{method} {url} failed: {exc}") from exc

            self.last_response = response
            record_answer(response, streamed=stream)
            log_answer(prepared, retry, response.status_code, response.headers, started)
            if response.status_code < 400:
                return response
            problem = ProblemDetails.from_response(response)
            wait = retry_wait_for(prepared, retry, response.status_code, problem, response.headers.get("Retry-After"))
            if wait is None:
                raise status_error_from_response(response, problem)
            response.close()
            self._sleep(retry, wait, f"{method} {url}: {response.status_code}")
            retry += 1

    def post_with_idempotency_key(
        self,
        path: str,
        *,
        json: object,
        idempotency_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: Timeout | None = None,
    ) -> requests.Response:
        """POST with an ``Idempotency-Key`` (a fresh uuid4 unless given), reused on every retry."""
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        return self.request("POST", path, json=json, headers=headers, idempotency_key=key, timeout=timeout)

    @staticmethod
    def _sleep(retry: int, wait: float, reason: str) -> None:
        log.info("retrying in %.2f s (retry %d): %s", wait, retry + 1, reason)
        time.sleep(wait)
