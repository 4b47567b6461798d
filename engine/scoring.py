"""Round scoring: every side's Breakdown, from the cards on the table or from tallies.

Score of a side (DESIGN §3; seed 000 'Hand and Foot scoring'; seed 002 basic/count/against; seed 003
'Adding up your points') = book bonuses + card points of all melded cards (and burn piles) + red
threes on the table + going-out bonus (+ perfect-cut bonuses) - card points left in hands and feet
(a foot never picked up counts whole) + red threes caught (a negative value; a red three is never also
counted as a card).

One path for both forms: a side's cards become its :class:`Tally` (:func:`side_tally`), and a tally
becomes its :class:`Breakdown` (:func:`breakdown`). A side given as a tally skips the first step, so
the two forms of one round agree by construction.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter, itemgetter
from typing import NamedTuple

from handfoot.engine.cards import RANK_INDEX, Card, Rank
from handfoot.engine.checks import PlayerState, going_out_problems, out_of_cards_problems, player_problems
from handfoot.engine.errors import Path, Problem, RoundError
from handfoot.engine.frozen import fast_init
from handfoot.engine.melds import rank_points
from handfoot.engine.rules import RuleSet
from handfoot.engine.table import analyse_table
from handfoot.engine.tallies import TALLY_COUNTS, Tally, tally_problems

__all__ = [
    "LINE_LABELS", "TALLY_COUNTS", "Breakdown", "Line", "RoundInput", "RoundScore", "Tally", "TeamRound",
    "breakdown", "name_key", "score_round", "side_tally", "sides_problems",
]


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

    A named tuple (immutable, compared and hashed by value, fields by name or position), built with
    ``tuple.__new__`` (``_new_line``) rather than its generated Python ``__new__``: every side's
    breakdown has nine or so (docs/performance.md). The field ``count`` hides the tuple method of
    that name, on purpose: it is the JSON answer's name."""

    code: str
    label: str
    count: int | None  # type: ignore[assignment]
    points_each: int | None
    points: int


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


# -- sides ------------------------------------------------------------------------------------

def name_key(name: str) -> str:
    """The form in which two side or player names are compared: Unicode NFC, case-folded.

    ``"Zoë"`` (NFC), ``"Zoe\u0308"`` (NFD) and ``"ZOË"`` are one name; names are still stored and
    shown exactly as sent. An ASCII name is its own NFC form, so it is only case-folded.
    """
    return name.casefold() if name.isascii() else unicodedata.normalize("NFC", name).casefold()


def sides_problems(rules: RuleSet, names: Sequence[str],
                   players: Sequence[Sequence[str] | None]) -> list[Problem]:
    """The sides of a round or a game against the rules: how many sides (``teams_min``..``teams_max``),
    how many players on each (``players_per_team_min``..``max``; ``None`` where a side names no
    players, e.g. a tally), no two sides with one name and no player on two sides or twice on one
    (both compared by :func:`name_key`). Codes ``team_count``, ``duplicate_side`` and
    ``duplicate_player``; paths ``("teams",)``, ``("teams", i, "players")``, ``("teams", i, "name")``
    and ``("teams", i, "players", j)``.
    """
    problems: list[Problem] = []
    if not rules.teams_min <= len(names) <= rules.teams_max:
        problems.append(Problem("team_count", f"{len(names)} sides; these rules allow "
                                f"{rules.teams_min} to {rules.teams_max} (teams_min, teams_max)", ("teams",)))
    seen: dict[str, int] = {}
    seen_players: set[str] = set()
    for i, (name, side_players) in enumerate(zip(names, players, strict=True)):
        first = seen.setdefault(name_key(name), i)
        if first != i:
            problems.append(Problem("duplicate_side", f"side {name!r} has the name of side {first} "
                                    f"({names[first]!r}); names that differ only by case or Unicode "
                                    "composition are the same", ("teams", i, "name")))
        if side_players is None:
            continue
        count = len(side_players)
        if not rules.players_per_team_min <= count <= rules.players_per_team_max:
            problems.append(Problem("team_count", f"{name} has {count} players; these rules allow "
                                    f"{rules.players_per_team_min} to {rules.players_per_team_max} "
                                    "(players_per_team_min, players_per_team_max)", ("teams", i, "players")))
        for j, player in enumerate(side_players):
            key = name_key(player)
            if key in seen_players:
                problems.append(Problem("duplicate_player", f"player {player!r} already plays on a side; a "
                                        "player plays once (names that differ only by case or Unicode "
                                        "composition are the same)", ("teams", i, "players", j)))
            seen_players.add(key)
    return problems


