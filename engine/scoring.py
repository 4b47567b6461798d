"""Round scoring: every side's Breakdown, from the cards on the table or from tallies.

Score of a side (DESIGN §3; seed 000 'Hand and Foot scoring'; seed 002 basic/count/against; seed 003
'Adding up your points') = book bonuses + card points of all melded cards (and burn piles) + red
threes on the table + going-out bonus (+ perfect-cut bonuses) - card points left in hands and feet
(a foot never picked up counts whole) + red threes caught (a negative value; a red three is never also
counted as a card). The cards form is reduced to the tally form first, so both give identical
breakdowns for the same round.
"""

from __future__ import annotations

import sys
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache, partial
from itertools import chain
from math import gcd
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from handfoot.engine.cards import (
    CARD_BITS,
    CARD_COUNT_MAX,
    CARD_KEYS,
    CARD_SHIFT,
    CARD_TABLE,
    DECK,
    RANK_INDEX,
    Card,
    Rank,
    parse_cards,
)
from handfoot.engine.checks import PlayerState, books_as_contract, going_out_problems
from handfoot.engine.errors import CardError, HandFootError, Path, Problem, RoundError
from handfoot.engine.frozen import fast_init
from handfoot.engine.melds import BookKind, MeldTable, card_points_table, counts_of, meld_table, rank_points
from handfoot.engine.rules import Contract, RuleSet, per_rules
from handfoot.engine.table import analyse_table, quick_table


@fast_init
@dataclass(frozen=True, slots=True)
class Tally:
    """A side's round as counted at the table. Counts are cards or books; ``*_points`` are points.

    ``points_left`` is positive (it is subtracted); ``red_threes_caught`` counts red threes held in
    hands or feet; ``has_melded`` (for rules that score red threes by it) defaults to whether the side
    has any points or books on the table.
    """

    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0
    red_threes_on_table: int = 0
    red_threes_caught: int = 0
    table_points: int = 0
    points_left: int = 0
    burn_points: int = 0
    perfect_cuts: int = 0
    has_melded: bool | None = None


TALLY_COUNTS = tuple(f.name for f in fields(Tally) if f.name != "has_melded")


@fast_init
@dataclass(frozen=True, slots=True)
class TeamRound:
    """One side's round. Cards form: ``melds`` (everything on the table), ``red_threes`` (laid out),
    ``burn`` (the burn pile), ``players``. Tally form: ``tally`` (then the card fields are unused).
    ``perfect_cuts``: how often a player of the side cut exactly the dealt count (cards form)."""

    name: str
    went_out: bool = False
    melds: tuple[tuple[Card, ...], ...] = ()
    red_threes: tuple[Card, ...] = ()
    burn: tuple[Card, ...] = ()
    players: tuple[PlayerState, ...] = ()
    tally: Tally | None = None
    perfect_cuts: int = 0


@fast_init
@dataclass(frozen=True, slots=True)
class RoundInput:
    """A finished round: its number (1 = first) and every side."""

    round: int
    teams: tuple[TeamRound, ...]


class Line(NamedTuple):
    """One line of a breakdown: ``code`` (stable), ``label``, ``count`` and ``points_each`` where they
    apply, and ``points`` (signed).

    A named tuple (immutable, compared and hashed by value, fields by name or position), so a
    breakdown's lines are built with ``tuple.__new__`` (``_new_line``): a frozen dataclass cost
    ~0.56 µs a line, this ~0.33 µs, and a round of four sides builds 32 (docs/performance.md). The
    field ``count`` hides the tuple method of that name, on purpose: it is the JSON answer's name."""

    code: str
    label: str
    count: int | None  # type: ignore[assignment]
    points_each: int | None
    points: int


#: ``_new_line(Line, (code, label, count, points_each, points))``: a Line without its Python
#: ``__new__`` (what ``Line._make`` does).
_new_line = tuple.__new__


@fast_init
@dataclass(frozen=True, slots=True)
class Breakdown:
    """A side's round score: ``name``, ``total`` (points) and the ``lines`` that sum to it."""

    name: str
    total: int
    lines: tuple[Line, ...]

    def line(self, code: str) -> Line | None:
        return next((line for line in self.lines if line.code == code), None)


