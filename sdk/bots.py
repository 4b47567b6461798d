"""Bots at a table: a loop that waits for a seat's move, asks a ``choose`` function, and acts.

    from handfoot.client import Client
    from handfoot.client.bots import Bot

    def choose(sv):                       # a SeatView -> candidate actions, best first
        if sv.phase == "draw":
            return sv.sendable("draw")        # the bodies the view lists: each accepted now
        return sv.sendable("discard")[:1]

    with Client() as hf:
        summary = Bot(hf, table_id, token, choose).play()

``choose`` gives candidates in order, as the engine's policies do (``handfoot.engine.play.bots``):
the first one the table accepts is kept; one it refuses (422) passes to the next; if the table
moved on meanwhile (409 ``VersionMovedError``) the view is read again and ``choose`` asked again.
Each entry of ``sv.actions`` carries ``send``, the bodies the table accepts now: a ``choose`` that
picks from them is never refused (docs/tables.md, "The actions open to a seat"). Every refusal
there is all the same goes to ``on_refusal`` (a ``Refusal``: the action, the table's version, each
problem's code, detail and pointer) and to the log (logger ``handfoot.client.bots``, a warning):
override the method, or pass ``on_refusal=``.
Between moves the bot long-polls its view (``wait`` seconds at a time). It plays until the game
has ended, through the partner's "May I go out?" answers and round after round, and returns a
``BotSummary``. ``AsyncBot`` is the same on an ``AsyncClient``.

``policy_choose("greedy")`` seats one of the engine's reference policies, under the rules the
seat's view names (its game's preset and house rules); ``policy_choose(policy)`` a policy function of
your own (``handfoot.client.policies``: the ``Policy`` protocol, and ``load_policy("mybot:policy")``).
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._errors import ConflictError, HandFootError, UnprocessableEntityError, VersionMovedError
from ._http import dumps_json
from .types.problems import ProblemItem
from .types.tables import SeatView

if TYPE_CHECKING:
    from handfoot.engine.rules import RuleSet

    from ._client import Client
    from .aio import AsyncClient

__all__ = [
    "Action",
    "AsyncBot",
    "Bot",
    "BotError",
    "BotSummary",
    "Choose",
    "OnRefusal",
    "Refusal",
    "final_totals",
    "play_seats",
    "policy_choose",
]

#: A policy in the engine's form: (the seat's view, the rules in force, a ``random.Random``) ->
#: candidate actions (``handfoot.client.policies.Policy`` documents it).
EnginePolicy = Callable[[dict[str, Any], "RuleSet", random.Random], list[dict[str, Any]]]

#: The bots' log: a warning for every action the table refused.
log = logging.getLogger("handfoot.client.bots")

#: An action as the engine takes it (``{"type": "discard", "card": "7H"}``), without ``seat``.
Action = Mapping[str, Any]
#: A bot's mind: the seat's view -> candidate actions, best first (the engine's, without ``seat``).
Choose = Callable[[SeatView], Sequence[Action]]

#: Seconds of one long-poll of the view while another seat plays (the server takes at most 60).
DEFAULT_WAIT = 30
#: Actions posted by one bot before it gives up (a game of Pagat takes a few hundred).
DEFAULT_MAX_ACTIONS = 100_000


@dataclass(frozen=True, slots=True)
class Refusal:
    """One action the table refused (422): the ``action`` sent, the table ``version`` it was sent
    on, and ``problems``, each rule broken with its ``code``, ``detail`` and ``pointer``."""

    table: int
    version: int
    action: Action
    problems: tuple[ProblemItem, ...]

    @property
    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def __str__(self) -> str:
        why = "; ".join(f"{p.code} at {p.location or '/'}: {p.detail}" for p in self.problems) or "no problems given"
        return f"table {self.table} version {self.version} refused {dumps_json(self.action).decode()}: {why}"


#: A bot author's hook for refusals (``Bot(..., on_refusal=...)``).
OnRefusal = Callable[[Refusal], None]


def _refusal(sv: SeatView, action: Action, exc: UnprocessableEntityError) -> Refusal:
    return Refusal(sv.table, sv.version, action, tuple(exc.problems))


class BotError(HandFootError):
    """The table refused every candidate ``choose`` gave (``problems``: the last refusal's), or
    the bot posted ``max_actions`` actions without the game ending."""

    def __init__(self, message: str, problems: Sequence[ProblemItem] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems)


@dataclass(frozen=True, slots=True)
class BotSummary:
    """What one bot did: ``actions`` posted and accepted, ``refused`` candidates (422),
    ``conflicts`` (409: the table had moved on), the ``rounds`` it saw, the game's final ``totals``
    (side name -> points, ``final_totals``) and the last view."""

    table: int
    game: int
    seat: int | None
    actions: int
    refused: int
    conflicts: int
    rounds: int
    totals: Mapping[str, int]
    last: SeatView = field(repr=False)


def final_totals(sv: SeatView) -> dict[str, int]:
    """Side name -> game score (points) as the view shows it: each side's score before the round
    in view, plus the round's own score once that round has ended."""
    sides = sv.view.get("sides")
    totals: dict[str, int] = {}
    if not isinstance(sides, tuple):
        return totals
    for side in sides:
        if isinstance(side, Mapping) and isinstance(side.get("name"), str) and isinstance(side.get("score"), int):
            totals[side["name"]] = side["score"]
    score = sv.view.get("score")
    if sv.phase == "ended" and isinstance(score, tuple):
        for line in score:
            if isinstance(line, Mapping) and line.get("name") in totals and isinstance(line.get("total"), int):
                totals[line["name"]] += line["total"]
    return totals


class _Tally:
    """The counts a bot keeps while it plays (shared by the sync and async loops)."""

    def __init__(self, max_actions: int) -> None:
        self.actions = self.refused = self.conflicts = 0
        self.rounds: set[int] = set()
        self.max_actions = max_actions

    def saw(self, sv: SeatView) -> SeatView:
        self.rounds.add(sv.round)
        if self.actions >= self.max_actions and not sv.finished:
            raise BotError(f"{self.actions} actions posted and the game of table {sv.table} has not ended")
        return sv

    def summary(self, sv: SeatView) -> BotSummary:
        return BotSummary(
            sv.table,
            sv.game,
            sv.seat,
            self.actions,
            self.refused,
            self.conflicts,
            len(self.rounds),
            final_totals(sv),
            sv,
        )


def _report(bot: Bot | AsyncBot, refusal: Refusal) -> None:
    """A refusal to the log (a warning: the code, detail and pointer of each problem) and to the
    bot's ``on_refusal``."""
    log.warning("%s", refusal)
    bot.on_refusal(refusal)


def _none_accepted(sv: SeatView, refusal: UnprocessableEntityError | None) -> BotError:
    problems = refusal.problems if refusal is not None else []
    codes = ", ".join(p.code for p in problems) or "no candidates"
    return BotError(f"table {sv.table} version {sv.version}: every candidate was refused ({codes})", problems)


def _after_conflict(exc: ConflictError, sv: SeatView) -> SeatView:
    """The view read again after a 409: a moved version (or a game now over) plays on from it;
    any other conflict with the game still on is raised (reading again would not end it)."""
    if isinstance(exc, VersionMovedError) or sv.finished:
        return sv
    raise exc


class Bot:
    """Plays the seat of ``token`` at table ``table_id`` through ``client`` with ``choose``
    until the game ends. ``wait``: seconds of each long-poll; ``max_actions``: a guard; ``stop``:
    an event that ends the loop early. A ``Client`` is not shared between threads: give each
    bot of a thread its own."""

    def __init__(
        self,
        client: Client,
        table_id: int,
        token: str,
        choose: Choose,
        *,
        wait: int = DEFAULT_WAIT,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        stop: threading.Event | None = None,
        on_refusal: OnRefusal | None = None,
    ) -> None:
        self.client, self.table_id, self.token, self.choose = client, table_id, token, choose
        self.wait, self.max_actions, self.stop = wait, max_actions, stop
        self._on_refusal = on_refusal

    def on_refusal(self, refusal: Refusal) -> None:
        """Called for every action the table refused, after it is logged: override it (or pass
        ``on_refusal=``) to see why; the default calls the ``on_refusal`` given, if any."""
        if self._on_refusal is not None:
            self._on_refusal(refusal)

    def play(self) -> BotSummary:
        """Play to the end of the game; raises ``BotError`` when no candidate is accepted, or
        when ``stop`` is set (checked between moves and long-polls: another bot failed)."""
        tally = _Tally(self.max_actions)
        sv = tally.saw(self.client.seat_view(self.table_id, self.token))
        while not sv.finished:
            if self.stop is not None and self.stop.is_set():
                raise BotError(f"table {self.table_id}: stopped at version {sv.version}")
            if not sv.my_move:
                sv = self.client.seat_view(self.table_id, self.token, version=sv.version, wait=self.wait)
            else:
                sv = self._move(sv, tally)
            tally.saw(sv)
        return tally.summary(sv)

    def _move(self, sv: SeatView, tally: _Tally) -> SeatView:
        refusal: UnprocessableEntityError | None = None
        for action in self.choose(sv):
            try:
                after = self.client.act(self.table_id, self.token, sv.version, action)
            except UnprocessableEntityError as exc:
                tally.refused += 1
                refusal = exc
                _report(self, _refusal(sv, action, exc))
                continue
            except ConflictError as exc:  # moved on (or finished): look again
                tally.conflicts += isinstance(exc, VersionMovedError)
                return _after_conflict(exc, self.client.seat_view(self.table_id, self.token))
            tally.actions += 1
            return after
        raise _none_accepted(sv, refusal)


def play_seats(
    client: Client, table_id: int, tokens: Sequence[str], chooses: Sequence[Choose], wait: int = 5
) -> list[BotSummary]:
    """Play every seat of table ``table_id`` to the game's end: one :class:`Bot` a seat (``tokens[i]``
    choosing with ``chooses[i]``), each in a thread with a client of its own on ``client``'s server
    (no API key: a seat's token is its credential). The first failure stops the others and is
    raised (``BotError``, the client's errors). Returns each seat's :class:`BotSummary`, in seat
    order."""
    stop = threading.Event()
    results: list[BotSummary | None] = [None] * len(tokens)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        with type(client)(client.base_url, api_key="", timeout=client.timeout, max_retries=client.max_retries) as own:
            try:
                results[i] = Bot(own, table_id, tokens[i], chooses[i], wait=wait, stop=stop).play()
            except BaseException as exc:  # noqa: BLE001 - raised by the caller's thread below
                if not stop.is_set():
                    errors.append(exc)
                stop.set()

    threads = [threading.Thread(target=run, args=(i,), name=f"bot-{i}", daemon=True) for i in range(len(tokens))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return [r for r in results if r is not None]


class AsyncBot:
    """``Bot`` on an ``AsyncClient``: ``await bot.play()``. ``choose`` may be a plain function or
    a coroutine function."""

    def __init__(
        self,
        client: AsyncClient,
        table_id: int,
        token: str,
        choose: Choose | Callable[[SeatView], Awaitable[Sequence[Action]]],
        *,
        wait: int = DEFAULT_WAIT,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        on_refusal: OnRefusal | None = None,
    ) -> None:
        self.client, self.table_id, self.token, self.choose = client, table_id, token, choose
        self.wait, self.max_actions = wait, max_actions
        self._on_refusal = on_refusal

    def on_refusal(self, refusal: Refusal) -> None:
        """As ``Bot.on_refusal``."""
        if self._on_refusal is not None:
            self._on_refusal(refusal)

    async def play(self) -> BotSummary:
        """As ``Bot.play``."""
        tally = _Tally(self.max_actions)
        sv = tally.saw(await self.client.seat_view(self.table_id, self.token))
        while not sv.finished:
            if not sv.my_move:
                sv = await self.client.seat_view(self.table_id, self.token, version=sv.version, wait=self.wait)
            else:
                sv = await self._move(sv, tally)
            tally.saw(sv)
        return tally.summary(sv)

    async def _move(self, sv: SeatView, tally: _Tally) -> SeatView:
        chosen = self.choose(sv)
        candidates: Sequence[Action] = await chosen if isinstance(chosen, Awaitable) else chosen
        refusal: UnprocessableEntityError | None = None
        for action in candidates:
            try:
                after = await self.client.act(self.table_id, self.token, sv.version, action)
            except UnprocessableEntityError as exc:
                tally.refused += 1
                refusal = exc
                _report(self, _refusal(sv, action, exc))
                continue
            except ConflictError as exc:
                tally.conflicts += isinstance(exc, VersionMovedError)
                return _after_conflict(exc, await self.client.seat_view(self.table_id, self.token))
            tally.actions += 1
            return after
        raise _none_accepted(sv, refusal)


def policy_choose(
    policy: str | EnginePolicy,
    *,
    preset: str | None = None,
    rules: Mapping[str, object] | None = None,
    seed: int | None = None,
) -> Choose:
    """One of the engine's reference policies (``"greedy"``, ``"random"``, ``"planner"``:
    ``handfoot.engine.play.arena.POLICIES``), or a policy function of your own
    (``handfoot.client.policies.Policy``), as a ``choose``, its random choices drawn from
    ``random.Random(seed)``. The rules are the view's (``SeatView.preset`` and ``.rules``, the
    table's game's); ``preset`` (with house ``rules``) plays under those instead. The engine's
    actions name their ``seat``; at a table the token says it, so it is left out. ``KeyError`` for
    an unknown policy; the engine's ``HandFootError`` for an unknown preset or bad rules (at once
    when ``preset`` is given, else at the first view)."""
    from handfoot import engine
    from handfoot.engine.play.arena import POLICIES

    chosen = POLICIES[policy] if isinstance(policy, str) else policy
    resolved: dict[bytes, RuleSet] = {}  # by the rules' JSON: a table's views all carry the same

    def rules_of(preset_id: str, overrides: Mapping[str, object]) -> RuleSet:
        key = dumps_json({"preset": preset_id, "rules": overrides})
        if key not in resolved:
            resolved[key] = engine.rules_of({"preset": preset_id, "rules": json.loads(dumps_json(overrides))}).rules
        return resolved[key]

    fixed = None if preset is None else rules_of(preset, rules or {})
    rng = random.Random(seed)

    def choose(sv: SeatView) -> list[Action]:
        in_force = fixed if fixed is not None else rules_of(sv.preset, sv.rules)
        candidates = chosen(sv.plain_view(), in_force, rng)
        return [{k: v for k, v in action.items() if k != "seat"} for action in candidates]

    return choose
