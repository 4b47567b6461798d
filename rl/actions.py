"""The environment's fixed index of macro actions, and which of them the play engine accepts now.

A learning agent picks an index in ``range(ACTION_COUNT)``; each index names one kind of move (a
*macro*), and :func:`legal_moves` turns every macro into the one concrete engine action it stands
for in this state (cards chosen from the seat's hand). An index is legal exactly when ``step``
accepts that action, judged by ``step``'s own predicates (:mod:`~handfoot.engine.play.legal`,
asked of the candidate's cards) without building the state after it: the engine is the only judge,
nothing here restates a rule. The index (see :data:`ACTIONS` for the names):

====================  =====================================================================================
index                 macro
====================  =====================================================================================
0                     ``draw`` from the stock (with the stock empty: what the rules do then)
1-3                   ``take_pile`` with two naturals of the top card's rank, with one natural and one
                      wild, or with no hand card onto the side's open meld of that rank (the first two go
                      onto that open meld too, where there is one)
4-6                   the same three takes, each with every further meld the rest of the hand can start
                      (what the engine's :func:`~handfoot.engine.play.bots.meld_parts` finds), counted with
                      it toward an opening
7-19                  ``meld`` rank r (4 ... 10, J, Q, K, A, 3, wild): every natural of r in hand added to
                      the side's open meld of r; else a new meld of them with the fewest wild cards the
                      engine accepts (0, 1, 2, ...; twos before jokers); else added to the side's last
                      (complete) meld of r. ``wild``: every wild card (in hand order) onto the side's open
                      wild meld, else as a new wild meld. Each time all the cards first, then as many as
                      ``book_max_size`` leaves room for, then up to three cards fewer (as the listing sheds)
20-31                 one wild card (a two before a joker) onto the side's meld of rank r (4 ... A, 3):
                      its open meld, else its last
32-43                 ``burn`` every natural of rank r (4 ... A, 3) in hand (then up to three fewer), where
                      the rules burn
44                    ``meld`` at once every part ``meld_parts`` finds, else all but the last, ... (two
                      parts at least; how a side opens with several melds)
45-97                 ``discard`` one card, by card in :data:`CARD_CODES`' order (``AS AH AD AC 2S ...
                      KC``, then ``JK``)
98                    ``ask`` the partner "May I go out?"
99, 100               ``answer`` yes, ``answer`` no
101-112               ``meld`` rank r (4 ... A, 3) with jokers first: a new meld of the naturals of r with
                      the fewest wild cards the engine accepts, jokers before twos (only where the hand
                      holds a two and a joker both, and too few naturals of r to meld without a wild)
113-124               one joker onto the side's meld of rank r (4 ... A, 3), its open meld, else its last
                      (only where the hand holds a two too, and no natural of r)
125, 126              ``take_pile`` with one natural and a joker (where the hand holds a two too), without
                      and with the further melds of 4-6
127, 128              ``take_pile`` with every natural of the top card's rank (three or more), without and
                      with the further melds
129                   ``meld`` every wild card as a new wild meld where the side has an open one (19 adds
                      them to it)
====================  =====================================================================================

Every turn has a legal index: a draw in the draw phase, both answers in the answer phase, a discard
in the play phase (:func:`legal_moves` raises ``RuntimeError`` if the engine accepts none).
Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from handfoot.engine.cards import DECK, RANK_TEXT, Card, Rank, codes
from handfoot.engine.errors import PlayError
from handfoot.engine.melds import MeldCheck, validate_meld
from handfoot.engine.play import State, step
from handfoot.engine.play.legal import (
    accepted,
    expect,
    facts,
    judge_ask,
    judge_discards,
    meld_verdict,
    take_verdict,
)
from handfoot.engine.play.listing import combine, meld_candidates
from handfoot.engine.rules import RuleSet, per_rules
from handfoot.engine.scoring import burn_problems
from handfoot.rl.moves import Action, DiscardMove, MeldParts, TakeParts
from handfoot.rl.moves import Move as Move  # the moves legal_moves gives, named here too
from handfoot.rl.takes import take_moves

#: Ranks with a meld macro, in index order; ``wild`` stands for twos and jokers together.
MELD_RANKS: tuple[str, ...] = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "3", "wild")
#: Ranks a wild card can be added to, and that can be burnt (the natural ones and black threes).
RANKS: tuple[str, ...] = MELD_RANKS[:-1]
#: Every distinct card, in deck order (``AS`` ... ``KC``, ``JK``): the discard macros and the
#: observation's card counts.
CARD_CODES: tuple[str, ...] = tuple(dict.fromkeys(card.code for card in DECK))
#: The three ways to take the pile: hand cards melded with the top card.
TAKE_WAYS: tuple[str, ...] = ("pair", "natural_wild", "onto")
#: The takes added after the first 101 indexes: a natural and a joker (where the hand holds a two
#: too), every natural of the top card's rank (three or more).
MORE_TAKE_WAYS: tuple[str, ...] = ("natural_joker", "naturals")

#: The name of every index, in order (``draw``, ``take_pile:pair``, ..., ``answer:no``).
ACTIONS: tuple[str, ...] = (
    "draw",
    *(f"take_pile:{way}" for way in TAKE_WAYS),
    *(f"take_pile:{way}+melds" for way in TAKE_WAYS),
    *(f"meld:{rank}" for rank in MELD_RANKS),
    *(f"wild_onto:{rank}" for rank in RANKS),
    *(f"burn:{rank}" for rank in RANKS),
    "meld_all",
    *(f"discard:{code}" for code in CARD_CODES),
    "ask",
    "answer:yes",
    "answer:no",
    *(f"meld:{rank}:joker" for rank in RANKS),
    *(f"wild_onto:{rank}:joker" for rank in RANKS),
    *(f"take_pile:{way}{melds}" for way in MORE_TAKE_WAYS for melds in ("", "+melds")),
    "meld:wild:new",
)
ACTION_COUNT = len(ACTIONS)
INDEX: dict[str, int] = {name: i for i, name in enumerate(ACTIONS)}


_MELD_INDEX = {rank: INDEX[f"meld:{rank}"] for rank in MELD_RANKS}
_WILD_ONTO_INDEX = {rank: INDEX[f"wild_onto:{rank}"] for rank in RANKS}
_BURN_INDEX = {rank: INDEX[f"burn:{rank}"] for rank in RANKS}
_JOKER_INDEX = {rank: INDEX[f"meld:{rank}:joker"] for rank in RANKS}
_WILD_ONTO_JOKER_INDEX = {rank: INDEX[f"wild_onto:{rank}:joker"] for rank in RANKS}
_DISCARD_INDEX = {code: INDEX[f"discard:{code}"] for code in CARD_CODES}
_TAKE_INDEX = {
    (way, melds): INDEX[f"take_pile:{way}{'+melds' if melds else ''}"]
    for way in TAKE_WAYS + MORE_TAKE_WAYS
    for melds in (False, True)
}


def _rank(card: Card) -> str:
    return "wild" if card.is_wild else RANK_TEXT[card.rank_index]


class _Moves:
    """The candidates of one seat in one state, judged in order by the step's own predicates
    (:mod:`~handfoot.engine.play.legal`: ``meld_verdict``, ``take_verdict``, ``judge_discard``, asked of
    cards, no action read and no successor built). The facts every macro reads are the state's
    (:func:`~handfoot.engine.play.legal.facts`): the hand's naturals by rank, its wild cards, the
    side's melds by rank; the wild cards here twos first (a joker is worth more left for later)."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat, self.rules = state, seat, state.rules
        self.facts = found = facts(state, seat)
        #: The side's open meld of a rank (rank text) and its last meld of it, indexes or ``None``
        #: (``Facts.melds_of``).
        self.melds_of = found.melds_of
        self._top: tuple[list[Card], list[Card], list[Card], int | None] | None = None
        self.hand = state.seats[seat].hand
        self.found: dict[int, Move] = {}
        twos: list[Card] = []
        jokers: list[Card] = []
        for card in found.wilds:  # loops, not comprehensions: no function made and called each time
            (twos if card.rank is Rank.TWO else jokers).append(card)
        self.wilds = twos + jokers
        # the joker macros' wild cards (jokers first), where the hand holds a two and a joker both
        # (else a joker macro would be its two's macro again)
        self.jokers = jokers + twos if twos and jokers else []
        #: Whether more wild cards could mend the meld rule's refusal of the last :meth:`fit`'s cards.
        self.mended = True

    def first(self, index: int, action: Action, judge: Callable[..., object], *args: Any) -> None:
        """``action`` becomes move ``index`` when ``judge`` (a predicate of the step, asked of the
        state, the seat and ``args``) accepts it."""
        if accepted(judge, self.state, self.seat, *args):
            self.found[index] = Move(self.state, {**action, "seat": self.seat})

    def first_meld(self, index: int, candidates: Iterator[MeldParts]) -> None:
        """The first meld candidate the step's meld predicate accepts becomes move ``index``."""
        state, seat = self.state, self.seat
        for new, adds, burn in candidates:
            verdict = meld_verdict(state, seat, new, adds, burn)
            if verdict is None:
                continue
            self.found[index] = Move(state, part=(new, adds, burn), verdict=verdict, seat=seat)
            return

    def fit(self, index: int, cards: list[Card], to: int | None, shed: bool = False) -> bool:
        """Move ``index`` from ``cards`` as one new meld (``to`` ``None``) or added onto the side's
        meld ``to``: ``cards``, then as many of them as fit under ``book_max_size`` if fewer, then
        (``shed``) up to three cards fewer, as the listing sheds a part of one kind of card; the
        first the meld rule (:func:`~handfoot.engine.melds.validate_meld`, which ``step`` applies
        to each new meld and addition) and then the step's meld predicate accept, its check handed
        to the predicate (not made again). Each is checked only once those before it were refused,
        and none where the meld rule's refusal of ``cards`` holds for them too (``meld_too_small``:
        fewer cards are smaller still). Whether one was accepted; :attr:`mended` says whether more
        wild cards could mend the meld rule's refusal of ``cards`` (:data:`_BEYOND_WILDS`)."""
        rules, found = self.rules, self.facts
        if to is None:
            onto: Sequence[Card] = ()
            comp = None
            at = len(found.melds)  # a new meld: past the table's end
        else:
            onto, comp, at = found.melds[to], found.composition(to), to
        check = validate_meld(cards, rules, onto, comp)
        self.mended = True
        if check.valid:
            if self._judged(index, cards, to, at, check):
                return True
        else:
            small = False
            for problem in check.problems:  # a loop: no generator made and called
                code = problem.code
                if code in _BEYOND_WILDS:
                    self.mended = False
                elif code == "meld_too_small":
                    small = True
            if small:
                return False
        size = len(cards)
        room = size if rules.book_max_size is None else rules.book_max_size - len(onto)
        sizes = [room] if 0 < room < size else []
        if shed and (size := min(size, room) if room > 0 else size) >= 2:
            sizes += range(size - 1, size - 1 - min(_SHED, size - 1), -1)
        for size in sizes:
            check = validate_meld(some := cards[:size], rules, onto, comp)
            if check.valid and self._judged(index, some, to, at, check):
                return True
        return False

    def _judged(self, index: int, cards: list[Card], to: int | None, at: int, check: MeldCheck) -> bool:
        """Move ``index`` where the step's meld predicate accepts ``cards`` as a new meld (``to``
        ``None``) or added onto meld ``to`` (``at``: its index after, ``check``: the meld rule's)."""
        part: MeldParts = ([cards], _NONE, _NONE) if to is None else (_NONE, [(to, cards)], _NONE)
        verdict = meld_verdict(self.state, self.seat, *part, False, {at: check})
        if verdict is None:
            return False
        self.found[index] = Move(self.state, None, part, verdict, self.seat)
        return True

    def first_take(self, index: int, candidates: Iterator[TakeParts]) -> None:
        """The first take the step's take predicate accepts becomes move ``index``."""
        for cards, onto, extra in candidates:
            if take_verdict(self.state, self.seat, cards, onto, extra) is not None:
                action: Action = {"type": "take_pile", "cards": codes(cards)}
                if onto is not None:
                    action["onto"] = onto
                if extra:
                    action["melds"] = [codes(m) for m in extra]
                self.found[index] = Move(self.state, {**action, "seat": self.seat})
                return

    def naturals(self, rank: str) -> list[Card]:
        return self.facts.naturals.get(rank, [])

    def top_cards(self) -> tuple[list[Card], list[Card], list[Card], int | None]:
        """The hand's cards of the pile top's rank, its wild cards of another rank (twos first), the
        same with jokers first, and the side's open meld of the top's rank (or ``None``): what every
        take macro reads, once a state."""
        if self._top is None:
            top = self.state.pile[0]
            rank = top.rank
            if not top.is_wild:  # the hand's naturals of its rank (in hand order), every wild card
                same = list(self.facts.naturals.get(RANK_TEXT[top.rank_index], ()))
                wilds, jokers = list(self.wilds), list(self.jokers)
            else:  # a wild top: the hand's wild cards of its rank (one rank: in hand order), the others
                same, wilds, jokers = [], [], []
                for card in self.wilds:  # loops, not comprehensions: no function made and called each time
                    (same if card.rank is rank else wilds).append(card)
                for card in self.jokers:
                    if card.rank is not rank:
                        jokers.append(card)
            self._top = (same, wilds, jokers, self.melds_of(_rank(top))[0])
        return self._top


