"""Every header the server sends is documented on the answer that sends it (issue 20, item 5).

Each games operation and a few others are called with an API key and a rate limit on (so
``Cache-Control``, ``X-RateLimit-*`` and the rest are sent); an append is replayed
(``Idempotent-Replayed``), a list is paged (``Link``), a correction is refused (412, 428), a call
without a key answered 401, and the limit exhausted (429). For each answer, every header of
:data:`WATCHED` it carries must be listed in the served document for that operation and status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from handfoot.server.auth import create_key
from handfoot.server.db import get_db
from handfoot.server.resources.games import examples as ex

WATCHED = ("ETag", "Location", "Link", "X-Pagination", "Idempotent-Replayed", "Retry-After", "X-RateLimit-Limit",
           "X-RateLimit-Remaining", "X-RateLimit-Reset", "Cache-Control", "Content-Disposition", "WWW-Authenticate",
           "X-Request-ID")


def documented(spec: dict[str, Any], method: str, path: str, status: int) -> set[str]:
    response = spec["paths"][path][method.lower()]["responses"][str(status)]
    if "$ref" in response:
        response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return set(response.get("headers", {}))


class Recorder:
    """Calls the API and records, per answer, the watched headers it sent that are not documented."""

    def __init__(self, flask_client: FlaskClient, spec: dict[str, Any], token: str) -> None:
        self.client, self.spec, self.auth = flask_client, spec, {"Authorization": f"Bearer {token}"}
        self.missing: list[tuple[str, str, int, str]] = []
        self.seen: set[str] = set()

    def call(self, method: str, template: str, path: str, *, auth: bool = True, **kw: Any) -> Any:
        headers = {**(self.auth if auth else {}), **kw.pop("headers", {})}
        response = self.client.open(path, method=method, headers=headers, **kw)
        sent = {name for name in WATCHED if name in response.headers}
        self.seen |= sent
        for name in sent - documented(self.spec, method, template, response.status_code):
            self.missing.append((method, template, response.status_code, name))
        return response


def test_every_sent_header_is_documented(make_app: Callable[..., Flask]) -> None:
    app = make_app(RATE_LIMIT="40/minute")
    spec = app.test_client().get("/openapi.json").get_json()
    _, token = create_key(get_db(app), "kitchen")
    r = Recorder(app.test_client(), spec, token)

    games, game, rounds = "/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/rounds"
    rnd, revisions = "/v1/games/{game_id}/rounds/{number}", "/v1/games/{game_id}/rounds/{number}/revisions"
    created = r.call("POST", games, games, json=ex.GAME_CREATE_REQUEST)
    assert created.status_code == 201, created.get_json()
    r.call("POST", games, games, json=ex.GAME_CREATE_REQUEST)
    gid = created.get_json()["id"]
    key = {"Idempotency-Key": '"headers-documented-1"'}
    for _ in range(2):  # the second answer is the replay
        appended = r.call("POST", rounds, f"/v1/games/{gid}/rounds", json=ex.ROUND_REQUEST, headers=key)
        assert appended.status_code == 201, appended.get_json()
    r.call("GET", games, "/v1/games?page=1&page_size=1")
    etag = r.call("GET", game, f"/v1/games/{gid}").headers["ETag"]
    r.call("GET", game, f"/v1/games/{gid}", headers={"If-None-Match": etag})
    round_etag = r.call("GET", rnd, f"/v1/games/{gid}/rounds/1").headers["ETag"]
    r.call("PUT", rnd, f"/v1/games/{gid}/rounds/1", json=ex.ROUND_UPDATE_REQUEST)  # 428
    r.call("PUT", rnd, f"/v1/games/{gid}/rounds/1", json=ex.ROUND_UPDATE_REQUEST, headers={"If-Match": '"stale"'})
    r.call("PUT", rnd, f"/v1/games/{gid}/rounds/1", json=ex.ROUND_UPDATE_REQUEST, headers={"If-Match": round_etag})
    r.call("GET", revisions, f"/v1/games/{gid}/rounds/1/revisions?page_size=1")
    r.call("GET", "/v1/games/{game_id}/scoresheet", f"/v1/games/{gid}/scoresheet", headers={"Accept": "text/csv"})
    r.call("GET", game, "/v1/games/99999")
    r.call("GET", games, games, auth=False)  # 401: the server has a key
    r.call("POST", "/v1/rounds/score", "/v1/rounds/score", json={"preset": "pagat"})
    r.call("DELETE", game, f"/v1/games/{gid}", headers={"If-Match": '"stale"'})
    r.call("DELETE", game, f"/v1/games/{gid}")
    limited = None
    for _ in range(60):
        limited = r.call("GET", "/v1/presets", "/v1/presets")
        if limited.status_code == 429:
            break
    assert limited is not None and limited.status_code == 429

    assert not r.missing, "sent but not documented (api/spec.py, sent_headers):\n" + "\n".join(map(str, r.missing))
    assert r.seen == set(WATCHED), f"never sent here, so never checked: {set(WATCHED) - r.seen}"
