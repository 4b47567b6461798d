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

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter, itemgetter
from typing import NamedTuple

from handfoot.engine.cards import RANK_INDEX, Card, Rank
from handfoot.engine.checks import PlayerState, going_out_problems, out_of_cards_problems, player_problems
from handfoot.engine.errors import Path, Problem, RoundError
from handfoot.engine.melds import BookKind, rank_points, table_points
from handfoot.engine.rules import RuleSet, per_rules
from handfoot.engine.sides import sides_problems
from handfoot.engine.table import Table, analyse_table
from handfoot.engine.tallies import TALLY_COUNTS, RankBooks, Tally, tally_problems

__all__ = [
    "LINE_LABELS", "TALLY_COUNTS", "Breakdown", "Line", "RoundInput", "RoundScore", "Tally", "TeamRound",
    "breakdown", "burn_problems", "score_round", "side_tally",
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


class Breakdown(NamedTuple):
    """A side's round score: ``name``, ``total`` (points) and the ``lines`` that sum to it;
    ``warnings``: what is scored but breaks a rule: the meld rules its table breaks where they stand
    and score (``illegal_melds_stand``, the Hodges family rules' "what's layed is played"), and
    ``table_below_opening_minimum`` (D81); empty otherwise. A named tuple, as
    :class:`Line` is, built with ``tuple.__new__``."""

    name: str
    total: int
    lines: tuple[Line, ...]
    warnings: tuple[Problem, ...] = ()

    def line(self, code: str) -> Line | None:
        return next((line for line in self.lines if line.code == code), None)


class RoundScore(NamedTuple):
    """Every side's breakdown, in the order given (a named tuple)."""

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
    "cut_within_1": "Cuts one card off",
    "cut_within_3": "Cuts two or three cards off",
    "table_points": "Cards on the table",
    "burn": "Burn pile",
    "points_left": "Cards left in hands and feet",
}
(_LABEL_CLEAN, _LABEL_DIRTY, _LABEL_WILD, _LABEL_OUT, _LABEL_RED_TABLE, _LABEL_RED_CAUGHT,
 _LABEL_TABLE, _LABEL_BURN, _LABEL_LEFT) = itemgetter(
    "clean_books", "dirty_books", "wild_books", "going_out", "red_threes_on_table", "red_threes_caught",
    "table_points", "burn", "points_left")(LINE_LABELS)
#: The graded perfect cut (D29): (input, line code, the rule's bonus field) for each grade.
_CUT_GRADES = (("perfect_cuts", "perfect_cut", "perfect_cut_bonus"),
               ("cuts_within_1", "cut_within_1", "perfect_cut_within_1_bonus"),
               ("cuts_within_3", "cut_within_3", "perfect_cut_within_3_bonus"))


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
    problems = sides_problems(rules, [t.name for t in teams],
                              [None if t.tally is not None else [p.name for p in t.players] for t in teams])
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
    problems += _copies_problems(teams, tallies, rules)
    if problems:
        raise RoundError(problems)
    return _new(RoundScore, (round_number, tuple([
        breakdown(team.name, team.went_out, tally, rules, round_number, warned)
        for team, tally, warned in zip(teams, tallies, warnings, strict=True)])))


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
    return (Problem("table_below_opening_minimum", f"{tally.table_points} card points on the table, below "
                    f"round {round_number}'s opening minimum of {minimum} (opening_minimum_by_round), which "
                    "the side's first melds had to reach", at),)


def _two_sides_out_problems(teams: Sequence[TeamRound]) -> list[Problem]:
    """One side ends the round: ``two_sides_out`` for every side marked out after the first."""
    if sum(map(_went_out, teams)) < 2:  # decided in one pass; the list only when there is a problem
        return []
    out = [i for i, t in enumerate(teams) if t.went_out]
    return [Problem("two_sides_out", f"{teams[i].name} is marked out, but {teams[out[0]].name} already "
                    "went out: one side ends the round", ("teams", i, "went_out")) for i in out[1:]]


_THREE = RANK_INDEX[Rank.THREE]
_went_out = attrgetter("went_out")
_rank_index = attrgetter("rank_index")
_is_red_three = attrgetter("is_red_three")


def side_tally(team: TeamRound, rules: RuleSet, round_number: int, at: Path = ()) -> tuple[Tally, list[Problem]]:
    """A side's cards as its :class:`Tally`, and every rule they break (paths under ``at``), the
    meld rules included even where they stand (see :func:`_side_tally`)."""
    tally, problems, warned = _side_tally(team, rules, round_number, at)
    return tally, [*warned, *problems]