@fast_init
@dataclass(frozen=True, slots=True)
class RoundScore:
    """Every side's breakdown, in the order given."""

    round: int
    teams: tuple[Breakdown, ...]


LINE_LABELS: dict[str, str] = {
    "clean_books": "Clean books",
    "dirty_books": "Dirty books",
    "wild_books": "Wild books",
    "going_out": "Going out",
    "red_threes_on_table": "Red threes on the table",
    "red_threes_caught": "Red threes caught in hand or foot",
    "perfect_cut": "Perfect cuts",
    "table_points": "Cards on the table",
    "burn": "Burn pile",
    "points_left": "Cards left in hands and feet",
}
(_LABEL_CLEAN, _LABEL_DIRTY, _LABEL_WILD, _LABEL_OUT, _LABEL_RED_TABLE, _LABEL_RED_CAUGHT, _LABEL_PERFECT,
 _LABEL_TABLE, _LABEL_BURN, _LABEL_LEFT) = itemgetter(
    "clean_books", "dirty_books", "wild_books", "going_out", "red_threes_on_table", "red_threes_caught",
    "perfect_cut", "table_points", "burn", "points_left")(LINE_LABELS)


# -- building input from plain data ------------------------------------------------------------

_card_of = CARD_TABLE.__getitem__

def _problem(code: str, detail: str, path: Path) -> HandFootError:
    return RoundError([Problem(code, detail, path)])


def _list(value: Any, path: Path) -> Sequence[Any]:
    if not isinstance(value, (list, tuple)):
        raise _problem("invalid_input", "expected a list", path)
    return value  # only read


def round_from_mapping(data: Mapping[str, Any]) -> RoundInput:
    """A :class:`RoundInput` from the request shape of ``POST /v1/rounds/score`` (DESIGN §4).

    Every unknown card in the whole round is reported at once (:class:`CardError`, paths like
    ``("teams", 0, "melds", 1, 2)``); other shape errors raise :class:`RoundError` (``invalid_input``).
    """
    round_number = data.get("round", 1)
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise _problem("round_out_of_range", "round must be a whole number from 1", ("round",))
    teams: list[TeamRound] = []
    card_problems: list[Problem] = []

    def cards(value: Any, path: Path) -> tuple[Card, ...]:
        try:
            return parse_cards(_list(value, path), path)
        except CardError as err:
            card_problems.extend(err.problems)
            return ()

    for i, team in enumerate(_list(data.get("teams"), ("teams",))):
        plain = _plain_team(i, team) if type(team) is dict else None
        if plain is not None:
            teams.append(plain)
            continue
        at: Path = ("teams", i)
        if not isinstance(team, Mapping):
            raise _problem("invalid_input", "expected an object", at)
        name = str(team.get("name", f"Team {i + 1}"))
        went_out = bool(team.get("went_out", False))
        if team.get("tally") is not None:
            raw = team["tally"]
            if not isinstance(raw, Mapping):
                raise _problem("invalid_input", "expected an object", (*at, "tally"))
            values = {k: raw[k] for k in TALLY_COUNTS if k in raw}
            for k, v in values.items():
                if isinstance(v, bool) or not isinstance(v, int):
                    raise _problem("invalid_input", f"{k}: expected a whole number", (*at, "tally", k))
            tally = Tally(**values, has_melded=raw.get("has_melded"))
            teams.append(TeamRound(name=name, went_out=went_out, tally=tally))
            continue
        raw_melds = _list(team.get("melds", []), (*at, "melds"))
        melds = _known_melds(raw_melds)
        if melds is None:  # something to report: parse meld by meld, naming each position
            melds = tuple(cards(m, (*at, "melds", j)) for j, m in enumerate(raw_melds))
        players = []
        for p, player in enumerate(_list(team.get("players", []), (*at, "players"))):
            if not isinstance(player, Mapping):
                raise _problem("invalid_input", "expected an object", (*at, "players", p))
            foot = player.get("foot")
            players.append(PlayerState(
                name=str(player.get("name", f"Player {p + 1}")),
                hand=cards(player.get("hand", []), (*at, "players", p, "hand")),
                foot=None if foot is None else cards(foot, (*at, "players", p, "foot"))))
        perfect = team.get("perfect_cuts", 0)
        teams.append(TeamRound(
            name=name, went_out=went_out, melds=melds,
            red_threes=cards(team.get("red_threes", []), (*at, "red_threes")),
            burn=cards(team.get("burn", []), (*at, "burn")),
            players=tuple(players), perfect_cuts=perfect if isinstance(perfect, int) else 0))
    if card_problems:
        raise CardError(card_problems)
    return RoundInput(round=round_number, teams=tuple(teams))


