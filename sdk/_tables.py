"""Tables: ``Client``'s and ``AsyncClient``'s methods for a table that deals and referees a game.

The owner of the games (the API key) creates a table and reads its public summary; each seat plays
with its own ``token`` (sent as ``Seat-Token``; the API key is not needed for that). A seat reads
its view (``seat_view``, optionally waiting for a change: long-poll), follows it as server-sent
events (``seat_events``) and acts (``act``) with the table ``version`` it saw: a stale version is
``VersionMovedError`` (``.version``: the current one), an action the rules refuse is
``UnprocessableEntityError`` naming each rule broken. An action is sent with an
``Idempotency-Key`` made once per call and reused on every retry, so it is applied once.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._bodies import _body, _seg
from ._errors import APIConnectionError, APIResponseValidationError, status_error_from_response
from ._transport import Timeout
from .params import GameTeamInput
from .types import PresetId, ProblemDetails
from .types.tables import SeatView, Table, TableCreated, TableRound

if TYPE_CHECKING:
    from ._async_transport import AsyncTransport
    from ._transport import Transport

__all__ = ["AsyncTableMethods", "SSEParser", "TableMethods"]

TABLES_PATH = "/v1/tables"
#: The longest ``wait`` the server takes (seconds) for a long-poll of the view.
MAX_WAIT = 60
#: Seconds a stream may stay silent before the client gives up on it and reconnects (the server
#: sends a comment every 15 s).
STREAM_READ_TIMEOUT = 45.0
#: How many times in a row ``seat_events`` reconnects to a stream that ended without a new view.
MAX_RECONNECTS = 1000


def _table_path(table_id: int, *rest: str) -> str:
    return "/".join([TABLES_PATH, _seg(table_id), *rest])


def _seat(token: str) -> dict[str, str]:
    return {"Seat-Token": token}


def create_body(
    *,
    preset: PresetId | None,
    teams: Sequence[GameTeamInput] | None,
    rules: Mapping[str, object] | None,
    name: str | None,
    seed: int | None,
    play: Mapping[str, object] | None,
    answer_timeout: float | None,
    game: int | None,
) -> dict[str, object]:
    """The body of ``POST /v1/tables``: a new game (``preset``, ``teams``...) or a stored ``game``."""
    if game is None and (preset is None or teams is None):
        raise ValueError("create_table needs preset and teams (a new game) or game (a stored one)")
    if game is not None and (preset is not None or teams is not None or rules is not None):
        raise ValueError("a stored game brings its own preset, rules and teams: give game alone (and seed)")
    return _body(
        preset=preset,
        rules=rules,
        name=name,
        teams=None if teams is None else list(teams),
        seed=seed,
        play=play,
        answer_timeout=answer_timeout,
        game=game,
    )


def view_params(version: int | None, wait: int | None) -> dict[str, int | None]:
    if wait is not None and not 0 <= wait <= MAX_WAIT:
        raise ValueError(f"wait is seconds from 0 to {MAX_WAIT}")
    return {"version": version, "wait": wait}


def _connect_timeout(timeout: Timeout) -> float:
    return timeout[0] if isinstance(timeout, tuple) else timeout


def poll_timeout(timeout: Timeout, wait: float | None) -> Timeout:
    """The client's timeout, its read part lengthened by the server's ``wait``."""
    if not wait:
        return timeout
    read = timeout[1] if isinstance(timeout, tuple) else timeout
    return (_connect_timeout(timeout), read + wait)


def _seat_view(data: object) -> SeatView:
    return SeatView.from_json(data)


class SSEParser:
    """Server-sent events, line by line (the text/event-stream format, WHATWG HTML §9.2):
    ``feed(line)`` gives ``(id, event, data)`` when a blank line ends an event, else ``None``.
    Comment lines (``: keep-alive``) are skipped; ``last_id`` is the last ``id`` seen."""

    def __init__(self) -> None:
        self.last_id: str | None = None
        self._event = "message"
        self._data: list[str] = []

    def feed(self, line: str) -> tuple[str | None, str, str] | None:
        line = line.rstrip("\r\n")
        if not line:
            if not self._data:
                self._event = "message"
                return None
            out = (self.last_id, self._event, "\n".join(self._data))
            self._event, self._data = "message", []
            return out
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            self.last_id = value
        elif name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        return None


def views_of_lines(parser: SSEParser, lines: Iterable[str]) -> Iterator[SeatView]:
    """The ``view`` events among the stream's lines, each read as a ``SeatView``."""
    for line in lines:
        event = parser.feed(line)
        if event is None or event[1] != "view":
            continue
        try:
            data = json.loads(event[2])
        except ValueError as exc:
            raise APIResponseValidationError(f"a view event is not JSON (id {event[0]})") from exc
        yield _seat_view(data)