_NONE: tuple[()] = ()
_NO_MELDS = (None, None)  # the open and last meld of a rank the side has no meld of
_SHED = 3  # cards a macro's meld may shed to be accepted, as the listing's parts may
#: The meld rule's refusals (``melds.validate_meld``'s codes) that more wild cards with the same
#: naturals cannot mend: the naturals' rank (threes), the wild-card limits (each reads more wild
#: cards as worse: ``melds.wild_faults``) and a meld past its largest size.
_BEYOND_WILDS = frozenset(
    ("rank_not_meldable", "too_many_wilds", "too_few_naturals", "wild_limit_in_book", "meld_too_large")
)


def _meld_rank(moves: _Moves, index: int, rank: str, melds: tuple[int | None, int | None]) -> None:
    """``meld:<rank>``: the naturals of ``rank`` onto the side's open meld of it, else a new meld
    with the fewest wild cards accepted (twos first), else onto its last meld; ``wild``: every
    wild card onto the open wild meld, else a new wild meld (each as :meth:`_Moves.fit` sheds).
    ``melds``: the side's open and last meld of ``rank`` (``Facts.melds_of``)."""
    open_meld, last = melds
    if rank == "wild":
        wilds = moves.facts.wilds  # in hand order, as the listing takes them
        if wilds and not (open_meld is not None and moves.fit(index, wilds, open_meld, True)):
            moves.fit(index, wilds, None, True)
        return
    naturals = moves.facts.naturals.get(rank)
    if not naturals or (open_meld is not None and moves.fit(index, naturals, open_meld, True)):
        return
    wilds = moves.wilds
    for k in range(len(wilds) + 1):
        if moves.fit(index, naturals + wilds[:k], None, k == 0):
            return
        if not moves.mended:  # the meld rule refuses these naturals with any more wild cards too
            break
    if last is not None and last != open_meld:
        moves.fit(index, naturals, last, True)


