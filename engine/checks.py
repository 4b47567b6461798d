"""The table-side checks: opening meld, going out (contract), taking the discard pile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from handfoot.engine.cards import Card, Rank
from handfoot.engine.errors import Problem
from handfoot.engine.melds import cards_points
from handfoot.engine.rules import Contract, RuleSet
from handfoot.engine.table import Table, analyse_table


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """``points`` (card points counted toward the minimum), ``minimum`` (points), ``met``,
    ``problems`` (every meld problem, and ``opening_below_minimum`` when not met)."""

    points: int
    minimum: int
    met: bool
    problems: tuple[Problem, ...]


def check_opening(
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    round_number: int = 1,
    from_pile: Sequence[Card] = (),
    score: int | None = None,
    taken_before: bool = False,
) -> OpeningCheck:
    """Check a side's opening melds against the round's minimum (``opening_minimum_by_round``).

    Only card values count: no red threes, no book bonuses (seed 000; seed 004). ``from_pile`` lists
    the melded cards that came from a taken discard pile, its top card first; when
    ``opening_pile_top_only`` only that top card counts (seed 000 'Picking up'; seed 003; seed 004),
    and the cards from hand (the melded cards not from the pile) must make the take that
    :func:`take_problems` asks, as ``POST /v1/discard-pile/check`` does (``taken_before``: the pile
    was taken before this round, so ``pile_later_take`` applies; the play engine gives it).
    ``score`` is the side's cumulative score, needed when ``opening_thresholds`` are set.
    Under ``opening_needs_book`` the melds must hold a completed valid book (``opening_needs_book``; a
    keeper's fifth round, "a canasta to meld": docs/rules-decisions.md D27).
    """
    table = analyse_table(melds, rules)
    problems = list(table.problems)
    melded: Counter[Card] = Counter(c for meld in melds for c in meld)
    excluded: list[Card] = []
    for i, card in enumerate(from_pile):
        if melded[card] <= 0:
            problems.append(
                Problem(
                    "pile_card_not_in_melds",
                    f"{card.code} from the pile is not in the melds (or is listed more often than melded)",
                    ("from_pile", i),
                )
            )
            continue
        melded[card] -= 1
        if i > 0 and rules.opening_pile_top_only:
            excluded.append(card)
    if from_pile:  # the take itself: the rule of POST /v1/discard-pile/check, applied once
        problems += take_problems(
            from_pile[0],
            list((Counter(c for m in melds for c in m) - Counter(from_pile)).elements()),
            rules,
            table,
            taken_before,
            at_top=("from_pile", 0),
            at_hand=("melds",),
        )
    points = table.points - cards_points(excluded, rules)
    if rules.opening_thresholds and score is None:
        problems.append(
            Problem(
                "missing_score",
                "these rules take the opening minimum from the "
                "side's cumulative score (opening_thresholds); give `score`",
                ("score",),
            )
        )
    minimum = rules.opening_minimum_for(round_number, score)
    if points < minimum:
        problems.append(
            Problem(
                "opening_below_minimum",
                f"the opening melds count {points} points; round {round_number} needs at least {minimum}",
                ("melds",),
            )
        )
    if rules.opening_needs_book and table.books == _NO_BOOKS:
        problems.append(
            Problem(
                "opening_needs_book",
                "these rules open with a completed book "
                f"({rules.book_size} cards; opening_needs_book): the opening melds hold none",
                ("melds",),
            )
        )
    return OpeningCheck(points=points, minimum=minimum, met=not problems, problems=tuple(problems))


_NO_BOOKS = Contract()


class PlayerState(NamedTuple):
    """A player at the end of play: ``hand`` cards, ``foot`` cards when the foot was never picked
    up (``None`` once picked up), and ``played_from_foot`` (``None``: not given; read only where
    ``going_out_needs_foot_play``, and then an absent value is not refused: docs/rules-decisions.md D17).
    A named tuple: the reader of a request body builds one per player with ``tuple.__new__``."""

    name: str
    hand: tuple[Card, ...] = ()
    foot: tuple[Card, ...] | None = None
    played_from_foot: bool | None = None


@dataclass(frozen=True, slots=True)
class GoingOutCheck:
    """``met`` (no rule known to be broken); ``books`` and ``missing`` by kind (``clean_books``,
    ``dirty_books``, ``wild_books``); ``contract`` needed this round; ``problems``; ``unknown``: each
    input not given on which ``met`` rests (code ``input_needed``, its path the missing member's; D78:
    a ``met`` with ``unknown`` entries is not a yes to the rule those inputs decide)."""

    met: bool
    books: Contract
    missing: Contract
    contract: Contract
    problems: tuple[Problem, ...]
    unknown: tuple[Problem, ...] = ()


def contract_shortfall(books: Contract, needed: Contract) -> Contract:
    """The books still missing, by kind (never negative)."""
    return Contract(
        max(0, needed.clean_books - books.clean_books),
        max(0, needed.dirty_books - books.dirty_books),
        max(0, needed.wild_books - books.wild_books),
    )


def going_out_problems(
    books: Contract,
    players: Sequence[PlayerState] | None,
    rules: RuleSet,
    round_number: int,
    prefix: tuple[str | int, ...] = (),
) -> list[Problem]:
    """The rules broken by a side going out with ``books`` (contract; feet picked up and, where
    ``going_out_needs_foot_play``, played from: a ``played_from_foot`` of false is refused)."""
    problems: list[Problem] = []
    needed = rules.contract_for(round_number)
    if (
        books.clean_books < needed.clean_books
        or books.dirty_books < needed.dirty_books
        or books.wild_books < needed.wild_books
    ):
        missing = contract_shortfall(books, needed)
        parts = [f"{n} {k.replace('_', ' ')}" for k, n in missing.as_dict().items() if n]
        problems.append(
            Problem(
                "contract_not_met",
                f"going out in round {round_number} needs "
                f"{needed.clean_books} clean, {needed.dirty_books} dirty and "
                f"{needed.wild_books} wild books (contract); missing {', '.join(parts)}",
                (*prefix, "went_out") if prefix else ("melds",),
            )
        )
    if players is not None and rules.going_out_needs_feet:
        for i, player in enumerate(players):
            if player.foot is not None:
                problems.append(
                    Problem(
                        "foot_not_picked_up",
                        f"{player.name} has not picked up the "
                        "foot; every player of the side must have picked up their foot "
                        "before the side goes out (going_out_needs_feet)",
                        (*prefix, "players", i, "foot"),
                    )
                )
            elif rules.going_out_needs_foot_play and player.played_from_foot is False:
                problems.append(
                    Problem(
                        "foot_not_played",
                        f"{player.name} has not played from the foot; "
                        "every player of the side must have picked up their foot and "
                        "played from it before the side goes out (going_out_needs_foot_play)",
                        (*prefix, "players", i, "played_from_foot"),
                    )
                )
    return problems


def player_problems(
    players: Sequence[PlayerState], rules: RuleSet, round_number: int, prefix: tuple[str | int, ...] = ()
) -> list[Problem]:
    """What no table could have left a side's players with, under any contract (paths under ``prefix``):

    - a foot never picked up that does not hold exactly the round's foot size dealt
      (:meth:`RuleSet.foot_size_for`; ``foot_count``; seed 000 "Cards in a foot you never picked up all
      count against you");
    - ``played_from_foot`` true with the foot never picked up, or false from a player who picked up
      the foot and holds no cards, so has played it (``invalid_input``).
    """
    problems: list[Problem] = []
    for i, player in enumerate(players):
        foot = player.foot
        if foot is None and (player.played_from_foot is not False or player.hand):
            continue  # the usual end state: nothing to check (decided before any path is built)
        at = (*prefix, "players", i)
        if foot is not None:
            dealt = rules.foot_size_for(round_number)
            if len(foot) != dealt:
                problems.append(
                    Problem(
                        "foot_count",
                        f"{player.name}'s foot was never picked up, so it holds "
                        f"the {dealt} cards dealt (foot_size); it lists "
                        f"{len(foot)}",
                        (*at, "foot"),
                    )
                )
            if player.played_from_foot:
                problems.append(
                    Problem(
                        "invalid_input",
                        f"{player.name} cannot have played from a foot never picked up",
                        (*at, "played_from_foot"),
                    )
                )
        elif player.played_from_foot is False and not player.hand:
            problems.append(
                Problem(
                    "invalid_input",
                    f"{player.name} picked up the foot and holds no cards, "
                    "so has played from it: played_from_foot cannot be false",
                    (*at, "played_from_foot"),
                )
            )
    return problems


#: One holder of cards at the end of a round, for :func:`out_of_cards_problems`: who (words), whether
#: they still hold a card, and the path that says so.
Holder = tuple[str, bool, tuple[str | int, ...]]


def out_of_cards_problems(holders: Sequence[Holder], went_out: bool, rules: RuleSet) -> list[Problem]:
    """``out_of_cards_not_out`` for each holder of a side that did not go out and holds no card, where
    ``last_card_needs_contract``: a player plays the last card of hand and foot only by going out,
    which needs the contract (seed 004 "上がりの条件を満たしていない場合、手札のフットを0枚にすることは
    できません"; seed 000, going out: meld everything, or all but one card and discard it). Where the
    rules let play go on (seed 002 "play continues as normal as if the team had not gone out") no
    holder is refused. A holder is a player of the cards form (a tally names no players: D21)."""
    if went_out or not rules.last_card_needs_contract:
        return []
    return [
        Problem(
            "out_of_cards_not_out",
            f"{who} holds no cards, but the side did not go out: under "
            "these rules a player plays the last card of hand and foot only by going out, which "
            "needs the contract (last_card_needs_contract)",
            path,
        )
        for who, holds, path in holders
        if not holds
    ]


def check_going_out(
    melds: Sequence[Sequence[Card]], players: Sequence[PlayerState], rules: RuleSet, round_number: int = 1
) -> GoingOutCheck:
    """May a side with these melds on the table and these players go out this round?

    Needs the contract's books by kind (seed 000 'Going out', seeds 001-004) and, where
    ``going_out_needs_feet``, every player's foot picked up (seed 000; seed 001), and where
    ``going_out_needs_foot_play`` played from (seed 000). Meld problems are
    reported and an invalid meld counts as no book. Where a player's ``played_from_foot`` decides the
    answer and was not given, it is listed in ``unknown`` (:func:`going_out_unknowns`).
    """
    table = analyse_table(melds, rules)
    books = table.books
    problems = [
        *table.problems,
        *player_problems(players, rules, round_number),
        *going_out_problems(books, players, rules, round_number),
    ]
    needed = rules.contract_for(round_number)
    unknown = tuple(going_out_unknowns(players, rules))
    return GoingOutCheck(
        met=not problems,
        books=books,
        missing=contract_shortfall(books, needed),
        contract=needed,
        problems=tuple(problems),
        unknown=unknown,
    )


def going_out_unknowns(players: Sequence[PlayerState], rules: RuleSet) -> list[Problem]:
    """What :func:`going_out_problems` cannot decide for want of an input: where every player must
    have played from the foot (``going_out_needs_foot_play``, Pagat "your partner must have played
    from the foot"), a player whose foot is picked up and whose ``played_from_foot`` was not given
    (``input_needed`` at ``("players", i, "played_from_foot")``; D78: unknown is not yes)."""
    if not (rules.going_out_needs_feet and rules.going_out_needs_foot_play):
        return []
    return [
        Problem(
            "input_needed",
            f"{player.name}: played_from_foot not given; going out needs every player of the side to have "
            "played from the foot (going_out_needs_foot_play): give true or false",
            ("players", i, "played_from_foot"),
        )
        for i, player in enumerate(players)
        if player.foot is None and player.played_from_foot is None
    ]


@dataclass(frozen=True, slots=True)
class DiscardPileCheck:
    """``allowed``; ``cards`` taken if allowed (the top ``pile_take_count``, all if fewer);
    ``problems``."""

    allowed: bool
    cards: int
    problems: tuple[Problem, ...]


def check_discard_pile(
    hand: Sequence[Card],
    pile: Sequence[Card],
    rules: RuleSet,
    melds: Sequence[Sequence[Card]] = (),
    taken_before: bool = False,
    frozen: bool = False,
    burn: Sequence[Card] = (),
    table: Table | None = None,
) -> DiscardPileCheck:
    """May a player holding ``hand`` take the discard ``pile`` (top card first)?

    ``melds`` are the side's melds on the table; ``taken_before``: the pile has been taken this round
    (seed 003's 'broken' pile); ``frozen``: a wild card was discarded onto it (seed 003; ``not_in_rules``
    where the rules never freeze); ``burn``: the side's burn pile (seed 003; ``not_in_rules`` where the
    rules have none); ``table``: ``melds`` analysed, where the caller has it. What the take needs of
    the hand: :func:`take_problems`. Rules: ``pile_take_count``, ``pile_blocked_by``, ``pile_wild_top``,
    ``pile_later_take``, ``pile_freezes_on_wild``, ``pile_closed_rank_blocks`` (seeds 000, 001, 003, 004).
    """
    problems: list[Problem] = []
    take = len(pile) if rules.pile_take_count is None else min(len(pile), rules.pile_take_count)
    if not pile:
        problems.append(Problem("pile_empty", "the discard pile is empty", ("pile",)))
        return DiscardPileCheck(False, 0, tuple(problems))
    if frozen and not rules.pile_freezes_on_wild:
        problems.append(
            Problem(
                "not_in_rules",
                "these rules never freeze the pile (pile_freezes_on_wild is false): `frozen` cannot be true",
                ("frozen",),
            )
        )
    elif frozen:
        problems.append(
            Problem(
                "pile_frozen",
                "the pile is frozen by a discarded wild card until every player has had a turn (pile_freezes_on_wild)",
                ("frozen",),
            )
        )
    if burn and rules.after_book != "burn":
        problems.append(
            Problem(
                "not_in_rules",
                f"these rules have no burn pile (after_book is {rules.after_book}): `burn` must be empty",
                ("burn",),
            )
        )
    problems += take_problems(pile[0], hand, rules, table or analyse_table(melds, rules), taken_before, burn)
    return DiscardPileCheck(not problems, take, tuple(problems))


_NEVER_TAKEN = "these rules never take the discard pile (pile_take_allowed is false): every turn draws from the stock"


def take_problems(
    top: Card,
    hand: Sequence[Card],
    rules: RuleSet,
    table: Table,
    taken_before: bool = False,
    burn: Sequence[Card] = (),
    at_top: tuple[str | int, ...] = ("pile", 0),
    at_hand: tuple[str | int, ...] = ("hand",),
) -> list[Problem]:
    """What taking the discard pile with ``top`` on it needs of the cards from ``hand`` melded with it:
    the one rule of a take, used by :func:`check_discard_pile` and by :func:`check_opening` (an
    opening with cards from a taken pile, whose hand cards are its melded cards not from the pile).

    None where ``pile_take_allowed`` is false (``pile_not_taken``). A three on top blocks
    (``pile_blocked_by``; a red three is never melded); a wild on top needs a matching pair of that
    wild (``pile_wild_top``, ``all_wild_melds``); a rank that is a completed
    book blocks (``pile_closed_rank_blocks``, seed 003; and where ``after_book`` is ``burn``, as no
    second book of it may be started: D71); a rank the side has burned gives no help
    (seed 003 'Burn cards cannot be used to draw from the discard pile'); else two natural cards of
    the rank in hand (seed 000 'You need two cards in hand matching the top card'; seed 001 'two
    matching natural cards from your hand (wilds do not count)'), or after a first take
    ``pile_later_take``. Codes: ``pile_not_taken``, ``pile_blocked``, ``pile_needs_match``, ``pile_rank_closed``.
    """
    if not rules.pile_take_allowed:  # seed 002: "drawing 2 cards maximum and minimum", every turn
        return [Problem("pile_not_taken", _NEVER_TAKEN, at_top)]
    problems: list[Problem] = []
    if top.rank is Rank.THREE:
        if top.is_red_three:
            problems.append(Problem("pile_blocked", "a red three on top cannot be melded", at_top))
        elif rules.pile_blocked_by in ("black_three", "any_three"):
            problems.append(
                Problem(
                    "pile_blocked",
                    f"a black three on top blocks the pile (pile_blocked_by {rules.pile_blocked_by})",
                    at_top,
                )
            )
        return problems
    if top.is_wild:
        if rules.pile_wild_top == "blocked" or not rules.all_wild_melds:
            problems.append(
                Problem(
                    "pile_blocked",
                    f"a wild card ({top.code}) on top blocks the pile "
                    f"(pile_wild_top {rules.pile_wild_top}, all_wild_melds "
                    f"{str(rules.all_wild_melds).lower()})",
                    at_top,
                )
            )
        elif sum(1 for c in hand if c.rank is top.rank) < 2:
            problems.append(
                Problem(
                    "pile_needs_match",
                    f"taking a {top.code} needs two matching "
                    f"{'jokers' if top.rank is Rank.JOKER else '2s'} in hand "
                    "(pile_wild_top matching_pair)",
                    at_hand,
                )
            )
        return problems
    closed = top.rank.value in table.closed_ranks()
    if closed and rules.pile_closed_rank_blocks:
        problems.append(
            Problem(
                "pile_rank_closed",
                f"the {top.rank.value}s are a completed book on your table (pile_closed_rank_blocks)",
                at_top,
            )
        )
    elif closed and rules.after_book == "burn":  # the top card could start no meld nor join one (D71)
        problems.append(
            Problem(
                "pile_rank_closed",
                f"the {top.rank.value}s are a completed book on "
                "your table and these rules start no second book of a rank (after_book "
                "burn): the top card cannot be melded",
                at_top,
            )
        )
    elif any(c.rank is top.rank for c in burn):
        problems.append(
            Problem(
                "pile_rank_closed",
                f"the {top.rank.value}s are burned on your side: "
                "burn cards cannot be used to draw from the discard pile",
                at_top,
            )
        )
    naturals = sum(1 for c in hand if c.rank is top.rank)
    wilds = sum(1 for c in hand if c.is_wild)
    if taken_before and rules.pile_later_take == "natural_and_wild_or_open_meld":
        if not (naturals >= 2 or (naturals >= 1 and wilds >= 1) or top.rank.value in table.open_ranks()):
            problems.append(
                Problem(
                    "pile_needs_match",
                    f"taking a {top.code} needs a natural pair, a "
                    "natural and a wild card, or an open meld of the rank "
                    "(pile_later_take)",
                    at_hand,
                )
            )
    elif naturals < 2:
        problems.append(
            Problem(
                "pile_needs_match",
                f"taking a {top.code} needs two natural "
                f"{top.rank.value}s in hand to meld with it at once (wild cards do not "
                f"count); the hand has {naturals}",
                at_hand,
            )
        )
    return problems
