"""End to end: the export and the statistics through ``Client``, ``AsyncClient`` and the CLI
(``handfoot export --ndjson/--csv``, ``handfoot stats``) against the live gunicorn server.

The live server is shared by the session's tests: each test here counts only the games made since
it began (``since``), under its own players' names. Each export is read inside ``closing`` /
``aclosing``, so its stream is closed even when an assertion fails before it is read to its end.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import aclosing, closing
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from handfoot.client import Client, Game, Statistics, UnprocessableEntityError
from handfoot.client.cli import EXIT_OK, EXIT_PROBLEM, main
from handfoot.client.params import side, tally
from tests.conftest import run_async
from tests.helpers.live import LiveServer

httpx = pytest.importorskip("httpx", reason="the async extra: pip install -e '.[async]'")
from handfoot.client.aio import AsyncClient  # noqa: E402  (needs httpx)


@dataclass
class History:
    since: datetime
    ids: list[int]
    ann: str  # a player of both games, written differently in each


@pytest.fixture
def history(live_server: LiveServer) -> Iterator[History]:
    """Two games of the live server's key since ``since``: one finished (Ann's side won), one not."""
    since = datetime.now(UTC)
    ann = f"Ann-{uuid.uuid4().hex[:6]}"
    with Client(live_server.url, api_key=live_server.api_key) as hf:
        done = hf.create_game(
            name="Won",
            preset="pagat",
            rules={"rounds": 1},
            teams=[{"name": "Us", "players": [ann, "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}],
        )
        hf.add_round(
            done.id,
            teams=[
                side("Us", tally(clean_books=2, dirty_books=2, wild_books=1, table_points=500), went_out=True),
                side("Them", tally(clean_books=1, table_points=200, points_left=50)),
            ],
        )
        going = hf.create_game(
            name="Going",
            preset="bga",
            teams=[{"name": "A", "players": [ann.upper(), "Cy"]}, {"name": "B", "players": ["Bob", "Di"]}],
        )
        hf.add_round(
            going.id,
            teams=[
                side("A", tally(clean_books=1, table_points=100, points_left=10)),
                side("B", tally(clean_books=2, dirty_books=2, wild_books=1, table_points=300), went_out=True),
            ],
        )
        yield History(since, [done.id, going.id], ann)


def check_games(games: list[Game], h: History, hf: Client) -> None:
    assert [g.id for g in games] == h.ids
    assert games[0] == hf.game(h.ids[0]).__class__.from_json(hf.game(h.ids[0]).to_dict())
    assert [g.rounds[0].scores[0].total for g in games] == [3700, 590]


def check_stats(stats: Statistics, h: History) -> None:
    assert (stats.games, stats.rounds) == (2, 2)
    ann = stats.player(h.ann)
    assert ann is not None and ann.names == (h.ann, h.ann.upper())
    assert (ann.games, ann.finished, ann.wins, ann.rounds, ann.best_round, ann.went_out) == (2, 1, 1, 2, 3700, 1)
    assert ann.average_round == (3700 + 590) / 2
    assert dict(ann.books) == {"clean": 3, "dirty": 2, "wild": 1}
    assert {tuple(s.players) for s in stats.sides} == {
        (h.ann, "Bob"),
        ("Cy", "Di"),
        (h.ann.upper(), "Cy"),
        ("Bob", "Di"),
    }


def test_client_export_and_stats(live_server: LiveServer, history: History) -> None:
    with Client(live_server.url, api_key=live_server.api_key) as hf:
        with closing(hf.export_games(since=history.since)) as exported:  # the stream closed, read or not
            check_games(list(exported), history, hf)
        rows = list(csv.DictReader(io.StringIO(hf.export_csv(since=history.since))))
        assert [(int(r["game_id"]), r["side"], r["won_game"]) for r in rows] == [
            (history.ids[0], "Us", "1"),
            (history.ids[0], "Them", "0"),
            (history.ids[1], "A", "0"),
            (history.ids[1], "B", "0"),
        ]
        assert [
            int(r["game_id"]) for r in csv.DictReader(io.StringIO(hf.export_csv(since=history.since, preset="bga")))
        ] == [history.ids[1]] * 2
        check_stats(hf.stats(since=history.since.isoformat()), history)
        assert "games" in str(hf.stats(since=history.since))
        with pytest.raises(UnprocessableEntityError) as bad:
            hf.stats(since=history.since, until=history.since)
        assert [e.parameter for e in bad.value.problem.errors] == ["until"]
    with Client(live_server.url, api_key=live_server.other_key) as other:
        with closing(other.export_games(since=history.since)) as none:
            assert list(none) == []  # another key's games are not its own
        assert other.stats(since=history.since).games == 0


def test_async_client_export_and_stats(live_server: LiveServer, history: History) -> None:
    async def body() -> tuple[list[Game], str, Statistics]:
        async with AsyncClient(live_server.url, api_key=live_server.api_key) as hf:
            async with aclosing(hf.export_games(since=history.since)) as exported:
                games = [g async for g in exported]
            with pytest.raises(UnprocessableEntityError) as bad:  # a streamed request's problem, read whole
                async with aclosing(hf.export_games(since="soon")) as refused:
                    await anext(refused)
            assert [e.parameter for e in bad.value.problem.errors] == ["since"]
            return games, await hf.export_csv(since=history.since), await hf.stats(since=history.since)

    games, text, stats = run_async(body())
    with Client(live_server.url, api_key=live_server.api_key) as hf:
        check_games(games, history, hf)
        assert text == hf.export_csv(since=history.since)
    check_stats(stats, history)


#: More games than the server reads in one batch (BATCH_SIZE, 200), and an answer of many network reads.
MANY = 210


class Watched(httpx.AsyncHTTPTransport):
    """The network, with a note of when the last answer's body has been read to its end."""

    def __init__(self) -> None:
        super().__init__()
        self.ended = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        self.ended = False
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            extensions=response.extensions,
            stream=_Noted(response.stream, self),
        )