def _meld_joker(moves: _Moves, index: int, rank: str) -> None:
    """``meld:<rank>:joker``: a new meld of the naturals of ``rank`` with the fewest wild cards the
    engine accepts, jokers first (where the hand holds a two and a joker both, and too few naturals
    of ``rank`` for a meld without a wild card)."""
    naturals, jokers = moves.naturals(rank), moves.jokers
    # only where the naturals are too few for a meld alone (where the listing lays a wild card: a
    # filter of cost, the step still judges each candidate)
    if naturals and jokers and len(naturals) < moves.rules.meld_min:
        for k in range(1, len(jokers) + 1):
            if moves.fit(index, naturals + jokers[:k], None) or not moves.mended:
                return


def _new_wild_meld(moves: _Moves, index: int) -> None:
    """``meld:wild:new``: every wild card as a new wild meld, where the side has an open wild meld
    (where it has none, ``meld:wild`` starts one)."""
    wilds = moves.facts.wilds
    if wilds and moves.melds_of("wild")[0] is not None:
        moves.fit(index, wilds, None, True)


def _wild_onto(moves: _Moves, index: int, rank: str, joker: bool = False) -> None:
    """``wild_onto:<rank>`` (``:joker``): one wild card onto the side's open meld of ``rank``, else its last."""
    wilds = moves.jokers if joker else moves.wilds
    if not wilds:
        return
    open_meld, last = moves.melds_of(rank)
    if open_meld is not None and moves.fit(index, wilds[:1], open_meld):
        return
    if last is not None and last != open_meld:
        moves.fit(index, wilds[:1], last)


