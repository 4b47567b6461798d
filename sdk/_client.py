"""``Client``: one typed method per API operation."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote

import requests

from ._errors import APIResponseValidationError
from ._transport import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    QueryParams,
    Timeout,
    Transport,
)
from .models import Preset, PresetSummary, RoundScore
from .pagination import Page, fetch_page
from .params import TeamInput

__all__ = ["Client"]

T = TypeVar("T")

ENV_BASE_URL = "HANDFOOT_URL"
ENV_API_KEY = "HANDFOOT_API_KEY"


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


class Client:
    """A client of the handfoot HTTP API.

    ``base_url`` defaults to ``$HANDFOOT_URL``, then ``http://127.0.0.1:8000``; ``api_key`` to
    ``$HANDFOOT_API_KEY`` (sent as ``Authorization: Bearer <key>``). ``timeout`` is passed to
    requests (a number, or ``(connect, read)``). ``max_retries`` bounds the retries of a request
    that is safe to repeat (see ``sdk._transport``). A ``session`` passed in is used as is and left
    open by ``close()``; otherwise the client creates one and closes it. Use as a context manager::

        with Client() as hf:
            print(hf.score_round(preset="pagat", teams=[...]))
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        session: requests.Session | None = None,
    ) -> None:
        self._transport = Transport(
            base_url or _env(ENV_BASE_URL) or DEFAULT_BASE_URL,
            api_key=api_key if api_key is not None else _env(ENV_API_KEY),
            timeout=timeout,
            max_retries=max_retries,
            session=session,
        )

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def api_key(self) -> str | None:
        return self._transport.api_key

    @property
    def timeout(self) -> Timeout:
        return self._transport.timeout

    @property
    def max_retries(self) -> int:
        return self._transport.max_retries

    def close(self) -> None:
        """Close the HTTP session if the client created it."""
        self._transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r})"

    # ------------------------------------------------------------------ presets

    def presets(self) -> list[PresetSummary]:
        """``GET /v1/presets``: every preset's id, name, source and one-line summary."""
        data = self._request_json("GET", "/v1/presets")
        if not isinstance(data, list):
            raise APIResponseValidationError("GET /v1/presets: expected a JSON array")
        return [PresetSummary.from_json(item, f"presets[{i}]") for i, item in enumerate(data)]

    def preset(self, preset_id: str) -> Preset:
        """``GET /v1/presets/{id}``: the full rule set with the provenance of each value."""
        data = self._request_json("GET", f"/v1/presets/{quote(preset_id, safe='')}")
        return Preset.from_json(data)

    # ------------------------------------------------------------------ scoring

    def score_round(
        self,
        *,
        preset: str,
        teams: Sequence[TeamInput],
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> RoundScore:
        """``POST /v1/rounds/score``: score one round for all teams, from cards or tallies.

        ``rules`` are house-rule overrides on top of ``preset``. A round that breaks the rules
        raises ``UnprocessableEntityError`` whose ``problems`` name each rule broken. The call has
        no side effects on the server, so it is retried like a GET.
        """
        body: dict[str, object] = {"preset": preset, "round": round, "teams": list(teams)}
        if rules is not None:
            body["rules"] = rules
        data = self._request_json("POST", "/v1/rounds/score", json=body, idempotent=True)
        return RoundScore.from_json(data)

    # ------------------------------------------------------------------ internal helpers
    # A new endpoint method is a thin wrapper over one of these:
    #   reads and pure computations  -> self._request_json(method, path, ..., idempotent=True)
    #   creating writes (appends)    -> self._post_idempotent(path, json=body)
    #   paginated lists              -> self._get_page(path, parse=Model.from_json, params=...)

    def _request(
        self,
        method: str,
        path: str,
        *,
        params: QueryParams | None = None,
        json: object = None,
        headers: Mapping[str, str] | None = None,
        idempotent: bool = False,
        idempotency_key: str | None = None,
    ) -> requests.Response:
        return self._transport.request(
            method,
            path,
            params=params,
            json=json,
            headers=headers,
            idempotent=idempotent,
            idempotency_key=idempotency_key,
        )

    def _request_json(
        self,
        method: str,
        path: str,
        *,
        params: QueryParams | None = None,
        json: object = None,
        headers: Mapping[str, str] | None = None,
        idempotent: bool = False,
        idempotency_key: str | None = None,
    ) -> Any:
        """Send a request and return its decoded JSON body (``None`` for an empty body)."""
        response = self._request(
            method,
            path,
            params=params,
            json=json,
            headers=headers,
            idempotent=idempotent,
            idempotency_key=idempotency_key,
        )
        return _decode_json(response)

    def _post_idempotent(
        self,
        path: str,
        *,
        json: object,
        idempotency_key: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[Any, requests.Response]:
        """POST with an automatic ``Idempotency-Key`` (one uuid4 per call, reused on retries).

        Returns the decoded body and the response (for ``ETag``/``Location`` headers).
        """
        response = self._transport.post_with_idempotency_key(
            path, json=json, idempotency_key=idempotency_key, headers=headers
        )
        return _decode_json(response), response

    def _get_page(
        self,
        path: str,
        *,
        parse: Callable[[object], T],
        params: QueryParams | None = None,
    ) -> Page[T]:
        """GET one page of a paginated list; the page can fetch the rest (``iter_all()``)."""
        return fetch_page(self._transport, path, parse=parse, params=params)


def _decode_json(response: requests.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError as exc:
        raise APIResponseValidationError(
            f"{response.request.method} {response.url}: response is not JSON "
            f"(Content-Type {response.headers.get('Content-Type')!r})"
        ) from exc
