"""HTTP transport: one ``requests.Session``, default headers, error mapping and retries.

Retry policy (STYLE.md "SDK shape" and pitfall P5):

* Which requests: GET, HEAD, PUT, DELETE (and OPTIONS); a POST only when it carries an
  ``Idempotency-Key`` or the caller marks it ``idempotent=True`` (a side-effect-free computation
  such as ``/v1/rounds/score``). Any other POST is sent exactly once.
* When: connection errors and timeouts; statuses 408, 429, 502, 503, 504; 500 only for requests
  that are idempotent by nature (the methods above, or ``idempotent=True``), not for keyed POSTs;
  409 only when the problem ``type`` ends with ``/problems/idempotency-in-flight``. Never 412 or
  422 (nor any other status).
* How long: ``Retry-After`` (seconds or HTTP date) when the server sends one, if it is at most 60 s
  (a longer wait is not attempted: the error is raised at once); otherwise 0.5·2ⁿ seconds capped at
  8 s, with up to 25 % jitter subtracted.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Mapping
from typing import TypeAlias

import requests
from requests.structures import CaseInsensitiveDict

from ._errors import APIConnectionError, APITimeoutError, status_error_from_response
from ._http import dumps_json, parse_retry_after, sf_string
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

Timeout: TypeAlias = float | tuple[float, float]
QueryParams: TypeAlias = Mapping[str, str | int | float | bool | None]

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT: tuple[float, float] = (3.05, 30)
DEFAULT_MAX_RETRIES = 2
USER_AGENT = f"handfoot-sdk/{__version__}"

INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
MAX_RETRY_AFTER = 60.0
IDEMPOTENCY_IN_FLIGHT_SUFFIX = "/problems/idempotency-in-flight"

_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
_RETRY_STATUSES = frozenset({408, 429, 502, 503, 504})
_CONNECTION_ERRORS = (
    requests.ConnectionError,
    requests.exceptions.ChunkedEncodingError,
)


def backoff_delay(retry_number: int) -> float:
    """The wait before retry ``retry_number`` (0-based): 0.5·2ⁿ ≤ 8 s, minus up to 25 % jitter."""
    base = min(INITIAL_RETRY_DELAY * (2.0**retry_number), MAX_RETRY_DELAY)
    return base * (1.0 - 0.25 * random.random())


class Transport:
    """Sends requests to one API base URL. Shared by ``Client`` and ``Page``; not public API."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        session: requests.Session | None = None,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self._owns_session = session is None
        self.session = session if session is not None else requests.Session()
        #: The last HTTP answer received (a success, or the error an exception was raised for).
        self.last_response: requests.Response | None = None

    def with_options(self, *, timeout: Timeout | None = None, max_retries: int | None = None) -> Transport:
        """A transport on the same session and base URL with other defaults (the session stays this one's)."""
        return Transport(
            self.base_url,
            api_key=self.api_key,
            timeout=self.timeout if timeout is None else timeout,
            max_retries=self.max_retries if max_retries is None else max_retries,
            session=self.session,
        )

    def close(self) -> None:
        """Close the session if this transport created it (a session passed in is left open)."""
        if self._owns_session:
            self.session.close()

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
        return headers

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
    ) -> requests.Response:
        """Send one logical request, retrying per the module policy; return a 2xx/3xx response.

        ``json`` (when not ``None``) is sent as the JSON body. ``idempotent=True`` declares a POST
        free of side effects so it may be retried. ``idempotency_key`` is sent as the
        ``Idempotency-Key`` header (a quoted structured-field string), the same on every retry.
        Raises an ``APIStatusError`` subclass for 4xx/5xx and ``APIConnectionError`` /
        ``APITimeoutError`` when no response arrives.
        """
        method = method.upper()
        url = self.url(path)
        all_headers: CaseInsensitiveDict[str] = CaseInsensitiveDict(self.default_headers())
        if headers:
            all_headers.update(headers)
        if idempotency_key is not None:
            all_headers["Idempotency-Key"] = sf_string(idempotency_key)
        body: bytes | None = None
        if json is not None:
            body = dumps_json(json)
            all_headers.setdefault("Content-Type", "application/json")

        naturally_idempotent = method in _IDEMPOTENT_METHODS or idempotent
        retryable = naturally_idempotent or "Idempotency-Key" in all_headers
        max_retries = self.max_retries if retryable else 0
        query = {k: v for k, v in params.items() if v is not None} if params else None

        retry = 0
        while True:
            started = time.monotonic()
            try:
                response = self.session.request(
                    method,
                    url,
                    params=query,
                    data=body,
                    headers=all_headers,
                    timeout=self.timeout if timeout is None else timeout,
                )
            except requests.Timeout as exc:
                if retry < max_retries:
                    self._sleep_before_retry(retry, None, f"{method} {url}: timeout ({exc})")
                    retry += 1
                    continue
                raise APITimeoutError(f"{method} {url} timed out: {exc}") from exc
            except _CONNECTION_ERRORS as exc:
                if retry < max_retries:
                    self._sleep_before_retry(retry, None, f"{method} {url}: {exc}")
                    retry += 1
                    continue
                raise APIConnectionError(f"{method} {url} failed: {exc}") from exc
            except requests.RequestException as exc:  # invalid URL, too many redirects, ...
                raise APIConnectionError(f"{method} {url} failed: {exc}") from exc

            self.last_response = response
            if log.isEnabledFor(logging.DEBUG):  # never the Authorization header
                log.debug(
                    "%s %s%s -> %d in %.0f ms%s%s",
                    method,
                    url,
                    f" (retry {retry})" if retry else "",
                    response.status_code,
                    (time.monotonic() - started) * 1000,
                    f" Idempotency-Key {idempotency_key}" if idempotency_key is not None else "",
                    " (Idempotent-Replayed)" if response.headers.get("Idempotent-Replayed") else "",
                )
            if response.status_code < 400:
                return response

            problem = ProblemDetails.from_response(response)
            if retry < max_retries and self._should_retry(
                response.status_code, problem, naturally_idempotent
            ):
                wait = parse_retry_after(response.headers.get("Retry-After"))
                if wait is None or wait <= MAX_RETRY_AFTER:
                    response.close()
                    self._sleep_before_retry(retry, wait, f"{method} {url}: {response.status_code}")
                    retry += 1
                    continue
                log.debug(
                    "not retrying %s %s: Retry-After %.0f s > %.0f s",
                    method,
                    url,
                    wait,
                    MAX_RETRY_AFTER,
                )
            raise status_error_from_response(response, problem)

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
        return self.request(
            "POST", path, json=json, headers=headers, idempotency_key=key, timeout=timeout
        )

    @staticmethod
    def _should_retry(status: int, problem: ProblemDetails, naturally_idempotent: bool) -> bool:
        if status in _RETRY_STATUSES:
            return True
        if status == 500:
            return naturally_idempotent
        if status == 409:
            return problem.type.endswith(IDEMPOTENCY_IN_FLIGHT_SUFFIX)
        return False

    @staticmethod
    def _sleep_before_retry(retry: int, retry_after: float | None, reason: str) -> None:
        wait = backoff_delay(retry) if retry_after is None else retry_after
        log.info("retrying in %.2f s (retry %d): %s", wait, retry + 1, reason)
        time.sleep(wait)
