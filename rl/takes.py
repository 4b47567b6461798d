"""The environment's take macros' candidates (:mod:`~handfoot.rl.actions`' indexes 1-6 and 125-128):
the hand's cards melded with the pile's top, each judged by the step's take predicate there.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from handfoot.engine.cards import Card
from handfoot.engine.play.legal import pile_rule_refuses
from handfoot.engine.play.listing import rest_melds
from handfoot.rl.moves import TakeParts

if TYPE_CHECKING:  # the mask's candidates, which ask these
    from handfoot.rl.actions import _Moves


def take_moves(moves: _Moves, ways: Sequence[str], index: Mapping[tuple[str, bool], int]) -> None:
    """Each take of ``ways``, without and with its further melds, as move ``index[way, melds]``
    where the step's take predicate accepts it (none made where no way has cards: :func:`_takes`)."""
    if not _takes(moves):
        return
    for way in ways:
        moves.first_take(index[way, False], _take_candidates(moves, way, False))
        moves.first_take(index[way, True], _take_candidates(moves, way, True))


def _takes(moves: _Moves) -> bool:
    """Whether any take macro has a candidate: a pile, and the hand holds a card of its top's rank
    or the side has an open meld of it (each way of :func:`_take_candidates` melds the top with one
    or the other; most draws have neither, and make no candidate)."""
    if not moves.state.pile:
        return False
    same, _, _, onto = moves._top if moves._top is not None else moves.top_cards()
    return bool(same) or onto is not None


def _take_candidates(moves: _Moves, way: str, with_melds: bool) -> Iterator[TakeParts]:
    state = moves.state
    if not state.pile:
        return
    same, twos_first, jokers_first, onto = moves._top if moves._top is not None else moves.top_cards()
    wilds = jokers_first if way == "natural_joker" else twos_first
    if way == "pair":
        if len(same) < 2:
            return
        cards = same[:2]
    elif way in ("natural_wild", "natural_joker"):
        if not same or not wilds:
            return
        cards = [same[0], wilds[0]]
    elif way == "naturals":
        if len(same) < 3:
            return
        cards = same
    else:
        cards = []
    if way == "onto" and onto is None:
        return
    extra: Sequence[tuple[Card, ...]] = ()
    if with_melds:
        # the take's rule reads the take's own cards alone: where it refuses, no further melds help
        if pile_rule_refuses(state, moves.facts, cards):
            return
        extra = rest_melds(moves.hand, cards, moves.rules)
        if not extra:
            return
    yield cards, onto, extra