def _side_tally(team: TeamRound, rules: RuleSet, round_number: int,
                at: Path) -> tuple[Tally, list[Problem], tuple[Problem, ...]]:
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
            problems.append(Problem("not_a_red_three", f"{card.code} is not a red three (3H or 3D)",
                                    (*at, "red_threes", k)))
    if team.red_threes and not rules.red_threes_laid_out:
        problems.append(Problem("red_three_not_laid_out", "these rules never lay red threes out on the "
                                "table (red_threes_laid_out is false): a red three held counts as caught",
                                (*at, "red_threes")))
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
        problems += out_of_cards_problems([(players[j].name, False, (*at, "players", j, "hand")) for j in emptied],
                                          team.went_out, rules)
    if team.perfect_cuts or team.cuts_within_1 or team.cuts_within_3:
        problems += _not_scored_cuts(team, rules, at)
    caught = sum(map(_is_red_three, held))
    if caught and rules.red_threes_automatic:
        problems += _held_red_threes(players, rules, at)
    books = table.standing_books() if stand else table.books
    tally = _new(Tally, (  # the fields in order: see Tally
        books.clean_books, books.dirty_books, books.wild_books, len(team.red_threes), caught, table.points,
        sum(map(points_by_rank.__getitem__, map(_rank_index, held))) - caught * points_by_rank[_THREE],
        sum(map(table_points(rules).__getitem__, map(_rank_index, team.burn))), team.perfect_cuts, bool(melds),
        team.cuts_within_1, team.cuts_within_3,
        _rank_books(table, rules, stand) if rules.rank_book_bonuses else ()))
    if team.went_out:
        problems += going_out_problems(books, players, rules, round_number, at)
        if players and not emptied:
            problems.append(Problem("cards_left_when_out", f"{team.name} went out, but no player of "
                                    "the side has played out both hand and foot", (*at, "players")))
    return tally, problems, warned


def _held_red_threes(players: Sequence[PlayerState], rules: RuleSet, at: Path) -> list[Problem]:
    """``red_three_held`` for each red three in a hand (and in a foot never picked up where
    ``red_threes_automatic_foot`` is ``dealt``) where the game lays every red three out as it reaches
    a hand (``red_threes_automatic``, D76): such a round was not played. A red three in a foot never
    picked up is caught where the game lays a foot's out only once it is picked up (seed 004: the foot
    is unseen "until the hand is played out"; "those left in the hand (and foot) are scored against
    the team")."""
    feet = rules.red_threes_automatic_foot == "dealt"
    return [Problem("red_three_held", f"{card.code}: these rules play red threes automatically "
                    "(red_threes_automatic): each is laid out as it reaches a hand, so none ends a "
                    f"round in {'a hand or foot' if feet else 'a hand'}", (*at, "players", j, where, k))
            for j, player in enumerate(players)
            for where, cards in (("hand", player.hand), ("foot", player.foot if feet and player.foot else ()))
            for k, card in enumerate(cards) if card.is_red_three]


@per_rules
def _scored_cuts(rules: RuleSet) -> tuple[tuple[str, str, str, int], ...]:
    """(input, line code, label, bonus) of each grade of cut the rules score (bonus not 0)."""
    return tuple((key, code, LINE_LABELS[code], getattr(rules, bonus))
                 for key, code, bonus in _CUT_GRADES if getattr(rules, bonus))


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
    return [Problem("not_in_rules", f"these rules score no such cuts ({bonus} is 0): `{key}` must be 0, "
                    f"or set {bonus} in `rules`", (*at, key))
            for key, _code, bonus in _CUT_GRADES if getattr(counts, key) and not getattr(rules, bonus)]


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