_EMPTY: list[Any] = []  # a default that is a list; never changed
_ONLY_LISTS = frozenset([list])


def _plain_team(i: int, team: dict[str, Any]) -> TeamRound | None:
    """Side ``i`` when it has the plain JSON shape (lists of known card strings, no tally), parsed
    with C-level passes; ``None`` for anything else, which :func:`round_from_mapping` then parses
    with every check and problem path. It reads the same members with the same defaults."""
    get = team.get
    raw_melds, raw_players = get("melds", _EMPTY), get("players", _EMPTY)
    red_threes, burn = get("red_threes", _EMPTY), get("burn", _EMPTY)
    if (get("tally") is not None or type(raw_melds) is not list or type(raw_players) is not list
            or type(red_threes) is not list or type(burn) is not list
            or not _ONLY_LISTS.issuperset(map(type, raw_melds))):
        return None
    players = []
    try:
        melds = tuple([tuple(map(_card_of, meld)) for meld in raw_melds])
        for p, player in enumerate(raw_players):
            if type(player) is not dict:
                return None
            hand, foot = player.get("hand", _EMPTY), player.get("foot")
            if type(hand) is not list or (foot is not None and type(foot) is not list):
                return None
            players.append(PlayerState(name=str(player.get("name", f"Player {p + 1}")),
                                       hand=tuple(map(_card_of, hand)),
                                       foot=None if foot is None else tuple(map(_card_of, foot))))
        red_cards, burn_cards = tuple(map(_card_of, red_threes)), tuple(map(_card_of, burn))
    except (KeyError, TypeError):  # an unknown card, or not a string
        return None
    perfect = get("perfect_cuts", 0)
    return TeamRound(name=str(get("name", f"Team {i + 1}")), went_out=bool(get("went_out", False)),
                     melds=melds, red_threes=red_cards, burn=burn_cards, players=tuple(players),
                     perfect_cuts=perfect if isinstance(perfect, int) else 0)


def _known_melds(raw: Sequence[Any]) -> tuple[tuple[Card, ...], ...] | None:
    """Every meld parsed at once when each is a list of known card strings; else ``None``."""
    for meld in raw:
        if type(meld) is not list:
            return None
    try:
        return tuple([tuple(map(_card_of, meld)) for meld in raw])
    except (KeyError, TypeError):
        return None


def name_key(name: str) -> str:
    """The form in which two side or player names are compared: Unicode NFC, case-folded.

    ``"Zoë"`` (NFC), ``"Zoe\u0308"`` (NFD) and ``"ZOË"`` are one name; names are still stored and
    shown exactly as sent. An ASCII name is its own NFC form, so it is only case-folded.
    """
    return name.casefold() if name.isascii() else unicodedata.normalize("NFC", name).casefold()


def sides_problems(rules: RuleSet, names: Sequence[str], players: Sequence[int | None]) -> list[Problem]:
    """The sides of a round or a game against the rules: how many sides (``teams_min``..``teams_max``),
    how many players on each (``players_per_team_min``..``max``; ``None`` where a side gives no
    players, e.g. a tally), and no two sides with one name (:func:`name_key`). Codes ``team_count``
    and ``duplicate_side``; paths ``("teams",)``, ``("teams", i, "players")``, ``("teams", i, "name")``.
    """
    problems: list[Problem] = []
    if not rules.teams_min <= len(names) <= rules.teams_max:
        problems.append(Problem("team_count", f"{len(names)} sides; these rules allow "
                                f"{rules.teams_min} to {rules.teams_max} (teams_min, teams_max)", ("teams",)))
    seen: dict[str, int] = {}
    for i, (name, count) in enumerate(zip(names, players, strict=True)):
        first = seen.setdefault(name_key(name), i)
        if first != i:
            problems.append(Problem("duplicate_side", f"side {name!r} has the name of side {first} "
                                    f"({names[first]!r}); names that differ only by case or Unicode "
                                    "composition are the same", ("teams", i, "name")))
        if count is not None and not rules.players_per_team_min <= count <= rules.players_per_team_max:
            problems.append(Problem("team_count", f"{name} has {count} players; these rules allow "
                                    f"{rules.players_per_team_min} to {rules.players_per_team_max} "
                                    "(players_per_team_min, players_per_team_max)", ("teams", i, "players")))
    return problems


