"""Paginated lists: ``Page[T]`` and ``iter_all``; ``AsyncPage[T]`` for ``AsyncClient``.

The next page is found from the RFC 8288 ``Link: <...>; rel="next"`` header, whatever it carries
(the games list: an opaque ``cursor``; a round's revisions: a ``page`` number), followed only when
it points to the client's own origin (scheme, host and port), so a response cannot send the API key
elsewhere. If the server sends no ``Link`` header, ``X-Pagination``'s ``next_page`` is used on the
same URL. Totals come from the ``X-Pagination`` JSON header when the server sends it: the games
list's keyset pages send it only when the first page holds the whole list (``total`` is ``None``
otherwise); its deprecated numbered pages (``page=``) always do.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from ._errors import APIResponseValidationError
from ._http import HTTPResponse, origin
from ._transport import QueryParams, Transport

if TYPE_CHECKING:
    from ._async_transport import AsyncTransport  # the async extra (httpx); imported only by AsyncClient

__all__ = ["AsyncPage", "Page", "async_fetch_page", "fetch_page", "iter_all"]

T = TypeVar("T")


def _int_or_none(data: Mapping[str, object], key: str) -> int | None:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _x_pagination(headers: Mapping[str, str]) -> Mapping[str, object]:
    raw = headers.get("X-Pagination")
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    return data if isinstance(data, Mapping) else {}


def _with_query(url: str, **changes: int) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in changes]
    query.extend((k, str(v)) for k, v in changes.items())
    return urlunsplit(parts._replace(query=urlencode(query)))


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list. ``next_page()`` fetches the following page; ``iter_all()`` walks all."""

    items: tuple[T, ...]
    page: int | None = None
    page_size: int | None = None
    total: int | None = None
    total_pages: int | None = None
    next_url: str | None = None
    """The absolute URL of the next page, as the server announced it (not yet checked)."""
    url: str | None = None
    """The URL this page was fetched from."""
    _transport: Transport | None = field(default=None, repr=False, compare=False)
    _parse: Callable[[object], T] | None = field(default=None, repr=False, compare=False)

    def has_next_page(self) -> bool:
        return self.next_url is not None

    def __iter__(self) -> Iterator[T]:
        """This page's items: ``for game in page``; ``iter_all()`` walks the pages after it too."""
        return iter(self.items)

    def __len__(self) -> int:
        """How many items this page holds (``total`` is the whole list's, where the server says)."""
        return len(self.items)

    def next_page(self) -> Page[T] | None:
        """The next page, or ``None`` on the last one.

        Raises ``APIResponseValidationError`` if the next link points to another origin.
        """
        if self.next_url is None:
            return None
        if self._transport is None or self._parse is None:
            raise RuntimeError("this Page was not fetched by a client; it cannot load more")
        _check_origin(self.next_url, self._transport.base_url)
        return fetch_page(self._transport, self.next_url, parse=self._parse)

    def iter_all(self) -> Iterator[T]:
        """Every item of this page and of all the pages after it, fetched lazily."""
        return iter_all(self)


def iter_all(first: Page[T]) -> Iterator[T]:
    """Yield the items of ``first`` and of each following page (stops if a link loops)."""
    page: Page[T] | None = first
    seen: set[str] = {first.url} if first.url else set()
    while page is not None:
        yield from page.items
        if page.next_url is None or page.next_url in seen:
            return
        seen.add(page.next_url)
        page = page.next_page()


def _page_fields(
    url: str, body: object, headers: Mapping[str, str], links: Mapping[str, Mapping[str, str]]
) -> dict[str, Any]:
    """What a page answer says (items still unparsed), read the same for both clients."""
    if isinstance(body, Mapping) and isinstance(body.get("items"), list):
        body = body["items"]
    if not isinstance(body, list):
        raise APIResponseValidationError(f"GET {url}: expected a JSON array of items")
    meta = _x_pagination(headers)
    next_url: str | None = None
    link = links.get("next")
    if link and link.get("url"):
        next_url = urljoin(url, link["url"])
    else:
        next_number = _int_or_none(meta, "next_page")
        if next_number is not None:
            next_url = _with_query(url, page=next_number)
    page_size = _int_or_none(meta, "page_size")
    if page_size is None:
        query = dict(parse_qsl(urlsplit(url).query))
        if query.get("page_size", "").isdigit():
            page_size = int(query["page_size"])
    return {
        "items": body,
        "page": _int_or_none(meta, "page"),
        "page_size": page_size,
        "total": _int_or_none(meta, "total"),
        "total_pages": _int_or_none(meta, "total_pages"),
        "next_url": next_url,
        "url": url,
    }


