"""A seat's view of the round as one flat array of numbers: what the environment's agents observe.

The one encoder of the environment and of an HTTP table: :func:`encode` reads the seat's view, the
plain data :func:`~handfoot.engine.play.view` builds (what a table's ``GET``/``POST`` answers hold
as ``view``, ``handfoot.client.SeatView.view``), so it sees only what the seat may know. It reads
none of the view's listing (``actions``, ``going_out``): the environment builds its views without
it (``view(state, seat, listing=False, shared=True)``: its members as kept, none changed here), and
the mask says what is open.

Every index is named (:data:`FEATURES`) and scaled: a count divided by a documented maximum
(:data:`SCALES`) and clipped to [0, 1] (game points to [-1, 1]); flags and one-hot blocks are 0 or 1.
Seats and sides are counted from the observing seat (slot 0: itself, or its own side), four slots
each, unused slots zero. :func:`feature_table` is the table docs/rl-features.md shows (a test holds
them equal). The blocks (:data:`LAYOUT`), in order:

- ``hand`` (53): copies of each card (:data:`~handfoot.rl.actions.CARD_CODES`) in the hand.
- ``pile_top`` (53): the pile's top card, one-hot (zero when the pile is empty).
- ``phase`` (4): ``draw``, ``play``, ``answer``, ``ended``, one-hot.
- ``flags`` (9): to act; the partner was asked this turn; answered yes; answered no; the pile is
  frozen; the pile has been taken (since the round began or it was last frozen); the seat's foot
  is picked up; it has played from its foot; its side has melded (opened).
- ``numbers`` (4): stock size, pile size, round, points its side's opening still needs (0 once opened).
- ``contract`` (3): clean, dirty and wild books the round's contract needs.
- ``seats`` (4 x 6): present, hand size, foot size (0 once picked up), foot picked up, partner,
  has played from its foot.
- ``sides`` (4 x 59): present, game points before this round, red threes laid out, burn pile size,
  complete books (clean, dirty, wild), then for each rank of :data:`~handfoot.rl.actions.MELD_RANKS`
  (13): cards in its melds, wild cards among them, complete books of it, an open (incomplete) meld of it.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from handfoot.engine.cards import is_wild_code, rank_of
from handfoot.rl.actions import CARD_CODES, MELD_RANKS

#: Seats and sides the observation has room for.
SLOTS = 4
#: The documented maxima a count is divided by (a larger count reads 1): the decks of the largest
#: preset table (Wikipedia, 7 at four players), so a card's copies and the cards in play.
DECKS_MAX = 7
CARDS_MAX = 54 * DECKS_MAX
HAND_MAX = 60  # a hand that took a large pile; dealt hands are 11-13
FOOT_MAX = 15  # feet are dealt 11-13 cards
ROUNDS_MAX = 4  # every preset plays four rounds
OPENING_MAX = 250  # the highest opening minimum of a preset (Hodges)
BOOKS_MAX = 8  # books of one kind (a contract asks 4 at most)
MELD_CARDS_MAX = 14  # cards in one rank's melds: two books of seven
RED_THREES_MAX = 2 * DECKS_MAX
POINTS_MAX = 20_000  # game points before the round, in [-1, 1]

_SEAT = ("present", "hand_size", "foot_size", "foot_picked_up", "partner", "played_from_foot")
_SEAT_SCALE = (1, HAND_MAX, FOOT_MAX, 1, 1, 1)
_SIDE = ("present", "score", "red_threes", "burn", "clean_books", "dirty_books", "wild_books")
_SIDE_SCALE = (1, POINTS_MAX, RED_THREES_MAX, CARDS_MAX, BOOKS_MAX, BOOKS_MAX, BOOKS_MAX)
_RANK = ("cards", "wilds", "books", "open")
_RANK_SCALE = (MELD_CARDS_MAX, MELD_CARDS_MAX, BOOKS_MAX, 1)
_PHASES = ("draw", "play", "answer", "ended")
_FLAGS = (
    "to_act",
    "asked",
    "permission:yes",
    "permission:no",
    "pile:frozen",
    "pile:taken",
    "foot_picked_up",
    "played_from_foot",
    "opened",
)
_NUMBERS = (("stock_size", CARDS_MAX), ("pile_size", CARDS_MAX), ("round", ROUNDS_MAX), ("opening", OPENING_MAX))
_CONTRACT = ("clean_books", "dirty_books", "wild_books")


def _copies(code: str) -> int:
    return 2 * DECKS_MAX if code == "JK" else DECKS_MAX


_BLOCKS: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = (
    ("hand", tuple((f"hand:{c}", _copies(c)) for c in CARD_CODES)),
    ("pile_top", tuple((f"pile_top:{c}", 1) for c in CARD_CODES)),
    ("phase", tuple((f"phase:{p}", 1) for p in _PHASES)),
    ("flags", tuple((f, 1) for f in _FLAGS)),
    ("numbers", _NUMBERS),
    ("contract", tuple((f"contract:{k}", BOOKS_MAX) for k in _CONTRACT)),
    (
        "seats",
        tuple((f"seat{k}:{n}", s) for k in range(SLOTS) for n, s in zip(_SEAT, _SEAT_SCALE, strict=True)),
    ),
    (
        "sides",
        tuple(
            item
            for k in range(SLOTS)
            for item in (
                *((f"side{k}:{n}", s) for n, s in zip(_SIDE, _SIDE_SCALE, strict=True)),
                *((f"side{k}:{r}:{n}", s) for r in MELD_RANKS for n, s in zip(_RANK, _RANK_SCALE, strict=True)),
            )
        ),
    ),
)
#: Each block of the array: its name and length, in order.
LAYOUT: tuple[tuple[str, int], ...] = tuple((name, len(items)) for name, items in _BLOCKS)
#: The name of every index, in order (``hand:AS``, ..., ``side3:wild:open``).
FEATURES: tuple[str, ...] = tuple(name for _, items in _BLOCKS for name, _ in items)
#: What each index's raw value (a count, a flag, points) is divided by.
SCALES: tuple[float, ...] = tuple(float(scale) for _, items in _BLOCKS for _, scale in items)
SIZE = len(FEATURES)
INDEX: dict[str, int] = {name: i for i, name in enumerate(FEATURES)}

_START = {name: sum(n for _, n in LAYOUT[:k]) for k, (name, _) in enumerate(LAYOUT)}
_CARD = {code: i for i, code in enumerate(CARD_CODES)}
_RANKS = {rank: i for i, rank in enumerate(MELD_RANKS)}
_SEAT_AT, _SIDE_AT = len(_SEAT), len(_SIDE) + len(_RANK) * len(MELD_RANKS)
_INVERSE = np.array([1.0 / s for s in SCALES], dtype=np.float32)
_LOW = np.array([-1.0 if name.endswith(":score") else 0.0 for name in FEATURES], dtype=np.float32)
_HIGH = np.ones(SIZE, dtype=np.float32)
_ZEROS = bytes(4 * SIZE)
_FLOAT32 = np.dtype(np.float32)
_PILE_TOP, _FLAGS_AT, _SEATS_AT, _SIDES_AT = _START["pile_top"], _START["flags"], _START["seats"], _START["sides"]
_PHASE = {phase: _START["phase"] + i for i, phase in enumerate(_PHASES)}
#: Each card code: whether it is wild (0 or 1), and where its rank's entries start in a side's
#: block (-1 for a wild card: a meld's rank is its naturals' where it has any).
_WILD = {code: int(is_wild_code(code)) for code in CARD_CODES}
_RANK_AT = {code: -1 if _WILD[code] else len(_RANK) * _RANKS[rank_of(code)] for code in CARD_CODES}
_WILD_AT = len(_RANK) * _RANKS["wild"]


def observation_space() -> spaces.Box:
    """The space of :func:`encode`'s arrays: float32, shape ``(SIZE,)``, every index in [0, 1] save
    the sides' game points (``side<k>:score``) in [-1, 1]."""
    return spaces.Box(_LOW.copy(), _HIGH.copy(), dtype=np.float32)