# -- scoring ------------------------------------------------------------------------------------

def score_round(round_input: RoundInput, rules: RuleSet) -> RoundScore:
    """Score every side of a finished round under ``rules``.

    Raises :class:`RoundError` listing every rule broken (422 at the API): ``team_count``,
    ``two_sides_out``, ``contract_not_met``, ``foot_not_picked_up``, ``cards_left_when_out``, any meld
    problem, ``duplicate_open_meld``, ``second_book_of_rank``, ``not_a_red_three``,
    ``red_three_not_laid_out``, ``burn_not_allowed``, ``burn_needs_closed_book``, ``wild_burned``,
    ``too_many_copies``, ``negative_tally``, ``invalid_tally``, ``all_wild_not_allowed``,
    ``duplicate_side``.
    """
    teams = round_input.teams
    problems = sides_problems(rules, [t.name for t in teams],
                              [None if t.tally is not None else len(t.players) for t in teams])
    out = [i for i, t in enumerate(teams) if t.went_out]
    for i in out[1:]:
        problems.append(Problem("two_sides_out", f"{teams[i].name} is marked out, but "
                                f"{teams[out[0]].name} already went out: one side ends the round",
                                ("teams", i, "went_out")))
    tallies: list[Tally] = []
    most_decks = rules.decks_for(len(teams) * rules.players_per_team_max)  # a tally names no players
    points_by_rank = rank_points(rules)  # once per round: hashing a RuleSet is not free
    table = meld_table(rules)
    packed = count = 0  # every card of the round (cards form), for the copies check
    for i, team in enumerate(teams):
        if team.tally is not None:
            tally = team.tally
            problems.extend(_tally_problems(tally, team.went_out, rules, round_input.round, ("teams", i),
                                            most_decks))
        else:
            tally, team_problems, team_packed, team_count = _tally_from_cards(
                team, rules, round_input.round, ("teams", i), points_by_rank, table)
            problems.extend(team_problems)
            packed += team_packed
            count += team_count
        tallies.append(tally)
    problems.extend(_copies_problems(teams, tallies, rules, packed, count))
    if problems:
        raise RoundError(problems)
    return RoundScore(round=round_input.round, teams=tuple(
        breakdown(team.name, team.went_out, tally, rules, round_input.round)
        for team, tally in zip(teams, tallies, strict=True)))


def breakdown(name: str, went_out: bool, tally: Tally, rules: RuleSet, round_number: int) -> Breakdown:
    """The lines of one side's score from its tally (no checks: see :func:`score_round`)."""
    t = tally
    return breakdown_values(name, went_out, t.clean_books, t.dirty_books, t.wild_books, t.red_threes_on_table,
                      t.red_threes_caught, t.table_points, t.points_left, t.burn_points, t.perfect_cuts,
                      t.has_melded, rules, round_number)