class _Noted(httpx.AsyncByteStream):
    def __init__(self, inner: Any, watched: Watched) -> None:
        self.inner, self.watched = inner, watched

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            yield chunk
        self.watched.ended = True

    async def aclose(self) -> None:
        await self.inner.aclose()


def test_async_export_streams_the_games_the_sync_client_gives(live_server: LiveServer) -> None:
    """``AsyncClient.export_games`` gives its first game before the answer's end has arrived (it
    streams, as ``Client.export_games`` does), and gives the same games, in the same order."""
    since = datetime.now(UTC)
    teams = [{"name": "Us", "players": ["Ed", "Flo"]}, {"name": "Them", "players": ["Gus", "Hal"]}]
    with Client(live_server.url, api_key=live_server.api_key) as hf:
        ids = [hf.create_game(name=f"Many {i}", preset="pagat", teams=teams).id for i in range(MANY)]
        with closing(hf.export_games(since=since)) as exported:
            given = list(exported)
    assert [g.id for g in given] == ids

    watched = Watched()

    async def body() -> tuple[list[Game], bool]:
        games: list[Game] = []
        first_before_end = False
        async with (
            httpx.AsyncClient(transport=watched) as http,
            AsyncClient(live_server.url, api_key=live_server.api_key, http=http) as hf,
            aclosing(hf.export_games(since=since)) as exported,
        ):
            async for game in exported:
                if not games:
                    first_before_end = not watched.ended
                games.append(game)
        return games, first_before_end

    games, first_before_end = run_async(body())
    assert first_before_end, "the whole answer was read before the first game was given"
    assert watched.ended  # and then read to its end
    assert games == given


def cli(server: LiveServer, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--url", server.url, "--api-key", server.api_key, *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_export_ndjson_and_csv(live_server: LiveServer, history: History) -> None:
    since = history.since.isoformat()
    code, out, err = cli(live_server, "export", "--since", since)
    assert (code, err) == (EXIT_OK, "")
    lines: list[dict[str, Any]] = [json.loads(line) for line in out.splitlines()]
    assert [g["id"] for g in lines] == history.ids
    assert cli(live_server, "export", "--ndjson", "--since", since)[1] == out
    code, text, err = cli(live_server, "export", "--csv", "--since", since, "--preset", "pagat")
    assert (code, err) == (EXIT_OK, "")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["side"], r["score"]) for r in rows] == [("Us", "3700"), ("Them", "650")]
    code, _, err = cli(live_server, "export", "--since", "soon")
    assert code == EXIT_PROBLEM and "since" in err


def test_cli_stats(live_server: LiveServer, history: History) -> None:
    since = history.since.isoformat()
    code, out, err = cli(live_server, "stats", "--since", since, "--json")
    assert (code, err) == (EXIT_OK, "")
    check_stats(Statistics.from_json(json.loads(out)), history)
    code, out, err = cli(live_server, "stats", "--since", since)
    assert (code, err) == (EXIT_OK, "")
    assert "2 games, 2 rounds" in out
    ann_line = next(line for line in out.splitlines() if line.startswith(history.ann.upper()))
    assert ann_line.split()[1:4] == ["2", "1", "2"]  # games, wins, rounds
