"""Scoring a round straight from its request body, when the body is plain and the round is legal.

:func:`score_plain` gives what ``score_round(round_from_mapping(data), rules)`` gives, without
building the :class:`~engine.scoring.RoundInput` (a Card tuple per list, a TeamRound per side, a
PlayerState per player) or any check object: it sums each list's packed card counts straight from
the card strings (``handfoot.engine.cards``), looks every meld up in ``meld_table(rules)`` and builds the
breakdowns. Whatever it is not sure of (another shape, an unknown card, a tally, any rule broken)
makes it answer ``None``, and the caller takes that precise path, which names every problem. So the
two can differ only in time; tests/engine/test_fast_paths.py holds them to the same answers. One
reach beyond JSON: players' names are not read here, so a Python object whose ``str()`` raises,
given as a player's name, is scored here where the precise path would raise from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import reduce
from operator import iadd
from typing import Any

from handfoot.engine.cards import CARD_COUNT_MAX, CARD_TABLE, RANK_FIELDS, RANK_INDEX, Card, Rank
from handfoot.engine.melds import MeldTable, meld_table, rank_points
from handfoot.engine.rules import RuleSet, per_rules
from handfoot.engine.scoring import Breakdown, RoundScore, breakdown_values, sides_problems
from handfoot.engine.table import quick_table

#: Every accepted card string → the rank fields of its ``Card.counts`` (a small int, summed fast: the
#: card fields above them made every sum a ~1,200-bit one).
_RANKS: dict[str, int] = {text: card.counts & RANK_FIELDS for text, card in CARD_TABLE.items()}
_ranks_of = _RANKS.__getitem__
_card_of = CARD_TABLE.__getitem__
#: Every card string of a red three.
_RED_THREES = frozenset(text for text, card in CARD_TABLE.items() if card.is_red_three)
#: The canonical strings of every card but the joker; and every accepted string → its canonical one.
_CANONICAL = frozenset(card.code for card in CARD_TABLE.values() if card.rank is not Rank.JOKER)
_canonical_of = {text: card.code for text, card in CARD_TABLE.items()}.__getitem__
_JOKER = Card(Rank.JOKER, None).code
_EMPTY: list[Any] = []  # a default that is a list; never changed
_ONLY_LISTS = frozenset([list])


@dataclass(frozen=True, slots=True)
class _Tables:
    """What :func:`score_plain` needs of one RuleSet: its ``meld_table``, the points of every card
    string (``points``; a red three at black_three_points, taken off again for red threes caught),
    the points of a three (``three``)."""

    melds: MeldTable
    points: dict[str, int]
    three: int


@per_rules
def _tables(rules: RuleSet) -> _Tables:
    """The :class:`_Tables` of ``rules``."""
    by_rank = rank_points(rules)
    points = {text: by_rank[card.rank_index] for text, card in CARD_TABLE.items()}
    return _Tables(meld_table(rules), points, by_rank[RANK_INDEX[Rank.THREE]])


def _copies_over(cards: Iterable[str], decks: int) -> bool:
    """Some card among ``cards`` (accepted strings) has more copies than ``decks`` decks hold (two
    jokers a deck): ``copies_over`` of their packed counts, by a ``Counter`` of the strings (C)."""
    copies = Counter(cards)
    jokers = copies.pop(_JOKER, 0)
    if not _CANONICAL.issuperset(copies):  # an alias: count by canonical string
        copies = Counter(map(_canonical_of, copies.elements()))
    return jokers > 2 * decks or max(copies.values(), default=0) > decks


def score_plain(data: Mapping[str, Any], rules: RuleSet) -> RoundScore | None:
    """``score_round(round_from_mapping(data), rules)`` when ``data`` is a plain legal round, else ``None``.

    Plain: ``round`` an int from 1; ``teams`` a list of dicts in the cards form (no ``tally``) whose
    ``melds`` are lists of lists, ``red_threes``, ``burn``, ``players`` and each ``hand`` lists,
    each ``foot`` a list or null, of card strings as ``CARD_TABLE`` spells them; side names strings
    (players' names are not read: no score depends on them), ``went_out`` a bool. Legal: no problem
    that :func:`~engine.scoring.score_round` would raise.
    """
    round_number = data.get("round", 1)
    raw_teams = data.get("teams")
    if type(round_number) is not int or round_number < 1 or type(raw_teams) is not list:
        return None
    tables = _tables(rules)
    points_of, melds_table = tables.points.__getitem__, tables.melds
    names: list[str] = []
    players: list[int] = []
    teams: list[Breakdown] = []
    out = 0
    every: list[Any] = []  # every card of the round
    for i, team in enumerate(raw_teams):
        if type(team) is not dict:
            return None
        get = team.get
        name, went_out = get("name"), get("went_out", False)
        raw_melds, raw_players = get("melds", _EMPTY), get("players", _EMPTY)
        red, burn = get("red_threes", _EMPTY), get("burn", _EMPTY)
        if type(name) is not str:
            if "name" in team:
                return None
            name = f"Team {i + 1}"
        if (type(went_out) is not bool or get("tally") is not None or type(raw_melds) is not list
                or type(raw_players) is not list or type(red) is not list or type(burn) is not list
                or not _ONLY_LISTS.issuperset(map(type, raw_melds))):
            return None
        held_cards: list[Any] = []  # the cards of the side's hands and feet
        feet_down = played_out = False
        for player in raw_players:
            if type(player) is not dict:
                return None
            hand, foot = player.get("hand", _EMPTY), player.get("foot")
            if type(hand) is not list:  # a player's name is not read: the precise path takes str() of any
                return None
            held_cards += hand
            if foot is None:
                if not hand:
                    played_out = True
            elif type(foot) is list:
                held_cards += foot
                feet_down = True
            else:
                return None
        try:
            if not _RED_THREES.issuperset(red):
                return None
            sums = [sum(map(_ranks_of, meld)) for meld in raw_melds]  # faster than map(partial(...))
            held_points = sum(map(points_of, held_cards))
        except (KeyError, TypeError):  # an unknown card, or not a string
            return None
        start = len(every)
        reduce(iadd, raw_melds, every)  # list.extend in C: cheaper than chain for many short lists
        melded = len(every) - start
        every += held_cards
        every += red
        every += burn
        if red and not rules.red_threes_laid_out:
            return None
        quick = quick_table(sums, melded, melds_table, bool(burn), compositions=True)
        if quick is None:
            return None
        clean, dirty, wild, table_points, closed = quick
        burn_points = 0
        if burn:
            try:
                burned = list(map(_card_of, burn))
            except (KeyError, TypeError):
                return None
            if not melds_table.burn or any(c.is_wild or c.rank.value not in closed for c in burned):
                return None
            burn_points = sum(map(points_of, burn))
        # red threes in hands and feet (its melds and burn pile hold none by now)
        caught = 0 if _RED_THREES.isdisjoint(held_cards) else sum(map(_RED_THREES.__contains__, held_cards))
        if went_out:
            out += 1
            needed = rules.contract_for(round_number)  # no contract_not_met (see going_out_problems)
            if (clean < needed.clean_books or dirty < needed.dirty_books or wild < needed.wild_books
                    or (feet_down and rules.going_out_needs_feet) or (raw_players and not played_out)):
                return None
        perfect = get("perfect_cuts", 0)
        teams.append(breakdown_values(name, went_out, clean, dirty, wild, len(red), caught, table_points,
                                      held_points - caught * tables.three, burn_points,
                                      perfect if isinstance(perfect, int) else 0, bool(raw_melds), rules,
                                      round_number))
        names.append(name)
        players.append(len(raw_players))
    decks = rules.decks_for(sum(players))
    # no side's red threes over 2 * decks either: 3H and 3D within decks copies each (the copies check)
    if (out > 1 or len(every) > CARD_COUNT_MAX or _copies_over(every, decks)
            or sides_problems(rules, names, players)):
        return None
    return RoundScore(round_number, tuple(teams))
