"""One function per operation of the HTTP contract (DESIGN §4), on plain data.

Each takes the request body as a mapping (the same shape the API accepts, already shape-checked
there), resolves the preset and house rules, parses every card with its path, and calls the engine.
The API and offline users (notebooks, scripts) share these, so the two can never drift apart.
Errors: :class:`~engine.errors.UnknownPresetError`, :class:`~engine.errors.RulesError`,
:class:`~engine.errors.CardError`, :class:`~engine.errors.RoundError`; every problem's path points
into the request body.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from handfoot.engine import checks
from handfoot.engine.bodies import MAX_CARD_LENGTH
from handfoot.engine.cards import CARD_TABLE, Card, parse_cards
from handfoot.engine.errors import BodyError, CardError, HandFootError, Path, Problem, RoundError
from handfoot.engine.melds import MeldCheck, validate_meld
from handfoot.engine.presets import ResolvedRules, find_preset, resolve_rules
from handfoot.engine.rules import RuleSet
from handfoot.engine.scoring import Breakdown, RoundInput, RoundScore, TeamRound, score_round
from handfoot.engine.tallies import TALLY_COUNTS, RankBooks, Tally


def rules_of(body: Mapping[str, Any]) -> ResolvedRules:
    """The preset named by ``body["preset"]`` with ``body["rules"]`` overrides applied."""
    return resolve_rules(body.get("preset", ""), body.get("rules"))


def _problem(code: str, detail: str, path: Path) -> HandFootError:
    return RoundError([Problem(code, detail, path)])


def _list(value: Any, path: Path) -> Sequence[Any]:
    if not isinstance(value, (list, tuple)):
        raise _problem("invalid_input", "expected a list", path)
    return value  # only read


def _mapping(value: Any, path: Path) -> Mapping[str, Any]:
    if type(value) is not dict and not isinstance(value, Mapping):  # JSON gives dicts: skip the ABC check
        raise _problem("invalid_input", "expected an object", path)
    return value


_LISTS = frozenset([list, tuple])


def _played_from_foot(value: Any, path: Path) -> bool | None:
    if value is None or type(value) is bool:
        return value
    raise _problem("invalid_input", "played_from_foot: expected true, false or null", path)


class _Cards:
    """Parses the card lists of one request, collecting every problem before raising once
    (:meth:`done`): an item that is no card string (not a string, or longer than any card: the
    body's shape, :class:`BodyError`), else an unknown card (:class:`CardError`); a list of the
    wrong shape raises at once (``invalid_input``)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.shape: list[Problem] = []

    def __call__(self, items: Sequence[Any] | None, path: Path) -> tuple[Card, ...]:
        items = items or ()
        try:  # every card as the card table spells it: one pass in C
            return tuple(map(_card, items))
        except (KeyError, TypeError):
            pass
        shape = [
            Problem("invalid_type", "expected a card string", (*path, i))
            if type(item) is not str
            else Problem("invalid_value", f"expected at most {MAX_CARD_LENGTH} characters", (*path, i))
            for i, item in enumerate(items)
            if type(item) is not str or len(item) > MAX_CARD_LENGTH
        ]
        if shape:
            self.shape.extend(shape)
            return ()
        try:
            return parse_cards(items, path)
        except CardError as err:
            self.problems.extend(err.problems)
            return ()

    def melds(self, items: Sequence[Any] | None, path: Path) -> tuple[tuple[Card, ...], ...]:
        items = items or ()
        if not _LISTS.issuperset(map(type, items)):
            for j, meld in enumerate(items):
                _list(meld, (*path, j))
        try:  # every card of every meld as the card table spells it
            return tuple([tuple(map(_card, meld)) for meld in items])
        except (KeyError, TypeError):
            return tuple([self(meld, (*path, j)) for j, meld in enumerate(items)])

    def players(self, items: Sequence[Any] | None, path: Path) -> tuple[checks.PlayerState, ...]:
        out = []
        for p, player in enumerate(items or ()):
            at = (*path, p)
            get = _mapping(player, at).get
            hand, foot = get("hand", ()), get("foot")
            out.append(
                _new(
                    checks.PlayerState,
                    (
                        # an unnamed player is named by where it stands, so no two are the same player
                        str(player["name"]) if "name" in player else "player at /" + "/".join(map(str, at)),
                        self(_list(hand, (*at, "hand")), (*at, "hand")),
                        None if foot is None else self(_list(foot, (*at, "foot")), (*at, "foot")),
                        _played_from_foot(get("played_from_foot"), (*at, "played_from_foot")),
                    ),
                )
            )
        return tuple(out)

    def done(self) -> None:
        if self.shape:
            raise BodyError(self.shape)
        if self.problems:
            raise CardError(self.problems)


def _rank_books(raw: Any, at: Path) -> tuple[RankBooks, ...]:
    """A tally's ``rank_books``: ``[{rank, clean_books?, dirty_books?}]`` (counts default to 0)."""
    out = []
    for k, item in enumerate(_list(raw, at)):
        entry = _mapping(item, (*at, k))
        counts = {key: entry.get(key, 0) for key in ("clean_books", "dirty_books")}
        for key, v in counts.items():
            if isinstance(v, bool) or not isinstance(v, int):
                raise _problem("invalid_input", f"{key}: expected a whole number", (*at, k, key))
        out.append(RankBooks(str(entry.get("rank")), **counts))
    return tuple(out)


def round_from_mapping(data: Mapping[str, Any]) -> RoundInput:
    """A :class:`~handfoot.engine.scoring.RoundInput` from the request shape of ``POST
    /v1/rounds/score`` (DESIGN §4).

    The body's shape is checked first by the API (:func:`handfoot.engine.bodies.score_body_problems`,
    :func:`~handfoot.engine.bodies.side_problems`). Here each card list is read in one pass of the
    card table, else card by card: an item that is no card string raises :class:`BodyError`, and
    every unknown card in the whole round is reported at once (:class:`CardError`, paths like
    ``("teams", 0, "melds", 1, 2)``); a member of the wrong type raises :class:`RoundError`
    (``invalid_input``), for callers that skip the shape check.
    """
    round_number = data.get("round", 1)
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise _problem("round_out_of_range", "round must be a whole number from 1", ("round",))
    parse = _Cards()
    teams: list[TeamRound] = []
    for i, team in enumerate(_list(data.get("teams"), ("teams",))):
        at: Path = ("teams", i)
        get = _mapping(team, at).get
        name = str(team["name"]) if "name" in team else f"Team {i + 1}"
        went_out = bool(get("went_out", False))
        if get("tally") is not None:
            raw = _mapping(team["tally"], (*at, "tally"))
            values = {k: raw[k] for k in TALLY_COUNTS if k in raw}
            for k, v in values.items():
                if isinstance(v, bool) or not isinstance(v, int):
                    raise _problem("invalid_input", f"{k}: expected a whole number", (*at, "tally", k))
            ranked = raw.get("rank_books")
            tally = Tally(
                **values,
                has_melded=raw.get("has_melded"),
                rank_books=_rank_books(ranked, (*at, "tally", "rank_books")) if ranked else (),
            )
            teams.append(TeamRound(name=name, went_out=went_out, tally=tally))
            continue
        melds = parse.melds(_list(get("melds", ()), (*at, "melds")), (*at, "melds"))
        players = parse.players(_list(get("players", ()), (*at, "players")), (*at, "players"))
        red_threes = parse(_list(get("red_threes", ()), (*at, "red_threes")), (*at, "red_threes"))
        burn = parse(_list(get("burn", ()), (*at, "burn")), (*at, "burn"))
        cuts = _NO_CUTS if _CUT_KEYS.isdisjoint(team) else [_count(get(key, 0)) for key in _CUTS]
        teams.append(_new(TeamRound, (name, went_out, melds, red_threes, burn, players, None, *cuts)))
    parse.done()
    return _new(RoundInput, (round_number, tuple(teams)))


_CUTS = ("perfect_cuts", "cuts_within_1", "cuts_within_3")
_CUT_KEYS, _NO_CUTS = frozenset(_CUTS), (0, 0, 0)
_card = CARD_TABLE.__getitem__
#: ``_new(TeamRound, (name, went_out, ...))``: a named tuple without its Python ``__new__``.
_new = tuple.__new__


def _count(n: Any) -> int:
    return n if isinstance(n, int) and not isinstance(n, bool) else 0


def validate_meld_request(body: Mapping[str, Any]) -> MeldCheck:
    """``POST /v1/melds/validate``: ``{preset, rules?, cards, onto?}``."""
    rules = rules_of(body).rules
    cards: Any = body.get("cards")  # a list of card strings, else the reader below names what it is
    onto: Any = body.get("onto")
    try:  # every card as the card table spells it: one pass in C per list
        parsed, parsed_onto = tuple(map(_card, cards)), tuple(map(_card, onto)) if onto else ()
    except (KeyError, TypeError):  # else card by card, naming each unknown card with its path
        parse = _Cards()
        parsed, parsed_onto = parse(cards, ("cards",)), parse(onto, ("onto",))
        parse.done()
    return validate_meld(parsed, rules, parsed_onto)


def check_opening_request(body: Mapping[str, Any]) -> checks.OpeningCheck:
    """``POST /v1/openings/check``: ``{preset, rules?, round, melds, from_pile?, score?}``."""
    rules = rules_of(body).rules
    parse = _Cards()
    melds, pile = parse.melds(body.get("melds"), ("melds",)), parse(body.get("from_pile"), ("from_pile",))
    parse.done()
    return checks.check_opening(melds, rules, int(body.get("round", 1)), pile, body.get("score"))


def check_going_out_request(body: Mapping[str, Any]) -> checks.GoingOutCheck:
    """``POST /v1/going-out/check``: ``{preset, rules?, round?, melds, players}``."""
    rules = rules_of(body).rules
    parse = _Cards()
    melds, players = parse.melds(body.get("melds"), ("melds",)), parse.players(body.get("players"), ("players",))
    parse.done()
    return checks.check_going_out(melds, players, rules, int(body.get("round", 1)))


def check_discard_pile_request(body: Mapping[str, Any]) -> checks.DiscardPileCheck:
    """``POST /v1/discard-pile/check``: ``{preset, rules?, hand, pile, melds?, taken_before?, frozen?,
    burn?}``."""
    rules = rules_of(body).rules
    parse = _Cards()
    hand, pile = parse(body.get("hand"), ("hand",)), parse(body.get("pile"), ("pile",))
    melds, burn = parse.melds(body.get("melds"), ("melds",)), parse(body.get("burn"), ("burn",))
    parse.done()
    return checks.check_discard_pile(
        hand, pile, rules, melds, bool(body.get("taken_before", False)), bool(body.get("frozen", False)), burn
    )


def score_round_request(body: Mapping[str, Any]) -> RoundScore:
    """``POST /v1/rounds/score``: ``{preset, rules?, round, teams}`` → every side's Breakdown."""
    return score_round_body(body, rules_of(body).rules)


def score_round_body(body: Mapping[str, Any], rules: RuleSet) -> RoundScore:
    """Every side's Breakdown of the round ``body`` (``{round?, teams}``) under ``rules`` (resolved):
    ``score_round(round_from_mapping(body), rules)``."""
    return score_round(round_from_mapping(body), rules)


@dataclass(frozen=True, slots=True)
class Comparison:
    """One preset's answer in a comparison: a ``score``, or the ``error`` its rules raise."""

    preset: str
    score: RoundScore | None
    error: HandFootError | None

    @property
    def valid(self) -> bool:
        """The round is legal under this preset."""
        return self.score is not None

    @property
    def teams(self) -> tuple[Breakdown, ...] | None:
        """A Breakdown per side when valid, else ``None``."""
        return self.score.teams if self.score else None

    @property
    def problems(self) -> tuple[Problem, ...]:
        """The rules the round breaks under this preset (empty when valid)."""
        return self.error.problems if self.error else ()


def compare_round_request(body: Mapping[str, Any]) -> tuple[Comparison, ...]:
    """``POST /v1/rounds/compare``: ``{presets: [...], rules?, round, teams}``: the same round under
    each preset (house ``rules`` apply to every one). Unknown cards fail the whole request; a preset
    whose rules the round breaks gets its ``error`` instead of a score."""
    round_input = round_from_mapping(body)
    out = []
    for i, preset_id in enumerate(body.get("presets") or ()):
        find_preset(preset_id, ("presets", i))
        resolved = resolve_rules(preset_id, body.get("rules"))
        try:
            out.append(Comparison(preset_id, score_round(round_input, resolved.rules), None))
        except HandFootError as err:
            out.append(Comparison(preset_id, None, err))
    return tuple(out)
