"""The RuleSet field catalogue (:data:`RULE_FIELDS`: each field's kind, range, group and meaning),
the parser of override values, and the consistency checks of a whole RuleSet.

:func:`apply_overrides` builds house rules on top of any preset; :func:`rules_from_mapping`
rebuilds a stored snapshot. Errors are :class:`~handfoot.engine.errors.RulesError` with
``unknown_rule``, ``invalid_rule_value`` or ``inconsistent_rules`` problems.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from handfoot.engine.cards import deck
from handfoot.engine.errors import Problem, RulesError
from handfoot.engine.rules import Contract, RankBonus, RuleSet, Threshold

# -- the field catalogue ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleField:
    """One RuleSet field: ``kind`` (int, bool, choice, int_list, contract, contract_list,
    threshold_list, rank_bonus_list), whether ``None`` is allowed, its range or choices, group, and
    two texts: ``description``, what the value means in players' words (the keeper's label; no
    field names, "none" for ``None``), and ``note``, for developers, how the value reads with other
    fields by their names, its JSON shape and choice values (empty: the description says it all)."""

    name: str
    kind: str
    group: str
    description: str
    minimum: int | None = 0
    maximum: int | None = None
    nullable: bool = False
    choices: tuple[str, ...] = ()
    note: str = ""
    parse: Callable[[Any, tuple[str | int, ...]], Any] | None = field(default=None, compare=False)


#: The ranks a book of its own bonus may have: the natural ranks, and 3 (books of black threes).
RANK_BONUS_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "3")

#: The members of a contract: books needed by kind.
_BOOK_KINDS = ("clean_books", "dirty_books", "wild_books")


def _field(name: str, kind: str, group: str, description: str, **kw: Any) -> RuleField:
    """One entry of :data:`RULE_FIELDS`."""
    return RuleField(name, kind, group, description, **kw)


RULE_FIELDS: dict[str, RuleField] = {f.name: f for f in [
    _field("teams_min", "int", "sides", "Fewest sides (teams, or players playing alone) in a round.", minimum=1, maximum=12),
    _field("teams_max", "int", "sides", "Most sides in a round.", minimum=1, maximum=12),
    _field("players_per_team_min", "int", "sides", "Fewest players on one side (1 = individuals).", minimum=1, maximum=6),
    _field("players_per_team_max", "int", "sides", "Most players on one side.", minimum=1, maximum=6),
    _field("players_alone_min", "int", "sides", "Fewest players at the table when every player plays alone (none: only the sides' counts limit it).", minimum=1, maximum=40, nullable=True, note="A round or game whose every side names one player; null: teams_min x 1."),
    _field("players_alone_max", "int", "sides", "Most players at the table when every player plays alone (none: only the sides' counts limit it).", minimum=1, maximum=40, nullable=True),
    _field("players_in_teams_min", "int", "sides", "Fewest players at the table when they play in teams (none: only the sides' counts limit it).", minimum=1, maximum=40, nullable=True, note="A round or game with a side of two players or more."),
    _field("players_in_teams_max", "int", "sides", "Most players at the table when they play in teams (none: only the sides' counts limit it).", minimum=1, maximum=40, nullable=True),
    _field("sides_by_parity", "bool", "sides", "The number of players decides the sides: an odd number plays every player alone; an even number plays half against half, or, from six players, in teams of two.", note="D80; checked where every side names its players."),
    _field("decks_per_player", "int", "deal", "Decks for each player at the table (the extra decks are added to them).", maximum=2, note="Decks = players x decks_per_player + decks_extra, unless decks_by_players lists the table's size."),
    _field("decks_extra", "int", "deal", "Extra decks added to those counted per player (each deck: 52 cards and its jokers).", maximum=12, note="Added to players x decks_per_player; each deck holds jokers_per_deck jokers."),
    _field("decks_by_players", "int_list", "deal", "Decks by the number of players at the table, one player first (a larger table plays the last entry); empty: the decks per player and the extra decks decide.", minimum=1, maximum=30, note="Empty: players x decks_per_player + decks_extra."),
    _field("hand_size", "int", "deal", "Cards dealt to each hand.", minimum=1, maximum=30),
    _field("foot_size", "int", "deal", "Cards dealt to each foot.", minimum=1, maximum=30),
    _field("hand_size_by_round", "int_list", "deal", "Cards dealt to each hand per round, round 1 first; empty: the same hand size every round.", minimum=1, maximum=30, note="Empty: hand_size every round."),
    _field("foot_size_by_round", "int_list", "deal", "Cards dealt to each foot per round, round 1 first; empty: the same foot size every round.", minimum=1, maximum=30, note="Empty: foot_size every round."),
    _field("jokers_per_deck", "int", "deal", "Jokers in each deck (a deck is 52 cards and these jokers).", maximum=4),
    _field("rounds", "int", "game", "Rounds in a game (none: no fixed number of rounds, play until a side reaches the target score).", minimum=1, maximum=50, nullable=True, note="null: the game ends at target_score."),
    _field("target_score", "int", "game", "A game ends when a side reaches this score (none: no target, the game ends after its rounds).", minimum=1, maximum=1_000_000, nullable=True, note="null: the game ends after `rounds`."),
    _field("tie_rule", "choice", "game", "A tie after the last round stands, or calls for a tiebreaker round.", choices=("stands", "tiebreaker_round")),
    _field("tiebreaker_opening_minimum", "int", "game", "Opening minimum (card points) of a tiebreaker round (none: only where a tie stands).", maximum=10_000, nullable=True, note="null only with tie_rule stands."),
    _field("joker_points", "int", "card_values", "Points of a joker.", maximum=1000),
    _field("two_points", "int", "card_values", "Points of a 2.", maximum=1000),
    _field("ace_points", "int", "card_values", "Points of an ace.", maximum=1000),
    _field("high_points", "int", "card_values", "Points of a K, Q, J or 10, and of a 9 or an 8 where those count high too.", maximum=1000, note="9 and 8 count high_points when high_from is 8."),
    _field("high_from", "choice", "card_values", "Lowest rank worth the high points: 8 (K-8) or 10 (K-10).", choices=("8", "10"), note="The lowest rank worth high_points."),
    _field("low_points", "int", "card_values", "Points of a 7 down to a 4 (of a 9 down to a 4 where only K-10 count high).", maximum=1000, note="9-4 when high_from is 10."),
    _field("black_three_points", "int", "card_values", "Points of a black three (against the side holding it).", maximum=1000),
    _field("threes_count_against", "bool", "card_values", "A three counts against its side wherever it lies: a black three on the table or in the burn pile takes off its points, a red three standing in a meld counts as one caught.", note="A black three: minus black_three_points; a red three in a meld: red_three_caught_points."),
    _field("meld_min", "int", "melds", "Fewest cards in a new meld.", minimum=1, maximum=13),
    _field("book_size", "int", "melds", "Cards that complete a book.", minimum=2, maximum=13),
    _field("book_max_size", "int", "melds", "Most cards in a meld or book (none: no limit).", minimum=2, maximum=40, nullable=True),
    _field("one_open_meld_per_rank", "bool", "melds", "A side may not have two unfinished melds of one rank."),
    _field("after_book", "choice", "melds", "After a book of a rank is complete: start another meld of the rank, or burn further cards of the rank (scored on a burn line).", choices=("new_meld", "burn"), note="new_meld: another meld of the rank; burn: onto the side's burn pile."),
    _field("all_wild_melds", "bool", "melds", "Melds of wild cards only (and so wild books) exist."),
    _field("black_three_books", "bool", "melds", "Black threes may be melded (naturals only)."),
    _field("wild_ratio", "choice", "melds", "Natural to wild cards in a meld: twice (at least twice as many naturals as wilds), more (more naturals than wilds), equal (at least as many naturals as wilds) or none (no ratio).", choices=("twice", "more", "equal", "none"), note="twice: naturals >= 2 x wilds; more: naturals > wilds; equal: naturals >= wilds."),
    _field("min_naturals_with_wilds", "int", "melds", "A meld holding a wild card needs at least this many naturals.", maximum=13),
    _field("min_naturals_dirty_book", "int", "melds", "A completed dirty book needs at least this many naturals.", maximum=13),
    _field("max_wilds_per_book", "int", "melds", "Most wild cards in one meld or book (none: only the ratio limits them).", maximum=40, nullable=True),
    _field("min_natural_share", "int", "melds", "Least share of natural cards in a meld holding wild cards, in percent of its cards (0: no such limit).", maximum=100),
    _field("clean_books_grow", "bool", "melds", "Clean books may grow past the most cards a meld may hold (a dirty book still closes at it).", note="Past book_max_size."),
    _field("illegal_melds_stand", "bool", "melds", "A meld that breaks the meld rules stands and scores when no one caught it: its problems are warnings on the side's breakdown, not a refusal."),
    _field("clean_book_bonus", "int", "bonuses", "Bonus per clean (red, natural) book.", minimum=-100_000, maximum=100_000),
    _field("dirty_book_bonus", "int", "bonuses", "Bonus per dirty (black, mixed) book.", minimum=-100_000, maximum=100_000),
    _field("wild_book_bonus", "int", "bonuses", "Bonus per wild (all-wild) book.", minimum=-100_000, maximum=100_000),
    _field("going_out_bonus", "int", "bonuses", "Going-out bonus for the rounds past those listed per round.", minimum=-100_000, maximum=100_000, note="Rounds past going_out_bonus_by_round."),
    _field("going_out_bonus_by_round", "int_list", "bonuses", "Going-out bonus per round, round 1 first; empty: the same going-out bonus every round.", minimum=-100_000, maximum=100_000, note="Empty: going_out_bonus every round."),
    _field("rank_book_bonuses", "rank_bonus_list", "bonuses", "Books of a given rank worth their own bonus, in place of their kind's (clean or dirty): ranks 4-10, J, Q, K, A or 3 (black threes); empty: none.", minimum=-100_000, maximum=100_000, choices=RANK_BONUS_RANKS, note="[{rank, bonus}]."),
    _field("perfect_cut_bonus", "int", "bonuses", "Bonus each time a player picks up exactly the dealt count of cards when cutting (0: no such bonus).", minimum=-100_000, maximum=100_000),
    _field("perfect_cut_within_1_bonus", "int", "bonuses", "Bonus each time a player's cut is one card off the dealt count (0: no such bonus).", minimum=-100_000, maximum=100_000),
    _field("perfect_cut_within_3_bonus", "int", "bonuses", "Bonus each time a player's cut is two or three cards off the dealt count (0: no such bonus).", minimum=-100_000, maximum=100_000),
    _field("red_threes_laid_out", "bool", "red_threes", "Red threes are laid out on the table (and replaced)."),
    _field("red_threes_automatic", "bool", "red_threes", "The game lays out every red three as it reaches a hand, dealt or drawn, and replaces it: none is ever caught in a hand (a foot's: see the next rule)."),
    _field("red_threes_automatic_foot", "choice", "red_threes", "Where the game lays red threes out itself, a foot's red threes: laid out when the foot is picked up (a foot never picked up keeps them, caught against its side), or as the foot is dealt (none is ever caught).", choices=("picked_up", "dealt"), note="Read only where red_threes_automatic; picked_up: a red three in a foot never picked up counts red_three_caught_points (D76)."),
    _field("red_three_table_points", "int", "red_threes", "Points per red three on the table of a side that has melded (signed).", minimum=-100_000, maximum=100_000),
    _field("red_three_table_points_unmelded", "int", "red_threes", "Points per red three on the table of a side that has not melded (signed).", minimum=-100_000, maximum=100_000),
    _field("red_three_caught_points", "int", "red_threes", "Points per red three caught in a hand or foot (signed; usually negative).", minimum=-100_000, maximum=100_000),
    _field("opening_minimum_by_round", "int_list", "opening", "Opening minimum (card points) per round, round 1 first.", maximum=100_000),
    _field("opening_minimum", "int", "opening", "Opening minimum (card points) for the rounds past those listed per round.", maximum=100_000, note="Rounds past opening_minimum_by_round."),
    _field("opening_thresholds", "threshold_list", "opening", "When not empty, the opening minimum comes from the side's score so far instead of the round: the score from which each minimum applies, lowest score first.", minimum=-1_000_000, maximum=1_000_000, note="[{score, minimum}], ascending score."),
    _field("opening_pile_top_only", "bool", "opening", "Of a taken discard pile only the top card counts toward the opening minimum."),
    _field("opening_needs_book", "bool", "opening", "The opening melds must hold a completed book."),
    _field("contract", "contract", "going_out", "Books needed to go out (clean, dirty and wild) for the rounds past those listed per round.", maximum=40, note="{clean_books, dirty_books, wild_books}; rounds past contract_by_round."),
    _field("contract_by_round", "contract_list", "going_out", "Books needed to go out per round, round 1 first; empty: the same books every round.", maximum=40, note="Empty: `contract` every round."),
    _field("going_out_needs_feet", "bool", "going_out", "Every player of the side must have picked up their foot before the side goes out."),
    _field("going_out_needs_foot_play", "bool", "going_out", "Every player of the side must have played from their foot before the side goes out.", note="Read from each player's played_from_foot; absent: not known, not refused."),
    _field("going_out_discard", "choice", "going_out", "Going out: the last card may be melded or discarded (optional), or must be discarded (required).", choices=("optional", "required")),
    _field("last_card_needs_contract", "bool", "going_out", "A player may empty hand and foot only by going out, which needs the contract: no player of a side that did not go out holds no cards (no: a player may run out of cards and play continues as if the side had not gone out)."),
    _field("draw_count", "int", "discard_pile", "Cards drawn from the stock at the start of a turn (instead of taking the discard pile).", minimum=1, maximum=5),
    _field("pile_take_allowed", "bool", "discard_pile", "The discard pile may be taken (no: every turn draws from the stock and the pile is never picked up)."),
    _field("pile_take_count", "int", "discard_pile", "Cards taken from the discard pile (all if fewer; none: the whole pile).", minimum=1, maximum=200, nullable=True),
    _field("pile_blocked_by", "choice", "discard_pile", "Which three on top blocks the pile: a black three, or any three.", choices=("black_three", "any_three"), note="black_three or any_three."),
    _field("pile_wild_top", "choice", "discard_pile", "A wild card on top: taken with a matching pair of that wild, or never.", choices=("matching_pair", "blocked"), note="matching_pair or blocked."),
    _field("pile_later_take", "choice", "discard_pile", "Once the pile has been taken this round: a natural pair is still needed, or a natural and a wild, or an open meld of the rank, will do.", choices=("natural_pair", "natural_and_wild_or_open_meld"), note="natural_pair or natural_and_wild_or_open_meld."),
    _field("pile_freezes_on_wild", "bool", "discard_pile", "A discarded wild card freezes the pile for a round of turns."),
    _field("pile_closed_rank_blocks", "bool", "discard_pile", "The pile may not be taken when its top card's rank is a completed book of the side."),
]}

assert set(RULE_FIELDS) == {f.name for f in fields(RuleSet)}, "RULE_FIELDS and RuleSet differ"

# -- parsing override values ----------------------------------------------------------------------

def _bad(path: tuple[str | int, ...], detail: str) -> RulesError:
    return RulesError([Problem("invalid_rule_value", detail, path)])


def _int(value: Any, spec: RuleField, path: tuple[str | int, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(path, f"{spec.name}: expected a whole number, got {value!r}")
    if spec.minimum is not None and value < spec.minimum:
        raise _bad(path, f"{spec.name}: {value} is below the minimum {spec.minimum}")
    if spec.maximum is not None and value > spec.maximum:
        raise _bad(path, f"{spec.name}: {value} is above the maximum {spec.maximum}")
    return value


def _object(value: Any, keys: tuple[str, ...], spec: RuleField, path: tuple[str | int, ...]) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise _bad(path, f"{spec.name}: expected an object with {', '.join(keys)}")
    unknown = [k for k in value if k not in keys]
    if unknown:
        raise RulesError([Problem("unknown_rule", f"{spec.name}: unknown member {k!r}", (*path, str(k)))
                          for k in unknown])
    missing = [k for k in keys if k not in value]
    if missing and keys != _BOOK_KINDS:
        raise _bad(path, f"{spec.name}: missing {', '.join(missing)}")
    return {k: _int(value.get(k, 0), spec, (*path, k)) for k in keys}


def parse_value(name: str, value: Any, path: tuple[str | int, ...]) -> Any:  # noqa: C901 - one branch a field kind
    """Check and convert one override value of field ``name``; raise :class:`RulesError`."""
    spec = RULE_FIELDS[name]
    if value is None:
        if spec.nullable:
            return None
        raise _bad(path, f"{name} may not be null")
    if spec.kind == "int":
        return _int(value, spec, path)
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise _bad(path, f"{name}: expected true or false, got {value!r}")
        return value
    if spec.kind == "choice":
        if value not in spec.choices:
            raise _bad(path, f"{name}: expected one of {', '.join(spec.choices)}, got {value!r}")
        return value
    if not isinstance(value, (list, tuple)) and spec.kind != "contract":
        raise _bad(path, f"{name}: expected a list")
    if spec.kind == "int_list":
        if len(value) > 50:
            raise _bad(path, f"{name}: at most 50 entries")
        return tuple(_int(v, spec, (*path, i)) for i, v in enumerate(value))
    if spec.kind == "contract":
        return Contract(**_object(value, _BOOK_KINDS, spec, path))
    if spec.kind == "contract_list":
        if len(value) > 50:
            raise _bad(path, f"{name}: at most 50 entries")
        return tuple(Contract(**_object(v, _BOOK_KINDS, spec, (*path, i))) for i, v in enumerate(value))
    if spec.kind == "threshold_list":
        if len(value) > 50:
            raise _bad(path, f"{name}: at most 50 entries")
        return tuple(Threshold(**_object(v, ("score", "minimum"), spec, (*path, i)))
                     for i, v in enumerate(value))
    if spec.kind == "rank_bonus_list":
        return _rank_bonuses(value, spec, path)
    raise AssertionError(spec.kind)  # pragma: no cover


def _rank_bonuses(value: Any, spec: RuleField, path: tuple[str | int, ...]) -> tuple[RankBonus, ...]:
    """``[{rank, bonus}]``: each rank one of ``spec.choices``, at most once; each bonus in range."""
    if len(value) > len(spec.choices):
        raise _bad(path, f"{spec.name}: at most {len(spec.choices)} entries, one a rank")
    out: list[RankBonus] = []
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise _bad((*path, i), f"{spec.name}: expected an object with rank, bonus")
        unknown = [k for k in item if k not in ("rank", "bonus")]
        if unknown:
            raise RulesError([Problem("unknown_rule", f"{spec.name}: unknown member {k!r}", (*path, i, str(k)))
                              for k in unknown])
        rank = item.get("rank")
        if rank not in spec.choices:
            raise _bad((*path, i, "rank"), f"{spec.name}: rank expected one of {', '.join(spec.choices)}, "
                       f"got {rank!r}")
        if any(b.rank == rank for b in out):
            raise _bad((*path, i, "rank"), f"{spec.name}: the {rank}s are listed twice")
        if "bonus" not in item:
            raise _bad((*path, i), f"{spec.name}: missing bonus")
        out.append(RankBonus(rank, _int(item["bonus"], spec, (*path, i, "bonus"))))
    return tuple(out)


def apply_overrides(base: RuleSet, overrides: Mapping[str, Any],
                    path: tuple[str | int, ...] = ("rules",)) -> RuleSet:
    """``base`` with house-rule ``overrides`` applied, then checked for consistency.

    Raises :class:`RulesError`: ``unknown_rule`` for a key the model does not have,
    ``invalid_rule_value`` for a value of the wrong type or out of range, ``inconsistent_rules``
    when the result contradicts itself (see :func:`consistency_problems`). Every problem's path is
    ``path + (key, ...)``.
    """
    if not overrides:
        return base
    problems: list[Problem] = []
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in RULE_FIELDS:
            problems.append(Problem("unknown_rule", f"{key!r} is not a rule; see GET /v1/presets/{{id}} "
                                    "for every rule's name", (*path, str(key))))
            continue
        try:
            changes[key] = parse_value(key, value, (*path, key))
        except RulesError as err:
            problems.extend(err.problems)
    if problems:
        raise RulesError(problems)
    rules = replace(base, **changes)
    problems = [p.at(*path) for p in consistency_problems(rules)]
    if problems:
        raise RulesError(problems)
    return rules


#: Rules added after snapshots were first stored, with the value that reads an older snapshot as it was
#: played (no limit on the players at the table, sides not by parity, the pile taken, a foot's red
#: threes laid out as the game did then: at the deal, where automatic).
_LATER_RULES: Mapping[str, Any] = {
    "players_alone_min": None, "players_alone_max": None, "players_in_teams_min": None,
    "players_in_teams_max": None, "sides_by_parity": False, "pile_take_allowed": True,
    "red_threes_automatic_foot": "dealt",
}


def rules_from_mapping(data: Mapping[str, Any]) -> RuleSet:
    """Rebuild a RuleSet from :meth:`RuleSet.to_mapping` output (e.g. a stored game's snapshot); a
    rule added since the snapshot was stored reads as the snapshot was played (:data:`_LATER_RULES`)."""
    data = {**_LATER_RULES, **data}
    missing = [f.name for f in fields(RuleSet) if f.name not in data]
    if missing:
        raise RulesError([Problem("invalid_rule_value", f"missing rule {m!r}", ("rules", m)) for m in missing])
    values = {name: parse_value(name, data[name], ("rules", name)) for name in RULE_FIELDS}
    return RuleSet(**values)


def consistency_problems(rules: RuleSet) -> list[Problem]:  # noqa: C901 - one independent check a rule, read whole
    """Every way ``rules`` contradicts itself (paths are field names). Empty when consistent.

    Checked: ranges that must be ordered (teams, players, meld and book sizes); a wild limit that
    leaves no legal dirty book; a bonus for books of black threes where they are never melded; wild
    books in a contract when all-wild melds do not exist; red threes laid out automatically where
    they are never laid out; a
    contract that the smallest table's decks cannot supply; a tie rule without a round count.
    """
    out: list[Problem] = []

    def bad(name: str, detail: str) -> None:
        out.append(Problem("inconsistent_rules", detail, (name,)))

    if rules.teams_min > rules.teams_max:
        bad("teams_min", f"teams_min {rules.teams_min} is above teams_max {rules.teams_max}")
    if rules.players_per_team_min > rules.players_per_team_max:
        bad("players_per_team_min", "players_per_team_min is above players_per_team_max")
    for low, high in (("players_alone_min", "players_alone_max"), ("players_in_teams_min", "players_in_teams_max")):
        lo, hi = getattr(rules, low), getattr(rules, high)
        if lo is not None and hi is not None and lo > hi:
            bad(low, f"{low} {lo} is above {high} {hi}")
    if rules.meld_min > rules.book_size:
        bad("meld_min", f"meld_min {rules.meld_min} is above book_size {rules.book_size}")
    if rules.book_max_size is not None and rules.book_max_size < rules.book_size:
        bad("book_max_size", f"book_max_size {rules.book_max_size} is below book_size {rules.book_size}")
    if not rules.decks_by_players and rules.decks_per_player == 0 and rules.decks_extra == 0:
        bad("decks_extra", "no decks: decks_per_player and decks_extra are both 0")
    if rules.red_threes_automatic and not rules.red_threes_laid_out:
        bad("red_threes_automatic", "red_threes_automatic lays red threes out, but red_threes_laid_out is false")
    if rules.rounds is None and rules.target_score is None:
        bad("rounds", "a game needs rounds or a target_score")
    if rules.tie_rule == "tiebreaker_round" and rules.tiebreaker_opening_minimum is None:
        bad("tiebreaker_opening_minimum", "tie_rule tiebreaker_round needs a tiebreaker_opening_minimum")
    scores = [t.score for t in rules.opening_thresholds]
    if scores != sorted(scores):
        bad("opening_thresholds", "opening_thresholds must be in ascending score order")
    if not _dirty_book_possible(rules):
        bad("wild_ratio", "the wild-card limits forbid every dirty book "
            f"(book_size {rules.book_size}, wild_ratio {rules.wild_ratio}, min_naturals_with_wilds "
            f"{rules.min_naturals_with_wilds}, min_naturals_dirty_book {rules.min_naturals_dirty_book}, "
            f"max_wilds_per_book {rules.max_wilds_per_book})")
    for i, bonus in enumerate(rules.rank_book_bonuses):
        if bonus.rank == "3" and not rules.black_three_books:
            out.append(Problem("inconsistent_rules", "a bonus for books of black threes, but black threes "
                               "are never melded (black_three_books is false)", ("rank_book_bonuses", i, "rank")))
    contracts = {("contract",): rules.contract} | {
        ("contract_by_round", i): c for i, c in enumerate(rules.contract_by_round)}
    players = rules.teams_min * rules.players_per_team_min
    decks = rules.decks_for(players)
    wild_cards = decks * sum(1 for c in deck(rules.jokers_per_deck) if c.is_wild)
    natural_books = len(_NATURAL_RANK_COUNT) * ((decks * 4) // rules.book_size)
    for where, c in contracts.items():
        if c.wild_books and not rules.all_wild_melds:
            out.append(Problem("inconsistent_rules", "the contract needs wild books but all_wild_melds is "
                               "false", (*where, "wild_books")))
        if c.wild_books * rules.book_size > wild_cards:
            out.append(Problem("inconsistent_rules", f"the contract needs {c.wild_books} wild books "
                               f"({c.wild_books * rules.book_size} wild cards) but {decks} decks for the "
                               f"smallest table ({players} players) hold {wild_cards}", (*where, "wild_books")))
        if c.clean_books + c.dirty_books > natural_books:
            out.append(Problem("inconsistent_rules", f"the contract needs {c.clean_books + c.dirty_books} "
                               f"natural-rank books but {decks} decks for the smallest table ({players} "
                               f"players) make at most {natural_books}", (*where, "clean_books")))
    return out


_NATURAL_RANK_COUNT = range(11)  # 4-K and A


def _dirty_book_possible(rules: RuleSet) -> bool:
    """Some book of ``book_size`` cards with wild cards in it keeps the wild-card limits."""
    from handfoot.engine.melds import wild_faults  # melds imports this module

    size = rules.book_size
    return any(not wild_faults(size - wilds, wilds, True, rules) for wilds in range(1, size))
