"""End to end: ``AsyncClient`` (httpx) against the live gunicorn server: every method, the error
classes, and a retried append scored once. Each test runs its own event loop (``asyncio.run``, in a
thread of its own)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from handfoot.client import (
    APIConnectionError,
    AuthenticationError,
    Client,
    ConflictError,
    NotFoundError,
    PreconditionFailedError,
    TeamInput,
    UnprocessableEntityError,
)
from handfoot.client.params import side, tally
from tests.conftest import WORKED_CASES, run_async
from tests.helpers.live import LiveServer, free_port

httpx = pytest.importorskip("httpx", reason="the async extra: pip install -e '.[async]'")
from handfoot.client.aio import AsyncClient, AsyncTransport  # noqa: E402  (needs httpx)

T = TypeVar("T")
WORKED: dict[str, Any] = json.loads((WORKED_CASES / "s0-worked-round-cards.json").read_text(encoding="utf-8"))[
    "request"
]
WORKED_TEAMS: list[TeamInput] = WORKED["teams"]
SIDES = [{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}]


def run(live_server: LiveServer, body: Callable[[AsyncClient], Awaitable[T]], **options: Any) -> T:
    async def main() -> T:
        async with AsyncClient(live_server.url, api_key=live_server.api_key, **options) as hf:
            return await body(hf)

    return run_async(main())


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every wait the async transport asks for; nothing actually sleeps."""
    waits: list[float] = []

    async def record(retry: int, wait: float, reason: str) -> None:
        waits.append(wait)

    monkeypatch.setattr(AsyncTransport, "_sleep", staticmethod(record))
    return waits


def test_reads_and_computations_match_the_sync_client(live_server: LiveServer) -> None:
    async def body(hf: AsyncClient) -> None:
        assert (await hf.health()).status == "ok"
        presets = await hf.presets()
        assert "pagat" in [p.id for p in presets]
        assert (await hf.preset("pagat")).id == "pagat"
        score = await hf.score_round(preset="pagat", teams=WORKED_TEAMS)
        assert score.totals == {"Team 1": 3740, "Team 2": 1075}
        with Client(live_server.url) as sync:
            assert score == sync.score_round(preset="pagat", teams=WORKED_TEAMS)
            assert str(score) == str(sync.score_round(preset="pagat", teams=WORKED_TEAMS))
        compared = await hf.compare_presets(presets=["pagat", "bicycle"], teams=WORKED_TEAMS)
        assert [r.preset for r in compared.results] == ["pagat", "bicycle"]
        meld = await hf.validate_meld(preset="pagat", cards=["9D", "2S"], onto=["9S", "9H", "9C"])
        assert (meld.valid, meld.kind, meld.points) == (True, "dirty", 60)
        opening = await hf.check_opening(preset="pagat", melds=[["KS", "KH", "KD"]])
        assert (opening.met, opening.points, opening.minimum) == (False, 30, 50)
        going_out = await hf.check_going_out(preset="pagat", melds=[["KS", "KH", "KD"]])
        assert going_out.met is False
        pile = await hf.check_discard_pile(preset="pagat", hand=["9S", "9H"], pile=["9D", "4C"])
        assert isinstance(pile.allowed, bool)

    run(live_server, body)


def test_a_game_kept_with_the_async_client(live_server: LiveServer) -> None:
    async def body(hf: AsyncClient) -> None:
        game = await hf.create_game(name="async night", preset="pagat", teams=SIDES)
        assert game.etag and game.next_round == 1
        first = await hf.add_round(game.id, teams=WORKED_TEAMS)
        assert (first.number, [t.total for t in first.teams]) == (1, [3740, 1075])
        assert hf.last_response is not None and hf.last_response.status_code == 201
        second = await hf.add_round(
            game.id,
            round=2,
            teams=[
                side("Team 1", tally(clean_books=1, table_points=200, points_left=40)),
                side("Team 2", tally(clean_books=1, table_points=150, points_left=60)),
            ],
        )
        assert (await hf.round(game.id, 2)).etag == second.etag
        corrected = await hf.correct_round(
            game.id,
            2,
            teams=[
                side("Team 1", tally(clean_books=1, table_points=220, points_left=40)),
                side("Team 2", tally(clean_books=1, table_points=150, points_left=60)),
            ],
        )
        assert corrected.revision == 2
        assert [r.revision for r in await hf.revisions(game.id, 2)] == [1, 2]
        # a correction sent again with its Idempotency-Key (its answer lost) stores no revision
        fix = [
            side("Team 1", tally(clean_books=1, table_points=240, points_left=40)),
            side("Team 2", tally(clean_books=1, table_points=150, points_left=60)),
        ]
        first = await hf.correct_round(game.id, 2, teams=fix, if_match=corrected.etag, idempotency_key="fix-2")
        again = await hf.correct_round(game.id, 2, teams=fix, if_match=corrected.etag, idempotency_key="fix-2")
        assert first.revision == again.revision == 3 and again.etag == first.etag
        assert [r.revision for r in await hf.revisions(game.id, 2)] == [1, 2, 3]
        sheet = await hf.scoresheet(game.id)
        assert [row["round"] for row in sheet.rows()] == [1, 2]
        csv_text = await hf.scoresheet_csv(game.id)
        assert csv_text.splitlines()[0] == '"round","Team 1","Team 1 total","Team 2","Team 2 total"'
        stored = await hf.game(game.id)
        assert stored.rounds_played == 2
        listed = [g.id async for g in hf.games(page_size=2)]
        assert game.id in listed and listed == sorted(listed, reverse=True)
        await hf.delete_game(game.id, if_match=(await hf.game(game.id)).etag)
        with pytest.raises(NotFoundError):
            await hf.game(game.id)

    run(live_server, body)