@per_rules
def _burns(rules: RuleSet) -> bool:
    """Whether the burn rule (:func:`~handfoot.engine.scoring.burn_problems`) lets any burn through
    under ``rules``: it refuses even an empty burn where the rules have no burn pile (once per rule set)."""
    return not burn_problems((), set(), rules, ())


def _burn_candidates(moves: _Moves, rank: str) -> Iterator[MeldParts]:
    naturals = moves.naturals(rank)
    # the burn rule (scoring.burn_problems, which step applies) read on the table as it stands: a
    # burn alone leaves the melds unchanged, so only a burn it allows is worth step's other checks
    if naturals and not burn_problems(naturals, moves.facts.closed_ranks(), moves.rules, ()):
        for k in range(min(_SHED, len(naturals) - 1) + 1):  # all, then shed as the listing sheds
            yield _NONE, _NONE, naturals[: len(naturals) - k]


def _meld_all_candidates(moves: _Moves) -> Iterator[MeldParts]:
    # every part; then, as the listing does, all but the last, ... (two parts at least), only as
    # far as the parts the meld rule accepts alone go (a part it refuses fails every prefix with it)
    parts = meld_candidates(moves.state, moves.seat)
    for n in _prefixes(moves, parts):
        merged = combine(parts[:n])
        if merged is not None:
            yield merged


