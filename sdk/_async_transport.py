"""``AsyncTransport``: ``Transport``'s job on httpx for ``AsyncClient`` (``handfoot.client.aio``).

What a request carries and when it is retried is ``handfoot.client._transport.prepare`` and
``handfoot.client._retry``, shared with the sync transport; errors are the same classes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

import httpx

from ._errors import status_error_from_response
from ._raw import record_answer
from ._transport import (
    BaseTransport,
    QueryParams,
    Timeout,
    backoff_delay,
    log,
    log_answer,
    no_answer_error,
    prepare,
    retry_wait_for,
    timeout_message,
)
from .types import ProblemDetails

__all__ = ["AsyncTransport"]


#: What each httpx timeout says timed out (``handfoot.client._transport.timeout_message``).
_TIMEOUT_PHASES: dict[type[Exception], str] = {
    httpx.ConnectTimeout: "connecting",
    httpx.WriteTimeout: "sending the request",
    httpx.ReadTimeout: "reading the answer",
    httpx.PoolTimeout: "waiting for a free connection",
}


def _httpx_timeout(timeout: Timeout) -> httpx.Timeout:
    if isinstance(timeout, tuple):
        connect, read = timeout
        return httpx.Timeout(read, connect=connect)
    return httpx.Timeout(timeout)


class AsyncTransport(BaseTransport):
    """``Transport``'s job on an ``httpx.AsyncClient``: same preparation, same policy."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None,
        timeout: Timeout,
        max_retries: int,
        http: httpx.AsyncClient | None = None,
        parent: AsyncTransport | None = None,
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
        self._owns_http = http is None
        self.http = http if http is not None else httpx.AsyncClient()
        self.last_response: httpx.Response | None = None

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: QueryParams | None = None,
        json: object = None,
        headers: Mapping[str, str] | None = None,
        idempotent: bool = False,
        idempotency_key: str | None = None,
        stream: bool = False,
        timeout: Timeout | None = None,
    ) -> httpx.Response:
        """As ``Transport.request``: a 2xx/3xx answer, or the SDK's exception for the error.
        ``stream=True``: a 2xx/3xx body is read as the caller iterates it (``aiter_lines``...), and
        the caller closes it (``await response.aclose()``); an error's body is read whole first."""
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
        limit = self.timeout if timeout is None else timeout
        retry = 0
        while True:
            self.check_open(method, url)
            started = time.monotonic()
            try:
                sent = self.http.build_request(
                    method,
                    url,
                    params=prepared.query,
                    content=prepared.body,
                    headers=prepared.headers,
                    timeout=_httpx_timeout(limit),
                )
                response = await self.http.send(sent, stream=stream)
                if stream and response.status_code >= 400:
                    await response.aread()  # the problem's body, read (and the stream closed) before it is parsed
            except (httpx.TransportError, RuntimeError) as exc:  # timeouts among them; RuntimeError: httpx closed
                self.check_open(method, url, exc, prepared)
                if isinstance(exc, RuntimeError):
                    raise
                message = (
                    timeout_message(method, url, _TIMEOUT_PHASES.get(type(exc), "reading the answer"), limit, retry + 1)
                    if isinstance(exc, httpx.TimeoutException)
                    else f"{method} {url} failed: {exc}"
                )
                if retry < prepared.max_retries:
                    await self._sleep(retry, backoff_delay(retry), message)
                    retry += 1
                    continue
                connecting = isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout))
                timed_out = isinstance(exc, httpx.TimeoutException)
                raise no_answer_error(
                    prepared, self.base_url, message, connecting=connecting, timed_out=timed_out
                ) from exc
            self.last_response = response
            record_answer(response, streamed=stream)
            log_answer(prepared, retry, response.status_code, response.headers, started)
            if response.status_code < 400:
                return response
            problem = ProblemDetails.from_response(response)
            wait = retry_wait_for(prepared, retry, response.status_code, problem, response.headers.get("Retry-After"))
            if wait is None:
                raise status_error_from_response(response, problem)
            await self._sleep(retry, wait, f"{method} {url}: {response.status_code}")
            retry += 1

    @staticmethod
    async def _sleep(retry: int, wait: float, reason: str) -> None:
        log.info("retrying in %.2f s (retry %d): %s", wait, retry + 1, reason)
        await asyncio.sleep(wait)