# -- scoring ------------------------------------------------------------------------------------

def score_round(round_input: RoundInput, rules: RuleSet) -> RoundScore:
    """Score every side of a finished round under ``rules``.

    Raises :class:`RoundError` listing every rule broken (422 at the API): ``team_count``,
    ``two_sides_out``, ``contract_not_met``, ``foot_not_picked_up``, ``cards_left_when_out``, any meld
    problem, ``duplicate_open_meld``, ``second_book_of_rank``, ``not_a_red_three``,
    ``red_three_not_laid_out``, ``burn_not_allowed``, ``burn_needs_closed_book``, ``wild_burned``,
    ``too_many_copies``, ``negative_tally``, ``invalid_tally``, ``all_wild_not_allowed``,
    ``duplicate_side``, ``duplicate_player``, ``foot_not_played``, ``foot_count``,
    ``out_of_cards_not_out``, ``invalid_input``, ``not_in_rules`` (perfect cuts without a
    perfect-cut bonus).
    """
    teams, round_number = round_input.teams, round_input.round
    problems = sides_problems(rules, [t.name for t in teams],
                              [None if t.tally is not None else [p.name for p in t.players] for t in teams])
    problems += _two_sides_out_problems(teams)
    most_decks = rules.decks_for(len(teams) * rules.players_per_team_max)  # a tally names no players
    tallies: list[Tally] = []
    for i, team in enumerate(teams):
        if team.tally is not None:
            tally = team.tally
            problems += tally_problems(tally, team.went_out, rules, round_number, ("teams", i), most_decks)
            if tally.perfect_cuts and not rules.perfect_cut_bonus:
                problems.append(_not_scored_cuts(("teams", i, "tally", "perfect_cuts")))
        else:
            tally, side_problems = side_tally(team, rules, round_number, ("teams", i))
            problems += side_problems
        tallies.append(tally)
    problems += _copies_problems(teams, tallies, rules)
    if problems:
        raise RoundError(problems)
    return RoundScore(round_number, tuple([breakdown(team.name, team.went_out, tally, rules, round_number)
                                           for team, tally in zip(teams, tallies, strict=True)]))


def _two_sides_out_problems(teams: Sequence[TeamRound]) -> list[Problem]:
    """One side ends the round: ``two_sides_out`` for every side marked out after the first."""
    out = [i for i, t in enumerate(teams) if t.went_out]
    return [Problem("two_sides_out", f"{teams[i].name} is marked out, but {teams[out[0]].name} already "
                    "went out: one side ends the round", ("teams", i, "went_out")) for i in out[1:]]


_THREE = RANK_INDEX[Rank.THREE]
_rank_index = attrgetter("rank_index")
_is_red_three = attrgetter("is_red_three")