def _prefixes(moves: _Moves, parts: Sequence[MeldParts]) -> Iterator[int]:
    """How many of ``parts`` to combine, in order: all, then (read only once all were refused) fewer."""
    yield len(parts)
    valid = next((i for i, part in enumerate(parts) if not _part_valid(moves, part)), len(parts))
    yield from range(min(valid, len(parts) - 1), 1, -1)


def _part_valid(moves: _Moves, part: MeldParts) -> bool:
    """Whether the meld rule (:func:`~handfoot.engine.melds.validate_meld`, which ``step`` applies to
    each new meld and addition) accepts each meld and addition of ``part`` alone."""
    rules, found = moves.rules, moves.facts
    new, adds, _ = part
    return all(validate_meld(m, rules, ()).valid for m in new) and all(
        validate_meld(cards, rules, found.melds[to], found.composition(to)).valid for to, cards in adds
    )


def acting_seat(state: State) -> int | None:
    """The seat to act now (the partner asked, during an answer), or ``None`` once the round has ended."""
    if state.phase == "ended":
        return None
    return state.answerer if state.phase == "answer" and state.answerer is not None else state.turn


def legal_moves(state: State, seat: int) -> dict[int, Move]:
    """Every legal index of ``seat`` now: ``{index: Move}``, each an engine action (with ``seat``)
    that :func:`~handfoot.engine.play.step` accepts, judged by its checks without building the state
    after it (:class:`Move` builds that when read). Empty for a seat not to act.

    Raises ``RuntimeError`` when the seat is to act and the engine accepts none of its macros (the
    index would leave it no way forward)."""
    if acting_seat(state) != seat:
        return {}
    moves = _Moves(state, seat)
    if state.phase == "answer":
        moves.first(INDEX["answer:yes"], {"type": "answer", "yes": True}, expect, "answer")
        moves.first(INDEX["answer:no"], {"type": "answer", "yes": False}, expect, "answer")
    elif state.phase == "draw":
        moves.first(INDEX["draw"], {"type": "draw"}, expect, "draw")
        take_moves(moves, TAKE_WAYS, _TAKE_INDEX)
    else:
        naturals, wilds, melded = moves.facts.naturals, moves.wilds, moves.facts.melded_ranks()
        # a macro's candidates are made only where the hand holds its cards (most ranks it does not)
        for rank in MELD_RANKS:
            if rank in naturals or (rank == "wild" and wilds):
                _meld_rank(moves, _MELD_INDEX[rank], rank, melded.get(rank, _NO_MELDS))
        burns = _burns(state.rules)
        for rank in RANKS:
            # a wild card goes onto a meld of the rank: none, no candidate (most ranks)
            if wilds and rank in melded:
                _wild_onto(moves, _WILD_ONTO_INDEX[rank], rank)
            if burns and rank in naturals:
                moves.first_meld(_BURN_INDEX[rank], _burn_candidates(moves, rank))
        moves.first_meld(INDEX["meld_all"], _meld_all_candidates(moves))
        try:  # step's discard predicate: no card but that it is held
            verdict = judge_discards(state, seat)
        except PlayError:
            pass
        else:
            by_code = {}
            for card in moves.hand:
                by_code[card.code] = card
            for code in sorted(by_code):
                moves.found[_DISCARD_INDEX[code]] = DiscardMove(state, by_code[code], verdict, seat)
        moves.first(INDEX["ask"], {"type": "ask"}, judge_ask)
    _more_moves(moves)
    if not moves.found:
        raise RuntimeError(f"no macro action of seat {seat} is accepted at step {state.step} ({state.phase})")
    return moves.found


