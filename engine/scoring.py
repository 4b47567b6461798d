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

from collections.abc import Sequence
from operator import attrgetter
from typing import NamedTuple

from handfoot.engine.breakdown import (
    CUT_GRADES,
    LINE_LABELS,
    Breakdown,
    Line,
    RoundScore,
    breakdown,
)
from handfoot.engine.cards import RANK_INDEX, Card, Rank
from handfoot.engine.checks import PlayerState, going_out_problems, out_of_cards_problems, player_problems
from handfoot.engine.copies import copies_problems
from handfoot.engine.errors import Path, Problem, RoundError
from handfoot.engine.melds import BookKind, rank_points, table_points
from handfoot.engine.rules import Contract, RuleSet, per_rules
from handfoot.engine.sides import sides_problems
from handfoot.engine.table import Table, analyse_table
from handfoot.engine.tallies import TALLY_COUNTS, RankBooks, Tally, tally_problems

__all__ = [
    "BOOK_LINES",
    "LINE_LABELS",
    "TALLY_COUNTS",
    "Breakdown",
    "Line",
    "RoundInput",
    "RoundScore",
    "Tally",
    "TeamRound",
    "book_values",
    "breakdown",
    "burn_problems",
    "score_round",
    "side_tally",
]


class TeamRound(NamedTuple):
    """One side's round. Cards form: ``melds`` (everything on the table), ``red_threes`` (laid out),
    ``burn`` (the burn pile), ``players``. Tally form: ``tally`` (then the card fields are unused).
    ``perfect_cuts``: how often a player of the side cut exactly the dealt count; ``cuts_within_1``
    and ``cuts_within_3``: one card off, and two or three off (cards form; the graded perfect cut).

    A named tuple (immutable, fields by name or position), as :class:`RoundInput` is: the reader of
    a request body (``handfoot.engine.operations``) builds one per side with ``tuple.__new__``."""

    name: str
    went_out: bool = False
    melds: tuple[tuple[Card, ...], ...] = ()
    red_threes: tuple[Card, ...] = ()
    burn: tuple[Card, ...] = ()
    players: tuple[PlayerState, ...] = ()
    tally: Tally | None = None
    perfect_cuts: int = 0
    cuts_within_1: int = 0
    cuts_within_3: int = 0


class RoundInput(NamedTuple):
    """A finished round: its number (1 = first) and every side (a named tuple)."""

    round: int
    teams: tuple[TeamRound, ...]


# -- scoring ------------------------------------------------------------------------------------


def score_round(round_input: RoundInput, rules: RuleSet) -> RoundScore:
    """Score every side of a finished round under ``rules``.

    Raises :class:`RoundError` listing every rule broken (422 at the API): ``team_count``,
    ``two_sides_out``, ``contract_not_met``, ``foot_not_picked_up``, ``cards_left_when_out``, any meld
    problem, ``duplicate_open_meld``, ``second_book_of_rank``, ``not_a_red_three``,
    ``red_three_not_laid_out``, ``red_three_held``, ``burn_not_allowed``, ``burn_needs_closed_book``, ``wild_burned``,
    ``too_many_copies``, ``negative_tally``, ``invalid_tally``, ``all_wild_not_allowed``,
    ``duplicate_side``, ``duplicate_player``, ``foot_not_played``, ``foot_count``,
    ``out_of_cards_not_out``, ``invalid_input``, ``not_in_rules`` (a grade of cut without its
    bonus). Under ``illegal_melds_stand`` the meld problems are not raised: they are the side's
    breakdown's ``warnings`` (D31).
    """
    teams, round_number = round_input.teams, round_input.round
    problems = sides_problems(
        rules, [t.name for t in teams], [None if t.tally is not None else [p.name for p in t.players] for t in teams]
    )
    problems += _two_sides_out_problems(teams)
    most_decks = rules.decks_for(len(teams) * rules.players_per_team_max)  # a tally names no players
    tallies: list[Tally] = []
    warnings: list[tuple[Problem, ...]] = []
    for i, team in enumerate(teams):
        if team.tally is not None:
            tally = team.tally
            problems += tally_problems(tally, team.went_out, rules, round_number, ("teams", i), most_decks)
            if tally.perfect_cuts or tally.cuts_within_1 or tally.cuts_within_3:
                problems += _not_scored_cuts(tally, rules, ("teams", i, "tally"))
            warned: tuple[Problem, ...] = ()
        else:
            tally, side_problems, warned = _side_tally(team, rules, round_number, ("teams", i))
            problems += side_problems
        tallies.append(tally)
        warnings.append(warned + _below_opening(tally, rules, round_number, ("teams", i)))
    problems += copies_problems(teams, tallies, rules)
    if problems:
        raise RoundError(problems)
    return _new(
        RoundScore,
        (
            round_number,
            tuple(
                [
                    breakdown(team.name, team.went_out, tally, rules, round_number, warned)
                    for team, tally, warned in zip(teams, tallies, warnings, strict=True)
                ]
            ),
        ),
    )


