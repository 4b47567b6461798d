"""A round in play as one immutable value, and its JSON form.

A :class:`State` holds everything: the rules (a preset id and house-rule overrides, resolved by
:func:`~handfoot.engine.presets.resolve_rules`), every seat's hand and foot, every side's table, the
stock (top card last) and the discard pile (top card first), whose turn and which phase. It holds the
seed too: what a seat may see of it is :func:`handfoot.engine.play.view.view`. ``to_mapping`` and
``state_from_mapping`` give and read its JSON form (card strings, lists, ints, bools, None), so a
table can store it and replay it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from handfoot.engine.breakdown import Line
from handfoot.engine.cards import Card, codes, parse_cards
from handfoot.engine.checks import PlayerState
from handfoot.engine.play.options import PlayOptions
from handfoot.engine.presets import resolve_rules
from handfoot.engine.rules import RuleSet
from handfoot.engine.scoring import book_values
from handfoot.engine.table import Table, analyse_table, kept_table

Phase = Literal["draw", "play", "answer", "ended"]
#: The phases in turn order: ``draw``, ``play``, ``answer`` (a partner is asked "May I go out?"), ``ended``.
PHASES: tuple[Phase, ...] = get_args(Phase)
EndReason = Literal["went_out", "stock_out"]
#: One public event of a round (see :data:`State.history <State>`): a JSON mapping, never changed.
Event = Mapping[str, Any]
#: The types of public events (``Work.public_events`` in :mod:`~handfoot.engine.play.work` says each).
EVENT_TYPES = (
    "draw",
    "take_pile",
    "meld",
    "discard",
    "ask",
    "answer",
    "red_threes",
    "pick_up_foot",
    "went_out",
    "stock_out",
)


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at the table: ``name``, ``side`` (index), ``hand``, ``foot`` (``None`` once picked
    up), ``played_from_foot`` (has melded a card since picking the foot up)."""

    name: str
    side: int
    hand: tuple[Card, ...]
    foot: tuple[Card, ...] | None
    played_from_foot: bool = False
    # what a shared view shows of this seat (view._seat_part: name, side, hand and foot sizes, played
    # from foot), made on first asking and shared by every state that keeps this Seat
    _view: dict[str, Any] | None = field(default=None, init=False, compare=False, repr=False)

    def player_state(self) -> PlayerState:
        """This seat as the checks and scoring take a player."""
        return PlayerState(self.name, self.hand, self.foot, self.played_from_foot)


