"""A legal index's move (:class:`Move`): its engine action and the state after it, each made
when first read, so that judging every index of a state builds no successor.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from handfoot.engine.cards import Card
from handfoot.engine.play import State, step
from handfoot.engine.play.legal import Verdict
from handfoot.engine.play.listing import body_of
from handfoot.engine.play.step import discarded, melded

Action = dict[str, Any]

#: A meld candidate read into cards: new melds, additions ``(meld index, cards)``, burnt cards.
MeldParts = tuple[Sequence[Sequence[Card]], Sequence[tuple[int, Sequence[Card]]], Sequence[Card]]
#: A take candidate read into cards: hand cards melded with the top card, the meld it goes onto, new melds.
TakeParts = tuple[Sequence[Card], int | None, Sequence[Sequence[Card]]]


class Move:
    """One legal index's engine action (with ``seat``) and, when asked, the state after it: the
    successor is built by :func:`~handfoot.engine.play.step` the first time :attr:`after` (or
    ``move[1]``) is read, so that judging the indexes builds none. Unpacks as ``(action, after)``."""

    __slots__ = ("_action", "_after", "_part", "_verdict", "seat", "state")

    def __init__(
        self,
        state: State,
        action: Action | None = None,
        part: MeldParts | None = None,
        verdict: Verdict | None = None,
        seat: int = -1,
    ) -> None:
        """``action``, or a meld candidate's ``part`` of ``seat`` and the step's ``verdict`` on it:
        its body is written when first read (most indexes are never taken), and the state after it
        built from that verdict (else :func:`~handfoot.engine.play.step` reads and judges the
        action again)."""
        self.state, self._action, self._part, self._verdict, self.seat = state, action, part, verdict, seat
        self._after: State | None = None

    @property
    def action(self) -> Action:
        """The engine action, with ``seat``."""
        if self._action is None:
            assert self._part is not None
            self._action = {**body_of(self._part), "seat": self.seat}
        return self._action

    @property
    def after(self) -> State:
        """The state after :attr:`action` (built once, on first reading)."""
        if self._after is None:
            if self._verdict is None:
                self._after = step(self.state, self.action)
            else:
                assert self._part is not None
                self._after = melded(self.state, self.seat, self._part, self._verdict)
        return self._after

    def __getitem__(self, i: int) -> Any:
        return self.action if i in (0, -2) else (self.action, self.after)[i]

    def __iter__(self) -> Iterator[Any]:
        yield self.action
        yield self.after

    def __len__(self) -> int:
        return 2


class DiscardMove(Move):
    """A discard index's move: its card and the step's verdict on a discard by the seat now
    (:func:`~handfoot.engine.play.legal.judge_discards`, the same for every card held); its body
    written when first read, the state after it built from the verdict
    (:func:`~handfoot.engine.play.step.discarded`)."""

    __slots__ = ("_card",)

    def __init__(self, state: State, card: Card, verdict: Verdict, seat: int) -> None:
        self.state, self._card, self._verdict, self.seat = state, card, verdict, seat
        self._action: Action | None = None
        self._after: State | None = None
        self._part = None

    @property
    def action(self) -> Action:
        if self._action is None:
            self._action = {"type": "discard", "card": self._card.code, "seat": self.seat}
        return self._action

    @property
    def after(self) -> State:
        if self._after is None:
            assert self._verdict is not None
            self._after = discarded(self.state, self.seat, self._card, self._verdict)
        return self._after
