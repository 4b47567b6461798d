"""``Client``: one typed method per API operation."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import Any, TypeVar

import requests

from ._bodies import _body, _cards, _melds, _round_path, _same_json, _seg
from ._errors import APIResponseValidationError, PreconditionFailedError
from ._history import HistoryMethods
from ._loader import Result, load_list
from ._raw import RawResponseMethods
from ._tables import TableMethods
from ._transport import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    QueryParams,
    Timeout,
    Transport,
    _log_from_env,
    decode_json,
)
from .pagination import Page, fetch_page
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

__all__ = ["Client"]

T = TypeVar("T")
R = TypeVar("R", bound=Result)
RE = TypeVar("RE", Game, Round)  # the results that carry an ETag

ENV_BASE_URL = "HANDFOOT_URL"
ENV_API_KEY = "HANDFOOT_API_KEY"


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


class Client(HistoryMethods, TableMethods, RawResponseMethods):
    """A client of the handfoot HTTP API.

    ``base_url`` defaults to ``$HANDFOOT_URL``, then ``http://127.0.0.1:8000``; ``api_key`` to
    ``$HANDFOOT_API_KEY`` (sent as ``Authorization: Bearer <key>``). ``timeout`` is passed to
    requests (a number, or ``(connect, read)``). ``max_retries`` bounds the retries of a request
    that is safe to repeat (see ``handfoot.client._transport``). A ``session`` passed in is used as is and left
    open by ``close()``; otherwise the client creates one and closes it. Use as a context manager::

        with Client() as hf:
            print(hf.score_round(preset="pagat", teams=[...]))

    Per call: ``hf.with_options(timeout=60, max_retries=0).add_round(...)``. A call's raw answer
    (status, headers such as ``ETag`` or ``Idempotent-Replayed``, body, request id) with its result:
    ``hf.with_raw_response(hf.add_round, game_id, teams=...)`` (``handfoot.client.RawResponse``).
    ``HANDFOOT_LOG=debug`` logs each request (``handfoot.client._transport.ENV_LOG``).
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
        # Send one request (retries, errors as exceptions): ``handfoot.client._transport.Transport.request``.
        self._request = self._transport.request
        _log_from_env()

    def with_options(
        self,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
        extra_query: QueryParams | None = None,
    ) -> Client:
        """A client for the same server, key and session with another ``timeout`` and/or
        ``max_retries`` (those not given are kept), and headers or query parameters sent with each
        of its requests besides this client's (``extra_headers``, ``extra_query``: a proxy's header,
        a tracing id). Per call: ``hf.with_options(timeout=60).add_round(...)``. Closing it leaves the
        session open; closing this client closes the session both use (when this client created it)."""
        other = object.__new__(Client)
        other._transport = self._transport.with_options(
            timeout=timeout, max_retries=max_retries, extra_headers=extra_headers, extra_query=extra_query
        )
        other._request = other._transport.request
        return other

    @property
    def last_response(self) -> requests.Response | None:
        """The last HTTP answer this client received by any call (on success or error), for its
        ``status_code`` and ``headers``; ``None`` before the first. Not shared with ``with_options``
        copies. One slot for every thread: under concurrency use ``with_raw_response``."""
        return self._transport.last_response

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
        return Health.from_json(self._get("/health"))

    def ready(self) -> Health:
        """``GET /health/ready``: as ``health()`` (503: ``error.problem.extra["database"]`` says why)."""
        return Health.from_json(self._get("/health/ready"))

    def live(self) -> Liveness:
        """``GET /health/live``: the server process answers (it asks no database)."""
        return Liveness.from_json(self._get("/health/live"))

    # ------------------------------------------------------------------ presets

    def presets(self) -> list[PresetSummary]:
        """``GET /v1/presets``: every preset's id, name, source and one-line summary."""
        return load_list(PresetSummary, self._get("/v1/presets"), "presets")

    def preset(self, preset_id: PresetId) -> Preset:
        """``GET /v1/presets/{id}``: the full rule set with the provenance of each value."""
        return Preset.from_json(self._get(f"/v1/presets/{_seg(preset_id)}"))

    # ------------------------------------------------------------------ scoring

    def score_round(
        self,
        *,
        preset: PresetId,
        teams: Sequence[TeamInput],
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> RoundScore:
        """``POST /v1/rounds/score``: score one round for all teams, from cards or tallies.

        ``rules`` are house-rule overrides on top of ``preset``. A round that breaks the rules
        raises ``UnprocessableEntityError`` whose ``problems`` name each rule broken. The call has
        no side effects on the server, so it is retried like a GET.
        """
        body = _body(preset=preset, round=round, teams=list(teams), rules=rules)
        return self._compute(RoundScore, "/v1/rounds/score", body)

    def compare_presets(
        self,
        *,
        presets: Sequence[PresetId],
        teams: Sequence[TeamInput],
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> RoundComparison:
        """``POST /v1/rounds/compare``: the same round scored under several presets.

        Each result holds a breakdown per team, or (``valid`` false) the rules the round breaks
        under that preset. House ``rules`` apply to every preset.
        """
        body = _body(presets=list(presets), round=round, teams=list(teams), rules=rules)
        return self._compute(RoundComparison, "/v1/rounds/compare", body)

    # ------------------------------------------------------------------ checks
    # A check answers 200 even when the answer is no: look at ``valid``/``met``/``allowed`` (or
    # the result's truth value) and ``problems``. A malformed question (unknown card, unknown
    # preset, bad house rule) raises ``UnprocessableEntityError``.

    def validate_meld(
        self,
        *,
        preset: PresetId,
        cards: Sequence[Card],
        onto: Sequence[Card] | None = None,
        rules: Mapping[str, object] | None = None,
    ) -> MeldCheck:
        """``POST /v1/melds/validate``: is this meld legal (``onto``: after adding ``cards`` to
        a meld already on the table)? Gives its kind, whether it is a book, its card points and
        every rule it breaks."""
        body = _body(preset=preset, cards=list(cards), onto=_cards(onto), rules=rules)
        return self._compute(MeldCheck, "/v1/melds/validate", body)

    def check_opening(
        self,
        *,
        preset: PresetId,
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
        body = _body(
            preset=preset, round=round, melds=_melds(melds), from_pile=_cards(from_pile), score=score, rules=rules
        )
        return self._compute(OpeningCheck, "/v1/openings/check", body)

    def check_going_out(
        self,
        *,
        preset: PresetId,
        melds: Sequence[Sequence[Card]],
        players: Sequence[PlayerInput] | None = None,
        round: int = 1,
        rules: Mapping[str, object] | None = None,
    ) -> GoingOutCheck:
        """``POST /v1/going-out/check``: may a side with these melds (and players' cards) go out
        in this round? Gives the books on the table and those missing for the contract."""
        players_list = None if players is None else list(players)
        body = _body(preset=preset, round=round, melds=_melds(melds), players=players_list, rules=rules)
        return self._compute(GoingOutCheck, "/v1/going-out/check", body)

    def check_discard_pile(
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
        """``POST /v1/discard-pile/check``: may this hand take the discard pile (``pile``, top
        card first), given the side's ``melds``? ``taken_before``: the pile was taken earlier this
        round; ``frozen``: a wild card was discarded onto it; ``burn``: the side's burn pile (a
        burned rank cannot be used to take)."""
        body = _body(
            preset=preset,
            hand=list(hand),
            pile=list(pile),
            melds=None if melds is None else _melds(melds),
            taken_before=taken_before or None,  # sent only when true
            frozen=frozen or None,
            burn=list(burn) or None,  # sent only when not empty
            rules=rules,
        )
        return self._compute(DiscardPileCheck, "/v1/discard-pile/check", body)

    # ------------------------------------------------------------------ games

    def create_game(
        self,
        *,
        name: str,
        preset: PresetId,
        teams: Sequence[GameTeamInput],
        rules: Mapping[str, object] | None = None,
        idempotency_key: str | None = None,
    ) -> Game:
        """``POST /v1/games``: start a stored game under ``preset`` (plus house ``rules``, kept
        as a snapshot) with these sides and players.

        Sent with an ``Idempotency-Key`` (generated unless given) so a retry never creates two
        games.
        """
        body = _body(name=name, preset=preset, teams=list(teams), rules=rules)
        response = self._transport.post_with_idempotency_key("/v1/games", json=body, idempotency_key=idempotency_key)
        return _with_etag(Game, response)

    def games(
        self,
        *,
        status: GameStatus | None = None,
        player: str | None = None,
        preset: PresetId | None = None,
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
        status: GameStatus | None = None,
        player: str | None = None,
        preset: PresetId | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> Page[GameSummary]:
        """``GET /v1/games``: one page of games; ``.next_page()`` / ``.iter_all()`` go on (keyset
        pages, through the ``Link`` header's cursor; ``total`` is ``None`` unless the page holds the
        whole list). ``page`` asks for the server's deprecated numbered pages, which carry ``total``
        and ``total_pages`` but cost a count and an offset on each request."""
        params: QueryParams = {
            "status": status,
            "player": player,
            "preset": preset,
            "page": page,
            "page_size": page_size,
        }
        return self._get_page("/v1/games", parse=GameSummary.from_json, params=params)

    def game(self, game_id: int) -> Game:
        """``GET /v1/games/{id}``: a game with its rounds, running totals, status and outcome."""
        return _with_etag(Game, self._request("GET", f"/v1/games/{_seg(game_id)}"))

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
        path = f"/v1/games/{_seg(game_id)}/rounds"
        body = _body(teams=list(teams), round=round)
        response = self._transport.post_with_idempotency_key(path, json=body, idempotency_key=idempotency_key)
        return _with_etag(Round, response)

    def round(self, game_id: int, number: int) -> Round:
        """``GET /v1/games/{id}/rounds/{n}``: a stored round (with its ``etag``)."""
        return _with_etag(Round, self._request("GET", _round_path(game_id, number)))

    def correct_round(
        self,
        game_id: int,
        number: int,
        *,
        teams: Sequence[TeamInput],
        if_match: str | None = None,
        idempotency_key: str | None = None,
    ) -> Round:
        """``PUT /v1/games/{id}/rounds/{n}``: replace a round's teams; later totals are
        recomputed and the earlier revision is kept (``revisions()``).

        Without ``if_match`` the round is read first and its ETag sent, so the correction applies
        only to the revision just read. If someone else changed the round in between, raises
        ``PreconditionFailedError`` saying so (read the round again and re-apply the change).
        As ``add_round``: one ``Idempotency-Key`` a call (or ``idempotency_key``), reused on retries."""
        path = _round_path(game_id, number)
        etag = if_match if if_match is not None else self.round(game_id, number).etag
        if etag is None:
            raise APIResponseValidationError(f"GET {path}: the server sent no ETag to correct the round with")
        body: dict[str, object] = {"teams": list(teams)}
        key = idempotency_key or str(uuid.uuid4())
        try:
            response = self._request("PUT", path, json=body, headers={"If-Match": etag}, idempotency_key=key)
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
        return _with_etag(Round, response)

    def delete_round(self, game_id: int, number: int, *, if_match: str | None = None) -> None:
        """``DELETE /v1/games/{id}/rounds/{n}``: take back the game's last round (``ConflictError``,
        ``not-last-round``, for another). ``if_match``: a ``Game.etag``, else the game is read for it."""
        etag = if_match if if_match is not None else self.game(game_id).etag
        self._request("DELETE", _round_path(game_id, number), headers={"If-Match": etag or ""})

    def revisions(self, game_id: int, number: int) -> list[Revision]:
        """``GET /v1/games/{id}/rounds/{n}/revisions``: the round's audit trail, oldest first."""
        path = f"{_round_path(game_id, number)}/revisions"
        return load_list(Revision, self._get(path), "revisions")

    def scoresheet(self, game_id: int) -> Scoresheet:
        """``GET /v1/games/{id}/scoresheet``: rounds × sides with running totals.

        ``sheet.rows()`` gives a list of dicts for ``pandas.DataFrame``.
        """
        return Scoresheet.from_json(self._get(f"/v1/games/{_seg(game_id)}/scoresheet"))

    def scoresheet_csv(self, game_id: int) -> str:
        """``GET /v1/games/{id}/scoresheet`` as CSV (``"round","Us","Us total","Them","Them total"``)."""
        response = self._request("GET", f"/v1/games/{_seg(game_id)}/scoresheet", headers={"Accept": "text/csv"})
        if "charset" not in response.headers.get("Content-Type", "").lower():
            response.encoding = "utf-8"  # requests would assume ISO-8859-1 for text/*
        return response.text

    # ------------------------------------------------------------------ internal helpers
    # A new endpoint method is a thin wrapper over one of these, loading its result type:
    #   reads                      -> Type.from_json(self._get(path))
    #   pure computations (POST)   -> self._compute(Type, path, body)
    #   creating writes (appends)  -> self._transport.post_with_idempotency_key(path, json=body)
    #   paginated lists            -> self._get_page(path, parse=Type.from_json, params=...)

    def _get(self, path: str) -> Any:
        """GET ``path`` and decode its JSON body."""
        return decode_json(self._request("GET", path))

    def _compute(self, cls: type[R], path: str, body: Mapping[str, object]) -> R:
        """POST a question with no side effects on the server (so retried like a GET)."""
        return cls.from_json(decode_json(self._request("POST", path, json=body, idempotent=True)))

    def _get_page(self, path: str, *, parse: Callable[[object], T], params: QueryParams | None = None) -> Page[T]:
        """GET one page of a paginated list; the page can fetch the rest (``iter_all()``)."""
        return fetch_page(self._transport, path, parse=parse, params=params)


def _with_etag(cls: type[RE], response: requests.Response) -> RE:
    """A result with the ``etag`` of the response's ``ETag`` header."""
    return cls.from_json(decode_json(response), etag=response.headers.get("ETag"))
