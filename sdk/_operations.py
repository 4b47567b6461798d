"""Which ``Client`` method covers which HTTP operation (the contract test reads this table).

Keys are ``(METHOD, path template)`` as the OpenAPI document writes them; path parameters may be
named differently in the document (``{id}`` vs ``{game_id}``): compare with ``normalise_path``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["OPERATIONS", "normalise_path"]

OPERATIONS: Mapping[tuple[str, str], str] = MappingProxyType(
    {
        ("GET", "/health"): "health",
        ("GET", "/health/live"): "live",
        ("GET", "/health/ready"): "ready",
        ("GET", "/v1/presets"): "presets",
        ("GET", "/v1/presets/{preset_id}"): "preset",
        ("POST", "/v1/rounds/score"): "score_round",
        ("POST", "/v1/rounds/compare"): "compare_presets",
        ("POST", "/v1/melds/validate"): "validate_meld",
        ("POST", "/v1/openings/check"): "check_opening",
        ("POST", "/v1/going-out/check"): "check_going_out",
        ("POST", "/v1/discard-pile/check"): "check_discard_pile",
        # docs/games-api.md
        ("POST", "/v1/games"): "create_game",
        ("GET", "/v1/games"): "games",
        ("GET", "/v1/games/{game_id}"): "game",
        ("DELETE", "/v1/games/{game_id}"): "delete_game",
        ("POST", "/v1/games/{game_id}/rounds"): "add_round",
        ("GET", "/v1/games/{game_id}/rounds/{number}"): "round",
        ("PUT", "/v1/games/{game_id}/rounds/{number}"): "correct_round",
        ("DELETE", "/v1/games/{game_id}/rounds/{number}"): "delete_round",
        ("GET", "/v1/games/{game_id}/rounds/{number}/revisions"): "revisions",
        ("GET", "/v1/games/{game_id}/scoresheet"): "scoresheet",
        ("GET", "/v1/games/export"): "export_games",
        ("GET", "/v1/games/stats"): "stats",
        # the table over HTTP (issue 22)
        ("POST", "/v1/tables"): "create_table",
        ("GET", "/v1/tables/{table_id}"): "get_table",
        ("GET", "/v1/tables/{table_id}/view"): "seat_view",
        ("GET", "/v1/tables/{table_id}/events"): "seat_events",
        ("POST", "/v1/tables/{table_id}/actions"): "act",
        ("GET", "/v1/tables/{table_id}/rounds/{number}"): "table_round",
    }
)

_PARAM = re.compile(r"\{[^}/]*\}")


def normalise_path(path: str) -> str:
    """``/v1/games/{id}/rounds/{n}`` → ``/v1/games/{}/rounds/{}`` (parameter names dropped)."""
    return _PARAM.sub("{}", path.rstrip("/") or "/")
