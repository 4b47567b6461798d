"""Tables: ``POST /v1/tables`` and ``GET /v1/tables/{id}`` (``Table``), a seat's view
(``SeatView``: ``GET /v1/tables/{id}/view``, ``.../events``, ``POST .../actions``) and an ended
round (``TableRound``: ``GET /v1/tables/{id}/rounds/{n}``). Scores are points.

A seat's ``view`` is the engine's view of that seat (``handfoot.engine.play.view``) kept as the
JSON the server sent (read-only: objects are ``FrozenDict``, arrays tuples); ``SeatView`` gives
its top-level members typed (``phase``, ``actions``, ...) and ``plain_view()`` a mutable copy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .._http import dumps_json
from .._loader import Result, wire
from .rounds import Breakdown

__all__ = ["LastRound", "SeatView", "Table", "TableRound", "TableSeat", "TableSide"]


@dataclass(frozen=True, slots=True)
class TableSeat(Result):
    """One seat, in turn order: its index, player ``name`` and ``side`` (an index into the sides).
    ``token`` (the seat's secret, for ``Seat-Token``) only in the answer that created the table;
    ``hand_size``/``foot_size`` (cards; ``foot_size`` ``None`` once picked up) only in the summary."""

    seat: int
    name: str
    side: int
    token: str | None = field(default=None, metadata=wire(omit_none=True))
    hand_size: int | None = None
    foot_size: int | None = None


@dataclass(frozen=True, slots=True)
class TableSide(Result):
    """A side at the table and its game score so far (points)."""

    name: str
    score: int


@dataclass(frozen=True, slots=True)
class Table(Result):
    """A table: the stored ``game`` it plays, ``status`` (``playing`` or ``finished``), the
    ``round`` in play and the table's ``version`` (every action moves it, across rounds).
    ``phase``/``turn``/``sides``/timestamps come with ``GET /v1/tables/{id}``."""

    id: int
    game: int
    status: str
    round: int
    version: int
    seats: tuple[TableSeat, ...]
    href: str | None = None
    phase: str | None = None
    turn: int | None = None
    sides: tuple[TableSide, ...] = ()
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @property
    def tokens(self) -> list[str]:
        """Each seat's token in seat order (only after ``create_table``; else ``ValueError``)."""
        tokens = [seat.token for seat in self.seats]
        if any(token is None for token in tokens):
            raise ValueError("this answer holds no seat tokens (only the one that created the table does)")
        return [token for token in tokens if token is not None]


@dataclass(frozen=True, slots=True)
class LastRound(Result):
    """The round that ended last: how (``ended``: ``went_out`` or a stock rule), the side that went
    out (an index, or ``None``), its now public ``seed`` and each side's score."""

    round: int
    ended: str
    out_side: int | None = None
    seed: int | None = None
    score: tuple[Breakdown, ...] = ()
    href: str | None = None

    @property
    def totals(self) -> dict[str, int]:
        """Side name → the round's total (points)."""
        return {b.name: b.total for b in self.score}


@dataclass(frozen=True, slots=True)
class SeatView(Result):
    """What one seat sees: ``table``/``game`` ids, ``status`` (``finished``: the game has ended),
    the table ``version`` (send it back with an action), the ``round`` in play, the game's
    ``rounds`` (``None``: played to a target score), the engine's ``view`` and the ``last_round``
    (``None`` in round 1)."""

    table: int
    game: int
    status: str
    version: int
    round: int
    view: Mapping[str, object]
    rounds: int | None = None
    last_round: LastRound | None = None
    preset: str | None = field(default=None, metadata=wire(omit_none=True))
    """The game's preset and house ``rules`` (overrides), when the server sends them."""
    rules: Mapping[str, object] | None = field(default=None, metadata=wire(omit_none=True))

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
    def phase(self) -> str | None:
        """``draw``, ``meld``, ``answer`` or ``ended``."""
        value = self.view.get("phase")
        return value if isinstance(value, str) else None

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

    def plain_view(self) -> dict[str, Any]:
        """A mutable copy of ``view`` as plain dicts and lists (what the engine's policies read)."""
        out: dict[str, Any] = json.loads(dumps_json(self.view))
        return out


@dataclass(frozen=True, slots=True)
class TableRound(Result):
    """An ended round, public: its ``seed``, how it ended, the side that went out, every accepted
    action in order (each with its ``seat``), the score, and the stored round of the game."""

    round: int
    ended: str
    actions: tuple[Mapping[str, object], ...]
    score: tuple[Breakdown, ...]
    seed: int | None = None
    out_side: int | None = None
    game_round_href: str | None = None

