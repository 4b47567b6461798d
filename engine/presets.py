"""The presets: every rule source as a named RuleSet with a provenance for every value.

Sources (``../shared/seeds/``, summarised in ``../shared/rules/PRESETS.md``): seed 000 (a score
keeper page on Pagat's partnership rules, with its Bicycle, Wikipedia, Saskatchewan and Steve Simpson
notes), seed 001 (an online 4-player game, ``online-11-13``), seed 002 (the Hodges family variant),
seed 003 (the Wages reunion sheet), seed 004 (an online game site's help page, ``bga``).

Where a source is silent, the value is *filled from pagat* and labelled so, as seed 000's keeper does;
values reported only by secondary summaries are labelled *reported*; values that are our reading of an
ambiguous source are labelled *decision* and recorded in ``docs/rules-decisions.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal

from handfoot.engine.errors import Problem, RulesError, UnknownPresetError
from handfoot.engine.rules import Contract, RuleSet, apply_overrides

ProvenanceKind = Literal["seed", "filled", "reported", "option", "derived", "default", "decision"]


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a preset's value comes from.

    ``kind``: ``seed`` (the source states it), ``option`` (the source states it as a configurable
    option; this is its default), ``filled`` (the source is silent; copied from ``source``, a preset
    id), ``reported`` (stated by secondary public summaries, not by a seed), ``derived`` (follows from
    other stated values), ``decision`` (our reading of a silent or ambiguous source, recorded in
    docs/rules-decisions.md), ``default`` (a rule dimension beyond the seeds, off unless set).
    """

    kind: ProvenanceKind
    source: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named RuleSet: ``id`` (stable, lower-kebab), display ``name``, ``source`` (which seed),
    one-line ``summary``, ``rules``, and ``provenance`` for every RuleSet field."""

    id: str
    name: str
    source: str
    summary: str
    rules: RuleSet
    provenance: Mapping[str, Provenance]


def _seed(seed: str, note: str = "") -> Provenance:
    """Stated by seed ``seed``."""
    return Provenance("seed", f"seed {seed}", note)


def _option(seed: str, note: str = "") -> Provenance:
    """Stated by seed ``seed`` as an option; this is its default."""
    return Provenance("option", f"seed {seed}", note)


def _reported(note: str = "") -> Provenance:
    """Stated by secondary public summaries, not by a seed."""
    return Provenance("reported", "secondary public summaries", note)


def _decision(ref: str, note: str = "", seed: str = "") -> Provenance:
    """Our reading of a silent or ambiguous source, recorded as ``ref`` in docs/rules-decisions.md."""
    where = f"docs/rules-decisions.md {ref}"
    return Provenance("decision", f"seed {seed}; {where}" if seed else where, note)


def _derived(note: str) -> Provenance:
    """Follows from other stated values."""
    return Provenance("derived", "derived", note)


def _beyond_seeds(note: str = "not in any seed; a house-rule dimension, off unless set") -> Provenance:
    """A rule dimension no seed has (provenance kind ``default``)."""
    return Provenance("default", "none", note)


#: A preset's value of one field, with where it comes from.
Sourced = tuple[Any, Provenance]

#: The seed of the Pagat family of presets (seed 000).
_PAGAT_SEED = "000"
_PAGAT: dict[str, Sourced] = {
    "teams_min": (2, _seed(_PAGAT_SEED, "the keeper handles two, three or four teams")),
    "teams_max": (4, _seed(_PAGAT_SEED, "the keeper handles two, three or four teams")),
    "players_per_team_min": (2, _seed(_PAGAT_SEED, "Pagat's partnership rules")),
    "players_per_team_max": (3, _seed(_PAGAT_SEED, "six can play as two teams of three")),
    "decks_per_player": (1, _seed(_PAGAT_SEED, "one more deck than the number of players, jokers included")),
    "decks_extra": (1, _seed(_PAGAT_SEED, "one more deck than the number of players")),
    "hand_size": (13, _seed(_PAGAT_SEED, "13 for the hand")),
    "foot_size": (13, _seed(_PAGAT_SEED, "13 for the foot")),
    "rounds": (4, _seed(_PAGAT_SEED, "after four rounds, the higher total wins")),
    "target_score": (None, _seed(_PAGAT_SEED, "the game is four rounds")),
    "tie_rule": ("stands", _seed(_PAGAT_SEED, "a tie after the last round stays a tie in the keeper")),
    "tiebreaker_opening_minimum": (None, _seed(_PAGAT_SEED, "no source gives a tiebreak")),
    "joker_points": (50, _seed(_PAGAT_SEED, "card values from Pagat")),
    "two_points": (20, _seed(_PAGAT_SEED, "card values from Pagat")),
    "ace_points": (20, _seed(_PAGAT_SEED, "card values from Pagat")),
    "high_points": (10, _seed(_PAGAT_SEED, "card values from Pagat: K-8 at 10")),
    "high_from": ("8", _seed(_PAGAT_SEED, "card values from Pagat: K-8 at 10")),
    "low_points": (5, _seed(_PAGAT_SEED, "card values from Pagat: 7-4 at 5")),
    "black_three_points": (5, _seed(_PAGAT_SEED, "black threes count 5 against you at the end")),
    "meld_min": (3, _seed(_PAGAT_SEED, "a meld is three to seven cards")),
    "book_size": (7, _seed(_PAGAT_SEED, "a finished meld of seven is a pile")),
    "book_max_size": (7, _seed(_PAGAT_SEED, "a meld is three to seven cards")),
    "one_open_meld_per_rank": (True, _seed(_PAGAT_SEED, "your team may not have two unfinished melds of the same rank")),
    "after_book": ("new_meld", _seed(_PAGAT_SEED, "once a pile is done you can start another of that rank")),
    "all_wild_melds": (True, _seed(_PAGAT_SEED, "a joker on top for an all-wild pile")),
    "black_three_books": (False, _seed(_PAGAT_SEED, "black threes cannot be melded")),
    "wild_ratio": ("twice", _seed(_PAGAT_SEED, "at least twice as many natural cards as wild cards")),
    "min_naturals_with_wilds": (0, _derived("seed 000 limits wilds by the ratio only")),
    "min_naturals_dirty_book": (0, _derived("seed 000 limits wilds by the ratio only")),
    "max_wilds_per_book": (None, _derived("seed 000 limits wilds by the ratio only")),
    "clean_book_bonus": (500, _seed(_PAGAT_SEED, "worked round: two clean piles = 1,000")),
    "dirty_book_bonus": (300, _seed(_PAGAT_SEED, "worked round: two dirty piles = 600")),
    "wild_book_bonus": (1500, _seed(_PAGAT_SEED, "Pagat scores an all-wild pile 1,500")),
    "going_out_bonus": (100, _seed(_PAGAT_SEED, "worked round: going out 100")),
    "going_out_bonus_by_round": ((), _beyond_seeds()),
    "perfect_cut_bonus": (0, _beyond_seeds()),
    "red_threes_laid_out": (True, _seed(_PAGAT_SEED, "red threes go face up with your team's melds")),
    "red_three_table_points": (100, _seed(_PAGAT_SEED, "Pagat: +100 on the table")),
    "red_three_table_points_unmelded": (100, _derived("seed 000 makes no difference for a side that has not melded")),
    "red_three_caught_points": (-100, _seed(_PAGAT_SEED, "Pagat: -100 if caught")),
    "opening_minimum_by_round": ((50, 90, 120, 150), _seed(_PAGAT_SEED, "50, 90, 120, then 150")),
    "opening_minimum": (150, _decision("D2", "rounds past the fourth keep the last minimum", "000")),
    "opening_thresholds": ((), _beyond_seeds()),
    "opening_pile_top_only": (True, _seed(_PAGAT_SEED, "only the top card counts toward an opening meld")),
    "contract": (Contract(2, 2, 1), _seed(_PAGAT_SEED, "two clean, two dirty and one wild pile")),
    "contract_by_round": ((), _beyond_seeds("the same contract every round")),
    "going_out_needs_feet": (True, _seed(_PAGAT_SEED, "your partner must have picked up their foot and played from it")),
    "going_out_discard": ("optional", _seed(_PAGAT_SEED, "meld everything, or meld all but one card and discard it")),
    "pile_take_count": (7, _seed(_PAGAT_SEED, "the top seven cards, all of it if fewer")),
    "pile_blocked_by": ("black_three", _seed(_PAGAT_SEED, "a black three on top blocks the pile")),
    "pile_wild_top": ("matching_pair", _decision("D3", "two cards in hand matching the top card", "000")),
    "pile_later_take": ("natural_pair", _seed(_PAGAT_SEED, "you need two cards in hand matching the top card")),
    "pile_freezes_on_wild": (False, _derived("seed 000 has no freezing")),
    "pile_closed_rank_blocks": (False, _derived("seed 000 lets you start another meld of a finished rank")),
}


def _build(pid: str, name: str, source: str, summary: str, values: Mapping[str, Sourced],
           base: Mapping[str, Sourced] | None = None, base_id: str = "pagat") -> Preset:
    """A preset from ``values``; every field not given is filled from ``base`` and labelled so."""
    rules_values: dict[str, Any] = {}
    provenance: dict[str, Provenance] = {}
    for f in fields(RuleSet):
        if f.name in values:
            rules_values[f.name], provenance[f.name] = values[f.name]
        elif base is not None:
            rules_values[f.name] = base[f.name][0]
            provenance[f.name] = Provenance("filled", base_id, f"{source} is silent; filled from {base_id}")
        else:
            raise AssertionError(f"{pid}: no value for {f.name}")
    unknown = set(values) - set(rules_values)
    assert not unknown, unknown
    return Preset(pid, name, source, summary, RuleSet(**rules_values), MappingProxyType(provenance))


_NO_WILD = "no all-wild melds, so no wild books"

PRESETS: Mapping[str, Preset] = MappingProxyType({p.id: p for p in [
    _build("pagat", "Pagat", "seed 000",
           "Pagat's partnership rules: 13/13, twice as many naturals as wilds, contract 2 clean + "
           "2 dirty + 1 wild, wild book 1,500.", _PAGAT),
    _build("bicycle", "Bicycle", "seed 000",
           "Bicycle: 11/11, a meld with wilds needs four naturals, no all-wild melds, contract "
           "1 clean + 1 dirty; other values filled from Pagat.", {
               "decks_per_player": (0, _decision("D1", "Bicycle: five or six decks; card counts allow six", "000")),
               "decks_extra": (6, _decision("D1", "Bicycle: five or six decks; card counts allow six", "000")),
               "hand_size": (11, _seed(_PAGAT_SEED, "Bicycle: 11 and 11")),
               "foot_size": (11, _seed(_PAGAT_SEED, "Bicycle: 11 and 11")),
               "rounds": (4, _seed(_PAGAT_SEED, "FAQ: Pagat, Bicycle and Wikipedia use the same four minimums")),
               "black_three_points": (5, _seed(_PAGAT_SEED, "Bicycle lists threes through sevens at 5")),
               "low_points": (5, _seed(_PAGAT_SEED, "Bicycle lists threes through sevens at 5")),
               "wild_ratio": ("none", _decision("D4", "Bicycle limits wilds by natural count, not ratio", "000")),
               "min_naturals_with_wilds": (4, _decision("D4", "a dirty book needs at least four natural cards", "000")),
               "min_naturals_dirty_book": (4, _seed(_PAGAT_SEED, "a dirty book needs at least four natural cards")),
               "all_wild_melds": (False, _seed(_PAGAT_SEED, "Bicycle says melds should not be all wild cards")),
               "wild_book_bonus": (0, _seed(_PAGAT_SEED, _NO_WILD)),
               "opening_minimum_by_round": ((50, 90, 120, 150), _seed(_PAGAT_SEED, "FAQ: 50, 90, 120, 150")),
               "contract": (Contract(1, 1, 0), _seed(_PAGAT_SEED, "Bicycle: a clean and a dirty book")),
               "pile_take_count": (7, _seed(_PAGAT_SEED, "Pagat and Bicycle: the top seven cards")),
               "black_three_books": (False, _seed(_PAGAT_SEED, "threes are never melded")),
           }, _PAGAT),
    _build("wikipedia", "Wikipedia", "seed 000",
           "Wikipedia: 11/11, contract 3 clean + 4 dirty, no wild book, red threes never laid out "
           "and -300 when held, top five of the pile.", {
               "decks_per_player": (0, _decision("D1", "Wikipedia: four to seven decks; card counts allow seven", "000")),
               "decks_extra": (7, _decision("D1", "Wikipedia: four to seven decks; card counts allow seven", "000")),
               "hand_size": (11, _seed(_PAGAT_SEED, "Wikipedia: 11 and 11")),
               "foot_size": (11, _seed(_PAGAT_SEED, "Wikipedia: 11 and 11")),
               "teams_max": (4, _seed(_PAGAT_SEED, "Wikipedia mentions three teams of two; the keeper handles up to four")),
               "rounds": (4, _decision("D5", "the keeper's reading: Wikipedia's meld table stops at the fourth hand", "000")),
               "black_three_points": (5, _seed(_PAGAT_SEED, "Wikipedia gives black threes at 5")),
               "all_wild_melds": (False, _seed(_PAGAT_SEED, "Wikipedia does not list a wild pile")),
               "wild_book_bonus": (0, _seed(_PAGAT_SEED, _NO_WILD)),
               "red_threes_laid_out": (False, _seed(_PAGAT_SEED, "threes may not be melded, only discarded")),
               "red_three_table_points": (0, _seed(_PAGAT_SEED, "the keeper's Wikipedia preset has no red threes on the table")),
               "red_three_table_points_unmelded": (0, _seed(_PAGAT_SEED, "no red threes on the table")),
               "red_three_caught_points": (-300, _seed(_PAGAT_SEED, "a red three still held at the end is -300")),
               "opening_minimum_by_round": ((50, 90, 120, 150), _seed(_PAGAT_SEED, "FAQ: 50, 90, 120, 150")),
               "contract": (Contract(3, 4, 0), _seed(_PAGAT_SEED, "Wikipedia: three clean and four dirty canastas")),
               "pile_take_count": (5, _seed(_PAGAT_SEED, "Wikipedia: the top five")),
           }, _PAGAT),
    _build("house", "House rules", "seed 000",
           "A copy of Pagat that exists to be overridden with your table's own rules.", {}, _PAGAT),
    _build("saskatchewan", "Saskatchewan", "seed 000",
           "Pagat's Saskatchewan version: 11/13, more naturals than wilds, the whole discard pile; "
           "other values filled from Pagat.", {
               "hand_size": (11, _seed(_PAGAT_SEED, "Saskatchewan: 11 for the hand")),
               "foot_size": (13, _seed(_PAGAT_SEED, "Saskatchewan: 13 for the foot")),
               "wild_ratio": ("more", _seed(_PAGAT_SEED, "Saskatchewan: more natural cards than wild ones")),
               "pile_take_count": (None, _seed(_PAGAT_SEED, "Saskatchewan: the whole pile")),
           }, _PAGAT),
    _build("steve-simpson", "Steve Simpson", "seed 000",
           "Steve Simpson's version on Pagat: individuals, clean book 300, dirty book 100, red threes "
           "-500 always against.", {
               "players_per_team_min": (1, _seed(_PAGAT_SEED, "played without partners")),
               "players_per_team_max": (1, _seed(_PAGAT_SEED, "played without partners")),
               "decks_per_player": (1, _reported("players + 1")),
               "decks_extra": (1, _reported("players + 1")),
               "hand_size": (11, _reported("11 / 11")),
               "foot_size": (11, _reported("11 / 11")),
               "rounds": (4, _reported("4 rounds")),
               "clean_book_bonus": (300, _seed(_PAGAT_SEED, "a clean pile 300")),
               "dirty_book_bonus": (100, _seed(_PAGAT_SEED, "a dirty pile 100")),
               "all_wild_melds": (False, _reported("no all-wild melds")),
               "wild_book_bonus": (0, _reported(_NO_WILD)),
               "going_out_bonus": (100, _reported("going out 100")),
               "red_threes_laid_out": (True, _reported("red threes are laid out")),
               "red_three_table_points": (-500, _seed(_PAGAT_SEED, "counts them -500, always against you")),
               "red_three_table_points_unmelded": (-500, _seed(_PAGAT_SEED, "always against you")),
               "red_three_caught_points": (-500, _seed(_PAGAT_SEED, "counts them -500, always against you")),
               "contract": (Contract(1, 1, 0), _reported("1 clean, 1 dirty")),
               "going_out_needs_feet": (False, _derived("no partners")),
           }, _PAGAT),
    _build("online-11-13", "Online 11/13", "seed 001",
           "An online 4-player game: 2 teams of 2, five decks, 11/13, red threes +100 or -100 by "
           "whether the team has melded, both feet picked up to go out, a tiebreaker round.", {
               "teams_min": (2, _seed("001", "a 4-player partnership game")),
               "teams_max": (2, _seed("001", "a 4-player partnership game")),
               "players_per_team_min": (2, _seed("001", "a 4-player partnership game")),
               "players_per_team_max": (2, _seed("001", "a 4-player partnership game")),
               "decks_per_player": (0, _seed("001", "five complete decks plus jokers, 270 cards")),
               "decks_extra": (5, _seed("001", "five complete decks plus jokers, 270 cards")),
               "hand_size": (11, _seed("001", "11 cards for the hand")),
               "foot_size": (13, _seed("001", "13 cards for the foot")),
               "rounds": (4, _seed("001", "played over four rounds")),
               "tie_rule": ("tiebreaker_round", _seed("001", "if both teams have the same score, play an additional round")),
               "tiebreaker_opening_minimum": (150, _seed("001", "its first meld needs 150 points")),
               "joker_points": (50, _seed("001")), "two_points": (20, _seed("001")),
               "ace_points": (20, _seed("001")), "high_points": (10, _seed("001", "8s through King 10")),
               "high_from": ("8", _seed("001", "8s through King 10")),
               "low_points": (5, _seed("001", "4s through 7s 5")),
               "black_three_points": (5, _seed("001", "black 3s 5")),
               "meld_min": (3, _seed("001", "three to seven cards")),
               "book_size": (7, _seed("001", "a completed meld of exactly seven cards")),
               "book_max_size": (7, _seed("001", "cannot have additional cards added to it")),
               "after_book": ("new_meld", _seed("001", "a small count shows how many books of that rank")),
               "wild_ratio": ("twice", _seed("001", "at least twice as many natural cards as wild cards")),
               "all_wild_melds": (True, _seed("001", "melds consisting entirely of wild cards")),
               "clean_book_bonus": (500, _seed("001")), "dirty_book_bonus": (300, _seed("001")),
               "wild_book_bonus": (1500, _seed("001")), "going_out_bonus": (100, _seed("001")),
               "red_threes_laid_out": (True, _seed("001", "laid out as usual")),
               "red_three_table_points": (100, _seed("001", "+100 if your team has melded")),
               "red_three_table_points_unmelded": (-100, _seed("001", "-100 if it hasn't")),
               "opening_minimum_by_round": ((50, 90, 120, 150), _seed("001")),
               "opening_minimum": (150, _seed("001", "tiebreaker round 150")),
               "going_out_needs_feet": (True, _seed("001", "both you and your partner must have picked up your feet")),
               "going_out_discard": ("optional", _seed("001", "meld or discard all remaining cards")),
               "pile_take_count": (7, _seed("001", "the top seven cards, or all if fewer")),
               "pile_blocked_by": ("black_three", _seed("001", "blocked when topped by a black 3")),
               "pile_wild_top": ("matching_pair", _seed("001", "two 2s to pick up a 2, two jokers for a joker")),
               "pile_later_take": ("natural_pair", _seed("001", "two matching natural cards")),
           }, _PAGAT),
    _build("hodges", "Hodges", "seed 002",
           "The Hodges family variant: players + 2 decks, 8s and 9s worth 5, black threes -300, "
           "openings 100/150/200/250, one book per rank with burn piles, no wild books.", {
               "teams_min": (1, _seed("002", "you can actually play it solo")),
               "teams_max": (7, _seed("002", "odd counts play alone; not recommended 7+ but possible")),
               "players_per_team_min": (1, _seed("002", "odd-count players play for themselves")),
               "players_per_team_max": (4, _decision("D6", "half the players against the other half", "002")),
               "decks_per_player": (1, _seed("002", "2 more decks than there are players")),
               "decks_extra": (2, _seed("002", "2 more decks than there are players")),
               "hand_size": (13, _seed("002", "2 stacks of 13 cards")), "foot_size": (13, _seed("002")),
               "rounds": (4, _seed("002", "across four rounds")),
               "joker_points": (50, _seed("002")), "two_points": (20, _seed("002")),
               "ace_points": (20, _seed("002")),
               "high_points": (10, _seed("002", "tens and royalty 10")),
               "high_from": ("10", _seed("002", "4 through 9: 5 points")),
               "low_points": (5, _seed("002", "4 through 9: 5 points")),
               "black_three_points": (300, _seed("002", "black 3: -300 points")),
               "meld_min": (3, _seed("002", "3 (minimum) like cards")),
               "book_max_size": (7, _seed("002", "7 (maximum)")),
               "book_size": (7, _seed("002", "books which reach 7 cards become closed")),
               "after_book": ("burn", _seed("002", "create a burn pile; still added to your positive score")),
               "all_wild_melds": (False, _seed("002", "one book per card face; real cards must outnumber wilds")),
               "wild_ratio": ("more", _seed("002", "the real cards must always outnumber wilds")),
               "clean_book_bonus": (500, _seed("002")), "dirty_book_bonus": (300, _seed("002")),
               "wild_book_bonus": (0, _seed("002", _NO_WILD)),
               "going_out_bonus": (100, _seed("002", "+100 for being the one to go out")),
               "red_threes_laid_out": (False, _seed("002", "red 3: always discarded")),
               "red_three_table_points": (0, _seed("002", "red threes are discarded, never on the table")),
               "red_three_table_points_unmelded": (0, _seed("002", "red threes are never on the table")),
               "red_three_caught_points": (-100, _seed("002", "red 3: -100 points")),
               "opening_minimum_by_round": ((100, 150, 200, 250), _seed("002", "100, then +50 a round")),
               "opening_minimum": (250, _decision("D2", "rounds past the fourth keep the last minimum", "002")),
               "contract": (Contract(2, 2, 0), _seed("002", "2 dirty books and 2 clean books")),
               "going_out_needs_feet": (False, _decision("D7", "seed 002 states the whole going-out condition", "002")),
               "going_out_discard": ("optional", _seed("002", "played or discarded all of the cards")),
           }, _PAGAT),
    _build("wages", "Wages", "seed 003",
           "The Wages reunion sheet: 3-6 players, 11/11, wilds may equal naturals, burn cards, "
           "red threes -500, going out 300, contract 1 red + 1 black book.", {
               "teams_min": (2, _seed("003", "3-6 players, cut-throat or teams of 2 or 3")),
               "teams_max": (6, _seed("003", "3-6 players cut-throat")),
               "players_per_team_min": (1, _seed("003", "cut-throat")),
               "players_per_team_max": (3, _seed("003", "teams (4 & 6 players)")),
               "decks_per_player": (0, _decision("D1", "5 decks; 6 for 5-6 cut-throat; card counts allow six", "003")),
               "decks_extra": (6, _decision("D1", "5 decks; 6 for 5-6 cut-throat; card counts allow six", "003")),
               "hand_size": (11, _seed("003", "two 11 card piles")), "foot_size": (11, _seed("003")),
               "rounds": (4, _seed("003", "after 4 hands of play")),
               "joker_points": (50, _seed("003")), "two_points": (20, _seed("003")),
               "ace_points": (20, _seed("003")), "high_points": (10, _seed("003", "8 - King 10")),
               "low_points": (5, _seed("003", "4-7 5")), "black_three_points": (5, _seed("003", "black 3's 5")),
               "meld_min": (3, _seed("003", "at least 3 cards")), "book_size": (7, _seed("003", "7 matching cards")),
               "book_max_size": (7, _seed("003", "books of 7")),
               "after_book": ("burn", _seed("003", "further matching cards may be burned into the completed books")),
               "all_wild_melds": (False, _seed("003", "no more wild cards than naturals")),
               "wild_ratio": ("equal", _seed("003", "the same number of wild as natural cards but not more")),
               "min_naturals_dirty_book": (4, _seed("003", "a black book has a minimum of 4 matching cards")),
               "clean_book_bonus": (500, _seed("003", "red book")), "dirty_book_bonus": (300, _seed("003", "black book")),
               "wild_book_bonus": (0, _seed("003", _NO_WILD)),
               "going_out_bonus": (300, _seed("003", "300 for going out")),
               "red_threes_laid_out": (False, _seed("003", "don't get caught with these")),
               "red_three_table_points": (0, _seed("003", "red threes are never on the table")),
               "red_three_table_points_unmelded": (0, _seed("003", "red threes are never on the table")),
               "red_three_caught_points": (-500, _seed("003", "-500 = red 3's")),
               "opening_minimum_by_round": ((50, 90, 120, 150), _seed("003")),
               "opening_pile_top_only": (True, _seed("003", "only the top card of the pile may be used for meld")),
               "contract": (Contract(1, 1, 0), _seed("003", "at least 1 black book and 1 red book")),
               "going_out_needs_feet": (False, _decision("D7", "seed 003 states the whole going-out condition", "003")),
               "going_out_discard": ("optional", _seed("003", "you are not required to discard to go out")),
               "pile_take_count": (7, _seed("003", "the top seven cards")),
               "pile_blocked_by": ("any_three", _seed("003", "not if the top card is a 3")),
               "pile_wild_top": ("blocked", _seed("003", "not if the top card is a wild card")),
               "pile_later_take": ("natural_and_wild_or_open_meld", _seed("003", "a natural and a wild card, or an incomplete book")),
               "pile_freezes_on_wild": (True, _seed("003", "discarding a wild card freezes the pile")),
               "pile_closed_rank_blocks": (True, _seed("003", "not if the top card matches a completed book")),
           }, _PAGAT),
    _build("bga", "BGA", "seed 004",
           "An online game site's configurable rules: 13/13, more naturals than wilds, contract "
           "2 clean + 2 dirty + 1 wild, openings 50/90/120/150 then 150.", {
               "teams_min": (2, _seed("004", "2-7 individuals, 4-12 in teams")),
               "teams_max": (7, _seed("004", "2-7 individuals")),
               "players_per_team_min": (1, _seed("004", "individuals")),
               "players_per_team_max": (6, _decision("D6", "4-12 players in teams; the team size is not given", "004")),
               "decks_per_player": (1, _decision("D1", "one or two more decks than players; card counts allow two", "004")),
               "decks_extra": (2, _decision("D1", "one or two more decks than players; card counts allow two", "004")),
               "hand_size": (13, _seed("004", "13 for the hand")), "foot_size": (13, _seed("004", "13 for the foot")),
               "rounds": (4, _option("004", "a set number of rounds or a target score; a typical game is 4 rounds")),
               "target_score": (None, _option("004", "or until a side reaches a set score")),
               "joker_points": (50, _seed("004")), "two_points": (20, _seed("004")),
               "ace_points": (20, _seed("004")), "high_points": (10, _seed("004", "K-8 10")),
               "low_points": (5, _seed("004", "7-4 5")),
               "black_three_points": (5, _option("004", "black 3 -5")),
               "meld_min": (3, _seed("004", "3-7 cards")),
               "book_max_size": (7, _option("004", "3-7 (or more, by house rules)")),
               "after_book": ("new_meld", _seed("004", "only one meld of a rank open at any time")),
               "all_wild_melds": (True, _option("004", "if the house rules allow, a meld of all wild cards")),
               "wild_ratio": ("more", _seed("004", "always more non-wild than wild cards")),
               "max_wilds_per_book": (None, _option("004", "common house rules limit a completed meld to 2 or 3 wilds")),
               "clean_book_bonus": (500, _option("004")), "dirty_book_bonus": (300, _option("004")),
               "wild_book_bonus": (1500, _option("004")), "going_out_bonus": (100, _option("004")),
               "red_threes_laid_out": (True, _seed("004", "red 3s are played automatically")),
               "red_three_table_points": (100, _option("004", "red 3 100")),
               "red_three_table_points_unmelded": (100, _derived("seed 004 makes no difference by melding")),
               "opening_minimum_by_round": ((50, 90, 120, 150), _seed("004", "rounds 1-4: 50, 90, 120, 150")),
               "opening_minimum": (150, _seed("004", "round 5 and later: 150")),
               "opening_pile_top_only": (True, _seed("004", "only the top card counts toward the minimum")),
               "contract": (Contract(2, 2, 1), _option("004", "a common contract: two clean, two dirty, one wild")),
               "going_out_needs_feet": (False, _seed("004", "one player has played both hand and foot")),
               "going_out_discard": ("optional", _option("004", "house rules require a final discard or not")),
               "pile_take_count": (7, _seed("004", "take 7 cards from the discard pile")),
               "pile_blocked_by": ("black_three", _seed("004", "a black 3 on top blocks the pile")),
           }, _PAGAT),
]})


def find_preset(preset_id: str, path: tuple[str | int, ...] = ("preset",)) -> Preset:
    """The preset with this id; raises :class:`UnknownPresetError` (code ``unknown_preset``)."""
    try:
        return PRESETS[preset_id]
    except (KeyError, TypeError):
        raise UnknownPresetError([Problem(
            "unknown_preset", f"no preset {preset_id!r}; presets: {', '.join(PRESETS)}", path)]) from None


@dataclass(frozen=True, slots=True)
class ResolvedRules:
    """A preset plus house-rule overrides: the RuleSet in force and which fields differ."""

    preset: Preset
    rules: RuleSet
    overridden: tuple[str, ...]


def resolve_rules(preset_id: str, overrides: Mapping[str, Any] | None = None) -> ResolvedRules:
    """The RuleSet of ``preset_id`` with ``overrides`` (house rules) applied and validated.

    ``overrides``: an object of rule names and values, or ``None`` for none. Raises
    :class:`UnknownPresetError` (path ``("preset",)``) or :class:`~engine.errors.RulesError` (paths
    under ``("rules", key)``; ``invalid_input`` at ``("rules",)`` when ``overrides`` is not an object).

    A preset with the same overrides resolves once: the answer is cached by the overrides' hashable
    form (:func:`_hashable`), so every round of a game with house rules gets the same RuleSet object.
    """
    if overrides is None or (type(overrides) is dict and not overrides):  # the common case: made once
        resolved = _AS_PUBLISHED.get(preset_id) if type(preset_id) is str else None
        if resolved is not None:
            return resolved
    if type(preset_id) is str and isinstance(overrides, Mapping):
        key = _hashable(overrides)
        if key is not None:
            return _resolve_cached(preset_id, key)
    return _resolve(preset_id, overrides)


def _resolve(preset_id: str, overrides: Mapping[str, Any] | None) -> ResolvedRules:
    preset = find_preset(preset_id)
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RulesError([Problem("invalid_input", "house rules are an object of rule names and values, or "
                                  f"null for none; not {type(overrides).__name__}", ("rules",))])
    rules = apply_overrides(preset.rules, overrides or {})
    return ResolvedRules(preset, rules, tuple(rules.differs_from(preset.rules)))


_Hashable = tuple[Any, ...]
#: The deepest overrides that are cached: a rule's value is at most a list of objects of numbers.
_DEPTH_MAX = 4


@lru_cache(maxsize=256)
def _resolve_cached(preset_id: str, overrides: _Hashable) -> ResolvedRules:
    """:func:`_resolve` of the overrides that :func:`_hashable` gave ``overrides`` for (errors are
    raised again on each call: ``lru_cache`` keeps only answers)."""
    return _resolve(preset_id, _unhashable(overrides))


def _hashable(value: Any, depth: int = 0) -> Any:
    """``value`` (plain data: dicts, lists, strings, numbers, bools, None) as nested tuples that
    compare equal only when the data is the same, types included (``True``, ``1`` and ``1.0`` are
    equal in Python, not here); ``None`` for anything else, or nested deeper than any rule's value
    (``_DEPTH_MAX``), which is then resolved uncached."""
    kind = type(value)
    if depth > _DEPTH_MAX:
        return None
    if kind is dict:
        items = []
        for k, v in value.items():
            item = _hashable(v, depth + 1)
            if type(k) is not str or item is None:
                return None
            items.append((k, item))
        return (dict, tuple(items))
    if kind is list or kind is tuple:
        parts = [_hashable(v, depth + 1) for v in value]
        return None if None in parts else (list, tuple(parts))
    if kind in (str, int, float, bool) or value is None:
        return (kind, value)
    return None


def _unhashable(key: Any) -> Any:
    """The plain data of a :func:`_hashable` form (lists for tuples)."""
    kind, value = key
    if kind is dict:
        return {k: _unhashable(v) for k, v in value}
    if kind is list:
        return [_unhashable(v) for v in value]
    return value


#: Every preset as published, resolved: what ``resolve_rules`` gives without overrides.
_AS_PUBLISHED: dict[str, ResolvedRules] = {pid: ResolvedRules(p, p.rules, ()) for pid, p in PRESETS.items()}
