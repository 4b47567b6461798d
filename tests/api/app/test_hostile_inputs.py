"""Hostile inputs: each kind is sent to the app and must get the status (and problem type) listed.

``HOSTILE`` is the table of SECURITY.md ("Hostile inputs"): that table is generated from this list
(``UPDATE_HOSTILE_TABLE=1 pytest tests/api/app/test_hostile_inputs.py`` rewrites it) and a test fails
when it is stale, so every row is something this file sends and asserts. Every error answer must
be ``application/problem+json`` without a stack trace. The app has one game (id 1) with one round,
no API keys, and runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers.games import SEED_ROUND_1, TEAMS, append, create_game, tally

ROOT = Path(__file__).resolve().parents[3]
SECURITY_MD = ROOT / "SECURITY.md"
BEGIN, END = "<!-- hostile-inputs:begin -->", "<!-- hostile-inputs:end -->"

SCORE = "/v1/rounds/score"
GAMES = "/v1/games"
APPEND = "/v1/games/1/rounds"


def score_body(**changes: Any) -> dict[str, Any]:
    return {"preset": "pagat", "teams": SEED_ROUND_1, **changes}


def cards_team(name: str = "A", **changes: Any) -> dict[str, Any]:
    return {
        "name": name,
        "melds": [["KS", "KH", "KD"]],
        "players": [{"name": "p", "hand": []}, {"name": "q", "hand": []}],
        **changes,
    }


def game_body(**changes: Any) -> dict[str, Any]:
    return {"name": "Friday", "preset": "pagat", "teams": TEAMS, **changes}


@dataclass(frozen=True)
class Hostile:
    kind: str  #: what is hostile about it (the table's first column)
    method: str
    path: str
    status: int
    problem: str | None = None  #: the problem type's slug (None: not a problem answer)
    json: Any = None
    data: bytes | None = None
    content_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    code: str | None = None  #: an ``errors[].code`` the answer must carry

    def send(self, flask_client: FlaskClient) -> Any:
        kwargs: dict[str, Any] = {"headers": dict(self.headers)}
        if self.json is not None:
            kwargs["json"] = self.json
        if self.data is not None:
            kwargs["data"] = self.data
            kwargs["content_type"] = self.content_type or "application/json"
        return getattr(flask_client, self.method.lower())(self.path, **kwargs)


HOSTILE: list[Hostile] = [
    # --- the body as bytes
    Hostile(
        "malformed JSON",
        "POST",
        SCORE,
        400,
        "malformed-json",
        data=b'{"preset": "pagat", "teams": [',
        code="malformed_json",
    ),
    Hostile("body not UTF-8", "POST", SCORE, 400, "malformed-json", data=b'{"preset": "\xff\xfe"}'),
    Hostile("empty body with a JSON content type", "POST", SCORE, 422, "validation-error", data=b"", code="required"),
    Hostile("JSON nested 100,000 deep", "POST", SCORE, 400, "malformed-json", data=b"[" * 100_000),
    Hostile("body of 2 MiB (limit 1 MiB)", "POST", SCORE, 413, "body-too-large", data=b" " * (2 * 1024 * 1024)),
    Hostile(
        "body not JSON (text/plain)",
        "POST",
        SCORE,
        415,
        "unsupported-media-type",
        data=b"preset=pagat",
        content_type="text/plain",
    ),
    Hostile("a JSON array instead of an object", "POST", SCORE, 422, "validation-error", json=[1, 2]),
    Hostile("a bare JSON string", "POST", SCORE, 422, "validation-error", json="pagat"),
    Hostile(
        "NaN where an integer belongs",
        "POST",
        SCORE,
        422,
        "validation-error",
        data=b'{"preset": "pagat", "round": NaN, "teams": []}',
        code="invalid_type",
    ),
    Hostile(
        "integer of 5,000 digits",
        "POST",
        SCORE,
        400,
        "malformed-json",
        data=b'{"preset": "pagat", "round": ' + b"9" * 5000 + b', "teams": []}',
    ),
    Hostile(
        "integer past 64 bits",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(round=2**70),
        code="invalid_value",
    ),
    # --- the schema
    Hostile(
        "unknown member, top level",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(admin=True),
        code="unknown_field",
    ),
    Hostile(
        "unknown member, nested",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[{**SEED_ROUND_1[0], "cheat": 1}, SEED_ROUND_1[1]]),
        code="unknown_field",
    ),
    Hostile(
        "required member missing", "POST", SCORE, 422, "validation-error", json={"preset": "pagat"}, code="required"
    ),
    Hostile(
        "null where a list belongs",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=None),
        code="invalid_type",
    ),
    Hostile(
        "string where an integer belongs",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(round="1"),
        code="invalid_type",
    ),
    Hostile(
        "boolean where an integer belongs",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(round=True),
        code="invalid_type",
    ),
    Hostile(
        "float where an integer belongs",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(round=1.5),
        code="invalid_type",
    ),
    Hostile(
        "string where a boolean belongs",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[{**SEED_ROUND_1[0], "went_out": "yes"}, SEED_ROUND_1[1]]),
        code="invalid_type",
    ),
    Hostile(
        "negative tally count",
        "POST",
        SCORE,
        422,
        "invalid-round",
        json=score_body(teams=[tally("A", out=True, clean=2, dirty=2, wild=1, table=-5), tally("B")]),
    ),
    Hostile(
        "both cards and tally for one side",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[{**cards_team(), "tally": SEED_ROUND_1[1]["tally"]}, SEED_ROUND_1[1]]),
    ),
    # --- limits
    Hostile(
        "201 cards in one meld (limit 200)",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[cards_team(melds=[["KS"] * 201]), SEED_ROUND_1[1]]),
        code="invalid_value",
    ),
    Hostile(
        "61 melds for one side (limit 60)",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[cards_team(melds=[["KS", "KH", "KD"]] * 61), SEED_ROUND_1[1]]),
        code="invalid_value",
    ),
    Hostile(
        "13 sides in a round (limit 12)",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[tally(f"T{i}") for i in range(13)]),
        code="invalid_value",
    ),
    Hostile(
        "9 players on a side (limit 8)",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[cards_team(players=[{"name": f"p{i}"} for i in range(9)]), SEED_ROUND_1[1]]),
        code="invalid_value",
    ),
    Hostile(
        "name of 101 characters (limit 100)",
        "POST",
        GAMES,
        422,
        "validation-error",
        json=game_body(name="x" * 101),
        code="invalid_value",
    ),
    Hostile("empty name", "POST", GAMES, 422, "validation-error", json=game_body(name=""), code="invalid_value"),
    Hostile(
        "NUL character in a name",
        "POST",
        GAMES,
        422,
        "validation-error",
        json=game_body(name="Fri\x00day"),
        code="invalid_value",
    ),
    Hostile(
        "control character in a player name",
        "POST",
        GAMES,
        422,
        "validation-error",
        json=game_body(teams=[{"name": "A", "players": ["An\x1bn", "Bo"]}, TEAMS[1]]),
        code="invalid_value",
    ),
    Hostile(
        "lone UTF-16 surrogate in a name",
        "POST",
        GAMES,
        422,
        "validation-error",
        data=b'{"name": "\\ud800", "preset": "pagat", "teams": ' + json.dumps(TEAMS).encode() + b"}",
        code="invalid_value",
    ),
    Hostile(
        "card string of 9 characters (limit 8)",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(teams=[cards_team(melds=[["KS", "KH", "KDKDKDKDK"]]), SEED_ROUND_1[1]]),
        code="invalid_value",
    ),
    Hostile("page_size 101 (limit 100)", "GET", GAMES + "?page_size=101", 422, "validation-error"),
    Hostile("page 0", "GET", GAMES + "?page=0", 422, "validation-error"),
    Hostile("page not a number", "GET", GAMES + "?page=abc", 422, "validation-error"),
    Hostile(
        "page past 64 bits of offset (limit 1,000,000)",
        "GET",
        GAMES + "?page=92233720368547760",
        422,
        "validation-error",
    ),
    Hostile(
        "51st round of a game (limit 50): round number 51",
        "POST",
        APPEND,
        422,
        "validation-error",
        json={"round": 51, "teams": SEED_ROUND_1},
        code="invalid_value",
    ),
    # --- the rules
    Hostile(
        "unknown card",
        "POST",
        SCORE,
        422,
        "invalid-card",
        json=score_body(teams=[cards_team(melds=[["KS", "KH", "1X"]]), SEED_ROUND_1[1]]),
        code="unknown_card",
    ),
    Hostile(
        "more copies of a card than the decks hold",
        "POST",
        SCORE,
        422,
        "invalid-round",
        json=score_body(teams=[cards_team(melds=[["KS"] * 9]), SEED_ROUND_1[1]]),
        code="too_many_copies",
    ),
    Hostile(
        "two sides out",
        "POST",
        SCORE,
        422,
        "invalid-round",
        json=score_body(teams=[SEED_ROUND_1[0], {**SEED_ROUND_1[0], "name": "B"}]),
        code="two_sides_out",
    ),
    Hostile(
        "unknown preset", "POST", SCORE, 422, "unknown-preset", json=score_body(preset="nope"), code="unknown_preset"
    ),
    Hostile(
        "unknown house rule",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(rules={"free_points": 1000}),
        code="unknown_field",
    ),
    Hostile(
        "house rule out of range",
        "POST",
        SCORE,
        422,
        "validation-error",
        json=score_body(rules={"clean_book_bonus": 10**9}),
        code="invalid_value",
    ),
    Hostile(
        "game with one side under rules needing two",
        "POST",
        GAMES,
        422,
        "validation-error",
        json=game_body(teams=TEAMS[:1]),
        code="team_count",
    ),
    Hostile(
        "two sides with the same name",
        "POST",
        GAMES,
        422,
        "validation-error",
        json=game_body(teams=[TEAMS[0], {**TEAMS[1], "name": "Team 1"}]),
        code="duplicate_side",
    ),
    Hostile(
        "round naming a side the game lacks",
        "POST",
        APPEND,
        422,
        "validation-error",
        json={"teams": [SEED_ROUND_1[0], tally("Intruder")]},
        code="unknown_side",
    ),
    # --- ids, routes, methods, headers
    Hostile("game id 0", "GET", "/v1/games/0", 404, "not-found"),
    Hostile("game id past 64 bits", "GET", "/v1/games/99999999999999999999999", 404, "not-found"),
    Hostile("game id not a number", "GET", "/v1/games/abc", 404, "not-found"),
    Hostile("game id that does not exist", "GET", "/v1/games/2147483647", 404, "not-found"),
    Hostile("path traversal in a preset id", "GET", "/v1/presets/..%2F..%2Fetc%2Fpasswd", 404, "not-found"),
    Hostile("SQL in a query filter", "GET", GAMES + "?player=%27%20OR%201%3D1%20--", 200, None),
    Hostile("unknown route", "GET", "/v1/admin", 404, "not-found"),
    Hostile("wrong method", "PATCH", "/v1/games/1", 405, "method-not-allowed"),
    Hostile(
        "round number that is not next",
        "POST",
        APPEND,
        409,
        "round-number",
        json={"round": 5, "teams": SEED_ROUND_1},
        code="round_number",
    ),
    Hostile(
        "correction without If-Match",
        "PUT",
        "/v1/games/1/rounds/1",
        428,
        "precondition-required",
        json={"teams": SEED_ROUND_1},
    ),
    Hostile(
        "correction with a stale If-Match",
        "PUT",
        "/v1/games/1/rounds/1",
        412,
        "precondition-failed",
        json={"teams": SEED_ROUND_1},
        headers={"If-Match": '"stale"'},
    ),
    Hostile(
        "Idempotency-Key of 256 characters",
        "POST",
        APPEND,
        422,
        "validation-error",
        json={"teams": SEED_ROUND_1},
        headers={"Idempotency-Key": "k" * 256},
        code="invalid_value",
    ),
    Hostile(
        "Idempotency-Key reused with another body",
        "POST",
        APPEND,
        422,
        "idempotency-key-reused",
        json={"teams": [SEED_ROUND_1[1], SEED_ROUND_1[0]]},
        headers={"Idempotency-Key": "used-once"},
    ),
    Hostile(
        "Authorization that is not a known key",
        "GET",
        GAMES,
        401,
        "unauthorized",
        headers={"Authorization": "Bearer hf_guessed"},
    ),
    Hostile(
        "Accept that allows neither JSON nor CSV",
        "GET",
        "/v1/games/1/scoresheet",
        406,
        "not-acceptable",
        headers={"Accept": "image/png"},
    ),
]


@pytest.fixture
def hostile_app(make_app: Callable[..., Flask]) -> Flask:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    flask_client = app.test_client()
    game_id = create_game(flask_client)["id"]
    assert game_id == 1
    append(flask_client, 1, SEED_ROUND_1, headers={"Idempotency-Key": "used-once"})
    return app


def test_at_least_30_kinds() -> None:
    assert len(HOSTILE) >= 30
    assert len({h.kind for h in HOSTILE}) == len(HOSTILE)


@pytest.mark.db
@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.kind for h in HOSTILE])
def test_hostile_input(hostile_app: Flask, db_backend: str, hostile: Hostile) -> None:
    flask_client = hostile_app.test_client()
    before = flask_client.get("/v1/games/1").get_json()
    response = hostile.send(flask_client)
    text = response.get_data(as_text=True)
    assert response.status_code == hostile.status, text[:500]
    assert "Traceback" not in text and "sqlalchemy" not in text.lower()
    if hostile.problem is not None:
        assert response.content_type == "application/problem+json", response.content_type
        body = response.get_json()
        assert body["type"] == f"https://handfoot.dev/problems/{hostile.problem}", body
        assert body["status"] == hostile.status
        if hostile.code is not None:
            assert hostile.code in {e["code"] for e in body["errors"]}, body["errors"]
    if hostile.status == 200:  # a filter value is data, never SQL: it matches no game
        assert response.get_json() == []
    if hostile.status >= 400:  # a refused request changes nothing
        after = flask_client.get("/v1/games/1").get_json()
        assert after == before


def _request_cell(h: Hostile) -> str:
    return f"`{h.method} {h.path if len(h.path) <= 40 else h.path[:37] + '...'}`"


def markdown_table() -> str:
    lines = ["| # | hostile input | request | status | problem type (`errors[].code`) |", "|---|---|---|---|---|"]
    for i, h in enumerate(HOSTILE, 1):
        problem = f"`{h.problem}`" if h.problem else "(not a problem: no game matches, `[]`)"
        if h.code:
            problem += f" (`{h.code}`)"
        lines.append(f"| {i} | {h.kind} | {_request_cell(h)} | {h.status} | {problem} |")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "document", [SECURITY_MD, ROOT / "docs" / "reliability.md"], ids=["SECURITY.md", "docs/reliability.md"]
)
def test_hostile_input_tables_are_current(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{markdown_table()}{END}"
    if os.environ.get("UPDATE_HOSTILE_TABLE"):
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
        document.write_text(text, encoding="utf-8")
    assert block in text, f"{document.name}'s hostile-input table is stale: UPDATE_HOSTILE_TABLE=1 pytest {__file__}"
