"""The OpenAPI description of a seat's view (``SeatView.view``, the engine's ``play.view``): the
``SeatViewBody`` component and one ``Open<Type>`` component per action a view may list, each
``send`` item the action's own request component (``DrawAction``, ...). The server dumps the
engine's view as it is; these components only describe it (docs/tables.md, "A seat's view")."""

from __future__ import annotations

from typing import Any

from handfoot.engine.play import ACTION_TYPES, EVENT_TYPES, PHASES

#: The component's name.
SEAT_VIEW_BODY = "SeatViewBody"

_INT: dict[str, Any] = {"type": "integer"}
_BOOL: dict[str, Any] = {"type": "boolean"}
_CARDS: dict[str, Any] = {"type": "array", "items": {"type": "string"}, "example": ["KS", "KH", "2C"]}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema["type"]
    return {**schema, "type": [kind, "null"] if isinstance(kind, str) else [*kind, "null"]}


def _d(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {**schema, "description": text}


def open_component(kind: str) -> str:
    """The component name of a listed action of type ``kind`` (``OpenTakePile``, ...)."""
    return "Open" + "".join(part.capitalize() for part in kind.split("_"))


#: What each listed action carries besides ``type`` and ``send`` (engine/play/listing.py).
_MEMBERS: dict[str, dict[str, Any]] = {
    "draw": {
        "cards": _d(_INT, "Cards the draw gives (`draw_count`, fewer from a short stock)."),
        "ends_round": _d(_BOOL, "The stock is empty: the draw ends the round."),
    },
    "take_pile": {
        "allowed": _d(_BOOL, "Always true (listed only when a take is accepted); kept for older clients."),
        "cards": _d(_INT, "How many cards the take gives from the pile."),
        "problems": _d({"type": "array", "items": {"type": "string"}}, "Always empty; kept for older clients."),
        "with": _d({"type": "array", "items": _CARDS}, "Each body's `cards`, in `send`'s order."),
        "onto": _d(
            _nullable(_INT), "The side's open meld of the top card's rank, which a take goes onto (null: none)."
        ),
        "opening_minimum": _d(_nullable(_INT), "Points the side's opening needs (null once it has opened)."),
        "top_points": _d(_INT, "The pile's top card's points."),
    },
    "meld": {
        "opening_minimum": _d(_nullable(_INT), "Points the side's opening needs (null once it has opened)."),
        "naturals": _d(
            {"type": "object", "additionalProperties": _INT}, "The hand's natural cards by rank (threes apart)."
        ),
        "wilds": _d(_INT, "Wild cards in the hand."),
        "extend": _d(
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"to": _INT, "rank": _nullable({"type": "string"}), "size": _INT},
                },
            },
            "The side's melds that take more cards: `to` (the index an `add` names), `rank` (null: a wild "
            "meld), `size`.",
        ),
        "burn": _d({"type": "array", "items": {"type": "string"}}, "Ranks the side may burn."),
        "keep": _d(
            _INT,
            "The fewest cards the hand may hold after a meld: 2 with the foot picked up where the last card "
            "needs the contract and the side may not go out, else 0.",
        ),
    },
    "discard": {
        "cards": _d(_CARDS, "The distinct cards the seat may discard (each accepted)."),
        "goes_out": _d(_BOOL, "Discarding the last card goes out."),
    },
    "ask": {},
    "answer": {},
}

_SEND = {
    "draw": "`[{type: draw}]`.",
    "take_pile": "One body a way to take the pile: `cards` melded with the top card, `onto`, and `melds` where "
    "the side has not opened and the take alone is short of the opening minimum.",
    "meld": "First the largest combination of the parts accepted as one action, then each part alone (an "
    "`add`, a new meld, a `burn`).",
    "discard": "One body a card of `cards`.",
    "ask": '`[{type: ask}]`: "May I go out?".',
    "answer": "The yes and the no.",
}


