"""The table methods against a mocked server: bodies, headers, retries with one Idempotency-Key,
errors (a moved version carries the current one), long-poll timeouts and server-sent events."""

from __future__ import annotations

import json
from typing import Any

import pytest
import responses

from handfoot.client import (
    Client,
    ConflictError,
    NotFoundError,
    SeatView,
    Table,
    TableCreated,
    UnprocessableEntityError,
    VersionMovedError,
)
from handfoot.client._tables import SSEParser
from tests.helpers.sdk import BASE, PROBLEM_JSON, problem

TABLES = f"{BASE}/v1/tables"
TEAMS: list[Any] = [{"name": "NS", "players": ["N", "S"]}, {"name": "EW", "players": ["E", "W"]}]
CREATED = {
    "id": 3,
    "game": 12,
    "href": "/v1/tables/3",
    "status": "playing",
    "round": 1,
    "version": 0,
    "practice": True,
    "seats": [
        {"seat": i, "name": n, "side": i % 2, "token": f"hf_seat_{i}"} for i, n in enumerate(["N", "E", "S", "W"])
    ],
}


def seat_view(version: int = 5, *, status: str = "playing", actions: list[Any] | None = None) -> dict[str, Any]:
    return {
        "table": 3,
        "game": 12,
        "status": status,
        "version": version,
        "round": 1,
        "rounds": 4,
        "preset": "pagat",
        "rules": {"meld_min": 4},
        "view": {
            "seat": 0,
            "phase": "draw",
            "hand": ["KS", "7H"],
            "actions": [{"type": "draw", "cards": 2}] if actions is None else actions,
        },
        "last_round": None,
    }


def test_create_table_sends_the_body_once_keyed_and_reads_the_tokens(
    rsps: responses.RequestsMock, sdk_client: Client
) -> None:
    rsps.post(TABLES, status=503)
    rsps.post(TABLES, json=CREATED, status=201)
    table = sdk_client.create_table(name="Noon", preset="pagat", teams=TEAMS, seed=7, play={"ask_partner": True})
    assert isinstance(table, TableCreated) and table.to_dict() == CREATED
    assert table.tokens == ["hf_seat_0", "hf_seat_1", "hf_seat_2", "hf_seat_3"]
    first, second = (call.request for call in rsps.calls)
    assert json.loads(first.body or b"") == {
        "name": "Noon",
        "preset": "pagat",
        "teams": TEAMS,
        "seed": 7,
        "play": {"ask_partner": True},
    }
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"]


def test_create_table_needs_a_new_game_or_a_stored_one(sdk_client: Client) -> None:
    with pytest.raises(ValueError, match="preset and teams"):
        sdk_client.create_table(preset="pagat")
    with pytest.raises(ValueError, match="game alone"):
        sdk_client.create_table(game=12, preset="pagat")


