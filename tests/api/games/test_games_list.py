"""The games list: keyset pages and the X-Pagination header's documentation.

The games list pages by keyset (issue 18, "the next scale"): each page follows the last game of
the one before through an opaque ``cursor`` in ``Link: <...>; rel="next"``, so no page counts the
list or skips rows (no ``COUNT``, no ``OFFSET``), a page deep in the list runs the same statement as
the first, games with the same ``created_at`` are neither lost nor repeated, and a game created or
deleted during a walk shifts no other. The deprecated ``page`` keeps its numbered pages and totals.

``X-Pagination`` is documented as what is sent (issue 18, defect 6): a header whose value is JSON
text, so the document gives its media type (OpenAPI 3 header ``content``), not an object schema
that a header's string value can never match.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime
from itertools import chain
from typing import Any

import jsonschema
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, update

from handfoot.server import create_app
from handfoot.server.db import get_db
from handfoot.server.models import Game
from handfoot.server.pagination import decode_cursor, encode_cursor
from tests.api.app.test_problems import assert_problem
from tests.helpers.games import create_game, recorded_statements

GAMES = "/v1/games"
OTHER_KEY = b"another server's secret, not this one"


def _raw(text: str) -> str:
    """A cursor of the server's form (URL-safe base64, no padding) around ``text``."""
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _next(response: Any) -> str | None:
    links = {m.group(2): m.group(1) for m in re.finditer(r'<([^>]+)>; rel="(\w+)"', response.headers.get("Link", ""))}
    return links.get("next")


def _walk(flask_client: FlaskClient, url: str) -> tuple[list[int], list[Any]]:
    ids: list[int] = []
    responses = []
    next_url: str | None = url
    while next_url is not None:
        response = flask_client.get(next_url)
        assert response.status_code == 200, response.get_json()
        responses.append(response)
        ids += [g["id"] for g in response.get_json()]
        next_url = _next(response)
        assert len(responses) < 100, "the walk never ends"
    return ids, responses


def _games(flask_client: FlaskClient, n: int, **kw: Any) -> list[int]:
    return [create_game(flask_client, name=f"Game {i}", **kw)["id"] for i in range(n)]


def _same_instant(app: Flask, ids: list[int]) -> None:
    """Give every game in ``ids`` one ``created_at`` (earlier than the others'): only the id orders them."""
    with app.app_context(), get_db().write_session() as session:
        session.execute(update(Game).where(Game.id.in_(ids)).values(created_at=datetime(2026, 12, 1, tzinfo=UTC)))


@pytest.mark.db
def test_following_next_gives_every_game_once_newest_first(flask_client: FlaskClient, db_backend: str) -> None:
    ids = _games(flask_client, 7)
    walked, responses = _walk(flask_client, f"{GAMES}?page_size=3")
    assert walked == ids[::-1]
    assert [len(r.get_json()) for r in responses] == [3, 3, 1]
    assert 'rel="first"' in responses[-1].headers["Link"] and _next(responses[-1]) is None
    # the list is longer than a page: its total would cost a count, so none is sent
    assert all("X-Pagination" not in r.headers for r in responses)


@pytest.mark.db
def test_a_first_page_holding_the_whole_list_gives_its_total(flask_client: FlaskClient, db_backend: str) -> None:
    _games(flask_client, 3)
    response = flask_client.get(GAMES)
    assert json.loads(response.headers["X-Pagination"])["total"] == 3
    assert _next(response) is None