def open_action_components(action_component: dict[str, str]) -> dict[str, dict[str, Any]]:
    """``Open<Type>`` components by name; ``action_component``: each type's request component name."""
    out = {}
    for kind in ACTION_TYPES:
        # described, not referred to: a body holds only some of the request schema's optional members
        send = {"type": "object", "description": f"A `{action_component[kind]}` body, as postAction takes it."}
        properties = {
            "type": {"type": "string", "enum": [kind], "description": f"`{kind}`."},
            "send": _d(
                {"type": "array", "minItems": 1, "items": send},
                "The bodies to post as `action`, each accepted now. " + _SEND[kind],
            ),
            **_MEMBERS[kind],
        }
        out[open_component(kind)] = {
            "type": "object",
            "description": f"The `{kind}` action, open to the seat now.",
            "required": list(properties),  # every member is always sent
            "properties": properties,
        }
    return out


_BOOK_LINE = {
    "type": "object",
    "required": ["code", "label", "count", "points_each", "points"],
    "properties": {
        "code": {"type": "string", "example": "clean_books"},
        "label": {"type": "string"},
        "count": _d(_INT, "Books of this kind on the table."),
        "points_each": _d(_INT, "What one such book scores (the kind's bonus, points)."),
        "points": _d(_INT, "`count` times `points_each`."),
    },
}
_EVENT = {
    "type": "object",
    "required": ["step", "seat", "type"],
    "properties": {
        "step": _d(_INT, "The round's step that made it (0: the deal)."),
        "seat": _d(_INT, "The seat that acted (or whose foot or red threes these are)."),
        "type": {"type": "string", "enum": list(EVENT_TYPES)},
        "cards": _d(
            {"type": ["array", "integer"], "items": {"type": "string"}},
            "`draw`: how many cards were drawn (a count, never which); `take_pile`: the pile's cards taken, "
            "top first; `red_threes`: the red threes laid out.",
        ),
        "melds": _d({"type": "array", "items": _CARDS}, "`take_pile`, `meld`: new melds laid, in order."),
        "add": _d(
            {
                "type": "array",
                "items": {"type": "object", "properties": {"to": _INT, "cards": _CARDS}},
            },
            "`take_pile`, `meld`: cards added to the side's meld `to`.",
        ),
        "burn": _d(_CARDS, "`take_pile`, `meld`: cards burnt."),
        "card": _d({"type": "string"}, "`discard`: the card discarded."),
        "yes": _d(_BOOL, '`answer`: the partner\'s answer to "May I go out?".'),
        "side": _d(_nullable(_INT), "`went_out`: the side out; `stock_out`: null."),
    },
}
_ERROR = {
    "type": "object",
    "required": ["pointer", "code", "detail"],
    "properties": {
        "pointer": _d(
            {"type": "string", "example": "/seats/2/foot_size"},
            "A JSON Pointer into this view: a seat's `foot_size` or `played_from_foot`, the side's `books`, "
            "`permission`, `hand`, or empty (the view as a whole).",
        ),
        "code": {"type": "string"},
        "detail": {"type": "string"},
    },
}
_SIDE = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "melds": {"type": "array", "items": _CARDS},
        "complete": _d(
            {"type": "array", "items": _BOOL},
            "One per meld, in `melds`' order: the meld is a book (`book_size` cards, 7 in most rule sets).",
        ),
        "books": {"type": "object", "additionalProperties": _INT},
        "book_values": _d(
            {"type": "array", "items": _BOOK_LINE},
            "What the side's completed books score now: the book lines of its score (`clean_books`, "
            "`dirty_books`, `wild_books` and, where a rank has a bonus of its own, `books_of_<rank>`).",
        ),
        "red_threes": _CARDS,
        "burn": _CARDS,
        "score": _d(_INT, "The side's game total before this round (points)."),
    },
}
_SEAT = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "side": _INT,
        "hand_size": _INT,
        "foot_size": _d(_nullable(_INT), "Null once picked up."),
        "played_from_foot": _d(_BOOL, "The seat has melded a card since picking its foot up."),
    },
}