def _json_body(response: HTTPResponse, url: str) -> object:
    try:
        return response.json()
    except ValueError as exc:
        raise APIResponseValidationError(f"GET {url}: response is not JSON") from exc


def _check_origin(next_url: str, base_url: str) -> None:
    if origin(next_url) != origin(base_url):
        raise APIResponseValidationError(
            f"refusing to follow a next-page link to another origin: {next_url!r} "
            f"(the client's base URL is {base_url!r})"
        )


def fetch_page(
    transport: Transport,
    path: str,
    *,
    parse: Callable[[object], T],
    params: QueryParams | None = None,
) -> Page[T]:
    """GET one page of a list endpoint and wrap it (the body is a JSON array of items)."""
    response = transport.request("GET", path, params=params)
    fields = _page_fields(response.url, _json_body(response, response.url), response.headers, response.links)
    items = tuple(parse(item) for item in fields.pop("items"))
    return Page(items=items, **fields, _transport=transport, _parse=parse)


@dataclass(frozen=True)
class AsyncPage(Generic[T]):
    """``Page`` for ``AsyncClient``: the same fields; ``await page.next_page()``, and
    ``async for item in page.iter_all()``."""

    items: tuple[T, ...]
    page: int | None = None
    page_size: int | None = None
    total: int | None = None
    total_pages: int | None = None
    next_url: str | None = None
    """The absolute URL of the next page, as the server announced it (not yet checked)."""
    url: str | None = None
    """The URL this page was fetched from."""
    _transport: AsyncTransport | None = field(default=None, repr=False, compare=False)
    _parse: Callable[[object], T] | None = field(default=None, repr=False, compare=False)

    def has_next_page(self) -> bool:
        return self.next_url is not None

    def __iter__(self) -> Iterator[T]:
        """This page's items: ``for game in page``; ``iter_all()`` walks the pages after it too."""
        return iter(self.items)

    def __len__(self) -> int:
        """How many items this page holds (``total`` is the whole list's, where the server says)."""
        return len(self.items)

    async def next_page(self) -> AsyncPage[T] | None:
        """As ``Page.next_page``, awaited."""
        if self.next_url is None:
            return None
        if self._transport is None or self._parse is None:
            raise RuntimeError("this AsyncPage was not fetched by a client; it cannot load more")
        _check_origin(self.next_url, self._transport.base_url)
        return await async_fetch_page(self._transport, self.next_url, parse=self._parse)

    async def iter_all(self) -> AsyncIterator[T]:
        """Every item of this page and of all the pages after it, fetched as you iterate (stops if a
        link loops)."""
        page: AsyncPage[T] | None = self
        seen: set[str] = {self.url} if self.url else set()
        while page is not None:
            for item in page.items:
                yield item
            if page.next_url is None or page.next_url in seen:
                return
            seen.add(page.next_url)
            page = await page.next_page()


async def async_fetch_page(
    transport: AsyncTransport, path: str, *, parse: Callable[[object], T], params: QueryParams | None = None
) -> AsyncPage[T]:
    """``fetch_page`` on the async transport."""
    response = await transport.request("GET", path, params=params)
    url = str(response.url)
    links = {str(key): {k: str(v) for k, v in link.items()} for key, link in response.links.items()}
    fields = _page_fields(url, _json_body(response, url), response.headers, links)
    items = tuple(parse(item) for item in fields.pop("items"))
    return AsyncPage(items=items, **fields, _transport=transport, _parse=parse)
