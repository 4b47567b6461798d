"""Per-call raw responses: ``hf.with_raw_response(hf.score_round, preset=..., teams=...)``.

Both clients give the same ``RawResponse[T]`` (``status``, ``headers``, ``body``, ``parsed``,
``request_id``), whatever HTTP library carried the answer. The answers of one call are collected in a
``contextvars.ContextVar`` that ``with_raw_response`` sets for the call and the transports
(``Transport.request``, ``AsyncTransport.request``) append to: a thread starts with a context of its
own and ``asyncio.gather`` runs each awaitable in a task with a copy of its caller's, so concurrent
calls never see each other's answers (``last_response``, one slot per client, does).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Generic, ParamSpec, TypeVar

from ._http import HTTPResponse

__all__ = ["AsyncRawResponseMethods", "Headers", "RawResponse", "RawResponseMethods", "record_answer"]

P = ParamSpec("P")
T = TypeVar("T")

#: The answers received so far by the call ``with_raw_response`` is running (``None`` outside one),
#: each with whether its body is streamed (left unread for the caller to iterate).
_ANSWERS: ContextVar[list[tuple[HTTPResponse, bool]] | None] = ContextVar("handfoot_raw_answers", default=None)


def record_answer(response: HTTPResponse, *, streamed: bool = False) -> None:
    """Called by the transports on every HTTP answer (retried ones included), success or error."""
    answers = _ANSWERS.get()
    if answers is not None:
        answers.append((response, streamed))


class Headers(Mapping[str, str]):
    """Read-only, case-insensitive response headers (``headers["etag"] == headers["ETag"]``),
    iterated under the names the server sent. A header sent more than once is one value joined by
    ``", "`` (RFC 9110 §5.3)."""

    __slots__ = ("_store",)

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        store: dict[str, tuple[str, str]] = {}
        pairs = items.items() if isinstance(items, Mapping) else items
        for name, value in pairs:
            key = name.lower()
            store[key] = (store[key][0], f"{store[key][1]}, {value}") if key in store else (name, value)
        self._store = store

    def __getitem__(self, name: str) -> str:
        return self._store[name.lower()][1]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._store

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._store.values())

    def __len__(self) -> int:
        return len(self._store)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return {k: v for k, (_, v) in self._store.items()} == {str(k).lower(): v for k, v in other.items()}

    __hash__ = None  # type: ignore[assignment]  # a mapping compares by content, so it is not hashable

    def __repr__(self) -> str:
        return f"Headers({dict(self._store.values())!r})"

    def __getstate__(self) -> dict[str, tuple[str, str]]:
        return self._store

    def __setstate__(self, state: dict[str, tuple[str, str]]) -> None:
        self._store = state


@dataclass(frozen=True, slots=True, eq=False)
class RawResponse(Generic[T]):
    """One call's HTTP answer and its result. ``status`` is the HTTP status; ``headers``
    (``Headers``) hold ``ETag``, ``Idempotent-Replayed``, ``X-RateLimit-*``...; ``body`` is the bytes
    received (``b""`` for a streamed body, which ``parsed`` reads as you iterate it); ``parsed`` is
    what the method returned; ``request_id`` is the answer's ``X-Request-ID``. A call that sends
    several requests (``correct_round`` reads the round first; retries) gives its last answer."""

    status: int
    headers: Headers
    body: bytes
    parsed: T
    request_id: str | None

    @classmethod
    def of(cls, response: HTTPResponse, parsed: T, *, streamed: bool = False) -> RawResponse[T]:
        headers = Headers(response.headers.items())
        return cls(
            status=response.status_code,
            headers=headers,
            body=b"" if streamed else response.content,
            parsed=parsed,
            request_id=headers.get("X-Request-ID") or None,
        )


def _last_answer(answers: list[tuple[HTTPResponse, bool]], method: Callable[..., object]) -> tuple[HTTPResponse, bool]:
    if not answers:
        name = getattr(method, "__qualname__", repr(method))
        raise ValueError(
            f"{name} received no HTTP answer during the call (an iterator fetches as it is "
            "iterated: ask for a page, e.g. games_page(), instead)"
        )
    return answers[-1]


class RawResponseMethods:
    """``with_raw_response`` for ``Client``."""

    def with_raw_response(self, method: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> RawResponse[T]:
        """Call ``method`` (a method of this client) with ``args`` and return its result together
        with the HTTP answer it got, as a ``RawResponse``. Errors are raised as the method raises
        them (each carries its own ``response``). Safe under threads, unlike ``last_response``::

            raw = hf.with_raw_response(hf.add_round, game.id, teams=teams)
            raw.status, raw.headers.get("Idempotent-Replayed"), raw.parsed.number
        """
        token = _ANSWERS.set([])
        try:
            parsed = method(*args, **kwargs)
            answers = _ANSWERS.get() or []
        finally:
            _ANSWERS.reset(token)
        response, streamed = _last_answer(answers, method)
        return RawResponse.of(response, parsed, streamed=streamed)


class AsyncRawResponseMethods:
    """``with_raw_response`` for ``AsyncClient``."""

    async def with_raw_response(
        self, method: Callable[P, Awaitable[T]], /, *args: P.args, **kwargs: P.kwargs
    ) -> RawResponse[T]:
        """As ``Client.with_raw_response``, awaited: ``await hf.with_raw_response(hf.game, 7)``.
        Calls gathered with ``asyncio.gather`` each get their own answer."""
        token = _ANSWERS.set([])
        try:
            parsed = await method(*args, **kwargs)
            answers = _ANSWERS.get() or []
        finally:
            _ANSWERS.reset(token)
        response, streamed = _last_answer(answers, method)
        return RawResponse.of(response, parsed, streamed=streamed)
