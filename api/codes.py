"""The one catalogue of the codes in a problem's ``errors[].code`` (and a check's ``problems``).

Stable: clients may switch on them. The engine's (``handfoot.engine.PROBLEM_CODES``, by reference),
:data:`SCHEMA_CODES` and :data:`GAME_CODES`; adding one is an API change (list it in docs/problems.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from handfoot.engine import PROBLEM_CODES as ENGINE_CODES

__all__ = ["ENGINE_CODES", "GAME_CODES", "PROBLEM_CODES", "SCHEMA_CODES", "describe"]

SCHEMA_CODES: dict[str, str] = {
    "malformed_json": "The body is not valid JSON, or not UTF-8 (400).",
    "required": "A required member or parameter is missing.",
    "unknown_field": "A member the schema does not have (bodies reject unknown members).",
    "invalid_type": "A value of the wrong JSON type: a string where an integer belongs, null "
    "where a value is required, an object where a list belongs, ...",
    "invalid_value": "A value of the right type that breaks a constraint (range, length, choice, format).",
    "body_too_complex": "The body holds more JSON values (50,000) or objects (1,000) than any request needs, "
    "counted on its bytes (a `,`, `[` or `{` inside a string counts too); refused before it is validated "
    "(413 body-too-large).",
}

GAME_CODES: dict[str, str] = {
    "unknown_side": "A round names a side the game does not have.",
    "missing_side": "A round leaves out a side of the game (every side appears exactly once).",
    "game_finished": "The game is over (409 game-finished; `end_reason` says why).",
    "round_number": "The `round` sent is not the game's next round (409 round-number).",
    "round_limit": "The game already has the most rounds a game may have (409 conflict).",
    "revision_limit": "The round already has the most revisions a round may have (100: the first version "
    "and 99 corrections; 409 conflict).",
    "not_last_round": "Only the game's last round can be deleted; an earlier round is corrected instead "
    "(409 not-last-round; `last_round` names it).",
    "table_not_found": "No such table, or the Seat-Token is not one of its seats (404: a wrong token "
    "learns nothing more than an unknown table's id).",
    "version_moved": "The `version` sent is not the table's version: the table moved on since it was read "
    "(409 version-moved; `version` is the current one).",
    "table_finished": "The table's game is over: no more actions (409 table-finished).",
    "table_open": "The game has a table playing it (409 table-open; `table` and `href` name it): a second table "
    "for it, or a round appended, corrected or deleted straight on it, is refused (D51).",
    "round_in_play": "The table's round is still in play: its log and seed are shown once it ends (409 round-in-play).",
    "unauthorized": "The request needs a valid API key (401; `Authorization: Bearer <key>`).",
    "etag_mismatch": "If-Match does not match the resource's current ETag (412).",
    "idempotency_key_reused": "The Idempotency-Key was used for another request (422 idempotency-key-reused).",
    "idempotency_in_flight": "The Idempotency-Key's first request is still running (409 idempotency-in-flight).",
}

#: Every code: the engine's, the schema's, the games' (no code is in two groups:
#: tests/api/test_problems.py).
PROBLEM_CODES: Mapping[str, str] = {**ENGINE_CODES, **SCHEMA_CODES, **GAME_CODES}


def describe(*codes: str) -> str:
    """``"`code`: meaning; ..."`` for the OpenAPI descriptions (a ``KeyError`` for an unknown code)."""
    return "; ".join(f"`{code}`: {PROBLEM_CODES[code]}" for code in codes)
