"""``Client``: one typed method per API operation."""

from __future__ import annotations

import json as _json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote

import requests

from ._errors import APIResponseValidationError, PreconditionFailedError
from ._http import dumps_json
from ._transport import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    QueryParams,
    Timeout,
    Transport,
)
from .models import (
    DiscardPileCheck,
    Game,
    GameSummary,
    GoingOutCheck,
    Health,
    MeldCheck,
    OpeningCheck,
    Preset,
    PresetSummary,
    Revision,
    Round,
    RoundComparison,
    RoundScore,
    Scoresheet,
)
from .pagination import Page, fetch_page
from .params import Card, GameTeamInput, PlayerInput, TeamInput

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
    that is safe to repeat (see ``handfoot.client._transport``). A ``session`` passed in is used as is and left
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

    # ------------------------------------------------------------------ server

    def health(self) -> Health:
        """``GET /health``: the server is up and its database answers.

        A server whose database is down answers 503: the call retries (honouring ``Retry-After``)
        and then raises ``ServerError``.
        """
        return Health.from_json(self._request_json("GET", "/health"))

    # ------------------------------------------------------------------ presets

    def presets(self) -> list[PresetSummary]:
        """``GET /v1/presets``: every preset's id, name, source and one-line summary."""
        data = self._request_json("GET", "/v1/presets")
        if not isinstance(data, list):
            raise APIResponseValidationError("GET /v1/presets: expected a JSON array")
        return [PresetSummary.from_json(item, f"presets[{i}]") for i, item in enumerate(data)]

    def preset(self, preset_id: str) -> Preset:
        """``GET /v1/presets/{id}``: the full rule set with the provenance of each value."""
        data = self._request_json("GET", f"/v1/presets/{_seg(preset_id)}")
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

    def compare_presets(
        self,
        *,
        presets: Sequence[str],
        teams: Sequence[TeamInput],
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> RoundComparison:
        """``POST /v1/rounds/compare``: the same round scored under several presets.

        Each result holds a breakdown per team, or (``valid`` false) the rules the round breaks
        under that preset. House ``rules`` apply to every preset.
        """
        body: dict[str, object] = {"presets": list(presets), "round": round, "teams": list(teams)}
        if rules is not None:
            body["rules"] = rules
        data = self._request_json("POST", "/v1/rounds/compare", json=body, idempotent=True)
        return RoundComparison.from_json(data)

    # ------------------------------------------------------------------ checks
    # A check answers 200 even when the answer is no: look at ``valid``/``met``/``allowed`` (or
    # the result's truth value) and ``problems``. A malformed question (unknown card, unknown
    # preset, bad house rule) raises ``UnprocessableEntityError``.

    def validate_meld(
        self,
        *,
        preset: str,
        cards: Sequence[Card],
        onto: Sequence[Card] | None = None,
        rules: Mapping[str, object] | None = None,
    ) -> MeldCheck:
        """``POST /v1/melds/validate``: is this meld legal (``onto``: after adding ``cards`` to
        a meld already on the table)? Gives its kind, whether it is a book, its card points and
        every rule it breaks."""
        body: dict[str, object] = {"preset": preset, "cards": list(cards)}
        if onto is not None:
            body["onto"] = list(onto)
        if rules is not None:
            body["rules"] = rules
        data = self._request_json("POST", "/v1/melds/validate", json=body, idempotent=True)
        return MeldCheck.from_json(data)

    def check_opening(
        self,
        *,
        preset: str,
        melds: Sequence[Sequence[Card]],
        round: int = 1,
        from_pile: Sequence[Card] | None = None,
        score: int | None = None,
        rules: Mapping[str, object] | None = None,
    ) -> OpeningCheck:
        """``POST /v1/openings/check``: do these opening melds reach the round's minimum?

        ``from_pile``: the melded cards that came from a taken discard pile, its top card first.
        ``score``: the side's cumulative score, for rules that set the minimum by score.
        """
        body: dict[str, object] = {"preset": preset, "round": round, "melds": _melds(melds)}
        if from_pile is not None:
            body["from_pile"] = list(from_pile)
        if score is not None:
            body["score"] = score
        if rules is not None:
            body["rules"] = rules
        data = self._request_json("POST", "/v1/openings/check", json=body, idempotent=True)
        return OpeningCheck.from_json(data)

    def check_going_out(
        self,
        *,
        preset: str,
        melds: Sequence[Sequence[Card]],
        players: Sequence[PlayerInput] | None = None,
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> GoingOutCheck:
        """``POST /v1/going-out/check``: may a side with these melds (and players' cards) go out
        in this round? Gives the books on the table and those missing for the contract."""
        body: dict[str, object] = {"preset": preset, "round": round, "melds": _melds(melds)}
        if players is not None:
            body["players"] = list(players)
        if rules is not None:
            body["rules"] = rules
        data = self._request_json("POST", "/v1/going-out/check", json=body, idempotent=True)
        return GoingOutCheck.from_json(data)

    def check_discard_pile(
        self,
        *,
        preset: str,
        hand: Sequence[Card],
        pile: Sequence[Card],
        melds: Sequence[Sequence[Card]] | None = None,
        taken_before: bool = False,
        frozen: bool = False,
        rules: Mapping[str, object] | None = None,
    ) -> DiscardPileCheck:
        """``POST /v1/discard-pile/check``: may this hand take the discard pile (``pile``, top
        card first), given the side's ``melds``? ``taken_before``: the pile was taken earlier this
        round; ``frozen``: a wild card was discarded onto it."""
        body: dict[str, object] = {"preset": preset, "hand": list(hand), "pile": list(pile)}
        if melds is not None:
            body["melds"] = _melds(melds)
        if taken_before:
            body["taken_before"] = True
        if frozen:
            body["frozen"] = True
        if rules is not None:
            body["rules"] = rules
        data = self._request_json("POST", "/v1/discard-pile/check", json=body, idempotent=True)
        return DiscardPileCheck.from_json(data)

    # ------------------------------------------------------------------ games

    def create_game(
        self,
        *,
        name: str,
        preset: str,
        teams: Sequence[GameTeamInput],
        rules: Mapping[str, object] | None = None,
        idempotency_key: str | None = None,
    ) -> Game:
        """``POST /v1/games``: start a stored game under ``preset`` (plus house ``rules``, kept
        as a snapshot) with these sides and players.

        Sent with an ``Idempotency-Key`` (generated unless given) so a retry never creates two
        games.
        """
        body: dict[str, object] = {"name": name, "preset": preset, "teams": list(teams)}
        if rules is not None:
            body["rules"] = rules
        data, response = self._post_idempotent("/v1/games", json=body, idempotency_key=idempotency_key)
        return Game.from_json(data, etag=response.headers.get("ETag"))

    def games(
        self,
        *,
        status: str | None = None,
        player: str | None = None,
        preset: str | None = None,
        page_size: int | None = None,
    ) -> Iterator[GameSummary]:
        """``GET /v1/games``: every game (newest first), fetching pages as you iterate.

        Filters: ``status`` (``in_progress``, ``tiebreaker``, ``finished``), ``player`` (a player's
        name), ``preset``. ``page_size`` (at most 100) sets how many are fetched per request.
        """

        def walk() -> Iterator[GameSummary]:
            first = self.games_page(status=status, player=player, preset=preset, page_size=page_size)
            yield from first.iter_all()

        return walk()  # nothing is fetched until the first item is asked for

    def games_page(
        self,
        *,
        status: str | None = None,
        player: str | None = None,
        preset: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> Page[GameSummary]:
        """``GET /v1/games``: one page of games; ``.next_page()`` / ``.iter_all()`` go on."""
        params: dict[str, str | int | None] = {
            "status": status,
            "player": player,
            "preset": preset,
            "page": page,
            "page_size": page_size,
        }
        return self._get_page("/v1/games", parse=GameSummary.from_json, params=params)

    def game(self, game_id: int) -> Game:
        """``GET /v1/games/{id}``: a game with its rounds, running totals, status and outcome."""
        response = self._request("GET", f"/v1/games/{_seg(game_id)}")
        return Game.from_json(_decode_json(response), etag=response.headers.get("ETag"))

    def delete_game(self, game_id: int, *, if_match: str | None = None) -> None:
        """``DELETE /v1/games/{id}``. With ``if_match`` (a ``Game.etag``) the server refuses
        (``PreconditionFailedError``) if the game changed since it was read."""
        headers = {"If-Match": if_match} if if_match is not None else None
        self._request("DELETE", f"/v1/games/{_seg(game_id)}", headers=headers)

    def add_round(
        self,
        game_id: int,
        *,
        teams: Sequence[TeamInput],
        round: int | None = None,
        idempotency_key: str | None = None,
    ) -> Round:
        """``POST /v1/games/{id}/rounds``: score the next round and append it to the game.

        ``teams``: every side of the game once, matched by name, as for ``score_round``.
        ``round``: the round number you expect to be next (a ``ConflictError`` otherwise).
        An ``Idempotency-Key`` is generated once per call (or taken from ``idempotency_key``) and
        reused on every retry, so a retried append is scored once. A finished game raises
        ``ConflictError`` (problem type ``game-finished``); a round that breaks the rules,
        ``UnprocessableEntityError``.
        """
        body: dict[str, object] = {"teams": list(teams)}
        if round is not None:
            body["round"] = round
        data, response = self._post_idempotent(
            f"/v1/games/{_seg(game_id)}/rounds", json=body, idempotency_key=idempotency_key
        )
        return Round.from_json(data, etag=response.headers.get("ETag"))

    def round(self, game_id: int, number: int) -> Round:
        """``GET /v1/games/{id}/rounds/{n}``: a stored round (with its ``etag``)."""
        response = self._request("GET", _round_path(game_id, number))
        return Round.from_json(_decode_json(response), etag=response.headers.get("ETag"))

    def correct_round(
        self,
        game_id: int,
        number: int,
        *,
        teams: Sequence[TeamInput],
        if_match: str | None = None,
    ) -> Round:
        """``PUT /v1/games/{id}/rounds/{n}``: replace a round's teams; later totals are
        recomputed and the earlier revision is kept (``revisions()``).

        Without ``if_match`` the round is read first and its ETag sent, so the correction applies
        only to the revision just read. If someone else changed the round in between, raises
        ``PreconditionFailedError`` saying so (read the round again and re-apply the change).
        """
        path = _round_path(game_id, number)
        etag = if_match if if_match is not None else self.round(game_id, number).etag
        if etag is None:
            raise APIResponseValidationError(f"GET {path}: the server sent no ETag to correct the round with")
        body: dict[str, object] = {"teams": list(teams)}
        try:
            response = self._request("PUT", path, json=body, headers={"If-Match": etag})
        except PreconditionFailedError as exc:
            current = self.round(game_id, number)
            if _same_json(current.request.get("teams"), body["teams"]):
                # A retry of our own PUT whose first answer was lost: the correction is in.
                return current
            detail = (
                f"round {number} of game {game_id} was changed by someone else since it was read "
                f"(sent If-Match {etag}, it is now revision {current.revision}, ETag {current.etag}); "
                "read it again with client.round() and re-apply the correction"
            )
            if exc.problem.detail:
                detail += f" (server: {exc.problem.detail})"
            problem = replace(exc.problem, detail=detail)
            raise PreconditionFailedError(exc.status, problem, exc.response) from exc
        return Round.from_json(_decode_json(response), etag=response.headers.get("ETag"))

    def revisions(self, game_id: int, number: int) -> list[Revision]:
        """``GET /v1/games/{id}/rounds/{n}/revisions``: the round's audit trail, oldest first."""
        path = f"{_round_path(game_id, number)}/revisions"
        data = self._request_json("GET", path)
        if isinstance(data, Mapping) and isinstance(data.get("items"), list):
            data = data["items"]
        if not isinstance(data, list):
            raise APIResponseValidationError(f"GET {path}: expected a JSON array")
        return [Revision.from_json(item, f"revisions[{i}]") for i, item in enumerate(data)]

    def scoresheet(self, game_id: int) -> Scoresheet:
        """``GET /v1/games/{id}/scoresheet``: rounds × sides with running totals.

        ``sheet.rows()`` gives a list of dicts for ``pandas.DataFrame``.
        """
        data = self._request_json("GET", f"/v1/games/{_seg(game_id)}/scoresheet")
        return Scoresheet.from_json(data)

    def scoresheet_csv(self, game_id: int) -> str:
        """``GET /v1/games/{id}/scoresheet`` as CSV (``round,Us,Us total,Them,Them total``)."""
        response = self._request(
            "GET", f"/v1/games/{_seg(game_id)}/scoresheet", headers={"Accept": "text/csv"}
        )
        if "charset" not in response.headers.get("Content-Type", "").lower():
            response.encoding = "utf-8"  # requests would assume ISO-8859-1 for text/*
        return response.text

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


def _seg(value: object) -> str:
    """One URL path segment, escaped (``a/b`` → ``a%2Fb``)."""
    return quote(str(value), safe="")


def _round_path(game_id: int, number: int) -> str:
    return f"/v1/games/{_seg(game_id)}/rounds/{_seg(number)}"


def _melds(melds: Sequence[Sequence[Card]]) -> list[list[Card]]:
    return [list(meld) for meld in melds]


def _same_json(a: object, b: object) -> bool:
    """Equal once both are encoded as JSON (read-only models compare with plain lists/dicts)."""
    return bool(_json.loads(dumps_json(a)) == _json.loads(dumps_json(b)))