def _stream_headers(token: str, last_id: str | None) -> dict[str, str]:
    headers = {**_seat(token), "Accept": "text/event-stream"}
    if last_id is not None:
        headers["Last-Event-ID"] = last_id
    return headers


class TableMethods:
    """The table methods of ``Client`` (mixed in)."""

    _transport: Transport

    def create_table(
        self,
        *,
        preset: PresetId | None = None,
        teams: Sequence[GameTeamInput] | None = None,
        rules: Mapping[str, object] | None = None,
        name: str | None = None,
        seed: int | None = None,
        play: Mapping[str, object] | None = None,
        answer_timeout: float | None = None,
        game: int | None = None,
        idempotency_key: str | None = None,
    ) -> TableCreated:
        """``POST /v1/tables``: deal a new game (``preset``, house ``rules``, ``teams`` of
        ``{name, players}``, a ``name``) or continue the stored ``game``; ``seed`` (an int) fixes
        the shuffles, ``play`` overrides play options (``{"ask_partner": true}``),
        ``answer_timeout`` (seconds) makes an unanswered "May I go out?" a yes.

        A new game needs ``name``, ``preset`` and ``teams``; a stored one brings them (``game``
        alone). The answer's ``seats`` carry each seat's ``token``, shown this once
        (``table.tokens``); a retry with the same ``idempotency_key`` is given the same answer.
        ``ValueError`` for neither or both of a new game and ``game``; ``UnprocessableEntityError``
        for bad teams or rules; ``NotFoundError`` for an unknown game; ``ConflictError`` when the game
        is finished or already has a table playing.
        """
        body = create_body(
            preset=preset,
            teams=teams,
            rules=rules,
            name=name,
            seed=seed,
            play=play,
            answer_timeout=answer_timeout,
            game=game,
        )
        response = self._transport.post_with_idempotency_key(TABLES_PATH, json=body, idempotency_key=idempotency_key)
        return TableCreated.from_json(response.json())

    def get_table(self, table_id: int) -> Table:
        """``GET /v1/tables/{id}`` (the API key): the public summary, no cards; ``NotFoundError``
        for an unknown table or another key's."""
        return Table.from_json(self._transport.request("GET", _table_path(table_id)).json())

    def seat_view(self, table_id: int, token: str, *, version: int | None = None, wait: int | None = None) -> SeatView:
        """``GET /v1/tables/{id}/view``: what the seat of ``token`` sees. With ``version`` and
        ``wait`` (seconds, 0 to 60) the server answers once the table's version is no longer
        ``version``, or after ``wait`` seconds (the view as it is then). ``NotFoundError`` for an
        unknown table or a token that is not one of its seats."""
        response = self._transport.request(
            "GET",
            _table_path(table_id, "view"),
            params=view_params(version, wait),
            headers=_seat(token),
            timeout=poll_timeout(self._transport.timeout, wait),
        )
        return _seat_view(response.json())

    def act(
        self, table_id: int, token: str, version: int, action: Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> SeatView:
        """``POST /v1/tables/{id}/actions``: the seat's ``action`` (the engine's, such as
        ``{"type": "discard", "card": "7H"}``; the token says the seat) on table ``version``; the
        view after it. ``VersionMovedError`` if the table moved on (``.version``);
        ``UnprocessableEntityError`` if the rules refuse it (``problems``: codes such as
        ``not_your_turn``, ``pile_needs_match``, pointers into the body); ``ConflictError``
        (``table_finished``) once the game has ended."""
        body = {"version": version, "action": dict(action)}
        response = self._transport.post_with_idempotency_key(
            _table_path(table_id, "actions"), json=body, idempotency_key=idempotency_key, headers=_seat(token)
        )
        return _seat_view(response.json())

    def seat_events(self, table_id: int, token: str, *, last_event_id: str | None = None) -> Iterator[SeatView]:
        """``GET /v1/tables/{id}/events``: the seat's view at once and after every change, as
        server-sent events, read as you iterate. The stream is reopened (with ``Last-Event-ID``)
        whenever the server closes it; the iterator ends after the view whose ``status`` is
        ``finished``. Nothing is fetched until the first view is asked for."""

        def walk() -> Iterator[SeatView]:
            parser = SSEParser()
            parser.last_id = last_event_id
            quiet = 0
            while quiet < MAX_RECONNECTS:
                response = self._transport.request(
                    "GET",
                    _table_path(table_id, "events"),
                    headers=_stream_headers(token, parser.last_id),
                    stream=True,
                    timeout=(_connect_timeout(self._transport.timeout), STREAM_READ_TIMEOUT),
                )
                quiet += 1
                try:
                    for sv in views_of_lines(parser, response.iter_lines(chunk_size=None, decode_unicode=True)):
                        quiet = 0
                        yield sv
                        if sv.finished:
                            return
                except APIConnectionError:
                    raise
                except OSError:  # the stream broke off (a reset, a read timeout): reopen it
                    continue
                finally:
                    response.close()
            raise APIConnectionError(f"the events of table {table_id} ended {MAX_RECONNECTS} times with no view")

        return walk()

    def table_round(self, table_id: int, number: int, token: str | None = None) -> TableRound:
        """``GET /v1/tables/{id}/rounds/{n}``: an ended round, public (seed, every action, score),
        with a seat's ``token`` or else the API key. A round still in play is ``NotFoundError``
        (or ``ConflictError``): its log would show cards."""
        headers = _seat(token) if token is not None else None
        path = _table_path(table_id, "rounds", _seg(number))
        return TableRound.from_json(self._transport.request("GET", path, headers=headers).json())


class AsyncTableMethods:
    """The table methods of ``AsyncClient`` (mixed in): as ``TableMethods``; ``seat_events`` is
    an async iterator."""

    _transport: AsyncTransport

    async def create_table(
        self,
        *,
        preset: PresetId | None = None,
        teams: Sequence[GameTeamInput] | None = None,
        rules: Mapping[str, object] | None = None,
        name: str | None = None,
        seed: int | None = None,
        play: Mapping[str, object] | None = None,
        answer_timeout: float | None = None,
        game: int | None = None,
        idempotency_key: str | None = None,
    ) -> TableCreated:
        """As ``Client.create_table``."""
        body = create_body(
            preset=preset,
            teams=teams,
            rules=rules,
            name=name,
            seed=seed,
            play=play,
            answer_timeout=answer_timeout,
            game=game,
        )
        response = await self._transport.request(
            "POST", TABLES_PATH, json=body, idempotency_key=idempotency_key or str(uuid.uuid4())
        )
        return TableCreated.from_json(response.json())

    async def get_table(self, table_id: int) -> Table:
        """As ``Client.get_table``."""
        return Table.from_json((await self._transport.request("GET", _table_path(table_id))).json())

    async def seat_view(
        self, table_id: int, token: str, *, version: int | None = None, wait: int | None = None
    ) -> SeatView:
        """As ``Client.seat_view``."""
        response = await self._transport.request(
            "GET",
            _table_path(table_id, "view"),
            params=view_params(version, wait),
            headers=_seat(token),
            timeout=poll_timeout(self._transport.timeout, wait),
        )
        return _seat_view(response.json())

    async def act(
        self, table_id: int, token: str, version: int, action: Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> SeatView:
        """As ``Client.act``."""
        body = {"version": version, "action": dict(action)}
        response = await self._transport.request(
            "POST",
            _table_path(table_id, "actions"),
            json=body,
            headers=_seat(token),
            idempotency_key=idempotency_key or str(uuid.uuid4()),
        )
        return _seat_view(response.json())

    async def seat_events(
        self, table_id: int, token: str, *, last_event_id: str | None = None
    ) -> AsyncIterator[SeatView]:
        """As ``Client.seat_events`` (the stream is opened without the transport's retries)."""
        import httpx

        from ._async_transport import _httpx_timeout

        transport = self._transport
        parser = SSEParser()
        parser.last_id = last_event_id
        quiet = 0
        timeout = _httpx_timeout((_connect_timeout(transport.timeout), STREAM_READ_TIMEOUT))
        while quiet < MAX_RECONNECTS:
            quiet += 1
            headers = {**transport.default_headers(), **_stream_headers(token, parser.last_id)}
            try:
                async with transport.http.stream(
                    "GET", transport.url(_table_path(table_id, "events")), headers=headers, timeout=timeout
                ) as response:
                    transport.last_response = response
                    if response.status_code >= 400:
                        await response.aread()
                        raise status_error_from_response(response, ProblemDetails.from_response(response))
                    async for line in response.aiter_lines():
                        for sv in views_of_lines(parser, (line,)):
                            quiet = 0
                            yield sv
                            if sv.finished:
                                return
            except httpx.TransportError as exc:
                if quiet > 1:  # no view since the last reconnect either: give up
                    raise APIConnectionError(f"the events of table {table_id}: {exc}") from exc
        raise APIConnectionError(f"the events of table {table_id} ended {MAX_RECONNECTS} times with no view")

    async def table_round(self, table_id: int, number: int, token: str | None = None) -> TableRound:
        """As ``Client.table_round``."""
        headers = _seat(token) if token is not None else None
        path = _table_path(table_id, "rounds", _seg(number))
        return TableRound.from_json((await self._transport.request("GET", path, headers=headers)).json())
