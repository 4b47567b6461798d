"""OpenAPI examples of the check operations, answered by the engine so they can never drift."""

from __future__ import annotations

from typing import Any

from handfoot.engine import (
    check_discard_pile_request,
    check_going_out_request,
    check_opening_request,
    validate_meld_request,
)

MELD_REQUEST: dict[str, Any] = {"preset": "pagat", "cards": ["9D", "2S"], "onto": ["9S", "9H", "9C"]}
OPENING_REQUEST: dict[str, Any] = {
    "preset": "pagat",
    "round": 1,
    "melds": [["KS", "KH", "KD", "KC", "KS"], ["AS", "AH", "AD"]],
    "from_pile": ["KD", "KC", "KS", "AS", "AH", "AD"],
}
GOING_OUT_REQUEST: dict[str, Any] = {
    "preset": "bicycle",
    "melds": [["KS", "KH", "KD", "KC", "KS", "KH", "KD"], ["9S", "9H", "9D", "9C", "JK", "2D", "2C"]],
    "players": [{"name": "North", "hand": ["9S"]}, {"name": "South", "hand": ["4C", "4D"]}],
}
DISCARD_REQUEST: dict[str, Any] = {"preset": "pagat", "hand": ["9S", "9H", "4C"], "pile": ["9D", "5S", "KH"]}


def answer(schema: Any, result: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = schema().dump(result)
    return dumped


def responses() -> dict[str, dict[str, Any]]:
    from .schemas import DiscardPileCheckSchema, GoingOutCheckSchema, MeldCheckSchema, OpeningCheckSchema

    return {
        "meld": answer(MeldCheckSchema, validate_meld_request(MELD_REQUEST)),
        "opening": answer(OpeningCheckSchema, check_opening_request(OPENING_REQUEST)),
        "going_out": answer(GoingOutCheckSchema, check_going_out_request(GOING_OUT_REQUEST)),
        "discard": answer(DiscardPileCheckSchema, check_discard_pile_request(DISCARD_REQUEST)),
    }
