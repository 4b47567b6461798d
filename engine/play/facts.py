"""What the checks of one seat's actions read in a state, computed once per state and seat and
kept on the :class:`~handfoot.engine.play.state.State` (:func:`facts`): the hand as counts by card
and its naturals by rank, its wild cards, the side's table analysed, each rank's open and last meld
on it, and whether the seat may go out now. The predicates of
:mod:`~handfoot.engine.play.legal` read them, as the view's listing and the RL mask do.
"""

from __future__ import annotations

from collections.abc import Sequence

from handfoot.engine.cards import RANK_TEXT, Card, composition
from handfoot.engine.errors import Problem
from handfoot.engine.melds import BookKind
from handfoot.engine.play.going_out import going_out_reasons
from handfoot.engine.play.state import State, set_ranks
from handfoot.engine.table import Table


class Facts:
    """What the checks of seat ``seat``'s actions read in ``state``, computed once
    (:func:`facts`): ``hand``; ``held`` (how many of each card, by ``Card.key``); ``naturals``
    (the hand's natural cards by rank text, in hand order; threes included); ``wilds`` (its wild
    cards, in hand order); ``side`` (the seat's side, an index); ``melds`` (that side's melds);
    ``table`` (those melds analysed); ``rules`` (the state's rule set). :meth:`melds_of`,
    :meth:`melded_ranks`, :meth:`closed_ranks`, :meth:`composition` and :meth:`going_out` are
    computed on first reading."""

    __slots__ = (
        "_closed",
        "_going_out",
        "_held",
        "_ranks",
        "hand",
        "held",
        "melds",
        "naturals",
        "rules",
        "seat",
        "side",
        "table",
        "wilds",
    )

    def __init__(self, state: State, seat: int) -> None:
        me = state.seats[seat]
        # no reference to the state: it keeps these facts, and a cycle would leave every state of
        # a round to the garbage collector rather than freed as soon as the next one replaces it
        self.seat, self.side, self.hand, self.rules = seat, me.side, me.hand, state.rules
        self.held, self.naturals, self.wilds = read_hand(me.hand)
        self.table = state.table(me.side)
        self._held = held = state.sides[me.side]
        self.melds = held.melds
        self._ranks: TableRanks | None = None
        self._going_out: list[Problem] | None = None
        self._closed: set[str] | None = None

    def closed_ranks(self) -> set[str]:
        """The ranks with a completed book on the side's table (``Table.closed_ranks``), once."""
        if self._closed is None:
            self._closed = self.table.closed_ranks()
        return self._closed

    def rank_counts(self) -> dict[str, int]:
        """How many melds of each rank (rank text; wild melds have none) the side's table holds
        (:func:`table_ranks`; never changed by a reader)."""
        return (self._ranks or self._read_ranks())[2]

    def _read_ranks(self) -> TableRanks:
        """:func:`table_ranks` of the side's table, kept with the side (as its table is: shared by
        the states that keep it), on first asking."""
        held = self._held
        ranks = held._ranks
        if ranks is None or ranks[0] is not self.table:
            ranks = table_ranks(self.table)
            set_ranks(held, ranks)
        self._ranks = ranks
        return ranks

    def composition(self, to: int) -> int:
        """The composition (``handfoot.engine.cards``) of the side's meld ``to``, once per side
        (kept with its :func:`table_ranks`): what a check of cards added onto it reads."""
        comps = (self._ranks or self._read_ranks())[3]
        comp = comps.get(to)
        if comp is None:
            comp = comps[to] = composition(self.melds[to])
        return comp

    def holds(self, cards: Sequence[Card]) -> bool:
        """Whether the hand holds ``cards`` (each copy used once)."""
        held = self.held
        if len(cards) == 1:
            return held.get(cards[0].key, 0) > 0
        need: dict[int, int] = {}
        for card in cards:
            n = need[card.key] = need.get(card.key, 0) + 1
            if held.get(card.key, 0) < n:
                return False
        return True

    def melds_of(self, rank: str) -> tuple[int | None, int | None]:
        """The side's open (unfinished) meld of ``rank`` (rank text; ``wild``: a wild meld) and its
        last meld of that rank (indexes on the side's table, ``None`` where there is none)."""
        return (self._ranks or self._read_ranks())[1].get(rank, _NO_MELDS)

    def melded_ranks(self) -> dict[str, tuple[int | None, int]]:
        """:meth:`melds_of` of every rank the side has a meld of, by rank text (:func:`table_ranks`;
        never changed by a reader)."""
        return (self._ranks or self._read_ranks())[1]

    def going_out(self, state: State) -> list[Problem]:
        """Why emptying the hand now (its foot picked up and played from) would not go out, the
        last discard aside: :func:`going_out_reasons` in ``state`` (the state these facts are of),
        each problem at its own path."""
        if self._going_out is None:
            self._going_out = going_out_reasons(state, self.seat, self.table.books, True, 0, False)
        return self._going_out