def breakdown(name: str, went_out: bool, tally: Tally, rules: RuleSet, round_number: int,
              warnings: tuple[Problem, ...] = ()) -> Breakdown:
    """The lines of one side's score from its tally (no checks: see :func:`score_round`), in this
    order: books by kind (``*_book_bonus`` each; a book of a rank of ``rank_book_bonuses`` is counted
    on that rank's line ``books_of_<rank>`` instead, at its own bonus, D30), going out
    (``going_out_bonus_for`` the round), red threes on the table (``red_three_table_points``, or
    ``..._unmelded`` for a side that has not melded), red threes caught (``red_three_caught_points``),
    perfect cuts (each grade only when the rules give its bonus: ``perfect_cut_bonus``,
    ``perfect_cut_within_1_bonus``, ``perfect_cut_within_3_bonus``), the table's card points, the
    burn pile (only where ``after_book`` is ``burn``), and the points left (negative). The total is
    the sum of the lines' points; ``warnings`` are the side's meld rules that stand (D31)."""
    t, new = tally, _new_line
    red_each = rules.red_three_table_points if t.melded else rules.red_three_table_points_unmelded
    out_each = rules.going_out_bonus_for(round_number)
    clean, dirty = t.clean_books, t.dirty_books
    if t.rank_books:  # a book of a rank with its own bonus is scored on that rank's line instead
        clean -= sum(b.clean_books for b in t.rank_books)
        dirty -= sum(b.dirty_books for b in t.rank_books)
    lines = [
        new(Line, ("clean_books", _LABEL_CLEAN, clean, rules.clean_book_bonus, clean * rules.clean_book_bonus)),
        new(Line, ("dirty_books", _LABEL_DIRTY, dirty, rules.dirty_book_bonus, dirty * rules.dirty_book_bonus)),
        new(Line, ("wild_books", _LABEL_WILD, t.wild_books, rules.wild_book_bonus,
                   t.wild_books * rules.wild_book_bonus)),
    ]
    if rules.rank_book_bonuses:
        held = {b.rank: b.clean_books + b.dirty_books for b in t.rank_books}
        lines += [new(Line, (f"books_of_{b.rank}", f"Books of {b.rank}s", held.get(b.rank, 0), b.bonus,
                             held.get(b.rank, 0) * b.bonus)) for b in rules.rank_book_bonuses]
    lines += [
        new(Line, ("going_out", _LABEL_OUT, int(went_out), out_each, out_each if went_out else 0)),
        new(Line, ("red_threes_on_table", _LABEL_RED_TABLE, t.red_threes_on_table, red_each,
                   t.red_threes_on_table * red_each)),
        new(Line, ("red_threes_caught", _LABEL_RED_CAUGHT, t.red_threes_caught, rules.red_three_caught_points,
                   t.red_threes_caught * rules.red_three_caught_points)),
    ]
    for key, code, label, each in _scored_cuts(rules):
        count = getattr(t, key)
        lines.append(new(Line, (code, label, count, each, count * each)))
    lines.append(new(Line, ("table_points", _LABEL_TABLE, None, None, t.table_points)))
    if rules.after_book == "burn":
        lines.append(new(Line, ("burn", _LABEL_BURN, None, None, t.burn_points)))
    lines.append(new(Line, ("points_left", _LABEL_LEFT, None, None, -t.points_left)))
    return _new(Breakdown, (name, sum(map(_points_of, lines)), tuple(lines), warnings))


#: ``_new_line(Line, (code, label, count, points_each, points))``: a Line without its Python
#: ``__new__`` (what ``Line._make`` does).
_new_line = _new = tuple.__new__
_points_of = itemgetter(4)  # Line.points


# -- copies of a card ---------------------------------------------------------------------------

_JOKER_KEY = Card(Rank.JOKER, None).key
_key_of = attrgetter("key")


def _copies_problems(teams: Sequence[TeamRound], tallies: Sequence[Tally], rules: RuleSet) -> list[Problem]:
    """More copies of a card than the decks hold (cards form: ``decks`` of each card,
    ``jokers_per_deck * decks`` jokers), or more red threes than they hold (any form). The decks are
    those of the round's players, a side given as a tally counting ``players_per_team_max``."""
    players = 0
    groups: list[Sequence[Card]] = []  # every list of cards of the round (cards form)
    for team in teams:
        if team.tally is not None:
            players += rules.players_per_team_max
            continue
        players += len(team.players)
        groups += team.melds
        groups.append(team.red_threes)
        groups.append(team.burn)
        for player in team.players:
            groups.append(player.hand)
            if player.foot:
                groups.append(player.foot)
    decks = rules.decks_for(players)
    problems: list[Problem] = []
    copies = Counter(map(_key_of, chain.from_iterable(groups)))
    jokers = copies.pop(_JOKER_KEY, 0)
    if jokers > rules.jokers_per_deck * decks or max(copies.values(), default=0) > decks:  # walk again, to name each
        problems.extend(_copies_positions(teams, decks, rules.jokers_per_deck))
    red_threes = 0
    for tally in tallies:
        red_threes += tally.red_threes_on_table + tally.red_threes_caught
    if red_threes > 2 * decks:
        problems.append(Problem("too_many_copies", f"{red_threes} red threes in the round, but "
                                f"{decks} decks hold {2 * decks}", ("teams",)))
    return problems


def _copies_positions(teams: Sequence[TeamRound], decks: int, jokers: int) -> list[Problem]:
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
                limit = decks * (jokers if card.suit is None else 1)
                if seen[card] == limit + 1:
                    problems.append(Problem("too_many_copies", f"{card.code} appears more than {limit} "
                                            f"times, but {decks} decks hold {limit}"
                                            + (f" (jokers_per_deck {jokers})" if card.suit is None else ""),
                                            ("teams", *path, k)))
    return problems
