"""Tables: ``POST /v1/tables`` (``TableCreated``), ``GET /v1/tables/{id}`` (``Table``), a seat's view
(``SeatView``: ``GET /v1/tables/{id}/view``, ``.../events``, ``POST .../actions``) and an ended
round (``TableRound``: ``GET /v1/tables/{id}/rounds/{n}``). Scores are points.

A seat's ``view`` is the engine's view of that seat (``handfoot.engine.play.view``) kept as the
JSON the server sent (read-only: objects are ``FrozenDict``, arrays tuples); ``SeatView`` gives
its top-level members typed (``phase``, ``actions``, ...) and ``plain_view()`` a mutable copy.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, NamedTuple

from .._loader import Result, thaw

__all__ = [
    "TABLE_EVENT_TYPES",
    "TABLE_PHASES",
    "TABLE_STATUSES",
    "BookValue",
    "GoingOutProblem",
    "LastRound",
    "SeatSummary",
    "SeatToken",
    "SeatView",
    "SideScore",
    "SideSummary",
    "Table",
    "TableCreated",
    "TableEventType",
    "TablePhase",
    "TableRound",
    "TableStatus",
]


#: A table's ``status``: ``playing`` until its game has ended; the enum of ``Table.status`` in
#: openapi/openapi.json (tests/contract/test_sdk_coverage.py compares the two).
TableStatus = Literal["playing", "finished"]
TABLE_STATUSES: tuple[TableStatus, ...] = typing.get_args(TableStatus)

#: The phase of a turn: ``draw`` (the seat in turn draws, or takes the pile), ``play`` (it melds,
#: then discards or goes out), ``answer`` (its partner answers "May I go out?") or ``ended`` (the
#: round is over). The enum of ``Table.phase`` and of the view's ``phase`` in openapi/openapi.json
#: (tests/contract/test_sdk_coverage.py compares them).
TablePhase = Literal["draw", "play", "answer", "ended"]
TABLE_PHASES: tuple[TablePhase, ...] = typing.get_args(TablePhase)

#: The type of a public event of the view's ``history``: the actions (``draw``: a count of cards,
#: ``take_pile``, ``meld``, ``discard``, ``ask``, ``answer``) and what follows them (``red_threes``
#: laid out, ``pick_up_foot``, the round's end: ``went_out``, ``stock_out``). The enum of the history's
#: ``type`` in openapi/openapi.json (tests/contract/test_sdk_coverage.py compares them).
TableEventType = Literal[
    "draw", "take_pile", "meld", "discard", "ask", "answer", "red_threes", "pick_up_foot", "went_out", "stock_out"
]
TABLE_EVENT_TYPES: tuple[TableEventType, ...] = typing.get_args(TableEventType)


class GoingOutProblem(NamedTuple):
    """One problem in the way of going out (the view's ``going_out.errors``): ``pointer`` (a JSON
    Pointer into the view: ``/seats/2/foot_size`` for seat 2's foot not picked up, ...), ``code``,
    ``detail``. Two problems of one code about two seats differ by ``pointer``."""

    pointer: str
    code: str
    detail: str


class BookValue(NamedTuple):
    """What a side's completed books of one kind score now (a line of the view's ``book_values``):
    ``code`` (``clean_books``, ``dirty_books``, ``wild_books``, ``books_of_<rank>``), ``count``,
    ``points_each`` (points) and ``points``."""

    code: str
    count: int  # type: ignore[assignment]  # hides tuple.count, on purpose: the view's member's name
    points_each: int
    points: int


@dataclass(frozen=True, slots=True)
class SeatToken(Result):
    """One seat of a new table, in turn order: its index, player ``name``, ``side`` (an index into
    the sides) and ``token``, the seat's secret for ``Seat-Token`` (shown in this answer only)."""

    seat: int
    name: str
    side: int
    token: str


@dataclass(frozen=True, slots=True)
class _TableHead(Result):
    """What every answer about a table starts with: its ``id``, the stored ``game`` it plays, its
    ``href``, ``status`` (``playing`` or ``finished``), the game's ``round`` in play, the table
    ``version`` (every action moves it, across rounds) and ``practice``: its creator chose its seed
    (a practice deal, whose every round's deal the seed gives away)."""

    id: int
    game: int
    href: str
    status: TableStatus
    round: int
    version: int
    practice: bool


