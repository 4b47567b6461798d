"""Games methods against docs/games-api.md: request shapes, headers, ETags and parsing."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
import requests
import responses
from responses import matchers

from handfoot.client import (
    APIResponseValidationError,
    Books,
    Client,
    ConflictError,
    Game,
    GameSummary,
    GameTeam,
    PreconditionFailedError,
    Revision,
    Round,
    RoundSummary,
    Scoresheet,
    TeamInput,
    TeamTotal,
)
from tests.helpers.sdk import BASE, PROBLEM_JSON, problem
from tests.sdk.test_client import SCORE_JSON

GAMES = f"{BASE}/v1/games"
KEY = re.compile(r'^"[0-9a-f-]{36}"$')
TEAMS: list[TeamInput] = [
    {"name": "Us", "tally": {"clean_books": 1, "points_left": 0}},
    {"name": "Them", "tally": {"clean_books": 0, "points_left": 20}},
]
SCORE_TEAMS: list[dict[str, object]] = SCORE_JSON["teams"]  # type: ignore[assignment]
ROUND_JSON = {
    "number": 1,
    "revision": 1,
    "request": {"round": 1, "teams": TEAMS},
    "teams": [{**team, "name": name} for team, name in zip(SCORE_TEAMS, ("Us", "Them"), strict=True)],
    "totals_after": [{"name": "Us", "total": 3740}, {"name": "Them", "total": 1075}],
    "created_at": "2026-11-29T12:00:00+00:00",
    "updated_at": "2026-11-29T12:00:00+00:00",
}
ROUND_SUMMARY_JSON = {
    "number": 1,
    "revision": 1,
    "scores": [{"name": "Us", "total": 3740}, {"name": "Them", "total": 1075}],
    "totals_after": [{"name": "Us", "total": 3740}, {"name": "Them", "total": 1075}],
    "href": "/v1/games/12/rounds/1",
}
GAME_JSON = {
    "id": 12,
    "name": "Friday",
    "preset": "pagat",
    "rules": {"book_size": 7},
    "rules_overridden": ["clean_book_bonus"],
    "house_rules": {"clean_book_bonus": 400},
    "teams": [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}],
    "status": "in_progress",
    "rounds_played": 1,
    "next_round": 2,
    "next_opening_minimum": 90,
    "next_opening_minimums": [{"name": "Us", "minimum": 90}, {"name": "Them", "minimum": 90}],
    "next_contract": {"clean_books": 2, "dirty_books": 2, "wild_books": 1},
    "totals": [{"name": "Us", "total": 3740}, {"name": "Them", "total": 1075}],
    "leaders": ["Us"],
    "winner": None,
    "tie": False,
    "end_reason": None,
    "rounds": [ROUND_SUMMARY_JSON],
    "created_at": "2026-11-29T12:00:00+00:00",
    "updated_at": "2026-11-29T12:05:00Z",
    "version": 3,
}
SUMMARY_JSON = {
    k: GAME_JSON[k]
    for k in (
        "id",
        "name",
        "preset",
        "status",
        "teams",
        "totals",
        "leaders",
        "winner",
        "tie",
        "rounds_played",
        "created_at",
        "updated_at",
    )
}
SHEET_JSON = {
    "game_id": 12,
    "name": "Friday",
    "teams": ["Us", "Them"],
    "rows": [
        {"round": 1, "scores": [3740, 1075], "totals": [3740, 1075]},
        {"round": 2, "scores": [-200, 900], "totals": [3540, 1975]},
    ],
    "totals": [3540, 1975],
    "status": "in_progress",
    "leaders": ["Us"],
    "winner": None,
    "tie": False,
}


def sent(rsps: responses.RequestsMock, i: int = -1) -> requests.PreparedRequest:
    return rsps.calls[i].request


def test_create_game_sends_body_and_an_idempotency_key(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(
        GAMES,
        json=GAME_JSON,
        status=201,
        headers={"ETag": '"v3"', "Location": "/v1/games/12"},
        match=[
            matchers.json_params_matcher(
                {
                    "name": "Friday",
                    "preset": "pagat",
                    "rules": {"clean_book_bonus": 400},
                    "teams": [{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}],
                }
            )
        ],
    )
    game = sdk_client.create_game(
        name="Friday",
        preset="pagat",
        rules={"clean_book_bonus": 400},
        teams=[{"name": "Us", "players": ["Ann", "Bo"]}, {"name": "Them", "players": ["Cy", "Di"]}],
    )
    assert KEY.match(sent(rsps).headers["Idempotency-Key"])
    assert isinstance(game, Game) and game.etag == '"v3"'
    assert game.teams == (GameTeam("Us", ("Ann", "Bo")), GameTeam("Them", ("Cy", "Di")))
    assert game.totals == (TeamTotal("Us", 3740), TeamTotal("Them", 1075))
    assert game.next_contract == Books(2, 2, 1) and game.next_round == 2 and game.version == 3
    assert game.next_opening_minimums == {"Us": 90, "Them": 90}
    assert game.house_rules == {"clean_book_bonus": 400} and game.rules_overridden == ("clean_book_bonus",)
    assert game.updated_at == datetime(2026, 11, 29, 12, 5, tzinfo=UTC)
    (r1,) = game.rounds
    assert game.round(1) is r1 and game.round(2) is None
    assert isinstance(r1, RoundSummary) and r1.href == "/v1/games/12/rounds/1" and r1.revision == 1
    assert r1.totals == {"Us": 3740, "Them": 1075} and r1.totals_after == r1.scores
    assert r1.to_dict() == ROUND_SUMMARY_JSON
    assert str(r1) == "Round 1: Us 3,740, Them 1,075; running totals: Us 3,740, Them 1,075"
    assert "<table" in r1._repr_html_()
    text = str(game)
    assert "Game #12 Friday (pagat)" in text and "sides: Us (Ann, Bo); Them (Cy, Di)" in text
    assert "3,740 (3,740)" in text and "in progress: Us leads" in text
    assert "next: round 2, opening minimum 90, contract 2 clean, 2 dirty, 1 wild" in text
    assert "<tfoot>" in game._repr_html_()


def test_create_game_retry_reuses_the_key(
    rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]
) -> None:
    rsps.post(GAMES, body=requests.ConnectionError("reset"))
    rsps.post(GAMES, json=GAME_JSON, status=201)
    sdk_client.create_game(name="g", preset="pagat", teams=[], idempotency_key="my-key")
    keys = {call.request.headers["Idempotency-Key"] for call in rsps.calls}
    assert keys == {'"my-key"'} and len(sleeps) == 1


def test_add_round_one_key_per_call_reused_on_retries(
    rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]
) -> None:
    url = f"{GAMES}/12/rounds"
    rsps.post(url, status=503)
    rsps.post(url, body=requests.ConnectionError("reset"))
    rsps.post(url, json=ROUND_JSON, status=201, headers={"ETag": '"r1"'})
    rsps.post(url, json={**ROUND_JSON, "number": 2}, status=201)
    r = sdk_client.add_round(12, teams=TEAMS, round=1)
    assert isinstance(r, Round) and r.etag == '"r1"' and r.number == 1
    first_call_keys = {call.request.headers["Idempotency-Key"] for call in rsps.calls[:3]}
    assert len(first_call_keys) == 1
    assert json.loads(sent(rsps, 0).body or b"") == {"teams": TEAMS, "round": 1}
    sdk_client.add_round(12, teams=TEAMS)
    assert sent(rsps, 3).headers["Idempotency-Key"] not in first_call_keys
    assert json.loads(sent(rsps, 3).body or b"") == {"teams": TEAMS}
    assert "Running totals: Us 3,740, Them 1,075" in str(r)


def test_add_round_finished_game_is_a_conflict_not_retried(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(
        f"{GAMES}/12/rounds",
        status=409,
        json=problem(409, "Game finished", detail="4 rounds played"),
        content_type=PROBLEM_JSON,
    )
    with pytest.raises(ConflictError, match="4 rounds played") as info:
        sdk_client.add_round(12, teams=TEAMS)
    assert info.value.type.endswith("/game-finished") and len(rsps.calls) == 1


def test_games_iterates_all_pages_with_filters(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    page2 = f"{GAMES}?status=finished&player=Ann&page=2&page_size=2"
    rsps.get(
        GAMES,
        json=[{**SUMMARY_JSON, "id": 3}, {**SUMMARY_JSON, "id": 2}],
        headers={"Link": f'<{page2}>; rel="next"'},
        match=[matchers.query_param_matcher({"status": "finished", "player": "Ann", "page_size": "2"})],
    )
    rsps.get(
        GAMES,
        json=[{**SUMMARY_JSON, "id": 1}],
        match=[matchers.query_param_matcher({"status": "finished", "player": "Ann", "page": "2", "page_size": "2"})],
    )
    games = sdk_client.games(status="finished", player="Ann", page_size=2)
    assert len(rsps.calls) == 0  # lazy
    items = list(games)
    assert [g.id for g in items] == [3, 2, 1] and all(isinstance(g, GameSummary) for g in items)
    assert str(items[0]) == "#3 Friday (pagat, 1 round): Us 3,740, Them 1,075 - in progress: Us leads"


def test_games_page(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(
        GAMES,
        json=[SUMMARY_JSON],
        headers={"X-Pagination": json.dumps({"total": 41, "total_pages": 3, "page": 2, "next_page": 3})},
        match=[matchers.query_param_matcher({"preset": "pagat", "page": "2", "page_size": "20"})],
    )
    page = sdk_client.games_page(preset="pagat", page=2, page_size=20)
    assert page.total == 41 and page.page == 2 and page.has_next_page()
    assert page.items[0].teams[0] == GameTeam("Us", ("Ann", "Bo"))


def test_game_and_delete(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{GAMES}/12", json=GAME_JSON, headers={"ETag": '"v3"'})
    rsps.delete(f"{GAMES}/12", status=204, match=[matchers.header_matcher({"If-Match": '"v3"'})])
    rsps.delete(f"{GAMES}/13", status=204)
    game = sdk_client.game(12)
    assert game.etag == '"v3"'
    sdk_client.delete_game(12, if_match=game.etag)
    sdk_client.delete_game(13)
    assert "If-Match" not in sent(rsps).headers


def test_round_and_revisions(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{GAMES}/12/rounds/1", json=ROUND_JSON, headers={"ETag": '"r1"'})
    revision = {
        "revision": 1,
        "current": False,
        "request": ROUND_JSON["request"],
        "teams": ROUND_JSON["teams"],
        "created_at": "2026-11-29T12:00:00+00:00",
        "replaced_at": "2026-11-29T12:10:00+00:00",
        "author": "phone",
    }
    rsps.get(
        f"{GAMES}/12/rounds/1/revisions",
        json=[revision, {**revision, "revision": 2, "current": True, "replaced_at": None, "author": None}],
    )
    r = sdk_client.round(12, 1)
    assert r.etag == '"r1"' and r.request["teams"][0]["name"] == "Us"  # type: ignore[index]
    old, current = sdk_client.revisions(12, 1)
    assert isinstance(old, Revision) and old.author == "phone" and not old.current and current.current
    assert str(old) == "revision 1 (replaced 2026-11-29 12:10 by phone): Us 3,740, Them 1,075"
    assert str(current) == "revision 2 (current): Us 3,740, Them 1,075"


def test_correct_round_reads_the_etag_first(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    url = f"{GAMES}/12/rounds/1"
    rsps.get(url, json=ROUND_JSON, headers={"ETag": '"r1"'})
    rsps.put(
        url,
        json={**ROUND_JSON, "revision": 2},
        headers={"ETag": '"r2"'},
        match=[matchers.header_matcher({"If-Match": '"r1"'}), matchers.json_params_matcher({"teams": TEAMS})],
    )
    r = sdk_client.correct_round(12, 1, teams=TEAMS)
    assert r.revision == 2 and r.etag == '"r2"'
    assert "Round 1 (revision 2)" in str(r)


def test_correct_round_with_if_match_skips_the_read(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.put(f"{GAMES}/12/rounds/1", json=ROUND_JSON, match=[matchers.header_matcher({"If-Match": '"r7"'})])
    sdk_client.correct_round(12, 1, teams=TEAMS, if_match='"r7"')
    assert len(rsps.calls) == 1


def test_correct_round_412_says_someone_else_changed_it(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    url = f"{GAMES}/12/rounds/1"
    rsps.get(url, json=ROUND_JSON, headers={"ETag": '"r1"'})
    rsps.put(url, status=412, json=problem(412, "Precondition failed", detail="stale ETag"), content_type=PROBLEM_JSON)
    other = [{"name": "Us", "tally": {"clean_books": 3}}, {"name": "Them", "tally": {}}]
    rsps.get(url, json={**ROUND_JSON, "revision": 2, "request": {"teams": other}}, headers={"ETag": '"r2"'})
    with pytest.raises(PreconditionFailedError) as info:
        sdk_client.correct_round(12, 1, teams=TEAMS)
    message = str(info.value)
    assert "round 1 of game 12 was changed by someone else" in message
    assert "revision 2" in message and "stale ETag" in message
    assert info.value.status == 412
    assert sum(call.request.method == "PUT" for call in rsps.calls) == 1  # never retried


def test_correct_round_412_after_our_own_lost_answer_returns_the_round(
    rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]
) -> None:
    url = f"{GAMES}/12/rounds/1"
    rsps.put(url, body=requests.ConnectionError("reset after the write"))
    rsps.put(url, status=412, json=problem(412, "Precondition failed"), content_type=PROBLEM_JSON)
    rsps.get(url, json={**ROUND_JSON, "revision": 2}, headers={"ETag": '"r2"'})
    r = sdk_client.correct_round(12, 1, teams=TEAMS, if_match='"r1"')
    assert r.revision == 2 and r.etag == '"r2"'


def test_correct_round_sends_one_idempotency_key_reused_on_its_retries(
    rsps: responses.RequestsMock, sdk_client: Client, sleeps: list[float]
) -> None:
    """As ``add_round``: a key made once per call, the same on every retry (a lost answer, a 503),
    so the server replays its first answer and stores one revision; a new call, a new key."""
    url = f"{GAMES}/12/rounds/1"
    rsps.put(url, body=requests.ConnectionError("reset after the write"))
    rsps.put(url, status=503, json=problem(503, "Database unavailable"), content_type=PROBLEM_JSON)
    rsps.put(url, json={**ROUND_JSON, "revision": 2}, headers={"ETag": '"r2"', "Idempotent-Replayed": "true"})
    r = sdk_client.correct_round(12, 1, teams=TEAMS, if_match='"r1"')
    assert r.revision == 2 and r.etag == '"r2"'
    keys = [call.request.headers["Idempotency-Key"] for call in rsps.calls]
    assert len(keys) == 3 and len(set(keys)) == 1 and KEY.match(keys[0])
    rsps.put(url, json={**ROUND_JSON, "revision": 3})
    sdk_client.correct_round(12, 1, teams=TEAMS, if_match='"r2"')
    assert rsps.calls[-1].request.headers["Idempotency-Key"] not in keys
    sdk_client.correct_round(12, 1, teams=TEAMS, if_match='"r3"', idempotency_key="mine")
    assert rsps.calls[-1].request.headers["Idempotency-Key"] == '"mine"'


def test_scoresheet_rows_for_pandas(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.get(f"{GAMES}/12/scoresheet", json=SHEET_JSON)
    sheet = sdk_client.scoresheet(12)
    assert isinstance(sheet, Scoresheet)
    assert sheet.columns() == ["round", "Us", "Us total", "Them", "Them total"]
    assert sheet.rows() == [
        {"round": 1, "Us": 3740, "Us total": 3740, "Them": 1075, "Them total": 1075},
        {"round": 2, "Us": -200, "Us total": 3540, "Them": 900, "Them total": 1975},
    ]
    assert sheet.running_totals() == {"Us": [3740, 3540], "Them": [1075, 1975]}
    text = str(sheet)
    assert "round     Us  Us total   Them  Them total" in text
    assert "in progress: Us leads" in text
    assert '<th style="text-align:right">Us total</th>' in sheet._repr_html_()


def test_scoresheet_csv(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    csv = '"round","Us","Us total","Thém","Thém total"\r\n1,3740,3740,1075,1075\r\n'
    rsps.get(
        f"{GAMES}/12/scoresheet",
        body=csv.encode("utf-8"),
        content_type="text/csv",
        match=[matchers.header_matcher({"Accept": "text/csv"})],
    )
    assert sdk_client.scoresheet_csv(12) == csv


def test_a_finished_game_summary_says_who_won() -> None:
    g = GameSummary.from_json({**SUMMARY_JSON, "status": "finished", "winner": "Us"})
    assert g.finished and g.winner == "Us"
    assert "finished: Us won" in str(g)


def test_a_game_summary_without_a_member_the_spec_requires_is_refused() -> None:
    """Every member of ``GameSummary`` is always sent (the spec's ``required``): one left out is an
    answer the SDK cannot trust, named rather than filled with a made-up value."""
    with pytest.raises(APIResponseValidationError, match=r"^GameSummary: missing member 'tie'$"):
        GameSummary.from_json({k: v for k, v in SUMMARY_JSON.items() if k != "tie"})
