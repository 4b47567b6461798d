"""Pagination: follow Link rel="next" (same origin only), totals from X-Pagination."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
import responses
from responses import matchers

from handfoot.client import APIResponseValidationError, Client, Page
from tests.helpers.sdk import BASE

GAMES = f"{BASE}/v1/games"


@dataclass(frozen=True)
class Item:
    id: int

    @classmethod
    def from_json(cls, data: object) -> Item:
        assert isinstance(data, dict)
        return cls(int(data["id"]))


def pagination(page: int, *, total: int = 7, total_pages: int = 3) -> dict[str, str]:
    meta = {
        "total": total,
        "total_pages": total_pages,
        "first_page": 1,
        "last_page": total_pages,
        "page": page,
    }
    if page < total_pages:
        meta["next_page"] = page + 1
    return {"X-Pagination": json.dumps(meta)}


def add_page(rsps: responses.RequestsMock, page: int, ids: list[int], next_link: str | None) -> None:
    headers = pagination(page)
    if next_link is not None:
        headers["Link"] = f'<{next_link}>; rel="next", <{GAMES}?page=3&page_size=3>; rel="last"'
    params = {"page_size": "3"} if page == 1 else {"page": str(page), "page_size": "3"}
    rsps.get(
        GAMES,
        json=[{"id": i} for i in ids],
        headers=headers,
        match=[matchers.query_param_matcher(params)],
    )


def test_walks_three_pages_following_link(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    add_page(rsps, 1, [1, 2, 3], f"{GAMES}?page=2&page_size=3")
    add_page(rsps, 2, [4, 5, 6], "/v1/games?page=3&page_size=3")  # relative link
    add_page(rsps, 3, [7], None)

    first = sdk_client._get_page("/v1/games", parse=Item.from_json, params={"page_size": 3})
    assert isinstance(first, Page)
    assert first.items == (Item(1), Item(2), Item(3))
    assert (first.page, first.page_size, first.total, first.total_pages) == (1, 3, 7, 3)
    assert first.has_next_page()

    assert [item.id for item in first.iter_all()] == [1, 2, 3, 4, 5, 6, 7]
    assert len(rsps.calls) == 3

    second = first.next_page()
    assert second is not None and second.page == 2
    third = second.next_page()
    assert third is not None and third.items == (Item(7),) and not third.has_next_page()
    assert third.next_page() is None


def test_cross_origin_next_link_is_refused(rsps: responses.RequestsMock) -> None:
    sdk_client = Client(BASE, api_key="secret")
    rsps.get(
        GAMES,
        json=[{"id": 1}],
        headers={"Link": '<http://evil.test/v1/games?page=2>; rel="next"', **pagination(1)},
    )
    first = sdk_client._get_page("/v1/games", parse=Item.from_json)
    seen: list[int] = []
    with pytest.raises(APIResponseValidationError, match="another origin"):
        for item in first.iter_all():
            seen.append(item.id)
    assert seen == [1]
    assert len(rsps.calls) == 1  # nothing was sent to evil.test


@pytest.mark.parametrize("link", ["https://api.test/v1/games?page=2", "http://api.test:8080/v1/games?page=2"])
def test_other_scheme_or_port_is_another_origin(rsps: responses.RequestsMock, sdk_client: Client, link: str) -> None:
    rsps.get(GAMES, json=[], headers={"Link": f'<{link}>; rel="next"'})
    with pytest.raises(APIResponseValidationError):
        sdk_client._get_page("/v1/games", parse=Item.from_json).next_page()


def test_explicit_default_port_is_same_origin(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(
        GAMES,
        json=[],
        headers={"Link": '<http://API.test:80/v1/games?page=2>; rel="next"'},
        match=[matchers.query_param_matcher({})],
    )
    rsps.get(
        "http://api.test:80/v1/games",
        json=[{"id": 9}],
        match=[matchers.query_param_matcher({"page": "2"})],
    )
    items = list(sdk_client._get_page("/v1/games", parse=Item.from_json).iter_all())
    assert items == [Item(9)]


def test_falls_back_to_x_pagination_without_link(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(
        GAMES,
        json=[{"id": 1}],
        headers=pagination(1, total=2, total_pages=2),
        match=[matchers.query_param_matcher({"status": "open"})],
    )
    rsps.get(
        GAMES,
        json=[{"id": 2}],
        headers=pagination(2, total=2, total_pages=2),
        match=[matchers.query_param_matcher({"status": "open", "page": "2"})],
    )
    page = sdk_client._get_page("/v1/games", parse=Item.from_json, params={"status": "open"})
    assert [i.id for i in page.iter_all()] == [1, 2]


def test_single_page_without_headers(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(GAMES, json=[{"id": 1}])
    page = sdk_client._get_page("/v1/games", parse=Item.from_json)
    assert (page.page, page.total, page.total_pages, page.next_url) == (None, None, None, None)
    assert list(page.iter_all()) == [Item(1)]


def test_link_loop_stops(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(GAMES, json=[{"id": 1}], headers={"Link": f'<{GAMES}>; rel="next"'})
    items = list(sdk_client._get_page("/v1/games", parse=Item.from_json).iter_all())
    assert items == [Item(1)]
    assert len(rsps.calls) == 1


def summary(game_id: int) -> dict[str, object]:
    return {
        "id": game_id,
        "name": f"g{game_id}",
        "preset": "pagat",
        "status": "in_progress",
        "rounds_played": 0,
        "next_round": 1,
        "teams": [],
        "totals": [],
        "leaders": [],
        "winner": None,
        "tie": False,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
    }


def test_async_games_page_reads_and_follows_the_same_headers() -> None:
    """``AsyncClient.games_page`` gives an ``AsyncPage`` with ``Page``'s fields, following ``Link`` on the same
    origin only, as ``Client.games_page`` does."""
    httpx = pytest.importorskip("httpx", reason="the async extra")
    from handfoot.client.aio import AsyncClient
    from handfoot.client.pagination import AsyncPage
    from tests.conftest import run_async

    def handler(request: httpx.Request) -> httpx.Response:
        cursor = request.url.params.get("cursor")
        if cursor is None:
            return httpx.Response(
                200,
                json=[summary(3), summary(2)],
                headers={
                    **pagination(1, total=4, total_pages=2),
                    "Link": f'<{GAMES}?cursor=c2&page_size=2>; rel="next"',
                },
            )
        if cursor == "c2":
            return httpx.Response(
                200,
                json=[summary(1), summary(0)],
                headers={"Link": '<http://elsewhere.test/v1/games?cursor=c3>; rel="next"'},
            )
        raise AssertionError(f"unexpected {request.url}")

    async def main() -> tuple[AsyncPage[object], list[int], Exception | None]:
        async with AsyncClient(BASE, http=httpx.AsyncClient(transport=httpx.MockTransport(handler))) as ahf:
            first = await ahf.games_page(status="in_progress", page_size=2)
            ids = []
            try:
                async for game in first.iter_all():
                    ids.append(game.id)
            except APIResponseValidationError as exc:
                return first, ids, exc
            return first, ids, None

    first, ids, refused = run_async(main())
    assert (first.total, first.total_pages, first.page_size, first.has_next_page()) == (4, 2, 2, True)
    assert first.url == f"{GAMES}?status=in_progress&page_size=2"
    assert ids == [3, 2, 1, 0]
    assert refused is not None and "another origin" in str(refused)