@pytest.mark.db
def test_games_created_at_the_same_instant_are_neither_lost_nor_repeated(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    ids = _games(flask_client, 9)
    _same_instant(app, ids[2:8])
    walked, _ = _walk(flask_client, f"{GAMES}?page_size=2")
    assert sorted(walked) == sorted(ids) and len(walked) == len(set(walked))
    # the six share an instant before the others': they come last, the higher id first
    assert walked == [ids[8], ids[1], ids[0], *sorted(ids[2:8], reverse=True)]


@pytest.mark.db
def test_games_created_or_deleted_during_a_walk_shift_no_other(flask_client: FlaskClient, db_backend: str) -> None:
    ids = _games(flask_client, 6)
    first = flask_client.get(f"{GAMES}?page_size=2")
    assert [g["id"] for g in first.get_json()] == [ids[5], ids[4]]
    newer = create_game(flask_client, name="Newer")["id"]
    assert flask_client.delete(f"{GAMES}/{ids[4]}").status_code == 204  # the last game shown, which the cursor names
    rest, _ = _walk(flask_client, _next(first) or "")
    assert rest == [ids[3], ids[2], ids[1], ids[0]]
    assert newer not in rest


@pytest.mark.db
def test_the_next_link_keeps_the_filters(flask_client: FlaskClient, db_backend: str) -> None:
    mine = _games(
        flask_client, 5, teams=[{"name": "A", "players": ["Ann", "Al"]}, {"name": "B", "players": ["Bo", "Bea"]}]
    )
    _games(flask_client, 4)
    walked, responses = _walk(flask_client, f"{GAMES}?player=ann&page_size=2")
    assert walked == mine[::-1]
    assert all("player=ann" in (_next(r) or "player=ann") for r in responses)


@pytest.mark.db
def test_no_page_counts_or_skips_and_a_deep_page_runs_the_first_pages_statement(
    app: Flask, flask_client: FlaskClient, db_backend: str
) -> None:
    _games(flask_client, 12)
    statements: dict[str, list[str]] = {}
    url: str | None = f"{GAMES}?page_size=3"
    pages = 0
    offsets: list[Any] = []

    def offset_of(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
        # SQLite's dialect writes `LIMIT ? OFFSET ?` for every LIMIT: the OFFSET bound must be 0
        if "FROM games" in statement and "OFFSET" in statement:
            offsets.append(parameters[-1])

    event.listen(get_db(app).engine, "before_cursor_execute", offset_of)
    try:
        while url is not None:
            with recorded_statements(app) as sql:
                response = flask_client.get(url)
            statements[url] = [s for s in sql if "FROM games" in s]
            url = _next(response)
            pages += 1
    finally:
        event.remove(get_db(app).engine, "before_cursor_execute", offset_of)
    assert pages == 4
    shapes = [[re.sub(r"\d+", "N", s) for s in sql] for sql in statements.values()]
    assert all(len(s) == 1 for s in shapes), shapes
    assert not any(re.search(r"count\(", s, re.IGNORECASE) for s in chain.from_iterable(shapes))
    assert offsets == ([0] * pages if db_backend == "sqlite" else [])
    assert len({tuple(s) for s in shapes[1:]}) == 1  # every later page: the same statement
    # and the list reads no rules snapshot
    assert not any("rules_snapshot" in s for s in chain.from_iterable(shapes))


@pytest.mark.db
def test_the_deprecated_numbered_pages_still_work(flask_client: FlaskClient, db_backend: str) -> None:
    ids = _games(flask_client, 7)
    page = flask_client.get(f"{GAMES}?page=2&page_size=3")
    assert page.status_code == 200
    assert [g["id"] for g in page.get_json()] == [ids[3], ids[2], ids[1]]
    meta = json.loads(page.headers["X-Pagination"])
    assert meta["total"] == 7 and meta["total_pages"] == 3 and meta["page"] == 2
    assert 'page=3&page_size=3>; rel="next"' in page.headers["Link"]
    assert 'rel="last"' in page.headers["Link"]
    past = flask_client.get(f"{GAMES}?page=9&page_size=3")
    assert past.status_code == 200 and past.get_json() == []


@pytest.mark.db
@pytest.mark.parametrize(
    "cursor",
    [
        "",
        "abc",
        "not base64!",
        encode_cursor(datetime(2026, 1, 1, tzinfo=UTC), 0, OTHER_KEY),
        encode_cursor(datetime(2026, 1, 1, tzinfo=UTC), 5, OTHER_KEY),  # signed, but not by this server
        _raw("2026-12-01T00:00:00+00:00|5"),  # home-made: the form, without the signature
        "MjAyNi0xMi0wMVQwMDowMDowMHwx",  # no time zone
        "x" * 300,
        _raw("0001-01-01T00:00:00+01:00|5"),  # before year 1 in UTC
        _raw("2026-12-01T00:00:00+00:00|" + "9" * 4000),
    ],
)
def test_a_cursor_not_given_by_the_server_is_a_422_naming_it(
    flask_client: FlaskClient, db_backend: str, cursor: str
) -> None:
    response = flask_client.get(GAMES, query_string={"cursor": cursor})
    assert_problem(response, 422, "validation-error")
    assert {"parameter": "cursor", "code": "invalid_value"} in [
        {"parameter": e.get("parameter"), "code": e["code"]} for e in response.get_json()["errors"]
    ]


@pytest.mark.db
def test_a_truncated_or_altered_cursor_is_a_422_naming_it(flask_client: FlaskClient, db_backend: str) -> None:
    ids = _games(flask_client, 3)
    next_url = _next(flask_client.get(f"{GAMES}?page_size=1")) or ""
    cursor = re.search(r"cursor=([^&]+)", next_url).group(1)  # type: ignore[union-attr]
    assert flask_client.get(GAMES, query_string={"cursor": cursor}).status_code == 200
    body, mac = cursor.split(".")
    moment, _ = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode().split("|")
    forged = [
        cursor[:-1],  # truncated
        body,  # the signature cut off
        f"{_raw(f'{moment}|{ids[0]}')}.{mac}",  # another id under this cursor's signature
        f"{body}.{mac[::-1]}",  # the signature altered
    ]
    for bad in forged:
        response = flask_client.get(GAMES, query_string={"cursor": bad})
        assert_problem(response, 422, "validation-error")
        assert [(e.get("parameter"), e["code"]) for e in response.get_json()["errors"]] == [("cursor", "invalid_value")]


@pytest.mark.db
def test_a_cursor_of_a_server_with_another_secret_is_refused(db_url: str) -> None:
    """Two hosts with one HANDFOOT_SECRET_KEY take each other's cursors; with none set, each draws its
    own at start-up, and a cursor of one is refused by the other (and after a restart)."""
    shared = {"DATABASE_URL": db_url, "SERVER_SECRET": "k" * 32}
    one, two, alone = create_app(shared), create_app(shared), create_app({"DATABASE_URL": db_url})
    _games(one.test_client(), 3)
    next_url = _next(one.test_client().get(f"{GAMES}?page_size=1")) or ""
    assert two.test_client().get(next_url).status_code == 200
    assert alone.test_client().get(next_url).status_code == 422


@pytest.mark.db
def test_cursor_and_page_together_are_a_422(flask_client: FlaskClient, db_backend: str) -> None:
    _games(flask_client, 3)
    cursor = _next(flask_client.get(f"{GAMES}?page_size=1")) or ""
    response = flask_client.get(cursor + "&page=2")
    assert_problem(response, 422, "validation-error")
    assert response.get_json()["errors"][0]["parameter"] == "cursor"


@pytest.mark.db
def test_a_cursor_round_trips() -> None:
    moment = datetime(2026, 12, 1, 13, 30, 5, 123456, tzinfo=UTC)
    key = b"k" * 32
    assert decode_cursor(encode_cursor(moment, 42, key), max_id=2**31 - 1, key=key) == (moment, 42)
    naive = datetime(2026, 12, 1, 13, 30, 5, 123456)  # as SQLite gives it back: UTC without tzinfo
    assert decode_cursor(encode_cursor(naive, 7, key), max_id=2**31 - 1, key=key) == (moment, 7)


@pytest.mark.db
def test_the_spec_documents_cursor_and_the_deprecated_page(flask_client: FlaskClient) -> None:
    spec = flask_client.get("/openapi.json").get_json()
    operation = spec["paths"]["/v1/games"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert "cursor" in params and params["page"].get("deprecated") is True
    assert "Link" in operation["responses"]["200"]["headers"]
    assert "X-Pagination" in operation["responses"]["200"]["headers"]


def test_x_pagination_is_documented_as_json_text_and_sent_so(flask_client: FlaskClient) -> None:
    """X-Pagination was documented as an object schema that a header's string can never match (issue 18, defect 6)."""
    spec = flask_client.get("/openapi.json").get_json()
    header = spec["components"]["headers"]["PAGINATION"]
    assert "schema" not in header
    schema = header["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/PaginationMetadata"}
    create_game(flask_client)
    sent = flask_client.get("/v1/games").headers["X-Pagination"]
    metadata = json.loads(sent)
    jsonschema.validate(metadata, spec["components"]["schemas"]["PaginationMetadata"])
    assert metadata["total"] == 1


def test_links_are_built_on_the_public_url_never_the_host_header(make_app: Any) -> None:
    """A request's ``Host`` header decided where the pagination links pointed (a forged host made a
    client follow them elsewhere); with ``HANDFOOT_PUBLIC_URL`` set they are on it, whatever the host."""
    forged = {"Host": "evil.example"}
    for app, base in (
        (make_app(PUBLIC_URL="https://scores.example.org/"), "https://scores.example.org"),
        (make_app(), "http://evil.example"),
    ):
        client = app.test_client()
        for number in range(3):
            create_game(client, name=f"G{number}")
        keyset = client.get("/v1/games?page_size=2", headers=forged)
        numbered = client.get("/v1/games?page=1&page_size=2", headers=forged)
        for response in (keyset, numbered):
            urls = re.findall(r"<([^>]+)>", response.headers["Link"])
            assert urls and all(url.startswith(f"{base}/v1/games?") for url in urls), (base, urls)
