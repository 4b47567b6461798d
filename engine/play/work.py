"""The working copy that one step edits, and the moves every action shares: drawing with red threes
laid out and replaced, picking up the foot, ending the turn and the round.

A step starts from the state's own tuples, puts new values in the place of what its moves change,
and freezes the result into a new :class:`~handfoot.engine.play.state.State` that shares every seat
and side the step left as they were: the state given is never changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from handfoot.engine.cards import Card, codes
from handfoot.engine.play.state import EndReason, Phase, Seat, Side, State, seat_with, side_with, successor
from handfoot.engine.rules import RuleSet

_IS_RED_THREE = attrgetter("is_red_three")


class Work:
    """A state's cards and turn flags while one step changes them; :meth:`freeze` gives the next State.

    ``hands``, ``feet`` (per seat), ``melds``, ``red_threes``, ``burn`` (per side) start as the
    state's own tuples: a move puts a new value in the place of what it changes (a hand it edits in
    place: :meth:`hand`, a list of the step's own), never edits one of the state's, and
    :meth:`freeze` shares every seat and side whose values are still the state's. ``stock`` (top
    card last) and ``pile`` (top card first) are tuples, replaced whole."""

    __slots__ = (
        "answerer",
        "asked",
        "burn",
        "ended",
        "events",
        "feet",
        "frozen_turns",
        "hands",
        "melds",
        "out_side",
        "permission",
        "phase",
        "pile",
        "pile_taken",
        "played",
        "red_threes",
        "rules",
        "state",
        "step",
        "stock",
        "turn",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.rules: RuleSet = state.rules
        # one loop a tuple: the interpreter's specialised attribute reads, and no comprehension (a
        # function made and called) per member
        hands: list[Sequence[Card]] = []
        feet: list[Sequence[Card] | None] = []
        played: list[bool] = []
        for x in state.seats:
            hands.append(x.hand)
            feet.append(x.foot)
            played.append(x.played_from_foot)
        melds: list[Sequence[tuple[Card, ...]]] = []
        red_threes: list[tuple[Card, ...]] = []
        burn: list[tuple[Card, ...]] = []
        for y in state.sides:
            melds.append(y.melds)
            red_threes.append(y.red_threes)
            burn.append(y.burn)
        self.hands, self.feet, self.played = hands, feet, played
        self.melds, self.red_threes, self.burn = melds, red_threes, burn
        self.stock: tuple[Card, ...] = state.stock
        self.pile: tuple[Card, ...] = state.pile
        self.turn = state.turn
        self.phase: Phase = state.phase
        self.pile_taken = state.pile_taken
        self.frozen_turns = state.frozen_turns
        self.asked = state.asked
        self.permission = state.permission
        self.answerer = state.answerer
        self.ended: EndReason | None = state.ended
        self.out_side = state.out_side
        self.step = state.step + 1  # the step this makes: every event's "step"
        self.events: list[dict[str, Any]] = []  # the moves' public events, in order (see public_events)

    def side_of(self, seat: int) -> int:
        return self.state.seats[seat].side

    def hand(self, seat: int) -> list[Card]:
        """The seat's hand as a list of this step's own to edit (the state's copied at first asking)."""
        hand = self.hands[seat]
        if not isinstance(hand, list):
            hand = self.hands[seat] = list(hand)
        return hand

    def take_stock(self, count: int) -> tuple[Card, ...]:
        """The stock's ``count`` top cards (fewer if it holds fewer), taken off it, top first."""
        stock = self.stock
        keep = max(len(stock) - count, 0)
        self.stock = stock[:keep]
        return stock[: keep - 1 if keep else None : -1]

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
        held = self.feet[seat] if foot else self.hands[seat]
        if held is None:
            return
        side = self.side_of(seat)
        while self.ended is None and any(map(_IS_RED_THREE, held)):
            threes = [c for c in held if c.is_red_three]
            kept = [c for c in held if not c.is_red_three]
            if foot:
                self.feet[seat] = kept
            else:
                self.hands[seat] = kept
            self.events.append({"step": self.step, "type": "red_threes", "seat": seat, "cards": codes(threes)})
            self.red_threes[side] = (*self.red_threes[side], *threes)
            for _ in threes:
                if not self.stock:
                    self.end_round("stock_out")
                    return
                kept += self.take_stock(1)
            held = kept

    def draw(self, seat: int, count: int) -> None:
        """Draw ``count`` cards (fewer if the stock holds fewer: D39), red threes laid out and replaced."""
        self.events.append({"step": self.step, "type": "draw", "seat": seat, "cards": min(count, len(self.stock))})
        self.hand(seat).extend(self.take_stock(count))
        self.lay_out_red_threes(seat)

    def pick_up_foot(self, seat: int) -> None:
        """The foot becomes the hand (its red threes laid out and replaced)."""
        foot = self.feet[seat]
        assert foot is not None
        self.events.append({"step": self.step, "type": "pick_up_foot", "seat": seat})
        self.hand(seat).extend(foot)
        self.feet[seat] = None
        self.lay_out_red_threes(seat)

    def end_round(self, reason: EndReason, side: int | None = None) -> None:
        self.events.append({"step": self.step, "type": reason, "seat": self._actor(), "side": side})
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
        """What every seat saw of this step, each event ``{"step", "type", "seat", ...}``: first the
        action's change to the table, read from the state before and the working copy (``take_pile``:
        ``cards`` taken from the pile, top first, with ``melds``, ``add`` and ``burn`` as a meld's;
        ``meld``: ``melds`` laid, ``add`` (``to``: the meld's index, ``cards``), ``burn``;
        ``discard``: ``card``; ``ask``; ``answer``: ``yes``), then the moves in order (``draw``:
        ``cards`` drawn, a count; ``red_threes``: ``cards`` laid out; ``pick_up_foot``;
        ``went_out``/``stock_out``: ``side`` out or ``None``). Only what the table shows: no card of a
        hand, a foot or the stock, the drawn cards only by their count."""
        s, seat, step = self.state, self._actor(), self.step
        first: dict[str, Any] | None = None
        if s.phase == "answer" and self.permission is not None:
            first = {"step": step, "type": "answer", "seat": seat, "yes": self.permission}
        elif self.asked and not s.asked:
            first = {"step": step, "type": "ask", "seat": seat}
        elif len(self.pile) == len(s.pile) + 1 and s.phase == "play":
            first = {"step": step, "type": "discard", "seat": seat, "card": self.pile[0].code}
        elif len(self.pile) < len(s.pile) or self._melded(seat):
            first = self._laid(seat)
        if (
            first is None
            and s.phase == "draw"
            and s.step >= 0
            and not (self.events and self.events[0]["type"] == "draw")
        ):  # a draw from an empty stock: it ends the round
            first = {"step": step, "type": "draw", "seat": seat, "cards": 0}
        return self.events if first is None else [first, *self.events]

    def _laid(self, seat: int) -> dict[str, Any]:
        """The ``take_pile`` or ``meld`` event of the seat's action (see :meth:`public_events`)."""
        s, side = self.state, self.side_of(seat)
        before, after = s.sides[side].melds, self.melds[side]
        taken = len(s.pile) - len(self.pile)
        if taken > 0:
            event = {"step": self.step, "type": "take_pile", "seat": seat, "cards": codes(s.pile[:taken])}
        else:
            event = {"step": self.step, "type": "meld", "seat": seat}
        event["melds"] = [codes(m) for m in after[len(before) :]]
        event["add"] = [
            {"to": i, "cards": codes(after[i][len(m) :])} for i, m in enumerate(before) if len(after[i]) > len(m)
        ]
        event["burn"] = codes(self.burn[side][len(s.sides[side].burn) :])
        return event

    def _melded(self, seat: int) -> bool:
        side = self.side_of(seat)
        before, melds = self.state.sides[side], self.melds[side]
        if melds is before.melds and self.burn[side] is before.burn:
            return False
        return (
            len(melds) != len(before.melds)
            or len(self.burn[side]) != len(before.burn)
            or any(len(m) != len(b) for m, b in zip(melds, before.melds, strict=True))
        )

    # -- the next state -----------------------------------------------------------------------
    def freeze(self) -> State:
        """The next State: the state's seats and sides shared where this step left them as they
        were (the state's own values, or the same cards), with what was computed of them (a side's
        table); its history the state's with this step's :meth:`public_events`."""
        s = self.state
        return successor(
            s,
            self._sides(),
            self._seats(),
            self.stock,
            self.pile,
            self.turn,
            self.phase,
            self.pile_taken,
            self.frozen_turns,
            self.asked,
            self.permission,
            self.answerer,
            self.ended,
            self.out_side,
            s.history + tuple(self.public_events()),
        )

    def _seats(self) -> tuple[Seat, ...]:
        seats = self.state.seats
        out: list[Seat] | None = None
        for i, seat in enumerate(seats):
            hand, foot, played = self.hands[i], self.feet[i], self.played[i]
            if hand is seat.hand and foot is seat.foot and played == seat.played_from_foot:
                continue
            hand, foot = tuple(hand), None if foot is None else tuple(foot)
            if hand != seat.hand or foot != seat.foot or played != seat.played_from_foot:
                if out is None:
                    out = list(seats)
                out[i] = seat_with(seat, hand, foot, played)
        return seats if out is None else tuple(out)

    def _sides(self) -> tuple[Side, ...]:
        sides = self.state.sides
        out: list[Side] | None = None
        for j, side in enumerate(sides):
            melds, red_threes, burn = self.melds[j], self.red_threes[j], self.burn[j]
            if melds is side.melds and red_threes is side.red_threes and burn is side.burn:
                continue
            melds = tuple(map(tuple, melds))
            if melds != side.melds or red_threes != side.red_threes or burn != side.burn:
                if out is None:
                    out = list(sides)
                out[j] = side_with(side, melds, red_threes, burn)
        return sides if out is None else tuple(out)
