"""Every games operation with a request that would succeed for the game's owner.

``GAME_OPERATIONS`` maps each (method, OpenAPI path) of the games resource to the keyword arguments
of a Flask test-client call; :func:`spec_game_operations` lists the operations the served OpenAPI
document has, so a test fails when a games route is added without a case here.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers.games import SEED_ROUND_1, TEAMS

CREATE_BODY = {"name": "Friday", "preset": "pagat", "teams": TEAMS}

GAME_OPERATIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("get", "/v1/games"): {},
    ("post", "/v1/games"): {"json": CREATE_BODY},
    ("get", "/v1/games/{game_id}"): {},
    ("delete", "/v1/games/{game_id}"): {},
    ("post", "/v1/games/{game_id}/rounds"): {"json": {"teams": SEED_ROUND_1}},
    ("get", "/v1/games/{game_id}/rounds/{number}"): {},
    ("put", "/v1/games/{game_id}/rounds/{number}"): {"json": {"teams": SEED_ROUND_1}, "if_match": True},
    ("delete", "/v1/games/{game_id}/rounds/{number}"): {"if_match": "game"},
    ("get", "/v1/games/{game_id}/rounds/{number}/revisions"): {},
    ("get", "/v1/games/{game_id}/scoresheet"): {},
    ("get", "/v1/games/export"): {},
    ("get", "/v1/games/stats"): {},
}

#: The operations that write (the others only read).
WRITES = {op for op in GAME_OPERATIONS if op[0] in ("post", "put", "delete")}


def spec_game_operations(app: Flask) -> set[tuple[str, str]]:
    """(method, path) of every operation under /v1/games in the app's OpenAPI document."""
    paths = app.extensions["handfoot.api"].spec.to_dict()["paths"]
    return {
        (method, path)
        for path, item in paths.items()
        if path.startswith("/v1/games")
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }


def call(
    flask_client: FlaskClient,
    op: tuple[str, str],
    *,
    game_id: int = 1,
    number: int = 1,
    headers: dict[str, str] | None = None,
    etag: str | None = None,
) -> Any:
    """Send ``op`` with its body; ``{game_id}`` and ``{number}`` filled in; ``If-Match: etag`` on PUT,
    and on a round's DELETE the game's ETag (read first with the same headers; ``"any"`` if none)."""
    method, template = op
    kwargs = dict(GAME_OPERATIONS[op])
    all_headers = dict(headers or {})
    if_match = kwargs.pop("if_match", False)
    if if_match == "game":
        all_headers["If-Match"] = flask_client.get(f"/v1/games/{game_id}", headers=all_headers).headers.get(
            "ETag", '"any"'
        )
    elif if_match:
        all_headers["If-Match"] = etag or '"any"'
    path = template.replace("{game_id}", str(game_id)).replace("{number}", str(number))
    return getattr(flask_client, method)(path, headers=all_headers, **kwargs)