def breakdown_values(name: str, went_out: bool, clean: int, dirty: int, wild: int, red_on_table: int, caught: int,
                     table_points: int, left: int, burn_points: int, perfect_cuts: int, has_melded: bool | None,
                     rules: RuleSet, round_number: int) -> Breakdown:
    """:func:`breakdown` from the tally's values, in the order of the Tally's fields (a round scored
    from its body builds no Tally: see ``handfoot.engine.plain``).

    The lines of counts (books, going out, red threes, perfect cuts) come made from the rules'
    :class:`_CountLines` while each count is below ``_KEPT``; only the lines of points are built."""
    if has_melded is None:
        has_melded = bool(table_points or clean or dirty or wild)
    kept = _count_lines(rules)
    try:
        counted: tuple[Line, ...] = (
            kept.clean[clean], kept.dirty[dirty], kept.wild[wild],
            kept.going_out.get(round_number, kept.going_out_later)[went_out],
            (kept.red if has_melded else kept.red_unmelded)[red_on_table], kept.caught[caught])
        if kept.perfect:
            counted += (kept.perfect[perfect_cuts],)
    except (KeyError, IndexError):  # a count of _KEPT or more, or below 0: make its lines
        counted = _made_count_lines(went_out, clean, dirty, wild, red_on_table, caught, perfect_cuts,
                                    has_melded, rules, round_number)
    total = table_points - left
    for line in counted:  # cheaper than sum(map(itemgetter(4), ...)) for these few
        total += line[4]
    new = _new_line
    table = new(Line, ("table_points", _LABEL_TABLE, None, None, table_points))
    held = new(Line, ("points_left", _LABEL_LEFT, None, None, -left))
    if kept.burn:
        return Breakdown(name, total + burn_points,
                         counted + (table, new(Line, ("burn", _LABEL_BURN, None, None, burn_points)), held))
    return Breakdown(name, total, counted + (table, held))


#: Counts whose lines :class:`_CountLines` keeps made (0 ... _KEPT - 1): a round's books, red threes
#: and perfect cuts are fewer, save in a very large game.
_KEPT = 32


@dataclass(frozen=True, slots=True)
class _CountLines:
    """A RuleSet's breakdown lines of counts, made once (lines are immutable, so breakdowns share
    them): ``{count: Line}`` for every count below ``_KEPT`` of each line of a count, ``red`` for a
    side that has melded and ``red_unmelded`` for one that has not, ``perfect`` empty when the rules
    give no perfect-cut bonus; ``going_out`` ``{round: (line when not out, line when out)}`` for the
    rounds of ``going_out_bonus_by_round``, ``going_out_later`` for every other round; ``burn``:
    the breakdown has a burn line (``after_book`` is ``burn``)."""

    clean: dict[int, Line]
    dirty: dict[int, Line]
    wild: dict[int, Line]
    red: dict[int, Line]
    red_unmelded: dict[int, Line]
    caught: dict[int, Line]
    perfect: dict[int, Line]
    going_out: dict[int, tuple[Line, Line]]
    going_out_later: tuple[Line, Line]
    burn: bool


@per_rules
def _count_lines(rules: RuleSet) -> _CountLines:
    """The :class:`_CountLines` of ``rules``."""
    def kept(code: str, label: str, each: int) -> dict[int, Line]:
        return {n: _count_line(code, label, n, each) for n in range(_KEPT)}

    def out(bonus: int) -> tuple[Line, Line]:
        return _count_line("going_out", _LABEL_OUT, 0, bonus), _count_line("going_out", _LABEL_OUT, 1, bonus)

    by_round = rules.going_out_bonus_by_round
    return _CountLines(
        kept("clean_books", _LABEL_CLEAN, rules.clean_book_bonus),
        kept("dirty_books", _LABEL_DIRTY, rules.dirty_book_bonus),
        kept("wild_books", _LABEL_WILD, rules.wild_book_bonus),
        kept("red_threes_on_table", _LABEL_RED_TABLE, rules.red_three_table_points),
        kept("red_threes_on_table", _LABEL_RED_TABLE, rules.red_three_table_points_unmelded),
        kept("red_threes_caught", _LABEL_RED_CAUGHT, rules.red_three_caught_points),
        kept("perfect_cut", _LABEL_PERFECT, rules.perfect_cut_bonus) if rules.perfect_cut_bonus else {},
        {r: out(bonus) for r, bonus in enumerate(by_round, start=1)},
        out(rules.going_out_bonus),
        rules.after_book == "burn")


def _count_line(code: str, label: str, count: int, each: int) -> Line:
    return _new_line(Line, (code, label, count, each, count * each))


