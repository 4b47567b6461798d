"""A seat's view of the round as one flat array of numbers: what the environment's agents observe.

It holds only what :func:`~handfoot.engine.play.view` lets the seat see (its own hand, every table,
the pile's top card, sizes), read from the engine's :class:`~handfoot.engine.play.State`. The
layout is fixed (:data:`LAYOUT`: each block's name and length, in order), the same for every preset
and table; seats and sides are counted from the observing seat (slot 0: itself, or its own side),
four slots each, unused slots zero:

- ``hand`` (53): how many of each card (:data:`~handfoot.rl.actions.CARD_CODES`) the hand holds.
- ``pile_top`` (53): the pile's top card, one-hot (zero when the pile is empty).
- ``phase`` (4): ``draw``, ``play``, ``answer``, ``ended``, one-hot.
- ``flags`` (9): the seat is to act; its partner was asked this turn; the answer was yes; was no;
  the pile is frozen; the pile was taken; the seat's foot is picked up; it has played from its
  foot; its side has melded (opened).
- ``numbers`` (4): stock size, pile size, round number, points its side's opening still needs
  (0 once opened).
- ``contract`` (3): clean, dirty and wild books the round's contract needs.
- ``seats`` (4 x 5): present, hand size, foot size (0 once picked up), foot picked up, partner.
- ``sides`` (4 x 46): present, game points before this round, red threes laid out, burn pile size,
  complete books by kind (clean, dirty, wild: 3), then for each rank of
  :data:`~handfoot.rl.actions.MELD_RANKS` (13): cards in its melds, wild cards among them, complete
  books of it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from handfoot.engine.melds import BookKind
from handfoot.engine.play import State
from handfoot.rl.actions import CARD_CODES, MELD_RANKS, acting_seat

#: Seats and sides the observation has room for.
SLOTS = 4
_SEAT = 5
_SIDE = 7 + 3 * len(MELD_RANKS)

#: Each block of the array: its name and length, in order.
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", len(CARD_CODES)),
    ("pile_top", len(CARD_CODES)),
    ("phase", 4),
    ("flags", 9),
    ("numbers", 4),
    ("contract", 3),
    ("seats", SLOTS * _SEAT),
    ("sides", SLOTS * _SIDE),
)
SIZE = sum(n for _, n in LAYOUT)
_START = {name: sum(n for _, n in LAYOUT[:k]) for k, (name, _) in enumerate(LAYOUT)}
_CARD = {code: i for i, code in enumerate(CARD_CODES)}
_PHASES = ("draw", "play", "answer", "ended")
_RANK = {rank: i for i, rank in enumerate(MELD_RANKS)}
#: Game points have no bound; counts of cards stay below this.
_COUNT_MAX = 10_000.0


def observation_space() -> spaces.Box:
    """The space of :func:`encode`'s arrays (float32, shape ``(SIZE,)``): game points unbounded,
    everything else a count or a flag, from 0."""
    low = np.zeros(SIZE, dtype=np.float32)
    high = np.full(SIZE, _COUNT_MAX, dtype=np.float32)
    for k in range(SLOTS):
        score = _START["sides"] + k * _SIDE + 1
        low[score], high[score] = -np.inf, np.inf
    return spaces.Box(low, high, dtype=np.float32)


def encode(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation of ``seat`` (an index) in ``state``, laid out as :data:`LAYOUT`."""
    out = np.zeros(SIZE, dtype=np.float32)
    me = state.seats[seat]
    side = state.sides[me.side]
    for card in me.hand:
        out[_START["hand"] + _CARD[card.code]] += 1
    if state.pile:
        out[_START["pile_top"] + _CARD[state.pile[0].code]] = 1
    out[_START["phase"] + _PHASES.index(state.phase)] = 1
    out[_START["flags"] : _START["flags"] + 9] = (
        acting_seat(state) == seat,
        state.asked,
        state.permission is True,
        state.permission is False,
        state.frozen_turns > 0,
        state.pile_taken,
        me.foot is None,
        me.played_from_foot,
        bool(side.melds),
    )
    opening = 0 if side.melds else state.rules.opening_minimum_for(state.round, side.score)
    out[_START["numbers"] : _START["numbers"] + 4] = (len(state.stock), len(state.pile), state.round, opening)
    contract = state.rules.contract_for(state.round)
    out[_START["contract"] : _START["contract"] + 3] = (contract.clean_books, contract.dirty_books, contract.wild_books)
    n = len(state.seats)
    for k in range(min(n, SLOTS)):
        other = state.seats[(seat + k) % n]
        at = _START["seats"] + k * _SEAT
        out[at : at + _SEAT] = (
            1,
            len(other.hand),
            0 if other.foot is None else len(other.foot),
            other.foot is None,
            k > 0 and other.side == me.side,
        )
    count = len(state.sides)
    for k in range(min(count, SLOTS)):
        _encode_side(out, _START["sides"] + k * _SIDE, state, (me.side + k) % count)
    return out


def _encode_side(out: npt.NDArray[np.float32], at: int, state: State, index: int) -> None:
    side = state.sides[index]
    table = state.table(index)
    books = table.books
    out[at : at + 7] = (
        1,
        side.score,
        len(side.red_threes),
        len(side.burn),
        books.clean_books,
        books.dirty_books,
        books.wild_books,
    )
    for check in table.checks:
        rank = "wild" if check.kind is BookKind.WILD else check.rank
        if rank is None:  # no rank: a meld of mixed ranks that the rules let stand
            continue
        base = at + 7 + 3 * _RANK[rank]
        out[base] += check.size
        out[base + 1] += check.wilds
        out[base + 2] += check.complete