def side_tally(team: TeamRound, rules: RuleSet, round_number: int, at: Path = ()) -> tuple[Tally, list[Problem]]:
    """A side's cards as its :class:`Tally`, and every rule they break (paths under ``at``).

    Books and table points from :func:`~handfoot.engine.table.analyse_table`; red threes on the
    table (``not_a_red_three``, ``red_three_not_laid_out``); the burn pile (``burn_not_allowed``,
    ``wild_burned``, ``burn_needs_closed_book``: seed 002, seed 003); points left in hands and feet,
    a red three held counted only as caught; the players' end states
    (:func:`~handfoot.engine.checks.player_problems`: a foot never picked up holds the cards dealt;
    :func:`~handfoot.engine.checks.out_of_cards_problems`: nobody runs out of cards without going
    out where the rules forbid it); going out (:func:`~handfoot.engine.checks.going_out_problems`
    and ``cards_left_when_out``: a player of the side has played out both hand and foot).
    """
    problems: list[Problem] = []
    points_by_rank = rank_points(rules)
    melds = team.melds
    table = analyse_table(melds, rules, (*at, "melds"))
    problems += table.problems
    for k, card in enumerate(team.red_threes):
        if not card.is_red_three:
            problems.append(Problem("not_a_red_three", f"{card.code} is not a red three (3H or 3D)",
                                    (*at, "red_threes", k)))
    if team.red_threes and not rules.red_threes_laid_out:
        problems.append(Problem("red_three_not_laid_out", "these rules never lay red threes out on the "
                                "table (red_threes_laid_out is false): a red three held counts as caught",
                                (*at, "red_threes")))
    if team.burn:
        problems += _burn_problems(team.burn, table.closed_ranks(), rules, at)
    players = team.players
    problems += player_problems(players, rules, at)
    problems += out_of_cards_problems([(p.name, bool(p.hand) or p.foot is not None, (*at, "players", j, "hand"))
                                       for j, p in enumerate(players)], team.went_out, rules)
    if team.perfect_cuts and not rules.perfect_cut_bonus:
        problems.append(_not_scored_cuts((*at, "perfect_cuts")))
    held = list(chain.from_iterable([p.hand for p in players] + [p.foot for p in players if p.foot]))
    caught = sum(map(_is_red_three, held))
    books = table.books
    tally = Tally(  # the fields in order: see Tally
        books.clean_books, books.dirty_books, books.wild_books, len(team.red_threes), caught, table.points,
        sum(map(points_by_rank.__getitem__, map(_rank_index, held))) - caught * points_by_rank[_THREE],
        sum(map(points_by_rank.__getitem__, map(_rank_index, team.burn))), team.perfect_cuts, bool(melds))
    if team.went_out:
        problems += going_out_problems(books, players, rules, round_number, at)
        if players and not any(not p.hand and p.foot is None for p in players):
            problems.append(Problem("cards_left_when_out", f"{team.name} went out, but no player of "
                                    "the side has played out both hand and foot", (*at, "players")))
    return tally, problems


def _not_scored_cuts(path: Path) -> Problem:
    """``not_in_rules``: perfect cuts under rules without a perfect-cut bonus are refused, not ignored."""
    return Problem("not_in_rules", "these rules score no perfect cuts (perfect_cut_bonus is 0): "
                   "`perfect_cuts` must be 0, or set perfect_cut_bonus in `rules`", path)


def _burn_problems(burn: Sequence[Card], closed: set[str], rules: RuleSet, at: Path) -> list[Problem]:
    """The burn pile: only where ``after_book`` is ``burn``, no wild cards, and only ranks with a
    completed book on the side's table (``closed``)."""
    if rules.after_book != "burn":
        return [Problem("burn_not_allowed", "these rules have no burn pile (after_book is "
                        f"{rules.after_book}): meld the cards instead", (*at, "burn"))]
    problems: list[Problem] = []
    for k, card in enumerate(burn):
        if card.is_wild:
            problems.append(Problem("wild_burned", f"{card.code}: wild cards cannot be burned "
                                    "(the Hodges family rules)", (*at, "burn", k)))
        elif card.rank.value not in closed:
            problems.append(Problem("burn_needs_closed_book", f"{card.code}: the {card.rank.value}s "
                                    "have no completed book on this side's table", (*at, "burn", k)))
    return problems