def _made_count_lines(went_out: bool, clean: int, dirty: int, wild: int, red_on_table: int, caught: int,
                      perfect_cuts: int, has_melded: bool, rules: RuleSet, round_number: int) -> tuple[Line, ...]:
    """The lines of counts that :func:`breakdown_values` takes from :class:`_CountLines`, made."""
    lines = [
        _count_line("clean_books", _LABEL_CLEAN, clean, rules.clean_book_bonus),
        _count_line("dirty_books", _LABEL_DIRTY, dirty, rules.dirty_book_bonus),
        _count_line("wild_books", _LABEL_WILD, wild, rules.wild_book_bonus),
        _count_line("going_out", _LABEL_OUT, int(went_out), rules.going_out_bonus_for(round_number)),
        _count_line("red_threes_on_table", _LABEL_RED_TABLE, red_on_table, rules.red_three_table_points
                    if has_melded else rules.red_three_table_points_unmelded),
        _count_line("red_threes_caught", _LABEL_RED_CAUGHT, caught, rules.red_three_caught_points),
    ]
    if rules.perfect_cut_bonus:
        lines.append(_count_line("perfect_cut", _LABEL_PERFECT, perfect_cuts, rules.perfect_cut_bonus))
    return tuple(lines)


def _card_gcd(rules: RuleSet) -> int:
    return _card_steps(rules)[0]


@lru_cache(maxsize=256)
def _card_steps(rules: RuleSet) -> tuple[int, int, int]:
    """(gcd of every card value, cheapest natural, cheapest wild) under ``rules``."""
    values = card_points_table(rules)
    step = gcd(*values.values()) or 1
    cheapest = min(v for r, v in values.items() if r.value not in ("3", "JK", "2"))
    cheapest_wild = min(values[r] for r in values if r.value in ("JK", "2"))
    return step, cheapest, cheapest_wild


def _tally_problems(tally: Tally, went_out: bool, rules: RuleSet, round_number: int,
                    at: Path, decks: int) -> list[Problem]:
    problems: list[Problem] = []
    for key in TALLY_COUNTS:
        if getattr(tally, key) < 0:
            problems.append(Problem("negative_tally", f"{key} is {getattr(tally, key)}; counts and "
                                    "points are never negative (points_left is subtracted)", (*at, "tally", key)))
    if problems:
        return problems
    if tally.wild_books and not rules.all_wild_melds:
        problems.append(Problem("all_wild_not_allowed", "these rules have no all-wild melds, so no "
                                "wild books (all_wild_melds is false)", (*at, "tally", "wild_books")))
    if tally.red_threes_on_table and not rules.red_threes_laid_out:
        problems.append(Problem("red_three_not_laid_out", "these rules never lay red threes out on "
                                "the table (red_threes_laid_out is false)", (*at, "tally", "red_threes_on_table")))
    if tally.burn_points and rules.after_book != "burn":
        problems.append(Problem("burn_not_allowed", "these rules have no burn pile (after_book is "
                                f"{rules.after_book})", (*at, "tally", "burn_points")))
    step, cheapest, cheapest_wild = _card_steps(rules)
    for key in ("table_points", "points_left", "burn_points"):
        if getattr(tally, key) % step:
            problems.append(Problem("invalid_tally", f"{key} {getattr(tally, key)} is not a sum of card "
                                    f"values (every card is a multiple of {step} points)", (*at, "tally", key)))
    floor = ((tally.clean_books + tally.dirty_books) * rules.book_size * min(cheapest, cheapest_wild)
             + tally.wild_books * rules.book_size * cheapest_wild)
    if tally.table_points < floor:
        problems.append(Problem("invalid_tally", f"table_points {tally.table_points} is less than the "
                                f"cards of the books alone can be worth ({floor})", (*at, "tally", "table_points")))
    problems.extend(_ceiling_problems(tally, rules, decks, at))
    if went_out:
        books = books_as_contract({BookKind.CLEAN: tally.clean_books, BookKind.DIRTY: tally.dirty_books,
                                   BookKind.WILD: tally.wild_books})
        problems.extend(going_out_problems(books, None, rules, round_number, at))
    return problems