@dataclass(frozen=True, slots=True)
class TableCreated(_TableHead):
    """The answer of ``POST /v1/tables``: the table (``status`` ``playing``, the first ``round``
    dealt, ``version`` 0) and each seat with its token."""

    seats: tuple[SeatToken, ...]

    @property
    def tokens(self) -> list[str]:
        """Each seat's token, in seat (turn) order."""
        return [seat.token for seat in self.seats]


@dataclass(frozen=True, slots=True)
class SeatSummary(Result):
    """One seat in a table's public summary: player, side, and how many cards it holds
    (``foot_size`` ``None`` once the foot is picked up)."""

    seat: int
    name: str
    side: int
    hand_size: int
    foot_size: int | None


@dataclass(frozen=True, slots=True)
class SideSummary(Result):
    """A side at the table and its game total before the round in play (points)."""

    name: str
    score: int


@dataclass(frozen=True, slots=True)
class Table(_TableHead):
    """``GET /v1/tables/{id}``, the public summary (no cards): the stored ``game``, ``status``
    (``playing`` or ``finished``), the ``round`` in play, the table ``version`` (every action moves
    it, across rounds), whose ``turn`` (a seat index) and what ``phase``."""

    phase: TablePhase
    turn: int
    seats: tuple[SeatSummary, ...]
    sides: tuple[SideSummary, ...]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class SideScore(Result):
    """One side's score for an ended round: ``total`` points and the ``lines`` that add up to it
    (each as ``Breakdown``'s lines: ``code``, ``label``, ``count``, ``points_each``, ``points``)."""

    name: str
    total: int
    lines: tuple[Mapping[str, object], ...]


@dataclass(frozen=True, slots=True)
class LastRound(Result):
    """The round that ended last: how (``ended``: ``went_out`` or a stock rule), the side that went
    out (an index, or ``None``), its now public ``seed`` and each side's score."""

    round: int
    ended: str
    out_side: int | None
    seed: int
    score: tuple[SideScore, ...]
    href: str

    @property
    def totals(self) -> dict[str, int]:
        """Side name -> the round's total (points)."""
        return {side.name: side.total for side in self.score}