def test_a_summary_has_no_tokens(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    summary = {key: CREATED[key] for key in ("id", "game", "href", "status", "round", "version", "practice")} | {
        "seats": [{"seat": 0, "name": "N", "side": 0, "hand_size": 11, "foot_size": 11}],
        "phase": "draw",
        "turn": 0,
        "sides": [{"name": "NS", "score": 0}],
        "created_at": "2026-12-01T12:00:00+00:00",
        "updated_at": "2026-12-01T12:00:05+00:00",
    }
    rsps.get(f"{TABLES}/3", json=summary)
    table = sdk_client.get_table(3)
    assert isinstance(table, Table) and table.seats[0].hand_size == 11 and table.turn == 0
    assert table.to_dict() == summary and not hasattr(table.seats[0], "token")


def test_seat_view_sends_the_token_and_waits_longer(
    rsps: responses.RequestsMock, sdk_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    timeouts: list[object] = []
    send = sdk_client._transport.session.request

    def spy(*args: Any, **kwargs: Any) -> Any:
        timeouts.append(kwargs.get("timeout"))
        return send(*args, **kwargs)

    monkeypatch.setattr(sdk_client._transport.session, "request", spy)
    rsps.get(f"{TABLES}/3/view", json=seat_view())
    sv = sdk_client.seat_view(3, "hf_seat_0", version=4, wait=20)
    request = rsps.calls[0].request
    assert request.headers["Seat-Token"] == "hf_seat_0"
    assert "version=4" in (request.url or "") and "wait=20" in (request.url or "")
    assert timeouts == [(3.05, 50)]
    assert sv.my_move and sv.phase == "draw" and sv.hand == ("KS", "7H")
    assert sv.action("draw") == {"type": "draw", "cards": 2} and sv.action("meld") is None
    plain = sv.plain_view()
    plain["hand"].append("2C")  # a mutable copy
    assert sv.hand == ("KS", "7H")
    with pytest.raises(ValueError, match="wait"):
        sdk_client.seat_view(3, "hf_seat_0", wait=61)


def test_a_moved_version_is_a_version_moved_error_with_the_current_version(
    rsps: responses.RequestsMock, sdk_client: Client
) -> None:
    body = problem(
        409,
        "Version moved",
        version=9,
        errors=[{"pointer": "/version", "code": "version_moved", "detail": "the table is at 9"}],
    )
    rsps.post(f"{TABLES}/3/actions", json=body, status=409, content_type=PROBLEM_JSON)
    with pytest.raises(VersionMovedError) as caught:
        sdk_client.act(3, "hf_seat_0", 5, {"type": "draw"})
    assert isinstance(caught.value, ConflictError) and caught.value.version == 9
    assert len(rsps.calls) == 1  # a 409 is not retried


def test_another_conflict_is_a_plain_conflict_error(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    rsps.post(f"{TABLES}/3/actions", json=problem(409, "Table finished"), status=409, content_type=PROBLEM_JSON)
    with pytest.raises(ConflictError) as caught:
        sdk_client.act(3, "hf_seat_0", 5, {"type": "draw"})
    assert not isinstance(caught.value, VersionMovedError)


def test_an_action_is_retried_with_the_same_key_and_sent_as_given(
    rsps: responses.RequestsMock, sdk_client: Client
) -> None:
    rsps.post(f"{TABLES}/3/actions", status=502)
    rsps.post(f"{TABLES}/3/actions", json=seat_view(6, actions=[]))
    sv = sdk_client.act(3, "hf_seat_0", 5, {"type": "discard", "card": "7H"})
    assert sv.version == 6 and not sv.my_move
    first, second = (call.request for call in rsps.calls)
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"]
    assert second.headers["Seat-Token"] == "hf_seat_0"
    assert json.loads(second.body or b"") == {"version": 5, "action": {"type": "discard", "card": "7H"}}


def test_a_refused_action_names_the_rule(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    body = problem(
        422,
        "Play refused",
        errors=[{"pointer": "/action/melds/0/2", "code": "card_not_held", "detail": "not in the hand"}],
    )
    rsps.post(f"{TABLES}/3/actions", json=body, status=422, content_type=PROBLEM_JSON)
    with pytest.raises(UnprocessableEntityError) as caught:
        sdk_client.act(3, "hf_seat_0", 5, {"type": "meld", "melds": [["KS", "KH", "KD"]]})
    assert [p.code for p in caught.value.problems] == ["card_not_held"]


def test_a_wrong_token_is_not_found(rsps: responses.RequestsMock, once: Client) -> None:
    rsps.get(f"{TABLES}/3/view", json=problem(404, "Table not found"), status=404, content_type=PROBLEM_JSON)
    with pytest.raises(NotFoundError):
        once.seat_view(3, "hf_seat_nope")


def test_table_round_with_a_token_or_the_key(rsps: responses.RequestsMock, sdk_client: Client) -> None:
    ended = {
        "round": 1,
        "seed": 123,
        "ended": "went_out",
        "out_side": 0,
        "actions": [{"seat": 0, "type": "draw"}],
        "score": [{"name": "NS", "total": 300, "lines": []}, {"name": "EW", "total": -40, "lines": []}],
        "game_round_href": "/v1/games/12/rounds/1",
    }
    rsps.get(f"{TABLES}/3/rounds/1", json=ended)
    rsps.get(f"{TABLES}/3/rounds/1", json=ended)
    assert sdk_client.table_round(3, 1, "hf_seat_0").score[1].total == -40
    assert sdk_client.table_round(3, 1).seed == 123
    assert rsps.calls[0].request.headers["Seat-Token"] == "hf_seat_0"
    assert "Seat-Token" not in rsps.calls[1].request.headers


def test_sse_parser_reads_events_ids_and_skips_comments() -> None:
    parser = SSEParser()
    lines = [": keep-alive", "id: 7", "event: view", 'data: {"a":', "data: 1}", "", "", "data: x", ""]
    events = [e for e in (parser.feed(line) for line in lines) if e is not None]
    assert events == [("7", "view", '{"a":\n1}'), ("7", "message", "x")]
    assert parser.last_id == "7"


def _stream(*views: dict[str, Any]) -> str:
    return "".join(f"id: {v['version']}\nevent: view\ndata: {json.dumps(v)}\n\n: ping\n\n" for v in views)


def test_seat_events_reconnect_with_last_event_id_until_finished(
    rsps: responses.RequestsMock, sdk_client: Client
) -> None:
    events = f"{TABLES}/3/events"
    rsps.get(events, body=_stream(seat_view(5), seat_view(6)), content_type="text/event-stream")
    rsps.get(events, body=_stream(seat_view(7, status="finished", actions=[])), content_type="text/event-stream")
    seen = list(sdk_client.seat_events(3, "hf_seat_0"))
    assert [sv.version for sv in seen] == [5, 6, 7]
    assert all(isinstance(sv, SeatView) for sv in seen) and seen[-1].finished and not seen[-1].my_move
    first, second = (call.request for call in rsps.calls)
    assert "Last-Event-ID" not in first.headers and second.headers["Last-Event-ID"] == "6"
    assert second.headers["Accept"] == "text/event-stream"