def _more_moves(moves: _Moves) -> None:
    """The indexes after the first 101 (:data:`MORE_TAKE_WAYS`' takes, the joker macros)."""
    if moves.state.phase == "draw":
        take_moves(moves, MORE_TAKE_WAYS, _TAKE_INDEX)
    elif moves.state.phase == "play":
        _new_wild_meld(moves, INDEX["meld:wild:new"])
    if moves.state.phase == "play" and moves.jokers:
        for rank in RANKS:
            if moves.naturals(rank):  # a joker macro melds the naturals of its rank
                _meld_joker(moves, _JOKER_INDEX[rank], rank)
            elif rank in moves.facts.melded_ranks():  # as the listing offers a wild card alone: a rank not held
                _wild_onto(moves, _WILD_ONTO_JOKER_INDEX[rank], rank, joker=True)


def index_for(state: State, action: Action, moves: Mapping[int, Move] | None = None) -> int | None:
    """The index whose move leads where ``action`` (an engine action of the acting seat) leads, or
    ``None`` (the engine refuses it, or no macro reaches the same state): how a policy written for
    the engine (its greedy bot, an HTTP table's bot) plays through the index. ``moves``: the acting
    seat's :func:`legal_moves` when already known."""
    seat = acting_seat(state)
    if seat is None:
        return None
    try:
        target = step(state, {**action, "seat": seat})
    except PlayError:
        return None
    if moves is None:
        moves = legal_moves(state, seat)
    sent = {**action, "seat": seat}
    same = next((index for index, move in moves.items() if move.action == sent), None)
    if same is not None:  # the very action: no successor to build
        return same
    return next((index for index, move in moves.items() if move.after == target), None)
