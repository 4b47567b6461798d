"""The mutable working copy that one step edits, and the moves every action shares: drawing with
red threes laid out and replaced, picking up the foot, ending the turn and the round.

A step copies the state's tuples into lists here, edits them, and freezes the result into a new
:class:`~handfoot.engine.play.state.State`: the state given is never changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from handfoot.engine.cards import Card
from handfoot.engine.play.state import EndReason, Phase, Seat, Side, State
from handfoot.engine.rules import RuleSet


class Work:
    """A state's cards as lists, plus its turn flags; :meth:`freeze` gives the next State."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.rules: RuleSet = state.rules
        self.hands = [list(s.hand) for s in state.seats]
        self.feet = [None if s.foot is None else list(s.foot) for s in state.seats]
        self.played = [s.played_from_foot for s in state.seats]
        self.melds = [[list(m) for m in side.melds] for side in state.sides]
        self.red_threes = [list(side.red_threes) for side in state.sides]
        self.burn = [list(side.burn) for side in state.sides]
        self.stock = list(state.stock)
        self.pile = list(state.pile)
        self.turn = state.turn
        self.phase: Phase = state.phase
        self.pile_taken = state.pile_taken
        self.frozen_turns = state.frozen_turns
        self.asked = state.asked
        self.permission = state.permission
        self.answerer = state.answerer
        self.ended: EndReason | None = state.ended
        self.out_side = state.out_side
        self.events: list[dict[str, Any]] = []  # the moves' public events, in order (see public_events)

    def side_of(self, seat: int) -> int:
        return self.state.seats[seat].side

    # -- moves ------------------------------------------------------------------------------
    def lay_out_red_threes(self, seat: int, *, foot: bool = False) -> None:
        """Lay the seat's red threes out on its side's table and draw a replacement for each, where
        ``red_threes_laid_out`` (Pagat 'lay out any red threes and draw replacements'; the online 11/13
        game; Board Game Arena). A replacement wanted from an empty stock ends the round (the online
        11/13 game 'If the last card of the stock is a red 3, it is laid out as usual and the round
        ends at once'; D40). ``foot``: the seat's foot (still face down) rather than its hand: at the
        deal, where the game lays out a foot's red threes as it is dealt (``red_threes_automatic_foot``
        ``dealt``, D76)."""
        if not self.rules.red_threes_laid_out:
            return
        hand = self.feet[seat] if foot else self.hands[seat]
        if hand is None:
            return
        while self.ended is None and any(c.is_red_three for c in hand):
            threes = [c for c in hand if c.is_red_three]
            hand[:] = [c for c in hand if not c.is_red_three]
            self.events.append({"type": "red_threes", "seat": seat, "cards": _codes(threes)})
            self.red_threes[self.side_of(seat)].extend(threes)
            for _ in threes:
                if not self.stock:
                    self.end_round("stock_out")
                    return
                hand.append(self.stock.pop())

    def draw(self, seat: int, count: int) -> None:
        """Draw ``count`` cards (fewer if the stock holds fewer: D39), red threes laid out and replaced."""
        hand = self.hands[seat]
        self.events.append({"type": "draw", "seat": seat, "cards": min(count, len(self.stock))})
        for _ in range(min(count, len(self.stock))):
            hand.append(self.stock.pop())
        self.lay_out_red_threes(seat)

    def pick_up_foot(self, seat: int) -> None:
        """The foot becomes the hand (its red threes laid out and replaced)."""
        foot = self.feet[seat]
        assert foot is not None
        self.events.append({"type": "pick_up_foot", "seat": seat})
        self.hands[seat].extend(foot)
        self.feet[seat] = None
        self.lay_out_red_threes(seat)

    def end_round(self, reason: EndReason, side: int | None = None) -> None:
        self.events.append({"type": reason, "seat": self._actor(), "side": side})
        self.ended, self.out_side, self.phase = reason, side, "ended"

    def end_turn(self, discarded: Card | None) -> None:
        """Pass the turn to the next seat: a frozen pile counts down (and, thawed, needs a first
        take again: seed 003), a discarded wild freezes it where ``pile_freezes_on_wild``; the next
        seat picks up its foot if it walked into it (D37); an empty stock at its draw ends the round
        where the stock's rule is ``ends`` (D39)."""
        if self.frozen_turns:
            self.frozen_turns -= 1
            if not self.frozen_turns:
                self.pile_taken = False
        if discarded is not None and discarded.is_wild and self.rules.pile_freezes_on_wild:
            self.frozen_turns = len(self.hands)
        self.turn = (self.turn + 1) % len(self.hands)
        self.phase, self.asked, self.permission, self.answerer = "draw", False, None, None
        self.begin_turn()

    def begin_turn(self) -> None:
        seat = self.turn
        if not self.hands[seat] and self.feet[seat] is not None:
            self.pick_up_foot(seat)
        if self.ended is None and not self.stock and self.state.play.stock_out == "ends":
            self.end_round("stock_out")

    # -- the public history ------------------------------------------------------------------
    def _actor(self) -> int:
        s = self.state
        return s.answerer if s.phase == "answer" and s.answerer is not None else s.turn

    def public_events(self) -> list[dict[str, Any]]:
        """What every seat saw of this step, each event ``{"step", "seat", "type", ...}``: first the
        action's change to the table, read from the state before and the working copy (``take_pile``:
        ``cards`` taken from the pile, top first, with ``melds``, ``add`` and ``burn`` as a meld's;
        ``meld``: ``melds`` laid, ``add`` (``to``: the meld's index, ``cards``), ``burn``;
        ``discard``: ``card``; ``ask``; ``answer``: ``yes``), then the moves in order (``draw``:
        ``cards`` drawn, a count; ``red_threes``: ``cards`` laid out; ``pick_up_foot``;
        ``went_out``/``stock_out``: ``side`` out or ``None``). Only what the table shows: no card of a
        hand, a foot or the stock, the drawn cards only by their count."""
        s, seat = self.state, self._actor()
        first: dict[str, Any] | None = None
        if s.phase == "answer" and self.permission is not None:
            first = {"type": "answer", "seat": seat, "yes": self.permission}
        elif self.asked and not s.asked:
            first = {"type": "ask", "seat": seat}
        elif len(self.pile) == len(s.pile) + 1 and s.phase == "play":
            first = {"type": "discard", "seat": seat, "card": self.pile[0].code}
        elif len(self.pile) < len(s.pile) or self._melded(seat):
            side = self.side_of(seat)
            before, after = s.sides[side].melds, self.melds[side]
            laid = {
                "melds": [_codes(m) for m in after[len(before) :]],
                "add": [
                    {"to": i, "cards": _codes(after[i][len(m) :])}
                    for i, m in enumerate(before)
                    if len(after[i]) > len(m)
                ],
                "burn": _codes(self.burn[side][len(s.sides[side].burn) :]),
            }
            taken = len(s.pile) - len(self.pile)
            first = (
                {"type": "take_pile", "seat": seat, "cards": _codes(s.pile[:taken]), **laid}
                if taken > 0
                else {"type": "meld", "seat": seat, **laid}
            )
        if (
            first is None
            and s.phase == "draw"
            and s.step >= 0
            and not (self.events and self.events[0]["type"] == "draw")
        ):
            first = {"type": "draw", "seat": seat, "cards": 0}  # a draw from an empty stock: it ends the round
        events = self.events if first is None else [first, *self.events]
        step = s.step + 1
        return [{"step": step, **e} for e in events]

    def _melded(self, seat: int) -> bool:
        side, before = self.side_of(seat), self.state.sides[self.side_of(seat)]
        melds = self.melds[side]
        return (
            len(melds) != len(before.melds)
            or len(self.burn[side]) != len(before.burn)
            or any(len(m) != len(b) for m, b in zip(melds, before.melds, strict=True))
        )

    # -- the next state -----------------------------------------------------------------------
    def freeze(self) -> State:
        s = self.state
        seats = []
        # a seat or side unchanged (the same cards, compared as tuples: in C, each card by identity
        # first) is shared by the next state, with what was computed of it (a side's table)
        for i, seat in enumerate(s.seats):
            hand, foot = tuple(self.hands[i]), self.feet[i]
            feet = None if foot is None else tuple(foot)
            if seat.hand == hand and seat.foot == feet and seat.played_from_foot == self.played[i]:
                seats.append(seat)
            else:
                seats.append(Seat(seat.name, seat.side, hand, feet, self.played[i]))
        sides = []
        for j, side in enumerate(s.sides):
            melds, red_threes, burn = tuple(map(tuple, self.melds[j])), tuple(self.red_threes[j]), tuple(self.burn[j])
            if side.melds == melds and side.red_threes == red_threes and side.burn == burn:
                sides.append(side)
            else:
                sides.append(Side(side.name, melds, red_threes, burn, side.score))
        return State(
            s.preset,
            s.overrides,
            s.play,
            s.round,
            s.seed,
            tuple(sides),
            tuple(seats),
            tuple(self.stock),
            tuple(self.pile),
            self.turn,
            self.phase,
            s.step + 1,
            self.pile_taken,
            self.frozen_turns,
            self.asked,
            self.permission,
            self.answerer,
            self.ended,
            self.out_side,
            s._rules,
            (*s.history, *self.public_events()),
        )


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]