def _ceiling_problems(tally: Tally, rules: RuleSet, decks: int, at: Path) -> list[Problem]:
    """More than ``decks`` decks can hold: books (by cards, and wild cards for wild books), and card
    points on the table (with the burn pile) or left in hands and feet (docs/rules-decisions.md D10)."""
    problems: list[Problem] = []
    where = f"{decks} decks (the most for {rules.players_per_team_max} players a side)"
    cards = decks * len(DECK)
    books = tally.clean_books + tally.dirty_books + tally.wild_books
    if books * rules.book_size > cards:
        problems.append(Problem("invalid_tally", f"{books} books need {books * rules.book_size} cards; {where} "
                                f"hold {cards}", (*at, "tally", "clean_books")))
    wilds = decks * sum(1 for c in DECK if c.is_wild)
    if tally.wild_books * rules.book_size > wilds:
        problems.append(Problem("invalid_tally", f"{tally.wild_books} wild books need "
                                f"{tally.wild_books * rules.book_size} wild cards; {where} hold {wilds}",
                                (*at, "tally", "wild_books")))
    values = card_points_table(rules)
    most = decks * sum(values[c.rank] for c in DECK if not c.is_red_three)
    for key, points in (("table_points", tally.table_points + tally.burn_points),
                        ("points_left", tally.points_left)):
        if points > most:
            problems.append(Problem("invalid_tally", f"{key} {points} is more than every card of {where} is "
                                    f"worth ({most})", (*at, "tally", key)))
    return problems


def _tally_from_cards(team: TeamRound, rules: RuleSet, round_number: int, at: Path,
                      points_by_rank: tuple[int, ...], table: MeldTable) -> tuple[Tally, list[Problem], int, int]:
    """The side's tally, the rules it breaks, and the packed counts (``Card.counts`` summed) and
    number of all its cards, for the copies check of the round."""
    problems: list[Problem] = []
    melds = team.melds
    sums = list(map(sum, map(partial(map, counts_of), melds)))
    melded = sum(map(len, melds))
    quick = quick_table(sums, melded, table, closed=bool(team.burn))
    if quick is not None:
        clean, dirty, wild, table_points, closed = quick
    else:
        analysed = analyse_table(melds, rules, (*at, "melds"), points_by_rank)
        problems.extend(analysed.problems)
        clean, dirty, wild = (analysed.books[kind] for kind in BookKind)
        table_points, closed = analysed.points, analysed.closed_ranks()
    for k, card in enumerate(team.red_threes):
        if not card.is_red_three:
            problems.append(Problem("not_a_red_three", f"{card.code} is not a red three (3H or 3D)",
                                    (*at, "red_threes", k)))
    if team.red_threes and not rules.red_threes_laid_out:
        problems.append(Problem("red_three_not_laid_out", "these rules never lay red threes out on the "
                                "table (red_threes_laid_out is false): a red three held counts as caught",
                                (*at, "red_threes")))
    if team.burn and rules.after_book != "burn":
        problems.append(Problem("burn_not_allowed", "these rules have no burn pile (after_book is "
                                f"{rules.after_book}): meld the cards instead", (*at, "burn")))
    else:
        for k, card in enumerate(team.burn):
            if card.is_wild:
                problems.append(Problem("wild_burned", f"{card.code}: wild cards cannot be burned "
                                        "(seed 002)", (*at, "burn", k)))
            elif card.rank.value not in closed:
                problems.append(Problem("burn_needs_closed_book", f"{card.code}: the {card.rank.value}s "
                                        "have no completed book on this side's table", (*at, "burn", k)))
    players = team.players
    held = list(chain.from_iterable([p.hand for p in players] + [p.foot for p in players if p.foot]))
    caught = sum(map(_is_red_three, held))
    left = sum(map(points_by_rank.__getitem__, map(_rank_index, held))) - caught * points_by_rank[_THREE]
    if team.went_out:
        problems.extend(going_out_problems(Contract(clean, dirty, wild), players, rules, round_number, at))
        if players and not any(not p.hand and p.foot is None for p in players):
            problems.append(Problem("cards_left_when_out", f"{team.name} went out, but no player of "
                                    "the side has played out both hand and foot", (*at, "players")))
    tally = Tally(
        clean_books=clean, dirty_books=dirty, wild_books=wild, red_threes_on_table=len(team.red_threes),
        red_threes_caught=caught, table_points=table_points,
        points_left=left, burn_points=sum(map(points_by_rank.__getitem__, map(_rank_index, team.burn))),
        perfect_cuts=team.perfect_cuts, has_melded=bool(melds))
    packed = (sum(sums) + sum(map(counts_of, held)) + sum(map(counts_of, team.red_threes))
              + sum(map(counts_of, team.burn)))
    count = melded + len(held) + len(team.red_threes) + len(team.burn)
    return tally, problems, packed, count