def _below_opening(tally: Tally, rules: RuleSet, round_number: int, at: Path) -> tuple[Problem, ...]:
    """``table_below_opening_minimum`` where a side that has melded has fewer card points on the table
    than the round's opening minimum, which its first melds had to reach (seed 000 "your team's first
    meld must add up to the round's minimum in card points: 50, 90, 120, then 150"): a warning on its
    breakdown, not a refusal (D81). None where the minimum comes from the score so far
    (``opening_thresholds``, not known to a round) or past the game's rounds (a tiebreaker's)."""
    if rules.opening_thresholds or not tally.melded or (rules.rounds is not None and round_number > rules.rounds):
        return ()
    minimum = rules.opening_minimum_for(round_number)
    if tally.table_points >= minimum:
        return ()
    return (
        Problem(
            "table_below_opening_minimum",
            f"{tally.table_points} card points on the table, below "
            f"round {round_number}'s opening minimum of {minimum} (opening_minimum_by_round), which "
            "the side's first melds had to reach",
            at,
        ),
    )


def _two_sides_out_problems(teams: Sequence[TeamRound]) -> list[Problem]:
    """One side ends the round: ``two_sides_out`` for every side marked out after the first."""
    if sum(map(_went_out, teams)) < 2:  # decided in one pass; the list only when there is a problem
        return []
    out = [i for i, t in enumerate(teams) if t.went_out]
    return [
        Problem(
            "two_sides_out",
            f"{teams[i].name} is marked out, but {teams[out[0]].name} already went out: one side ends the round",
            ("teams", i, "went_out"),
        )
        for i in out[1:]
    ]


_new = tuple.__new__  # a named tuple without its Python __new__ (what ``_make`` does)
_THREE = RANK_INDEX[Rank.THREE]
_went_out = attrgetter("went_out")
_rank_index = attrgetter("rank_index")
_is_red_three = attrgetter("is_red_three")


def side_tally(team: TeamRound, rules: RuleSet, round_number: int, at: Path = ()) -> tuple[Tally, list[Problem]]:
    """A side's cards as its :class:`Tally`, and every rule they break (paths under ``at``), the
    meld rules included even where they stand (see :func:`_side_tally`)."""
    tally, problems, warned = _side_tally(team, rules, round_number, at)
    return tally, [*warned, *problems]