@dataclass(frozen=True, slots=True)
class SeatView(Result):
    """What one seat sees: ``table``/``game`` ids, ``status`` (``finished``: the game has ended),
    the table ``version`` (send it back with an action), the ``round`` in play, the game's
    ``rounds`` (``None``: played to a target score), the rules in force (the game's ``preset`` id
    and its house-rule overrides, ``rules``: ``{}`` when none), the engine's ``view`` and the
    ``last_round`` (``None`` in round 1)."""

    table: int
    game: int
    status: TableStatus
    version: int
    round: int
    view: Mapping[str, object]
    rounds: int | None
    last_round: LastRound | None
    preset: str
    rules: Mapping[str, object]

    @property
    def finished(self) -> bool:
        """The game has ended: no more actions."""
        return self.status == "finished"

    @property
    def actions(self) -> tuple[Mapping[str, Any], ...]:
        """The actions open to this seat now (empty: not its move); each ``{"type": ...}``."""
        value = self.view.get("actions")
        return tuple(a for a in value if isinstance(a, Mapping)) if isinstance(value, tuple) else ()

    @property
    def my_move(self) -> bool:
        """It is this seat's move (its turn, or its answer to "May I go out?")."""
        return not self.finished and bool(self.actions)

    @property
    def phase(self) -> TablePhase | None:
        """The turn's phase (a ``TablePhase``): ``draw``, ``play``, ``answer`` (a partner is asked
        "May I go out?") or ``ended``; ``None`` for a value this SDK does not know."""
        value = self.view.get("phase")
        return next((phase for phase in TABLE_PHASES if phase == value), None)

    @property
    def seat(self) -> int | None:
        value = self.view.get("seat")
        return value if isinstance(value, int) else None

    @property
    def hand(self) -> tuple[str, ...]:
        """This seat's cards (codes such as ``"KS"``)."""
        value = self.view.get("hand")
        return tuple(str(c) for c in value) if isinstance(value, tuple) else ()

    def action(self, kind: str) -> Mapping[str, Any] | None:
        """The open action of type ``kind`` (``"meld"``, ``"take_pile"``, ...), or ``None``."""
        return next((a for a in self.actions if a.get("type") == kind), None)

    def sendable(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The bodies the view lists to send (every entry's ``send``, or only ``kind``'s), each
        accepted by the table now, as plain dicts ready for ``Client.act``."""
        return [
            thaw(body) for a in self.actions if kind is None or a.get("type") == kind for body in (a.get("send") or ())
        ]

    @property
    def card_facts(self) -> dict[str, tuple[int, bool]]:
        """Each card of the hand and the pile's top: ``code -> (points, wild)`` (the view's ``cards``)."""
        value = self.view.get("cards")
        if not isinstance(value, Mapping):
            return {}
        return {
            str(code): (int(f["points"]), bool(f["wild"]))
            for code, f in value.items()
            if isinstance(f, Mapping) and isinstance(f.get("points"), int)
        }

    @property
    def going_out(self) -> tuple[bool, tuple[str, ...]] | None:
        """In this seat's play: whether emptying the hand now would go out, and the problem codes in
        the way (the view's ``going_out``); ``None`` at any other moment."""
        value = self.view.get("going_out")
        if not isinstance(value, Mapping):
            return None
        problems = value.get("problems")
        return bool(value.get("allowed")), tuple(str(p) for p in problems) if isinstance(problems, tuple) else ()

    @property
    def going_out_problems(self) -> tuple[GoingOutProblem, ...]:
        """In this seat's play, each problem in the way of going out with its pointer into the view
        (the view's ``going_out.errors``); empty at any other moment or when going out is allowed."""
        value = self.view.get("going_out")
        errors = value.get("errors") if isinstance(value, Mapping) else None
        if not isinstance(errors, tuple):
            return ()
        return tuple(
            GoingOutProblem(str(e.get("pointer", "")), str(e.get("code", "")), str(e.get("detail", "")))
            for e in errors
            if isinstance(e, Mapping)
        )

    @property
    def history(self) -> tuple[Mapping[str, Any], ...]:
        """The round's public events since the deal, oldest first (the view's ``history``): each with
        ``step``, ``seat`` and ``type`` (a ``TableEventType``), and the type's members (``card`` of a
        ``discard``, ``melds``/``add``/``burn`` of a ``meld`` or ``take_pile``, ...)."""
        value = self.view.get("history")
        return tuple(e for e in value if isinstance(e, Mapping)) if isinstance(value, tuple) else ()

    def _side(self, side: int) -> Mapping[str, Any]:
        sides = self.view.get("sides")
        if isinstance(sides, tuple) and 0 <= side < len(sides) and isinstance(sides[side], Mapping):
            return typing.cast(Mapping[str, Any], sides[side])
        return {}

    def melds(self, side: int) -> tuple[tuple[tuple[str, ...], bool], ...]:
        """Side ``side``'s melds, each as its cards and whether it is ``complete`` (a book)."""
        value = self._side(side)
        melds, complete = value.get("melds") or (), value.get("complete") or ()
        return tuple((tuple(str(c) for c in meld), bool(done)) for meld, done in zip(melds, complete, strict=False))

    def book_values(self, side: int) -> tuple[BookValue, ...]:
        """What side ``side``'s completed books score now, by kind (the view's ``book_values``)."""
        return tuple(
            BookValue(str(v["code"]), int(v["count"]), int(v["points_each"]), int(v["points"]))
            for v in self._side(side).get("book_values") or ()
            if isinstance(v, Mapping)
        )

    def plain_view(self) -> dict[str, Any]:
        """A mutable copy of ``view`` as plain dicts and lists (what the engine's policies read)."""
        out: dict[str, Any] = thaw(self.view)
        return out


@dataclass(frozen=True, slots=True)
class TableRound(Result):
    """``GET /v1/tables/{id}/rounds/{n}``, an ended round, public: its ``seed``, how it ended, the
    side that went out, every accepted action in order (each with its ``seat``), each side's score,
    and the stored round of the game (``game_round_href``)."""

    round: int
    seed: int
    ended: str
    out_side: int | None
    actions: tuple[Mapping[str, object], ...]
    score: tuple[SideScore, ...]
    game_round_href: str