def breakdown(name: str, went_out: bool, tally: Tally, rules: RuleSet, round_number: int) -> Breakdown:
    """The lines of one side's score from its tally (no checks: see :func:`score_round`), in this
    order: books by kind (``*_book_bonus`` each), going out (``going_out_bonus_for`` the round), red
    threes on the table (``red_three_table_points``, or ``..._unmelded`` for a side that has not
    melded), red threes caught (``red_three_caught_points``), perfect cuts (only when the rules give
    ``perfect_cut_bonus``), the table's card points, the burn pile (only where ``after_book`` is
    ``burn``), and the points left (negative). The total is the sum of the lines' points."""
    t, new = tally, _new_line
    red_each = rules.red_three_table_points if t.melded else rules.red_three_table_points_unmelded
    out_each = rules.going_out_bonus_for(round_number)
    lines = [
        new(Line, ("clean_books", _LABEL_CLEAN, t.clean_books, rules.clean_book_bonus,
                   t.clean_books * rules.clean_book_bonus)),
        new(Line, ("dirty_books", _LABEL_DIRTY, t.dirty_books, rules.dirty_book_bonus,
                   t.dirty_books * rules.dirty_book_bonus)),
        new(Line, ("wild_books", _LABEL_WILD, t.wild_books, rules.wild_book_bonus,
                   t.wild_books * rules.wild_book_bonus)),
        new(Line, ("going_out", _LABEL_OUT, int(went_out), out_each, out_each if went_out else 0)),
        new(Line, ("red_threes_on_table", _LABEL_RED_TABLE, t.red_threes_on_table, red_each,
                   t.red_threes_on_table * red_each)),
        new(Line, ("red_threes_caught", _LABEL_RED_CAUGHT, t.red_threes_caught, rules.red_three_caught_points,
                   t.red_threes_caught * rules.red_three_caught_points)),
    ]
    if rules.perfect_cut_bonus:
        lines.append(new(Line, ("perfect_cut", _LABEL_PERFECT, t.perfect_cuts, rules.perfect_cut_bonus,
                                t.perfect_cuts * rules.perfect_cut_bonus)))
    lines.append(new(Line, ("table_points", _LABEL_TABLE, None, None, t.table_points)))
    if rules.after_book == "burn":
        lines.append(new(Line, ("burn", _LABEL_BURN, None, None, t.burn_points)))
    lines.append(new(Line, ("points_left", _LABEL_LEFT, None, None, -t.points_left)))
    return Breakdown(name, sum(map(_points_of, lines)), tuple(lines))


#: ``_new_line(Line, (code, label, count, points_each, points))``: a Line without its Python
#: ``__new__`` (what ``Line._make`` does).
_new_line = tuple.__new__
_points_of = itemgetter(4)  # Line.points


# -- copies of a card ---------------------------------------------------------------------------

_JOKER_KEY = Card(Rank.JOKER, None).key
_key_of = attrgetter("key")


def _card_groups(team: TeamRound) -> list[Sequence[Card]]:
    """Every list of cards of a side (cards form)."""
    groups: list[Sequence[Card]] = [*team.melds, team.red_threes, team.burn]
    for player in team.players:
        groups += [player.hand, player.foot or ()]
    return groups


def _copies_problems(teams: Sequence[TeamRound], tallies: Sequence[Tally], rules: RuleSet) -> list[Problem]:
    """More copies of a card than the decks hold (cards form: ``decks`` of each card, ``2 * decks``
    jokers), or more red threes than they hold (any form). The decks are those of the round's
    players, a side given as a tally counting ``players_per_team_max``."""
    players = sum(len(t.players) for t in teams if t.tally is None)
    players += sum(rules.players_per_team_max for t in teams if t.tally is not None)
    decks = rules.decks_for(players)
    problems: list[Problem] = []
    groups = [group for team in teams if team.tally is None for group in _card_groups(team)]
    copies = Counter(map(_key_of, chain.from_iterable(groups)))
    jokers = copies.pop(_JOKER_KEY, 0)
    if jokers > 2 * decks or max(copies.values(), default=0) > decks:  # then walk again, to name each
        problems.extend(_copies_positions(teams, decks))
    red_threes = sum(t.red_threes_on_table + t.red_threes_caught for t in tallies)
    if red_threes > 2 * decks:
        problems.append(Problem("too_many_copies", f"{red_threes} red threes in the round, but "
                                f"{decks} decks hold {2 * decks}", ("teams",)))
    return problems


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