def _side_tally(
    team: TeamRound, rules: RuleSet, round_number: int, at: Path
) -> tuple[Tally, list[Problem], tuple[Problem, ...]]:
    """A side's cards as its :class:`Tally`, every rule they break (paths under ``at``), and the
    meld rules broken that stand as warnings (``illegal_melds_stand``; else empty).

    Books and table points from :func:`~handfoot.engine.table.analyse_table`; red threes on the
    table (``not_a_red_three``, ``red_three_not_laid_out``); the burn pile (``burn_not_allowed``,
    ``wild_burned``, ``burn_needs_closed_book``: seed 002, seed 003); points left in hands and feet,
    a red three held counted only as caught; the players' end states
    (:func:`~handfoot.engine.checks.player_problems`: a foot never picked up holds the cards dealt;
    :func:`~handfoot.engine.checks.out_of_cards_problems`: nobody runs out of cards without going
    out where the rules forbid it); going out (:func:`~handfoot.engine.checks.going_out_problems`
    and ``cards_left_when_out``: a player of the side has played out both hand and foot).

    Under ``illegal_melds_stand`` (the Hodges family rules: "what's layed is played", D31) a meld
    that breaks the meld rules stands: its cards score, and a completed one counts as a book of its
    kind (:meth:`~handfoot.engine.table.Table.standing_books`); its problems are the warnings.
    """
    problems: list[Problem] = []
    points_by_rank = rank_points(rules)
    melds = team.melds
    table = analyse_table(melds, rules, (*at, "melds"))
    stand = rules.illegal_melds_stand and bool(table.problems)
    warned = table.problems if stand else ()
    if not stand:
        problems += table.problems
    for k, card in enumerate(team.red_threes):
        if not card.is_red_three:
            problems.append(
                Problem("not_a_red_three", f"{card.code} is not a red three (3H or 3D)", (*at, "red_threes", k))
            )
    if team.red_threes and not rules.red_threes_laid_out:
        problems.append(
            Problem(
                "red_three_not_laid_out",
                "these rules never lay red threes out on the "
                "table (red_threes_laid_out is false): a red three held counts as caught",
                (*at, "red_threes"),
            )
        )
    if team.burn:
        problems += burn_problems(team.burn, table.closed_ranks(), rules, at)
    players = team.players
    problems += player_problems(players, rules, round_number, at)
    held: list[Card] = []  # every card left in a hand or a foot
    emptied: list[int] = []  # the players who hold no card: hand played out, foot picked up
    for j, player in enumerate(players):
        if player.hand:
            held += player.hand
        elif player.foot is None:
            emptied.append(j)
        if player.foot:
            held += player.foot
    if emptied and not team.went_out and rules.last_card_needs_contract:
        problems += out_of_cards_problems(
            [(players[j].name, False, (*at, "players", j, "hand")) for j in emptied], team.went_out, rules
        )
    if team.perfect_cuts or team.cuts_within_1 or team.cuts_within_3:
        problems += _not_scored_cuts(team, rules, at)
    caught = sum(map(_is_red_three, held))
    if caught and rules.red_threes_automatic:
        problems += _held_red_threes(players, rules, at)
    books, rank_books = _scored_books(table, rules, stand)
    tally = _new(
        Tally,
        (  # the fields in order: see Tally
            books.clean_books,
            books.dirty_books,
            books.wild_books,
            len(team.red_threes),
            caught,
            table.points,
            sum(map(points_by_rank.__getitem__, map(_rank_index, held))) - caught * points_by_rank[_THREE],
            sum(map(table_points(rules).__getitem__, map(_rank_index, team.burn))),
            team.perfect_cuts,
            bool(melds),
            team.cuts_within_1,
            team.cuts_within_3,
            rank_books,
        ),
    )
    if team.went_out:
        problems += going_out_problems(books, players, rules, round_number, at)
        if players and not emptied:
            problems.append(
                Problem(
                    "cards_left_when_out",
                    f"{team.name} went out, but no player of the side has played out both hand and foot",
                    (*at, "players"),
                )
            )
    return tally, problems, warned


def _scored_books(table: Table, rules: RuleSet, stand: bool) -> tuple[Contract, tuple[RankBooks, ...]]:
    """The books a table scores, by kind, and those of a rank with its own bonus: valid completed
    melds, or every completed meld where melds ``stand`` (D31)."""
    books = table.standing_books() if stand else table.books
    return books, _rank_books(table, rules, stand) if rules.rank_book_bonuses else ()


#: The codes of the breakdown's book lines besides ``books_of_<rank>`` (see :func:`book_values`).
BOOK_LINES = ("clean_books", "dirty_books", "wild_books")


def book_values(table: Table, rules: RuleSet) -> tuple[Line, ...]:
    """What a side's completed books score now under ``rules``: the book lines of its breakdown
    (:func:`~handfoot.engine.breakdown.breakdown`, the one scoring function) for a tally of its books
    alone: ``clean_books``, ``dirty_books``, ``wild_books`` (``count``, ``points_each`` the kind's
    ``*_book_bonus``, ``points``) and, where the rules give a rank its own bonus
    (``rank_book_bonuses``, D30), ``books_of_<rank>``. Books as scoring counts them: valid completed
    melds, or every completed one where melds stand (``illegal_melds_stand``, D31)."""
    books, rank_books = _scored_books(table, rules, rules.illegal_melds_stand and bool(table.problems))
    made = _book_values_made(rules)
    key = (books.clean_books, books.dirty_books, books.wild_books, rank_books)  # hashed in C, not a Contract's
    values = made.get(key)
    if values is None:  # the lines read the books alone: made once per rule set and books
        if len(made) >= _BOOK_VALUES_KEPT:
            made.clear()
        tally = Tally(books.clean_books, books.dirty_books, books.wild_books, rank_books=rank_books)
        lines = breakdown("", False, tally, rules, 1).lines
        values = made[key] = tuple(
            line for line in lines if line.code in BOOK_LINES or line.code.startswith("books_of_")
        )
    return values


