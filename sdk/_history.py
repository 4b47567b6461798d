"""Histories in bulk: ``Client``'s and ``AsyncClient``'s export and statistics methods.

``GET /v1/games/export`` answers NDJSON (one game a line, each a :class:`~handfoot.client.types.Game`)
or CSV (one row per side per round); ``GET /v1/games/stats`` the figures per player and per side.
Both take the same filters: ``since`` (inclusive) and ``until`` (exclusive), each a ``date``,
a ``datetime`` or an ISO 8601 string (a date is its midnight UTC; no offset is UTC), and ``preset``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import date, datetime
from typing import TYPE_CHECKING

from ._errors import APIResponseValidationError
from ._transport import QueryParams
from .types import Game, PresetId, Statistics

if TYPE_CHECKING:
    from ._async_transport import AsyncTransport
    from ._transport import Transport

__all__ = ["AsyncHistoryMethods", "HistoryMethods", "Moment"]

#: A filter's moment: a date (midnight UTC), a datetime, or its ISO 8601 text.
Moment = date | datetime | str

EXPORT_PATH = "/v1/games/export"
STATS_PATH = "/v1/games/stats"


def _moment(value: Moment | None) -> str | None:
    return value.isoformat() if isinstance(value, date) else value


def history_params(
    since: Moment | None, until: Moment | None, preset: PresetId | None, fmt: str | None = None
) -> QueryParams:
    params: dict[str, str | None] = {"since": _moment(since), "until": _moment(until), "preset": preset}
    if fmt is not None:
        params["format"] = fmt
    return params


def game_of_line(number: int, line: bytes | str) -> Game | None:
    """NDJSON line ``number`` (from 1) of the export read as a ``Game``; ``None`` for an empty line.
    Raises ``APIResponseValidationError`` for a line that is not JSON."""
    if not line.strip():
        return None
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise APIResponseValidationError(f"{EXPORT_PATH}: line {number} is not JSON") from exc
    return Game.from_json(data)


def games_of_lines(lines: Iterable[bytes | str]) -> Iterator[Game]:
    """Each non-empty NDJSON line read as a ``Game``."""
    for number, line in enumerate(lines, 1):
        game = game_of_line(number, line)
        if game is not None:
            yield game


def _csv_text(content: bytes, encoding: str | None) -> str:
    return content.decode(encoding or "utf-8")  # requests would assume ISO-8859-1 for text/*


class HistoryMethods:
    """The export and statistics methods of ``Client`` (mixed in)."""

    _transport: Transport

    def export_games(
        self, *, since: Moment | None = None, until: Moment | None = None, preset: PresetId | None = None
    ) -> Iterator[Game]:
        """``GET /v1/games/export`` (NDJSON): every game of the caller with its rounds, oldest first,
        each a ``Game`` as ``game(id)`` gives it. The answer is read as you iterate (streamed),
        so thousands of games never sit in memory at once. A bad filter raises
        ``UnprocessableEntityError`` naming it (on the first item asked for)."""
        params = history_params(since, until, preset, "ndjson")

        def walk() -> Iterator[Game]:
            response = self._transport.request("GET", EXPORT_PATH, params=params, stream=True)
            try:
                yield from games_of_lines(response.iter_lines())
            finally:
                response.close()

        return walk()  # nothing is fetched until the first item is asked for

    def export_csv(
        self, *, since: Moment | None = None, until: Moment | None = None, preset: PresetId | None = None
    ) -> str:
        """``GET /v1/games/export`` as CSV: a header, then one row per side per round (``game_id,
        game, preset, ..., score, total_after, went_out, won_game, clean_books, ...``). For pandas:
        ``pandas.read_csv(io.StringIO(client.export_csv()))``."""
        response = self._transport.request("GET", EXPORT_PATH, params=history_params(since, until, preset, "csv"))
        charset = "charset" in response.headers.get("Content-Type", "").lower()
        return _csv_text(response.content, response.encoding if charset else None)

    def stats(
        self, *, since: Moment | None = None, until: Moment | None = None, preset: PresetId | None = None
    ) -> Statistics:
        """``GET /v1/games/stats``: games, wins, rounds, average and best round, times gone out and
        books by kind, per player (matched by name ignoring case) and per side (the same players)."""
        response = self._transport.request("GET", STATS_PATH, params=history_params(since, until, preset))
        return Statistics.from_json(response.json())


class AsyncHistoryMethods:
    """The export and statistics methods of ``AsyncClient`` (mixed in); as ``HistoryMethods``."""

    _transport: AsyncTransport

    async def export_games(
        self, *, since: Moment | None = None, until: Moment | None = None, preset: PresetId | None = None
    ) -> AsyncIterator[Game]:
        """As ``Client.export_games``: streamed (each game is given as its line arrives), nothing
        fetched until the first item is asked for; the answer is closed when the iteration ends or
        the iterator is closed (``contextlib.aclosing``)."""
        params = history_params(since, until, preset, "ndjson")
        response = await self._transport.request("GET", EXPORT_PATH, params=params, stream=True)
        try:
            number = 0
            async for line in response.aiter_lines():
                number += 1
                game = game_of_line(number, line)
                if game is not None:
                    yield game
        finally:
            await response.aclose()

    async def export_csv(
        self, *, since: Moment | None = None, until: Moment | None = None, preset: PresetId | None = None
    ) -> str:
        """As ``Client.export_csv``."""
        response = await self._transport.request("GET", EXPORT_PATH, params=history_params(since, until, preset, "csv"))
        return _csv_text(response.content, response.encoding)

    async def stats(
        self, *, since: Moment | None = None, until: Moment | None = None, preset: PresetId | None = None
    ) -> Statistics:
        """As ``Client.stats``."""
        response = await self._transport.request("GET", STATS_PATH, params=history_params(since, until, preset))
        return Statistics.from_json(response.json())