_JOKER_KEY = Card(Rank.JOKER, None).key
_THREE = RANK_INDEX[Rank.THREE]
_rank_index = attrgetter("rank_index")
_is_red_three = attrgetter("is_red_three")


def _copies_problems(teams: Sequence[TeamRound], tallies: Sequence[Tally], rules: RuleSet,
                     packed: int, count: int) -> list[Problem]:
    """More copies of a card than the decks hold (cards form), or more red threes (any form).

    ``packed``, ``count``: the packed counts (``Card.counts`` summed) and the number of every card of
    the round, from :func:`_tally_from_cards`."""
    players = sum(len(t.players) for t in teams if t.tally is None)
    players += sum(rules.players_per_team_max for t in teams if t.tally is not None)
    decks = rules.decks_for(players)
    problems: list[Problem] = []
    # The card fields of ``packed`` count every distinct card at once (exact below 2**16 cards); only
    # when some card is over the limit walk the round again to name each extra copy's position.
    if count <= CARD_COUNT_MAX:
        over = copies_over(packed, decks)
    else:
        keys = [c.key for team in teams if team.tally is None for cards in _card_groups(team) for c in cards]
        over = any(n > (2 * decks if key == _JOKER_KEY else decks) for key, n in Counter(keys).items())
    if over:
        problems.extend(_copies_positions(teams, decks))
    red_threes = sum(t.red_threes_on_table + t.red_threes_caught for t in tallies)
    if red_threes > 2 * decks:
        problems.append(Problem("too_many_copies", f"{red_threes} red threes in the round, but "
                                f"{decks} decks hold {2 * decks}", ("teams",)))
    return problems


def copies_over(packed: int, decks: int) -> bool:
    """Some card has more copies than ``decks`` decks hold (two jokers a deck), by the card fields of
    ``packed`` (``Card.counts`` summed over at most ``CARD_COUNT_MAX`` cards)."""
    copies = memoryview((packed >> CARD_SHIFT).to_bytes(CARD_KEYS * CARD_BITS // 8, sys.byteorder)).cast("H")
    return max(copies[:_JOKER_KEY], default=0) > decks or copies[_JOKER_KEY] > 2 * decks


def _card_groups(team: TeamRound) -> list[Sequence[Card]]:
    """Every list of cards of a side (cards form)."""
    groups: list[Sequence[Card]] = [*team.melds, team.red_threes, team.burn]
    for player in team.players:
        groups += [player.hand, player.foot or ()]
    return groups


def _copies_positions(teams: Sequence[TeamRound], decks: int) -> list[Problem]:
    """``too_many_copies`` at the position of each first copy past the limit, in round order."""
    problems: list[Problem] = []
    seen: Counter[Card] = Counter()
    for i, team in enumerate(teams):
        if team.tally is not None:
            continue
        groups: list[tuple[Path, Sequence[Card]]] = [((i, "melds", j), m) for j, m in enumerate(team.melds)]
        groups += [((i, "red_threes"), team.red_threes), ((i, "burn"), team.burn)]
        for p, player in enumerate(team.players):
            groups.append(((i, "players", p, "hand"), player.hand))
            groups.append(((i, "players", p, "foot"), player.foot or ()))
        for path, cards in groups:
            for k, card in enumerate(cards):
                seen[card] += 1
                limit = decks * (2 if card.suit is None else 1)
                if seen[card] == limit + 1:
                    problems.append(Problem("too_many_copies", f"{card.code} appears more than {limit} "
                                            f"times, but {decks} decks hold {limit}", ("teams", *path, k)))
    return problems