def encode(view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """The observation of the seat whose ``view`` this is (the engine's view, with or without its
    listing: what a table's seat view holds as ``view``), laid out as :data:`FEATURES`.

    Raises ``KeyError`` for a view without the members it reads, or for a card string that is no card."""
    raw = array("f", _ZEROS)  # written in slices, then read by numpy in place (no list converted)
    me, my_side = view["seat"], view["side"]
    pile = view["pile"]
    if pile["top"] is not None:
        raw[_PILE_TOP + _CARD[pile["top"]]] = 1
    phase = view["phase"]
    raw[_PHASE[phase]] = 1
    acting = None if phase == "ended" else view["answerer"] if phase == "answer" else view["turn"]
    sides, permission = view["sides"], view["permission"]
    opened = bool(sides[my_side]["melds"])
    contract = view["contract"]
    # flags, numbers and the contract follow each other: one slice (fewer bytecodes than 16 stores)
    raw[_FLAGS_AT : _FLAGS_AT + 16] = array(
        "f",
        (
            acting == me,
            view["asked"],
            permission is True,
            permission is False,
            pile["frozen"],
            pile["taken"],
            view["foot_size"] is None,
            view["played_from_foot"],
            opened,
            view["stock_size"],
            pile["size"],
            view["round"],
            0 if opened else view["opening_minimum"],
            contract["clean_books"],
            contract["dirty_books"],
            contract["wild_books"],
        ),
    )
    seats = view["seats"]
    order = (seats[me:] + seats[:me])[:SLOTS]  # from the seat's own, in turn order
    values: list[Any] = []
    for k, other in enumerate(order):
        foot = other["foot_size"]
        values += (
            1,
            other["hand_size"],
            foot or 0,
            foot is None,
            k > 0 and other["side"] == my_side,
            other["played_from_foot"],
        )
    raw[_SEATS_AT : _SEATS_AT + len(values)] = array("f", values)
    count = min(len(sides), SLOTS)
    for k in range(count):
        at = _SIDES_AT + k * _SIDE_AT
        raw[at : at + _SIDE_AT] = _side(sides[(my_side + k) % len(sides)])
    for code in view["hand"]:  # the hand's block starts at 0: a count by card (fewer calls than np.bincount)
        raw[_CARD[code]] += 1
    out = np.frombuffer(raw, _FLOAT32)  # the dtype as an object, by position: numpy's quickest reading
    out *= _INVERSE
    return np.minimum(out, _HIGH, out=out)  # the points were clipped below; a ufunc, not np.clip's wrapper


def _side(side: Mapping[str, Any]) -> array[float]:
    """A side's block (:data:`_SIDE_AT` values), kept by what it is read from: a side's table
    changes far less often than a step is taken (every draw and discard leaves it as it was). A
    shared view's side (``view(..., shared=True)``: its melds and completes the tuples kept with
    the side, the same objects for as long as the side is unchanged) is found by those objects
    first, its counts compared, without reading every meld again."""
    books, melds, complete = side["books"], side["melds"], side["complete"]
    score, red_threes, burn = side["score"], len(side["red_threes"]), len(side["burn"])
    counts = (score, red_threes, burn, books["clean_books"], books["dirty_books"], books["wild_books"])
    shared = type(melds) is tuple and type(complete) is tuple
    if shared:
        found = _SHARED.get(id(melds))
        if found is not None and found[0] is melds and found[1] is complete and found[2] == counts:
            return found[3]
    key = (
        score,
        red_threes,
        burn,
        books["clean_books"],
        books["dirty_books"],
        books["wild_books"],
        *map(tuple, melds),
        *complete,
    )
    block = _SIDES.get(key)
    if block is None:
        if len(_SIDES) >= _SIDES_KEPT:  # a bound on memory: start again
            _SIDES.clear()
        head = (1, max(-POINTS_MAX, min(POINTS_MAX, score)), *key[1:6])  # the points clipped when made only
        block = _SIDES[key] = array("f", head) + _melds(melds, complete)
    if shared:
        if len(_SHARED) >= _SIDES_KEPT:
            _SHARED.clear()
        # the melds and completes kept alive here: their ids cannot be another's while kept
        _SHARED[id(melds)] = (melds, complete, counts, block)
    return block


def _melds(melds: Sequence[Sequence[str]], complete: Sequence[bool]) -> array[float]:
    """The per-rank part of a side's block (cards, wild cards, complete books, an open meld)."""
    block = array("f", bytes(4 * len(_RANK) * len(MELD_RANKS)))
    for meld, done in zip(melds, complete, strict=True):
        # a meld's rank: its first natural card's (melds of mixed ranks count under it), else wild
        rank = _RANK_AT[meld[0]]
        if rank < 0:
            rank = next((_RANK_AT[c] for c in meld if not _WILD[c]), _WILD_AT)
        block[rank] += len(meld)
        block[rank + 1] += sum(map(_WILD.__getitem__, meld))
        if done:
            block[rank + 2] += 1
        else:
            block[rank + 3] = 1
    return block


#: Each side's block by what it is read from (:func:`_side`), at most this many kept.
_SIDES: dict[tuple[Any, ...], array[float]] = {}
_SIDES_KEPT = 4096
#: A shared view's side's block by its melds' tuple (:func:`_side`), at most as many kept.
_SHARED: dict[int, tuple[Any, Any, tuple[Any, ...], array[float]]] = {}


def feature_table() -> str:
    """Every index as a Markdown table (docs/rl-features.md is this text; a test holds them equal):
    index, name, block, and what the raw value is divided by."""
    rows = ["| index | name | block | divided by |", "|---|---|---|---|"]
    blocks = [name for name, n in LAYOUT for _ in range(n)]
    for i, (name, scale) in enumerate(zip(FEATURES, SCALES, strict=True)):
        rows.append(f"| {i} | `{name}` | {blocks[i]} | {scale:g} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # the table of docs/rl-features.md
    print(feature_table(), end="")
