"""An action's members: what each type takes (:data:`ACTION_MEMBERS`, the one list of them), reading
them into cards, and the path of each card in the action, so that a refusal points at what the
request sent."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal

from handfoot.engine.cards import Card, key_of, parse_cards
from handfoot.engine.errors import Path, PlayError, Problem

Action = Mapping[str, Any]

#: What a member of an action holds: ``cards`` (a list of card strings), ``melds`` (a list of such
#: lists), ``index`` (a meld's index on the side's table), ``card`` (one card string), ``adds`` (a
#: list of ``{"to": index, "cards": [...]}``), ``yes_no`` (true or false), and ``logged`` (true or
#: false, written into a round's log by the table itself, never sent by a seat: an answer
#: ``timed_out`` is the yes the table's clock gave for an asked partner).
MemberKind = Literal["cards", "melds", "index", "card", "adds", "yes_no", "logged"]

#: Each action type's members besides ``type`` and ``seat``, with their kinds (the module's docstring
#: says what each means); every one may be left out. The one list of them: the engine refuses any
#: other member, and the HTTP API builds each type's schema from it.
ACTION_MEMBERS: Mapping[str, Mapping[str, MemberKind]] = MappingProxyType(
    {
        "draw": {},
        "take_pile": {"cards": "cards", "onto": "index", "melds": "melds"},
        "meld": {"melds": "melds", "add": "adds", "burn": "cards"},
        "discard": {"card": "card"},
        "ask": {},
        "answer": {"yes": "yes_no", "timed_out": "logged"},
    }
)


def refuse(code: str, detail: str, path: Path = ()) -> PlayError:
    return PlayError([Problem(code, detail, path)])


def cards_of(action: Action, key: str) -> tuple[Card, ...]:
    value = action.get(key, ())
    if not isinstance(value, (list, tuple)):
        raise refuse("unknown_action", f"{key}: expected a list of cards", (key,))
    return parse_cards(value, (key,))


def card_lists(action: Action, key: str) -> list[tuple[Card, ...]]:
    value = action.get(key, ())
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, (list, tuple)) for v in value):
        raise refuse("unknown_action", f"{key}: expected a list of lists of cards", (key,))
    return [parse_cards(cards, (key, i)) for i, cards in enumerate(value)]


def read_adds(action: Action) -> list[tuple[int, tuple[Card, ...]]]:
    value = action.get("add", ())
    if not isinstance(value, (list, tuple)):
        raise refuse("unknown_action", "add: expected a list of {to, cards}", ("add",))
    out = []
    for k, item in enumerate(value):
        if not isinstance(item, Mapping) or isinstance(item.get("to"), bool) or not isinstance(item.get("to"), int):
            raise refuse("unknown_action", "add: each item is {to: meld index, cards: [...]}", ("add", k))
        out.append((item["to"], cards_of(item, "cards")))
    return out


def without(hand: Sequence[Card], used: Sequence[tuple[Card, Path]]) -> list[Card]:
    """``hand`` less the cards ``used``, each given with its path in the action (``card_not_held``
    at the path of the first use of a card beyond what the hand holds: a pointer the request sent).

    Cards are matched by their ``key`` (one small integer per rank and suit, compared in C), each
    use taking the first copy left; the problems are worded only when a use finds none."""
    keys = list(map(key_of, hand))
    out = list(hand)
    short: list[tuple[Card, Path]] = []
    for card, path in used:
        try:
            i = keys.index(card.key)
        except ValueError:
            short.append((card, path))
            continue
        del keys[i], out[i]
    if short:
        held = Counter(map(key_of, hand))
        problems, named = [], set()
        for card, path in short:
            if card.key not in named:  # the first use too many: one problem a card
                named.add(card.key)
                n = sum(1 for c, _ in used if c.key == card.key)
                problems.append(
                    Problem(
                        "card_not_held", f"{card.code}: the hand holds {held[card.key]} and the action uses {n}", path
                    )
                )
        raise PlayError(problems)
    return out


def listed(cards: Sequence[Card], *path: str | int) -> list[tuple[Card, Path]]:
    """``cards`` of one member, each with its path (``(*path, i)``)."""
    return [(card, (*path, i)) for i, card in enumerate(cards)]


def take_path(path: Path, onto: bool, extra: bool) -> Path:
    """A take's problem, found as if its meld (the pile's top card, then ``cards``) were a meld
    action's first new meld (``onto``: its first addition) and ``melds`` the others, at its path in
    the take sent: the top card and the table's facts (the pile, a frozen pile, the burn pile, the
    side's score) at ``()``, the take as a whole; the hand cards of the check endpoint at ``cards``."""
    if path[:1] == ("hand",):
        return ("cards",)
    own = path[:2] == ("add", 0) if onto else path[:2] == ("melds", 0)
    if own:
        rest = path[3:] if onto and path[2:3] == ("cards",) else path[2:]
        if onto and path[2:3] in (("onto",), ("to",)):
            return ("onto",)
        if rest and isinstance(rest[0], int):
            return () if rest[0] == 0 else ("cards", rest[0] - 1, *rest[1:])
        return ("cards",)
    if path[:1] == ("melds",) and len(path) > 1 and isinstance(path[1], int):
        return ("melds", path[1] - (0 if onto else 1), *path[2:])
    if path == ("melds",):
        return ("melds",) if extra else ("cards",)
    return ()


def take_refused(problems: Sequence[Problem], onto: bool, extra: bool) -> PlayError:
    return PlayError([Problem(p.code, p.detail, take_path(p.path, onto, extra)) for p in problems])
