"""``AsyncClient``: ``Client``'s methods, result types, errors and retry policy, on httpx.

    pip install 'handfoot[async]'        # httpx; the plain client still needs only requests

    async with AsyncClient() as hf:
        score = await hf.score_round(preset="pagat", teams=[...])
        async for game in hf.games(status="in_progress"):
            ...

What a request carries and when it is retried is ``handfoot.client._transport.prepare`` and
``handfoot.client._retry``, shared with ``Client``; results are read by the same loader, errors are
the same classes (``e.response`` is then an ``httpx.Response``). Settings as for ``Client``
(``HANDFOOT_URL``, ``HANDFOOT_API_KEY``, ``HANDFOOT_LOG``); ``timeout`` is seconds, or
``(connect, read)``.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import Any, TypeVar

import httpx

from ._async_transport import AsyncTransport
from ._bodies import _body, _cards, _melds, _round_path, _same_json, _seg
from ._client import ENV_API_KEY, ENV_BASE_URL, _env
from ._errors import (
    APIResponseValidationError,
    PreconditionFailedError,
)
from ._history import AsyncHistoryMethods
from ._http import HTTPResponse
from ._loader import Result, load_list
from ._raw import AsyncRawResponseMethods
from ._tables import AsyncTableMethods
from ._transport import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    QueryParams,
    Timeout,
    _log_from_env,
)
from .pagination import AsyncPage, async_fetch_page
from .params import Card, GameTeamInput, PlayerInput, TeamInput
from .types import (
    DiscardPileCheck,
    Game,
    GameStatus,
    GameSummary,
    GoingOutCheck,
    Health,
    Liveness,
    MeldCheck,
    OpeningCheck,
    Preset,
    PresetId,
    PresetSummary,
    Revision,
    Round,
    RoundComparison,
    RoundScore,
    Scoresheet,
)

__all__ = ["AsyncClient"]

R = TypeVar("R", bound=Result)
RE = TypeVar("RE", Game, Round)


class AsyncClient(AsyncHistoryMethods, AsyncTableMethods, AsyncRawResponseMethods):
    """``Client`` for asyncio (chat bots, web apps): ``await`` every method; ``games()`` is an async
    iterator. Each method's arguments, result and errors are those of ``Client``'s method of the
    same name."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self._transport = AsyncTransport(
            base_url or _env(ENV_BASE_URL) or DEFAULT_BASE_URL,
            api_key=api_key if api_key is not None else _env(ENV_API_KEY),
            timeout=timeout,
            max_retries=max_retries,
            http=http,
        )
        self._request = self._transport.request
        _log_from_env()

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

    @property
    def last_response(self) -> httpx.Response | None:
        """The last HTTP answer received by any call (as ``Client.last_response``); under
        ``asyncio.gather`` another task's: use ``await hf.with_raw_response(hf.method, ...)``."""
        return self._transport.last_response

    def with_options(
        self,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
        extra_query: QueryParams | None = None,
    ) -> AsyncClient:
        """As ``Client.with_options``: the same server, key and connection pool, other settings."""
        t = self._transport
        other = object.__new__(AsyncClient)
        options = t.option_values(timeout, max_retries, extra_headers, extra_query)
        other._transport = AsyncTransport(t.base_url, http=t.http, parent=t, **options)
        other._request = other._transport.request
        return other

    def __repr__(self) -> str:
        return f"AsyncClient(base_url={self.base_url!r})"

    async def aclose(self) -> None:
        """Close the connection pool if the client created it; any later call, or one in flight,
        raises ``ClientClosedError`` (not retried)."""
        self._transport.lifecycle.close()
        if self._transport._owns_http:
            await self._transport.http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ reads and computations

    async def health(self) -> Health:
        return Health.from_json(await self._get("/health"))

    async def ready(self) -> Health:
        return Health.from_json(await self._get("/health/ready"))

    async def live(self) -> Liveness:
        return Liveness.from_json(await self._get("/health/live"))

    async def presets(self) -> list[PresetSummary]:
        return load_list(PresetSummary, await self._get("/v1/presets"), "presets")

    async def preset(self, preset_id: PresetId) -> Preset:
        return Preset.from_json(await self._get(f"/v1/presets/{_seg(preset_id)}"))

    async def score_round(
        self, *, preset: PresetId, teams: Sequence[TeamInput], round: int = 1, rules: Mapping[str, object] | None = None
    ) -> RoundScore:
        body = _body(preset=preset, round=round, teams=list(teams), rules=rules)
        return await self._compute(RoundScore, "/v1/rounds/score", body)

    async def compare_presets(
        self,
        *,
        presets: Sequence[PresetId],
        teams: Sequence[TeamInput],
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> RoundComparison:
        body = _body(presets=list(presets), round=round, teams=list(teams), rules=rules)
        return await self._compute(RoundComparison, "/v1/rounds/compare", body)

    async def validate_meld(
        self,
        *,
        preset: PresetId,
        cards: Sequence[Card],
        onto: Sequence[Card] | None = None,
        rules: Mapping[str, object] | None = None,
    ) -> MeldCheck:
        body = _body(preset=preset, cards=list(cards), onto=_cards(onto), rules=rules)
        return await self._compute(MeldCheck, "/v1/melds/validate", body)

    async def check_opening(
        self,
        *,
        preset: PresetId,
        melds: Sequence[Sequence[Card]],
        round: int = 1,
        from_pile: Sequence[Card] | None = None,
        score: int | None = None,
        rules: Mapping[str, object] | None = None,
    ) -> OpeningCheck:
        body = _body(
            preset=preset, round=round, melds=_melds(melds), from_pile=_cards(from_pile), score=score, rules=rules
        )
        return await self._compute(OpeningCheck, "/v1/openings/check", body)

    async def check_going_out(
        self,
        *,
        preset: PresetId,
        melds: Sequence[Sequence[Card]],
        players: Sequence[PlayerInput] | None = None,
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> GoingOutCheck:
        players_list = None if players is None else list(players)
        body = _body(preset=preset, round=round, melds=_melds(melds), players=players_list, rules=rules)
        return await self._compute(GoingOutCheck, "/v1/going-out/check", body)

    async def check_discard_pile(
        self,
        *,
        preset: PresetId,
        hand: Sequence[Card],
        pile: Sequence[Card],
        melds: Sequence[Sequence[Card]] | None = None,
        taken_before: bool = False,
        frozen: bool = False,
        burn: Sequence[Card] = (),
        rules: Mapping[str, object] | None = None,
    ) -> DiscardPileCheck:
        body = _body(
            preset=preset,
            hand=list(hand),
            pile=list(pile),
            melds=None if melds is None else _melds(melds),
            taken_before=taken_before or None,
            frozen=frozen or None,
            burn=list(burn) or None,
            rules=rules,
        )
        return await self._compute(DiscardPileCheck, "/v1/discard-pile/check", body)

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        name: str,
        preset: PresetId,
        teams: Sequence[GameTeamInput],
        rules: Mapping[str, object] | None = None,
        idempotency_key: str | None = None,
    ) -> Game:
        body = _body(name=name, preset=preset, teams=list(teams), rules=rules)
        return _with_etag(Game, await self._keyed_post("/v1/games", body, idempotency_key))

    async def games(
        self,
        *,
        status: GameStatus | None = None,
        player: str | None = None,
        preset: PresetId | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[GameSummary]:
        """Every game (newest first), following the ``Link: rel="next"`` pages as you iterate."""
        first = await self.games_page(status=status, player=player, preset=preset, page_size=page_size)
        async for game in first.iter_all():
            yield game

    async def games_page(
        self,
        *,
        status: GameStatus | None = None,
        player: str | None = None,
        preset: PresetId | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> AsyncPage[GameSummary]:
        """One page of games (as ``Client.games_page``); ``await page.next_page()`` goes on."""
        params: QueryParams = {
            "status": status,
            "player": player,
            "preset": preset,
            "page": page,
            "page_size": page_size,
        }
        return await async_fetch_page(self._transport, "/v1/games", parse=GameSummary.from_json, params=params)

    async def game(self, game_id: int) -> Game:
        return _with_etag(Game, await self._request("GET", f"/v1/games/{_seg(game_id)}"))

    async def delete_game(self, game_id: int, *, if_match: str | None = None) -> None:
        await self._request(
            "DELETE", f"/v1/games/{_seg(game_id)}", headers={"If-Match": if_match} if if_match is not None else None
        )

    async def add_round(
        self, game_id: int, *, teams: Sequence[TeamInput], round: int | None = None, idempotency_key: str | None = None
    ) -> Round:
        body = _body(teams=list(teams), round=round)
        return _with_etag(Round, await self._keyed_post(f"/v1/games/{_seg(game_id)}/rounds", body, idempotency_key))

    async def round(self, game_id: int, number: int) -> Round:
        return _with_etag(Round, await self._request("GET", _round_path(game_id, number)))

    async def correct_round(
        self,
        game_id: int,
        number: int,
        *,
        teams: Sequence[TeamInput],
        if_match: str | None = None,
        idempotency_key: str | None = None,
    ) -> Round:
        path = _round_path(game_id, number)
        etag = if_match if if_match is not None else (await self.round(game_id, number)).etag
        if etag is None:
            raise APIResponseValidationError(f"GET {path}: the server sent no ETag to correct the round with")
        body: dict[str, object] = {"teams": list(teams)}
        key = idempotency_key or str(uuid.uuid4())  # once per call, reused on every retry
        try:
            response = await self._request("PUT", path, json=body, headers={"If-Match": etag}, idempotency_key=key)
        except PreconditionFailedError as exc:
            current = await self.round(game_id, number)
            if _same_json(current.request.get("teams"), body["teams"]):
                return current  # a retry of our own PUT whose first answer was lost
            detail = (
                f"round {number} of game {game_id} was changed by someone else since it was read "
                f"(sent If-Match {etag}, it is now revision {current.revision}, ETag {current.etag}); "
                "read it again with client.round() and re-apply the correction"
            )
            raise PreconditionFailedError(exc.status, replace(exc.problem, detail=detail), exc.response) from exc
        return _with_etag(Round, response)

    async def delete_round(self, game_id: int, number: int, *, if_match: str | None = None) -> None:
        etag = if_match if if_match is not None else (await self.game(game_id)).etag
        await self._request("DELETE", _round_path(game_id, number), headers={"If-Match": etag or ""})

    async def revisions(self, game_id: int, number: int) -> list[Revision]:
        return load_list(Revision, await self._get(f"{_round_path(game_id, number)}/revisions"), "revisions")

    async def scoresheet(self, game_id: int) -> Scoresheet:
        return Scoresheet.from_json(await self._get(f"/v1/games/{_seg(game_id)}/scoresheet"))

    async def scoresheet_csv(self, game_id: int) -> str:
        response = await self._request("GET", f"/v1/games/{_seg(game_id)}/scoresheet", headers={"Accept": "text/csv"})
        return response.content.decode(response.encoding or "utf-8")

    # ------------------------------------------------------------------ internal helpers

    async def _get(self, path: str) -> Any:
        return _decode(await self._request("GET", path))

    async def _compute(self, cls: type[R], path: str, body: Mapping[str, object]) -> R:
        return cls.from_json(_decode(await self._request("POST", path, json=body, idempotent=True)))

    async def _keyed_post(self, path: str, body: Mapping[str, object], key: str | None) -> httpx.Response:
        """POST with an ``Idempotency-Key`` made once per call and reused on every retry."""
        return await self._request("POST", path, json=body, idempotency_key=key or str(uuid.uuid4()))


def _decode(response: HTTPResponse) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError as exc:
        content_type = response.headers.get("Content-Type")
        raise APIResponseValidationError(f"response is not JSON (Content-Type {content_type!r})") from exc


def _with_etag(cls: type[RE], response: HTTPResponse) -> RE:
    return cls.from_json(_decode(response), etag=response.headers.get("ETag"))