@dataclass(frozen=True, slots=True)
class Side:
    """A side (a team, or a player alone): ``name``, ``melds`` (in the order started), ``red_threes``
    laid out, ``burn`` (the burn pile), ``score`` (points before this round: the game's total)."""

    name: str
    melds: tuple[tuple[Card, ...], ...] = ()
    red_threes: tuple[Card, ...] = ()
    burn: tuple[Card, ...] = ()
    score: int = 0
    # the side's table analysed and the rules it was analysed under (State.table): made once, then
    # shared by every state that keeps this Side (a step shares the sides it does not change)
    _table: tuple[RuleSet, Table] | None = field(default=None, init=False, compare=False, repr=False)
    # what the checks of play read of that table's ranks (facts.table_ranks), with the table they
    # were read from: made once, then shared the same way
    _ranks: tuple[Any, ...] | None = field(default=None, init=False, compare=False, repr=False)
    # what its books score (State.book_values) and the rules they were scored under, kept the same
    # way (two members, not a pair: no tuple a side)
    _book_values: tuple[Line, ...] | None = field(default=None, init=False, compare=False, repr=False)
    _values_rules: RuleSet | None = field(default=None, init=False, compare=False, repr=False)
    # what every view shows of this side under those rules (view._side_part), kept the same way from
    # its second view on (its members, and the same as a shared view's mapping), and the rules it was
    # last viewed under (a view of a side once viewed keeps it)
    _view: tuple[RuleSet, tuple[Any, ...], dict[str, Any]] | None = field(
        default=None, init=False, compare=False, repr=False
    )
    _viewed: RuleSet | None = field(default=None, init=False, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class State:
    """One moment of a round. ``turn`` is the seat whose turn it is; ``phase``: ``draw`` (draw from
    the stock or take the pile), ``play`` (meld, ask, discard), ``answer`` (the seat ``answerer`` is
    to answer "May I go out?"), ``ended`` (``ended`` says why: ``went_out`` by side ``out_side``, or
    ``stock_out``). ``pile_taken``: the pile has been taken since the round began or it was last
    frozen (seed 003's broken pile); ``frozen_turns``: turns left until a frozen pile thaws.
    ``asked``/``permission``: this turn's question to the partner and its answer. ``step``: the
    round's actions applied so far (0: the deal; the table's own ``version`` counts over all rounds).
    ``history``: the round's public events since the deal, as every seat saw them
    (:mod:`~handfoot.engine.play.work` records them: ``Work.public_events``), oldest first."""

    preset: str
    overrides: Mapping[str, Any]
    play: PlayOptions
    round: int
    seed: int
    sides: tuple[Side, ...]
    seats: tuple[Seat, ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    turn: int
    phase: Phase
    step: int = 0
    pile_taken: bool = False
    frozen_turns: int = 0
    asked: bool = False
    permission: bool | None = None
    answerer: int | None = None
    ended: EndReason | None = None
    out_side: int | None = None
    _rules: RuleSet | None = field(default=None, compare=False, repr=False)
    history: tuple[Event, ...] = field(default=(), repr=False)
    # each seat's facts as the rules of play read them (legal.facts): made once, on first asking
    _facts: dict[int, Any] | None = field(default=None, init=False, compare=False, repr=False)
    # the seats of each side (seats_of), made on first asking
    _by_side: dict[int, list[int]] | None = field(default=None, init=False, compare=False, repr=False)

    @property
    def rules(self) -> RuleSet:
        """The RuleSet in force (the preset with the overrides; resolved once and cached)."""
        rules = self._rules
        if rules is None:
            rules = resolve_rules(self.preset, self.overrides).rules
            _set_rules(self, rules)
        return rules

    def table(self, side: int) -> Table:
        """Side ``side``'s table analysed (:func:`~handfoot.engine.table.analyse_table` under
        :attr:`rules`): computed once and kept on the :class:`Side`, so that the step's checks, the
        view's listing and the RL mask read one analysis of a table, not one each."""
        held = self.sides[side]
        cached = held._table
        if cached is None or cached[0] is not self._rules:  # read first: asked many times a view
            rules = self.rules
            if cached is None or cached[0] is not rules:
                # the pair kept by the melds' keys, shared by every side that lays the same melds
                cached = kept_table(held.melds, rules) or (rules, analyse_table(held.melds, rules))
                _set_table(held, cached)
        return cached[1]

    def book_values(self, side: int) -> tuple[Line, ...]:
        """What side ``side``'s completed books score now (:func:`~handfoot.engine.scoring.book_values`
        of :meth:`table`): computed once and kept on the :class:`Side`, as its table is."""
        held, rules = self.sides[side], self.rules
        values = held._book_values
        if values is None or held._values_rules is not rules:
            values = book_values(self.table(side), rules)
            object.__setattr__(held, "_book_values", values)
            object.__setattr__(held, "_values_rules", rules)
        return values

    def seats_of(self, side: int) -> list[int]:
        """The seats (indexes) of a side, in turn order."""
        by_side = self._by_side
        if by_side is None:  # asked by every going-out check: once a state
            sides = tuple([seat.side for seat in self.seats])
            by_side = _BY_SIDE.get(sides)
            if by_side is None:  # one mapping per seating, shared by the states of every game seated so
                if len(_BY_SIDE) >= _BY_SIDE_KEPT:  # a bound on memory: start again
                    _BY_SIDE.clear()
                by_side = _BY_SIDE[sides] = {}
                for i, side_of in enumerate(sides):
                    by_side.setdefault(side_of, []).append(i)
            _set_by_side(self, by_side)
        return list(by_side.get(side, ()))

    def cards_in_play(self) -> int:
        """Every card of the round, wherever it is: hands, feet, stock, pile, melds, red threes,
        burn piles (the simulation checks it equals the decks' cards at every step)."""
        return (
            len(self.stock)
            + len(self.pile)
            + sum(len(s.hand) + len(s.foot or ()) for s in self.seats)
            + sum(sum(map(len, side.melds)) + len(side.red_threes) + len(side.burn) for side in self.sides)
        )


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of the slot ``name`` of the frozen ``cls``: a member kept on first asking, written
    by its slot's own descriptor (``object.__setattr__`` looks the member up by name first, and the
    state and the view write some on every fresh view)."""
    return cast("Callable[[Any, Any], None]", vars(cls)[name].__set__)


_set_rules = _setter(State, "_rules")
_set_table = _setter(Side, "_table")
_set_by_side = _setter(State, "_by_side")
#: ``set_viewed(side, rules)``: a side's ``_viewed`` written (``view._side``).
set_viewed = _setter(Side, "_viewed")
#: ``set_seat_view(seat, part)``: a seat's ``_view`` written (``view._seat_part``).
set_seat_view = _setter(Seat, "_view")
#: ``set_ranks(side, ranks)``: a side's ``_ranks`` written (``facts.Facts``).
set_ranks = _setter(Side, "_ranks")

#: The seats of each side (State.seats_of) by the seats' sides in turn order: never handed out.
_BY_SIDE: dict[tuple[int, ...], dict[int, list[int]]] = {}
_BY_SIDE_KEPT = 256


# A step builds a Seat, a Side and a State at every action. A frozen dataclass's __init__ writes each
# member through object.__setattr__, a call several times the cost of a plain store: the builders
# below write the members into a subclass with the same slots and a plain setattr, then make the
# object the frozen class itself (the same layout, so __class__ may be assigned): a Seat, Side or
# State like any other, equal, hashed and frozen as one built by its __init__.
class _OpenSeat(Seat):
    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


class _OpenSide(Side):
    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


class _OpenState(State):
    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


_blank = object.__new__


def seat_with(seat: Seat, hand: tuple[Card, ...], foot: tuple[Card, ...] | None, played_from_foot: bool) -> Seat:
    """``seat`` (its name and side) holding ``hand`` and ``foot``: ``Seat(seat.name, seat.side, hand,
    foot, played_from_foot)``, built without the frozen ``__init__``."""
    new: Any = _blank(_OpenSeat)
    new.name, new.side, new.hand, new.foot, new.played_from_foot = (
        seat.name,
        seat.side,
        hand,
        foot,
        played_from_foot,
    )
    new._view = None
    new.__class__ = Seat
    return new  # type: ignore[no-any-return]


def side_with(
    side: Side, melds: tuple[tuple[Card, ...], ...], red_threes: tuple[Card, ...], burn: tuple[Card, ...]
) -> Side:
    """``side`` (its name and score) with ``melds``, ``red_threes`` and ``burn``: ``Side(side.name,
    melds, red_threes, burn, side.score)``, nothing computed of it yet, built without the frozen
    ``__init__``."""
    new: Any = _blank(_OpenSide)
    new.name, new.melds, new.red_threes, new.burn, new.score = side.name, melds, red_threes, burn, side.score
    new._table = new._ranks = new._book_values = new._values_rules = new._view = new._viewed = None
    new.__class__ = Side
    return new  # type: ignore[no-any-return]


def successor(
    before: State,
    sides: tuple[Side, ...],
    seats: tuple[Seat, ...],
    stock: tuple[Card, ...],
    pile: tuple[Card, ...],
    turn: int,
    phase: Phase,
    pile_taken: bool,
    frozen_turns: int,
    asked: bool,
    permission: bool | None,
    answerer: int | None,
    ended: EndReason | None,
    out_side: int | None,
    history: tuple[Event, ...],
) -> State:
    """The state one step after ``before``: its rules, round and seed, ``step`` one more, with the
    other members given (as :class:`State` names them); nothing computed of it yet. Equal to the
    ``State(...)`` of the same members, built without the frozen ``__init__``."""
    new: Any = _blank(_OpenState)
    new.preset, new.overrides, new.play, new.round, new.seed = (
        before.preset,
        before.overrides,
        before.play,
        before.round,
        before.seed,
    )
    new.sides, new.seats, new.stock, new.pile, new.turn, new.phase = sides, seats, stock, pile, turn, phase
    new.step, new.pile_taken, new.frozen_turns, new.asked = before.step + 1, pile_taken, frozen_turns, asked
    new.permission, new.answerer, new.ended, new.out_side = permission, answerer, ended, out_side
    new._rules, new.history, new._facts, new._by_side = before._rules, history, None, None
    new.__class__ = State
    return new  # type: ignore[no-any-return]


def to_mapping(state: State) -> dict[str, Any]:
    """The JSON form of ``state`` (everything, hidden cards and seed included: a table stores it; a
    seat sees :func:`~handfoot.engine.play.view.view`)."""
    return {
        "preset": state.preset,
        "overrides": dict(state.overrides),
        "play": state.play.to_mapping(),
        "round": state.round,
        "seed": state.seed,
        "sides": [
            {
                "name": s.name,
                "melds": [codes(m) for m in s.melds],
                "red_threes": codes(s.red_threes),
                "burn": codes(s.burn),
                "score": s.score,
            }
            for s in state.sides
        ],
        "seats": [
            {
                "name": s.name,
                "side": s.side,
                "hand": codes(s.hand),
                "foot": None if s.foot is None else codes(s.foot),
                "played_from_foot": s.played_from_foot,
            }
            for s in state.seats
        ],
        "stock": codes(state.stock),
        "pile": codes(state.pile),
        "turn": state.turn,
        "phase": state.phase,
        "step": state.step,
        "pile_taken": state.pile_taken,
        "frozen_turns": state.frozen_turns,
        "asked": state.asked,
        "permission": state.permission,
        "answerer": state.answerer,
        "ended": state.ended,
        "out_side": state.out_side,
        "history": list(state.history),
    }


def state_from_mapping(data: Mapping[str, Any]) -> State:
    """Read :func:`to_mapping`'s output back (raises :class:`~handfoot.engine.errors.CardError` for
    a card string that is not a card, ``KeyError`` for a missing member)."""
    play = data["play"]
    return State(
        preset=data["preset"],
        overrides=dict(data["overrides"]),
        play=PlayOptions(bool(play["ask_partner"]), play["stock_out"]),
        round=data["round"],
        seed=data["seed"],
        sides=tuple(
            Side(
                s["name"],
                tuple(parse_cards(m) for m in s["melds"]),
                parse_cards(s["red_threes"]),
                parse_cards(s["burn"]),
                s["score"],
            )
            for s in data["sides"]
        ),
        seats=tuple(
            Seat(
                s["name"],
                s["side"],
                parse_cards(s["hand"]),
                None if s["foot"] is None else parse_cards(s["foot"]),
                s["played_from_foot"],
            )
            for s in data["seats"]
        ),
        stock=parse_cards(data["stock"]),
        pile=parse_cards(data["pile"]),
        turn=data["turn"],
        phase=data["phase"],
        step=data["step"],
        pile_taken=data["pile_taken"],
        frozen_turns=data["frozen_turns"],
        asked=data["asked"],
        permission=data["permission"],
        answerer=data["answerer"],
        ended=data["ended"],
        out_side=data["out_side"],
        history=tuple(data.get("history", ())),  # a state stored before the history had none
    )