def test_delete_the_last_round(live_server: LiveServer) -> None:
    async def body(hf: AsyncClient) -> None:
        game = await hf.create_game(name="undo", preset="pagat", teams=SIDES)
        await hf.add_round(game.id, teams=WORKED_TEAMS)
        await hf.add_round(game.id, teams=WORKED_TEAMS)
        with pytest.raises(ConflictError) as info:
            await hf.delete_round(game.id, 1)
        assert info.value.type.endswith("/not-last-round")
        stale = (await hf.game(game.id)).etag
        await hf.delete_round(game.id, 2)
        assert (await hf.game(game.id)).rounds_played == 1
        await hf.delete_round(game.id, 2, if_match=stale)  # a repeat: done already
        with pytest.raises(PreconditionFailedError):
            await hf.delete_round(game.id, 1, if_match=stale)
        await hf.delete_round(game.id, 1)
        assert (await hf.game(game.id)).rounds_played == 0

    run(live_server, body)


def test_the_error_classes(live_server: LiveServer) -> None:
    async def body(hf: AsyncClient) -> None:
        with pytest.raises(UnprocessableEntityError) as bad:
            await hf.score_round(preset="pagat", teams=[{"name": "A", "melds": [["KS", "XX"]]}, {"name": "B"}])
        assert bad.value.problem.errors[0].pointer == "/teams/0/melds/0/1"
        assert isinstance(bad.value.response, httpx.Response)
        with pytest.raises(NotFoundError):
            await hf.game(10**9)
        game = await hf.create_game(name="errors", preset="pagat", teams=SIDES)
        with pytest.raises(ConflictError):
            await hf.add_round(game.id, round=5, teams=WORKED_TEAMS)
        stale = (await hf.game(game.id)).etag
        await hf.add_round(game.id, teams=WORKED_TEAMS)
        with pytest.raises(PreconditionFailedError):
            await hf.delete_game(game.id, if_match=stale)
        async with AsyncClient(live_server.url) as anonymous:
            with pytest.raises(AuthenticationError):
                await anonymous.create_game(name="x", preset="pagat", teams=SIDES)
        async with AsyncClient(f"http://127.0.0.1:{free_port()}", max_retries=0) as closed:
            with pytest.raises(APIConnectionError):
                await closed.health()

    run(live_server, body)


class DropFirstAppendResponse(httpx.AsyncHTTPTransport):
    """Lets the first round append reach the server, then loses its answer (as a network would)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[httpx.Request] = []
        self.answers: list[httpx.Response] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        self.sent.append(request)
        self.answers.append(response)
        if request.method == "POST" and request.url.path.endswith("/rounds") and len(self.sent_appends()) == 1:
            await response.aclose()
            raise httpx.ReadError("the first answer was lost on purpose", request=request)
        return response

    def sent_appends(self) -> list[httpx.Request]:
        return [r for r in self.sent if r.method == "POST" and r.url.path.endswith("/rounds")]


def test_a_retried_append_is_scored_once(live_server: LiveServer, sleeps: list[float]) -> None:
    lossy = DropFirstAppendResponse()

    async def body(hf: AsyncClient) -> None:
        game = await hf.create_game(name="lossy", preset="pagat", teams=SIDES)
        appended = await hf.add_round(game.id, teams=WORKED_TEAMS)
        assert appended.number == 1
        assert hf.last_response is not None and hf.last_response.headers.get("Idempotent-Replayed") == "true"
        stored = await hf.game(game.id)
        assert stored.rounds_played == 1 and [t.total for t in stored.totals] == [3740, 1075]

    run(live_server, body, http=httpx.AsyncClient(transport=lossy))
    first, second = lossy.sent_appends()
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"]
    assert len(sleeps) == 1


def test_with_options_per_call(live_server: LiveServer) -> None:
    async def body(hf: AsyncClient) -> None:
        quick = hf.with_options(timeout=5.0, max_retries=0)
        assert (await quick.health()).status == "ok"
        assert quick._transport.http is hf._transport.http and quick._transport.max_retries == 0

    run(live_server, body)
