"""The rule model: a frozen, fully explicit :class:`RuleSet` and the values it is made of.

Every number the rules need is a field; there are no hidden defaults. Values are points unless a
field says otherwise. Each field's meaning, range and parser are in
:mod:`handfoot.engine.rule_fields` (which also applies and checks house-rule overrides); presets
(named RuleSets with a provenance per value) live in :mod:`handfoot.engine.presets`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Literal, TypeVar

from handfoot.engine.frozen import fast_init

WildRatio = Literal["twice", "more", "equal", "none"]
AfterBook = Literal["new_meld", "burn"]
TieRule = Literal["stands", "tiebreaker_round"]
FinalDiscard = Literal["optional", "required"]
PileBlockedBy = Literal["black_three", "any_three"]
PileWildTop = Literal["matching_pair", "blocked"]
PileLaterTake = Literal["natural_pair", "natural_and_wild_or_open_meld"]
HighFrom = Literal["8", "10"]
AutomaticFoot = Literal["picked_up", "dealt"]


@fast_init
@dataclass(frozen=True, slots=True)
class Contract:
    """The completed books a side needs before it may go out."""

    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"clean_books": self.clean_books, "dirty_books": self.dirty_books, "wild_books": self.wild_books}


@dataclass(frozen=True, slots=True)
class Threshold:
    """Opening minimum by cumulative score: from ``score`` points on, the minimum is ``minimum``."""

    score: int
    minimum: int

    def as_dict(self) -> dict[str, int]:
        return {"score": self.score, "minimum": self.minimum}


@dataclass(frozen=True, slots=True)
class RankBonus:
    """A book of one rank worth its own bonus: ``rank`` (canonical text: ``"7"``, ``"3"`` for black
    threes) and ``bonus`` (points), in place of its kind's bonus (docs/rules-decisions.md D30)."""

    rank: str
    bonus: int

    def as_dict(self) -> dict[str, int | str]:
        return {"rank": self.rank, "bonus": self.bonus}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every value a round's rules need. See :data:`RULE_FIELDS` for each field's meaning and range."""

    # sides and deal
    teams_min: int
    teams_max: int
    players_per_team_min: int
    players_per_team_max: int
    players_alone_min: int | None
    players_alone_max: int | None
    players_in_teams_min: int | None
    players_in_teams_max: int | None
    sides_by_parity: bool
    decks_per_player: int
    decks_extra: int
    decks_by_players: tuple[int, ...]
    hand_size: int
    foot_size: int
    hand_size_by_round: tuple[int, ...]
    foot_size_by_round: tuple[int, ...]
    jokers_per_deck: int
    # game length
    rounds: int | None
    target_score: int | None
    tie_rule: TieRule
    tiebreaker_opening_minimum: int | None
    # card values (points)
    joker_points: int
    two_points: int
    ace_points: int
    high_points: int
    high_from: HighFrom
    low_points: int
    black_three_points: int
    threes_count_against: bool
    # melds and books
    meld_min: int
    book_size: int
    book_max_size: int | None
    one_open_meld_per_rank: bool
    after_book: AfterBook
    all_wild_melds: bool
    black_three_books: bool
    wild_ratio: WildRatio
    min_naturals_with_wilds: int
    min_naturals_dirty_book: int
    max_wilds_per_book: int | None
    min_natural_share: int
    clean_books_grow: bool
    illegal_melds_stand: bool
    # bonuses
    clean_book_bonus: int
    dirty_book_bonus: int
    wild_book_bonus: int
    going_out_bonus: int
    going_out_bonus_by_round: tuple[int, ...]
    rank_book_bonuses: tuple[RankBonus, ...]
    perfect_cut_bonus: int
    perfect_cut_within_1_bonus: int
    perfect_cut_within_3_bonus: int
    # red threes
    red_threes_laid_out: bool
    red_threes_automatic: bool
    red_threes_automatic_foot: AutomaticFoot
    red_three_table_points: int
    red_three_table_points_unmelded: int
    red_three_caught_points: int
    # opening meld
    opening_minimum_by_round: tuple[int, ...]
    opening_minimum: int
    opening_thresholds: tuple[Threshold, ...]
    opening_pile_top_only: bool
    opening_needs_book: bool
    # going out
    contract: Contract
    contract_by_round: tuple[Contract, ...]
    going_out_needs_feet: bool
    going_out_needs_foot_play: bool
    going_out_discard: FinalDiscard
    last_card_needs_contract: bool
    # discard pile
    draw_count: int
    pile_take_allowed: bool
    pile_take_count: int | None
    pile_blocked_by: PileBlockedBy
    pile_wild_top: PileWildTop
    pile_later_take: PileLaterTake
    pile_freezes_on_wild: bool
    pile_closed_rank_blocks: bool

    # -- derived values -------------------------------------------------------------------------
    def decks_for(self, players: int) -> int:
        """Decks in play for ``players`` players: ``decks_by_players`` at that table size (one player
        first; a larger table plays its last entry), else ``players * decks_per_player +
        decks_extra``."""
        by_players = self.decks_by_players
        if by_players:
            return by_players[min(max(players, 1), len(by_players)) - 1]
        return max(1, players * self.decks_per_player + self.decks_extra)

    def hand_size_for(self, round_number: int) -> int:
        """Cards dealt to each hand in a round (``hand_size_by_round``, else ``hand_size``)."""
        if 1 <= round_number <= len(self.hand_size_by_round):
            return self.hand_size_by_round[round_number - 1]
        return self.hand_size

    def foot_size_for(self, round_number: int) -> int:
        """Cards dealt to each foot in a round (``foot_size_by_round``, else ``foot_size``)."""
        if 1 <= round_number <= len(self.foot_size_by_round):
            return self.foot_size_by_round[round_number - 1]
        return self.foot_size

    def opening_minimum_for(self, round_number: int, score: int | None = None) -> int:
        """The opening minimum (points) for a round; by cumulative ``score`` when thresholds are set."""
        if self.opening_thresholds:
            minimum = self.opening_thresholds[0].minimum
            for step in self.opening_thresholds:
                if (score or 0) >= step.score:
                    minimum = step.minimum
            return minimum
        if 1 <= round_number <= len(self.opening_minimum_by_round):
            return self.opening_minimum_by_round[round_number - 1]
        return self.opening_minimum

    def contract_for(self, round_number: int) -> Contract:
        """The books needed to go out in a round."""
        if 1 <= round_number <= len(self.contract_by_round):
            return self.contract_by_round[round_number - 1]
        return self.contract

    def going_out_bonus_for(self, round_number: int) -> int:
        """The going-out bonus (points) in a round."""
        if 1 <= round_number <= len(self.going_out_bonus_by_round):
            return self.going_out_bonus_by_round[round_number - 1]
        return self.going_out_bonus

    def to_mapping(self) -> dict[str, Any]:
        """Plain builtins (dicts, lists, ints, strings, bools, None): for storage and the API."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def differs_from(self, other: RuleSet) -> list[str]:
        """The names of the fields whose values differ from ``other``'s."""
        return [f.name for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)]


_T = TypeVar("_T")


def per_rules(make: Callable[[RuleSet], _T]) -> Callable[[RuleSet], _T]:
    """``make(rules)`` made once per RuleSet (what scoring derives from the rules: card points, the
    meld checks already made).

    The last RuleSet object is kept and checked by identity first: a preset's rules (and a house-rule
    resolution, cached by :func:`~handfoot.engine.presets.resolve_rules`) are one object, and hashing
    a RuleSet of some sixty fields (the key of the ``lru_cache`` of 64 behind it) is not free."""
    made = lru_cache(maxsize=64)(make)
    last: tuple[RuleSet, _T] | None = None

    def of(rules: RuleSet) -> _T:
        nonlocal last
        hit = last  # one read: another thread may replace it, never change it
        if hit is None or hit[0] is not rules:
            hit = last = (rules, made(rules))
        return hit[1]

    of.__doc__, of.__name__, of.__qualname__ = make.__doc__, make.__name__, make.__qualname__
    return of


def _plain(value: Any) -> Any:
    if isinstance(value, (Contract, Threshold, RankBonus)):
        return value.as_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
