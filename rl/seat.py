"""The environment's action index read from a seat's view: how a policy trained on ``handfoot_v0``
plays at an HTTP table, where it has the seat's view and nothing else.

A table's seat view lists the bodies the table accepts now (``view["actions"]``, each entry's
``send``). :func:`index_of` says which index of :data:`~handfoot.rl.actions.ACTIONS` a listed body
is (its macro, read from the body's shape and the side's melds), and :func:`listed_moves` gives
every listed index with its body: the mask and the index -> body mapping at a table. A listed body's
index is the index whose move in the environment (:func:`~handfoot.rl.actions.legal_moves`) is that
body (tests/rl/test_seat.py holds it over random rounds); a body no macro makes maps to ``None``
(docs/rl.md, "What the index does not express").

    from handfoot.rl.observation import encode
    from handfoot.rl.seat import listed_moves

    moves = listed_moves(sv.view)           # {index: body}
    scores = my_policy(encode(sv.view))     # one number an index
    body = moves[max(moves, key=scores.__getitem__)]

Standard library and the engine only (the view is plain data).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handfoot.engine.cards import is_wild_code, rank_of
from handfoot.rl.actions import INDEX

Body = dict[str, Any]


def _meld_rank(cards: Sequence[str]) -> str:
    """A meld's rank as the index names it: its first natural card's, else ``wild``."""
    return next((rank_of(c) for c in cards if not is_wild_code(c)), "wild")


def index_of(view: Mapping[str, Any], body: Mapping[str, Any]) -> int | None:
    """The index of ``body`` (an action body as a seat view lists it, without ``seat``) in the seat's
    ``view``, or ``None`` when no macro is that body's kind (a take with three naturals or more, a
    meld of several parts other than ``meld_all``'s)."""
    kind = body["type"]
    if kind in ("draw", "ask"):
        return INDEX[kind]
    if kind == "answer":
        return INDEX["answer:yes" if body["yes"] else "answer:no"]
    if kind == "discard":
        return INDEX.get(f"discard:{body['card']}")
    if kind == "take_pile":
        return _take_index(view, body)
    if kind == "meld":
        return _meld_index(view, body)
    return None


def _joker_for_two(view: Mapping[str, Any], cards: Sequence[str]) -> bool:
    """Whether ``cards`` play a joker where the hand holds a two they leave: a joker macro's body."""
    return "JK" in cards and any(rank_of(c) == "2" and c not in cards for c in view["hand"])


def _take_index(view: Mapping[str, Any], body: Mapping[str, Any]) -> int | None:
    cards, top = body["cards"], view["pile"]["top"]
    same = sum(1 for c in cards if rank_of(c) == rank_of(top))  # cards of the top card's rank
    if not cards:
        way = "onto"
    elif same == len(cards):
        way = "pair" if same == 2 else "naturals"
    elif len(cards) == 2 and same == 1 and is_wild_code(cards[1]):
        way = "natural_joker" if _joker_for_two(view, cards) else "natural_wild"
    else:
        return None
    return INDEX[f"take_pile:{way}+melds" if body.get("melds") else f"take_pile:{way}"]


def _meld_index(view: Mapping[str, Any], body: Mapping[str, Any]) -> int | None:
    new, adds, burn = body.get("melds", ()), body.get("add", ()), body.get("burn", ())
    if len(new) + len(adds) + len({rank_of(c) for c in burn}) != 1:  # a burn is a part a rank
        return INDEX["meld_all"]
    if burn:
        return INDEX.get(f"burn:{rank_of(burn[0])}")
    if new:
        rank = _meld_rank(new[0])
        if rank == "wild" and _open_wild_meld(view):
            return INDEX["meld:wild:new"]
        return INDEX[f"meld:{rank}:joker" if rank != "wild" and _joker_for_two(view, new[0]) else f"meld:{rank}"]
    (add,) = adds
    cards = add["cards"]
    onto = _meld_rank(view["sides"][view["side"]]["melds"][add["to"]])
    if add["to"] != _target(view, onto):
        return None  # a second open meld of the rank (where the rules allow two): no macro adds there
    if onto != "wild" and all(is_wild_code(c) for c in cards):
        if len(cards) != 1:
            return None
        return INDEX[f"wild_onto:{onto}:joker" if _joker_for_two(view, cards) else f"wild_onto:{onto}"]
    return INDEX[f"meld:{onto}"]


def _target(view: Mapping[str, Any], rank: str) -> int | None:
    """The meld of ``rank`` the macros add to: the side's first open (incomplete) one, else its last."""
    side = view["sides"][view["side"]]
    of_rank = [
        (i, done)
        for i, (m, done) in enumerate(zip(side["melds"], side["complete"], strict=True))
        if _meld_rank(m) == rank
    ]
    return next((i for i, done in of_rank if not done), of_rank[-1][0] if of_rank else None)


def _open_wild_meld(view: Mapping[str, Any]) -> bool:
    side = view["sides"][view["side"]]
    return any(_meld_rank(m) == "wild" and not done for m, done in zip(side["melds"], side["complete"], strict=True))


def listed_moves(view: Mapping[str, Any]) -> dict[int, Body]:
    """Every index the seat's ``view`` lists a body of, with that body (the first listed where two
    bodies are one index's): the legal indexes at a table and what to send for each. Empty for a
    view without its listing or a seat not to act."""
    moves: dict[int, Body] = {}
    for entry in view.get("actions", ()):
        for body in entry["send"]:
            index = index_of(view, body)
            if index is not None and index not in moves:
                moves[index] = body
    return moves