_NO_MELDS = (None, None)  # melds_of a rank the side has no meld of


def table_ranks(table: Table) -> TableRanks:
    """What a table's checks say of its ranks: the table itself, each rank's open and last meld
    (:meth:`Facts.melds_of`), how many melds of each rank it holds (:meth:`Facts.rank_counts`) and
    its melds' compositions by index, filled as :meth:`Facts.composition` reads them. Kept with the
    :class:`~handfoot.engine.play.state.Side` whose table it is (as the table is), so that the
    states that keep the side read it once; never changed by a reader."""
    melded: dict[str, tuple[int | None, int]] = {}
    counts: dict[str, int] = {}
    for i, check in enumerate(table.checks):
        rank = check.rank
        if rank is not None:
            counts[rank] = counts[rank] + 1 if rank in counts else 1
        rank_of = "wild" if check.kind is BookKind.WILD else rank
        if rank_of is None:
            continue
        open_meld = melded[rank_of][0] if rank_of in melded else None
        melded[rank_of] = (i if open_meld is None and not check.complete else open_meld, i)
    return (table, melded, counts, {})


#: :func:`table_ranks`' answer: the table, each rank's open and last meld, melds by rank, compositions.
TableRanks = tuple[Table, dict[str, tuple[int | None, int]], dict[str, int], dict[int, int]]


def read_hand(cards: Sequence[Card]) -> tuple[dict[int, int], dict[str, list[Card]], list[Card]]:
    """How many of each card ``cards`` hold (by ``Card.key``), their natural cards by rank text
    (threes included) and their wild cards, each in the order given: how :class:`Facts` reads a
    hand (``held``, ``naturals``, ``wilds``), in one pass."""
    held: dict[int, int] = {}
    naturals: dict[str, list[Card]] = {}
    wilds: list[Card] = []
    for card in cards:
        key = card.key
        held[key] = held[key] + 1 if key in held else 1
        if card.is_wild:
            wilds.append(card)
        elif (rank := RANK_TEXT[card.rank_index]) in naturals:
            naturals[rank].append(card)
        else:
            naturals[rank] = [card]
    return held, naturals, wilds


def sorted_hand(cards: Sequence[Card]) -> tuple[dict[str, list[Card]], list[Card]]:
    """``cards``' natural cards by rank text (threes included) and their wild cards, each in the
    order given (:func:`read_hand`'s): as :class:`Facts` reads a hand (``naturals``, ``wilds``)."""
    _, naturals, wilds = read_hand(cards)
    return naturals, wilds


def facts(state: State, seat: int) -> Facts:
    """The :class:`Facts` of ``seat`` in ``state``: made on first asking, then kept on the state."""
    cache = state._facts
    if cache is None:
        cache = {}
        object.__setattr__(state, "_facts", cache)
    found = cache.get(seat)
    if found is None:
        found = cache[seat] = Facts(state, seat)
    return found
