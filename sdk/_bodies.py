"""Request bodies and paths, shared by the sync and async clients (no transport here)."""

from __future__ import annotations

import json as _json
from collections.abc import Sequence
from urllib.parse import quote

from ._http import dumps_json
from .params import Card


def _seg(value: object) -> str:
    """One URL path segment, escaped (``a/b`` → ``a%2Fb``)."""
    return quote(str(value), safe="")


def _round_path(game_id: int, number: int) -> str:
    return f"/v1/games/{_seg(game_id)}/rounds/{_seg(number)}"


def _melds(melds: Sequence[Sequence[Card]]) -> list[list[Card]]:
    return [list(meld) for meld in melds]


def _cards(cards: Sequence[Card] | None) -> list[Card] | None:
    return None if cards is None else list(cards)


def _body(**members: object) -> dict[str, object]:
    """A request body: the members given, those that are ``None`` left out (the server's default)."""
    return {name: value for name, value in members.items() if value is not None}


def _same_json(a: object, b: object) -> bool:
    """Equal once both are encoded as JSON (read-only models compare with plain lists/dicts)."""
    return bool(_json.loads(dumps_json(a)) == _json.loads(dumps_json(b)))