@per_rules
def _book_values_made(rules: RuleSet) -> dict[tuple[int, int, int, tuple[RankBooks, ...]], tuple[Line, ...]]:
    """:func:`book_values` made under ``rules``, by the books scored (clean, dirty and wild books,
    and by rank)."""
    return {}


_BOOK_VALUES_KEPT = 1024  # a side holds a few dozen books at most; past this many, start again


def _held_red_threes(players: Sequence[PlayerState], rules: RuleSet, at: Path) -> list[Problem]:
    """``red_three_held`` for each red three in a hand (and in a foot never picked up where
    ``red_threes_automatic_foot`` is ``dealt``) where the game lays every red three out as it reaches
    a hand (``red_threes_automatic``, D76): such a round was not played. A red three in a foot never
    picked up is caught where the game lays a foot's out only once it is picked up (seed 004: the foot
    is unseen "until the hand is played out"; "those left in the hand (and foot) are scored against
    the team")."""
    feet = rules.red_threes_automatic_foot == "dealt"
    return [
        Problem(
            "red_three_held",
            f"{card.code}: these rules play red threes automatically "
            "(red_threes_automatic): each is laid out as it reaches a hand, so none ends a "
            f"round in {'a hand or foot' if feet else 'a hand'}",
            (*at, "players", j, where, k),
        )
        for j, player in enumerate(players)
        for where, cards in (("hand", player.hand), ("foot", player.foot if feet and player.foot else ()))
        for k, card in enumerate(cards)
        if card.is_red_three
    ]


def _rank_books(table: Table, rules: RuleSet, stand: bool) -> tuple[RankBooks, ...]:
    """The side's completed books of each rank of ``rank_book_bonuses``, by kind (valid books, or
    every completed meld where melds ``stand``); ranks with none are left out."""
    out = []
    for bonus in rules.rank_book_bonuses:
        kinds = [c.kind for c in table.checks if c.complete and c.rank == bonus.rank and (stand or not c.problems)]
        if kinds:
            out.append(RankBooks(bonus.rank, kinds.count(BookKind.CLEAN), kinds.count(BookKind.DIRTY)))
    return tuple(out)


def _not_scored_cuts(counts: TeamRound | Tally, rules: RuleSet, at: Path) -> list[Problem]:
    """``not_in_rules`` for each grade of cut counted (``perfect_cuts``, ``cuts_within_1``,
    ``cuts_within_3``) whose bonus the rules do not give: refused, not ignored."""
    return [
        Problem(
            "not_in_rules",
            f"these rules score no such cuts ({bonus} is 0): `{key}` must be 0, or set {bonus} in `rules`",
            (*at, key),
        )
        for key, _code, bonus in CUT_GRADES
        if getattr(counts, key) and not getattr(rules, bonus)
    ]


def burn_problems(burn: Sequence[Card], closed: set[str], rules: RuleSet, at: Path) -> list[Problem]:
    """What is wrong with the cards ``burn`` of one side's burn pile: the rule for scoring a round
    (:func:`score_round`) and for a meld action of a game in play (one copy for both).

    ``closed`` is the set of rank values (``"7"``, ``"K"``...) with a completed book on the side's
    table (:meth:`Table.closed_ranks`); ``at`` is the path the problems are placed under (each under
    ``(*at, "burn")`` or ``(*at, "burn", k)`` for the k-th card). Returns an empty list when the pile
    is allowed; else a ``burn_not_allowed`` problem (``after_book`` is not ``burn``: no burn pile at
    all), a ``wild_burned`` problem for each wild card, and a ``burn_needs_closed_book`` problem for
    each card whose rank has no completed book. Raises nothing."""
    if rules.after_book != "burn":
        return [
            Problem(
                "burn_not_allowed",
                f"these rules have no burn pile (after_book is {rules.after_book}): meld the cards instead",
                (*at, "burn"),
            )
        ]
    problems: list[Problem] = []
    for k, card in enumerate(burn):
        if card.is_wild:
            problems.append(
                Problem(
                    "wild_burned",
                    f"{card.code}: wild cards cannot be burned (the Hodges family rules)",
                    (*at, "burn", k),
                )
            )
        elif card.rank.value not in closed:
            problems.append(
                Problem(
                    "burn_needs_closed_book",
                    f"{card.code}: the {card.rank.value}s have no completed book on this side's table",
                    (*at, "burn", k),
                )
            )
    return problems