def seat_view_body() -> dict[str, Any]:
    """The ``SeatViewBody`` component: what ``play.view`` gives a seat."""
    properties = _view_properties()
    return {
        "type": "object",
        "description": "What one seat may see (the engine's `play.view`). Once the round has ended also "
        "`ended`, `out_side`, `seed`, `hands`, `feet` (every seat's) and `score`.",
        "required": list(properties),  # every member is always sent (null where it allows)
        "properties": properties,
    }


def _view_properties() -> dict[str, Any]:
    actions = {"oneOf": [{"$ref": f"#/components/schemas/{open_component(kind)}"} for kind in ACTION_TYPES]}
    return {
        "seat": _d(_INT, "The seat's index."),
        "side": _d(_INT, "The seat's side."),
        "round": _d(_INT, "The game's round in play."),
        "step": _d(_INT, "The round's actions so far (the table's `version` counts over all rounds)."),
        "phase": _d({"type": "string", "enum": list(PHASES)}, "The turn's phase."),
        "turn": _d(_INT, "The seat whose turn it is."),
        "hand": _d(_CARDS, "The seat's own cards."),
        "foot_size": _d(_nullable(_INT), "The seat's foot's size (null once picked up)."),
        "played_from_foot": _d(_BOOL, "The seat has melded a card since picking its foot up."),
        "sides": _d({"type": "array", "items": _SIDE}, "Every side: melds, books by kind, red threes, burn, score."),
        "seats": _d({"type": "array", "items": _SEAT}, "Every seat, in turn order, with its card counts."),
        "pile": _d(
            {
                "type": "object",
                "properties": {
                    "top": _nullable({"type": "string"}),
                    "size": _INT,
                    "frozen": _BOOL,
                    "taken": _BOOL,
                },
            },
            "The discard pile: its top card, size, whether frozen, whether taken since the round began or it thawed.",
        ),
        "stock_size": _d(_INT, "Cards left in the stock."),
        "opening_minimum": _d(_INT, "The round's opening minimum for the seat's side (points)."),
        "contract": _d({"type": "object", "additionalProperties": _INT}, "Books needed to go out, by kind."),
        "asked": _d(_BOOL, '"May I go out?" was asked this turn.'),
        "permission": _d(_nullable(_BOOL), "The partner's answer this turn (null: none)."),
        "answerer": _d(_nullable(_INT), "The seat asked to answer (null: none)."),
        "cards": _d(
            {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {"points": _INT, "wild": _BOOL},
                    "required": ["points", "wild"],
                },
                "example": {"7S": {"points": 5, "wild": False}, "JK": {"points": 50, "wild": True}},
            },
            "Each card of the hand and the pile's top, once: its points under the rules in force and whether "
            "it is wild.",
        ),
        "going_out": _d(
            {
                "type": ["object", "null"],
                "properties": {
                    "allowed": _BOOL,
                    "problems": {"type": "array", "items": {"type": "string"}},
                    "errors": {"type": "array", "items": _ERROR},
                },
            },
            "In the seat's play: whether emptying the hand now would go out, and the codes in the way "
            "(`partner_not_asked`: ask first) with, in `errors`, each one's pointer into this view and its "
            "detail (two problems of one code about two seats differ by pointer); null at any other moment. "
            "Going out is no action: meld or discard the last cards.",
        ),
        "actions": _d(
            {"type": "array", "items": actions},
            "The actions open to the seat now (empty: not its move), each with `send`: the bodies to post, "
            "every one accepted now. An action none of whose bodies is accepted is not listed.",
        ),
        "history": _d(
            {"type": "array", "items": _EVENT},
            "The round's public events since the deal, oldest first, as every seat saw them: draws (a count), "
            "pile takes, melds, discards, questions and answers, red threes laid out, feet picked up, the "
            "round's end. Never a card of a hand, a foot or the stock.",
        ),
    }
