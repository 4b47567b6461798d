"""The table over HTTP: creation, a seat's view, actions and their problems, a round played to its end
and stored in the game's history, a restart, Idempotency-Keys, the lazy yes on an unanswered ask.

A game a table is playing takes no round written straight on it (D51): an append, a correction and a
deletion are each a 409 ``table_open`` naming the table, and change nothing; once the table is finished
they are open again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from handfoot.engine.play import new_round, score_body, step
from handfoot.server.db import get_db
from handfoot.server.models import Table, TableAction
from handfoot.server.services.tables import round_seed
from tests.helpers.tables import TEAMS, card_strings, create, play_round, seat_headers, true_state, true_table

pytestmark = pytest.mark.db


PROBLEM = "application/problem+json"


def act(
    flask_client: FlaskClient, created: dict[str, Any], seat: int, version: int, action: dict[str, Any], **headers: str
) -> Any:
    return flask_client.post(
        f"/v1/tables/{created['id']}/actions",
        headers={**seat_headers(created, seat), **headers},
        json={"version": version, "action": action},
    )


def test_create_deals_the_first_round_and_shows_each_seat_its_own_hand(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    assert created["status"] == "playing" and created["round"] == 1 and created["version"] == 0
    assert [(s["seat"], s["name"], s["side"]) for s in created["seats"]] == [
        (0, "North", 0),
        (1, "East", 1),
        (2, "South", 0),
        (3, "West", 1),
    ]
    assert len({s["token"] for s in created["seats"]}) == 4
    stored = true_table(app, created["id"])
    assert all(s["token"] not in str(stored.seat_hashes) for s in created["seats"])  # hashes only
    state = true_state(app, created["id"])
    assert state.seed == round_seed(424242, 1)
    for seat in range(4):
        view = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, seat))
        assert view.status_code == 200 and view.headers["Cache-Control"] == "no-store"
        doc = view.get_json()
        assert doc["view"]["hand"] == [c.code for c in state.seats[seat].hand]
        assert doc["version"] == 0 and doc["rounds"] == 4 and doc["last_round"] is None
        assert bool(doc["view"]["actions"]) == (seat == 0)
    summary = flask_client.get(f"/v1/tables/{created['id']}").get_json()
    assert summary["phase"] == "draw" and summary["turn"] == 0 and summary["game"] == created["game"]
    assert [s["hand_size"] for s in summary["seats"]] == [len(s.hand) for s in state.seats]
    assert not list(card_strings(summary))  # no card at all
    game = flask_client.get(f"/v1/games/{created['game']}").get_json()
    assert game["name"] == "Bots" and [t["name"] for t in game["teams"]] == ["North-South", "East-West"]


def test_every_seat_view_names_the_rules_in_force(app: Flask, flask_client: FlaskClient) -> None:
    """The game's preset and house rules, as stored with the game, in the view, an action's answer
    and an event; a continued game's table shows the game's own."""
    house = {"clean_book_bonus": 400, "hand_size_by_round": [13, 12, 11, 10]}
    created = create(flask_client, rules=house)
    game = flask_client.get(f"/v1/games/{created['game']}").get_json()
    assert game["house_rules"] == house
    view = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 1)).get_json()
    assert (view["preset"], view["rules"]) == ("pagat", house)
    assert len(view["view"]["hand"]) == 13  # the rules shown are the rules dealt
    answer = act(flask_client, created, 0, 0, {"type": "draw"}).get_json()
    assert (answer["preset"], answer["rules"]) == ("pagat", house)
    stream = flask_client.get(f"/v1/tables/{created['id']}/events?wait=1", headers=seat_headers(created, 2))
    event = next(line for line in stream.get_data(as_text=True).splitlines() if line.startswith("data: "))
    assert {k: v for k, v in json.loads(event[len("data: ") :]).items() if k in ("preset", "rules")} == {
        "preset": "pagat",
        "rules": house,
    }
    plain = flask_client.post("/v1/games", json={"name": "Plain", "preset": "bga", "teams": TEAMS}).get_json()
    continued = flask_client.post("/v1/tables", json={"game": plain["id"], "seed": 1}).get_json()
    view = flask_client.get(f"/v1/tables/{continued['id']}/view", headers=seat_headers(continued, 0)).get_json()
    assert (view["preset"], view["rules"]) == ("bga", {})


def test_an_action_moves_the_version_and_is_logged(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    response = act(flask_client, created, 0, 0, {"type": "draw"})
    assert response.status_code == 200
    doc = response.get_json()
    assert doc["version"] == 1 and doc["view"]["phase"] == "play"
    assert doc["view"]["hand"] == [c.code for c in true_state(app, created["id"]).seats[0].hand]
    with get_db(app).session() as session:
        rows = session.scalars(select(TableAction).where(TableAction.table_id == created["id"])).all()
        assert [(r.round, r.index, r.seat, r.action, r.version) for r in rows] == [
            (1, 0, 0, {"type": "draw", "seat": 0}, 1)
        ]


def test_a_stale_version_is_a_409_naming_the_current_one(flask_client: FlaskClient) -> None:
    created = create(flask_client)
    assert act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 200
    response = act(flask_client, created, 0, 0, {"type": "discard", "card": "JK"})
    assert response.status_code == 409 and response.content_type == PROBLEM
    problem = response.get_json()
    assert problem["version"] == 1 and problem["type"].endswith("/version-moved")
    assert problem["errors"] == [
        {"pointer": "/version", "code": "version_moved", "detail": "the table is at version 1"}
    ]


def test_illegal_actions_are_422_with_the_rules_codes_and_pointers(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    state = true_state(app, created["id"])
    not_turn = act(flask_client, created, 1, 0, {"type": "draw"})
    assert not_turn.status_code == 422 and not_turn.content_type == PROBLEM
    assert [(e.get("parameter"), e["code"]) for e in not_turn.get_json()["errors"]] == [("Seat-Token", "not_your_turn")]
    phase = act(flask_client, created, 0, 0, {"type": "discard", "card": state.seats[0].hand[0].code})
    assert [(e["pointer"], e["code"]) for e in phase.get_json()["errors"]] == [("/action/type", "wrong_phase")]
    other_seat = act(flask_client, created, 0, 0, {"type": "draw", "seat": 2})
    assert [(e["pointer"], e["code"]) for e in other_seat.get_json()["errors"]] == [("/action/seat", "unknown_action")]
    assert act(flask_client, created, 0, 0, {"type": "draw", "seat": 0}).status_code == 200  # its own seat: taken
    hand = [c.code for c in true_state(app, created["id"]).seats[0].hand]
    missing = next(c for c in ("AS", "AH", "AD", "AC", "KS", "KH") if c not in hand)
    not_held = act(flask_client, created, 0, 1, {"type": "discard", "card": missing})
    assert not_held.status_code == 422
    assert [(e["pointer"], e["code"]) for e in not_held.get_json()["errors"]] == [
        ("/action/card", "card_not_held")
    ]  # the member sent
    ranks = {}
    for code in hand:
        if code != "JK" and code[:-1] not in ("2", "3"):
            ranks.setdefault(code[:-1], code)
    mixed = list(ranks.values())[:3]
    bad_meld = act(flask_client, created, 0, 1, {"type": "meld", "melds": [mixed]})
    assert bad_meld.status_code == 422
    assert [(e["pointer"], e["code"]) for e in bad_meld.get_json()["errors"]] == [
        ("/action/melds/0", "mixed_ranks"),
        ("/action/melds", "opening_below_minimum"),
    ]
    not_a_card = act(flask_client, created, 0, 1, {"type": "discard", "card": "ZZ"})
    assert not_a_card.status_code == 422 and not_a_card.get_json()["type"].endswith("/invalid-card")
    assert not_a_card.get_json()["errors"][0]["pointer"].startswith("/action/")
    unknown = act(flask_client, created, 0, 1, {"type": "fly"})
    assert [(e["pointer"], e["code"]) for e in unknown.get_json()["errors"]] == [("/action/type", "unknown_action")]
    assert true_table(app, created["id"]).version == 1  # nothing refused was stored


def test_a_wrong_missing_or_other_tables_token_is_the_unknown_tables_404(flask_client: FlaskClient) -> None:
    created, other = create(flask_client), create(flask_client)
    path = f"/v1/tables/{created['id']}"
    unknown = flask_client.get("/v1/tables/999/view", headers=seat_headers(created, 0))
    answers = [
        flask_client.get(f"{path}/view", headers={"Seat-Token": "hf_seat_nope"}),
        flask_client.get(f"{path}/view"),
        flask_client.get(f"{path}/view", headers=seat_headers(other, 0)),
        flask_client.post(
            f"{path}/actions", headers=seat_headers(other, 0), json={"version": 0, "action": {"type": "draw"}}
        ),
        flask_client.get(f"{path}/events", headers=seat_headers(other, 1)),
        flask_client.get(f"{path}/rounds/1", headers={"Seat-Token": ""}),
    ]
    assert unknown.status_code == 404
    expected = {k: v for k, v in unknown.get_json().items() if k != "instance"}
    expected["detail"] = expected["detail"].replace("999", str(created["id"]))
    expected["errors"][0]["detail"] = expected["errors"][0]["detail"].replace("999", str(created["id"]))
    for response in answers:
        assert response.status_code == 404 and response.content_type == PROBLEM
        assert {k: v for k, v in response.get_json().items() if k != "instance"} == expected
        assert expected["errors"][0]["code"] == "table_not_found"


def test_continuing_a_stored_game(flask_client: FlaskClient) -> None:
    game = flask_client.post("/v1/games", json={"name": "Old", "preset": "pagat", "teams": TEAMS}).get_json()
    created = flask_client.post("/v1/tables", json={"game": game["id"], "seed": 5}).get_json()
    assert created["game"] == game["id"] and created["round"] == 1
    again = flask_client.post("/v1/tables", json={"game": game["id"]})
    assert again.status_code == 409 and again.get_json()["errors"][0]["code"] == "table_open"
    assert again.get_json()["table"] == created["id"]
    assert flask_client.post("/v1/tables", json={"game": 4242}).status_code == 404
    both = flask_client.post("/v1/tables", json={"game": game["id"], "preset": "pagat"})
    assert both.status_code == 422 and both.get_json()["errors"][0]["pointer"] == "/preset"


def test_bad_creations_are_422_naming_the_field(flask_client: FlaskClient) -> None:
    one_side = flask_client.post("/v1/tables", json={"name": "x", "preset": "pagat", "teams": TEAMS[:1]})
    assert one_side.status_code == 422 and one_side.get_json()["errors"][0]["code"] == "team_count"
    bad_play = flask_client.post(
        "/v1/tables", json={"name": "x", "preset": "pagat", "teams": TEAMS, "play": {"fly": 1}}
    )
    assert bad_play.status_code == 422
    assert [(e["pointer"], e["code"]) for e in bad_play.get_json()["errors"]] == [("/play/fly", "unknown_rule")]
    short = flask_client.post(
        "/v1/tables",
        json={
            "name": "x",
            "preset": "bga",
            "teams": TEAMS,
            "rules": {
                "decks_per_player": 0,
                "decks_extra": 1,
                "hand_size": 30,
                "foot_size": 30,
                "contract": {"clean_books": 0, "dirty_books": 0, "wild_books": 0},
            },
        },
    )
    assert short.status_code == 422  # the decks cannot deal the round: refused, not a crash
    assert [(e["pointer"], e["code"]) for e in short.get_json()["errors"]] == [("/rules", "inconsistent_rules")]
    missing = flask_client.post("/v1/tables", json={"preset": "pagat", "teams": TEAMS})
    assert [(e["pointer"], e["code"]) for e in missing.get_json()["errors"]] == [("/name", "required")]
    assert flask_client.get("/v1/games").get_json() == []  # nothing half-written


#: Two decks for four players: rounds 1, 2 and 4 deal, round 3's 30-card feet do not (173 cards of 108).
LATER_ROUND_SHORT = {
    "decks_per_player": 0,
    "decks_extra": 2,
    "hand_size_by_round": [11, 12, 13, 11],
    "foot_size_by_round": [11, 11, 30, 11],
}


def test_rules_that_cannot_deal_a_later_round_are_refused_at_creation(flask_client: FlaskClient) -> None:
    """Round 1 deals, round 3 would not: the table is refused at once (422 at `/rules`, naming round 3),
    for a new game and for a stored one, and nothing is stored."""
    new = flask_client.post(
        "/v1/tables", json={"name": "x", "preset": "pagat", "teams": TEAMS, "rules": LATER_ROUND_SHORT}
    )
    assert new.status_code == 422, new.get_json()
    errors = new.get_json()["errors"]
    assert [(e["pointer"], e["code"]) for e in errors] == [("/rules", "inconsistent_rules")]
    assert errors[0]["detail"].startswith("round 3 deals 173 cards")
    assert flask_client.get("/v1/games").get_json() == []  # the new game went with the table
    stored = flask_client.post(
        "/v1/games", json={"name": "Kept", "preset": "pagat", "teams": TEAMS, "rules": LATER_ROUND_SHORT}
    ).get_json()
    before = flask_client.get(f"/v1/games/{stored['id']}").get_json()
    continued = flask_client.post("/v1/tables", json={"game": stored["id"]})
    assert continued.status_code == 422
    assert [(e["pointer"], e["code"]) for e in continued.get_json()["errors"]] == [("/rules", "inconsistent_rules")]
    assert flask_client.get(f"/v1/games/{stored['id']}").get_json() == before
    fine = {**LATER_ROUND_SHORT, "foot_size_by_round": [11, 11, 11, 11]}  # every round deals: a table
    assert (
        flask_client.post(
            "/v1/tables", json={"name": "y", "preset": "pagat", "teams": TEAMS, "rules": fine}
        ).status_code
        == 201
    )


def test_a_round_played_to_its_end_is_stored_in_the_game_scored_by_the_one_path(
    app: Flask, flask_client: FlaskClient
) -> None:
    created = create(flask_client, rules={"rounds": 2})
    ended = play_round(flask_client, app, created)
    assert ended["round"] == 2 and ended["status"] == "playing" and ended["view"]["phase"] == "draw"
    last = ended["last_round"]
    assert last["round"] == 1 and last["seed"] == round_seed(424242, 1) and last["ended"] in ("went_out", "stock_out")
    game = flask_client.get(f"/v1/games/{created['game']}").get_json()
    assert game["rounds_played"] == 1
    stored = flask_client.get(game["rounds"][0]["href"]).get_json()
    log = flask_client.get(last["href"], headers=seat_headers(created, 1)).get_json()
    assert log["seed"] == last["seed"] and log["game_round_href"] == game["rounds"][0]["href"]
    # the game's round points to the table's log (stored once), not a copy of it
    assert stored["request"] == {
        "round": 1,
        "play": {"table": created["id"], "seed": last["seed"], "ended": last["ended"], "out_side": last["out_side"]},
    }
    # replayed from its seed and log, the round's end state scores as the table and the game say
    state = new_round("pagat", [(t["name"], t["players"]) for t in TEAMS], log["seed"], 1, {"rounds": 2})
    for action in log["actions"]:
        state = step(state, action)
    assert state.phase == "ended" and state.ended == log["ended"]
    scored = flask_client.post("/v1/rounds/score", json=score_body(state)).get_json()
    assert [b["total"] for b in scored["teams"]] == [b["total"] for b in stored["teams"]]
    assert (
        [s["total"] for s in last["score"]]
        == [b["total"] for b in stored["teams"]]
        == [s["total"] for s in log["score"]]
    )
    # the next round: its own seed, the game's totals as the scores before it
    state2 = true_state(app, created["id"])
    assert state2.seed == round_seed(424242, 2) and state2.round == 2
    assert [s.score for s in state2.sides] == [t["total"] for t in game["totals"]]
    assert [s["score"] for s in ended["view"]["sides"]] == [t["total"] for t in game["totals"]]
    in_play = flask_client.get(f"/v1/tables/{created['id']}/rounds/2")
    assert in_play.status_code == 409 and in_play.get_json()["errors"][0]["code"] == "round_in_play"
    assert flask_client.get(f"/v1/tables/{created['id']}/rounds/3").status_code == 404
    # the last round ends the game: the table is finished
    final = play_round(flask_client, app, created, seed=2)
    assert final["status"] == "finished" and final["view"]["phase"] == "ended"
    assert final["view"]["seed"] == round_seed(424242, 2)
    game = flask_client.get(f"/v1/games/{created['game']}").get_json()
    assert game["status"] == "finished" and game["rounds_played"] == 2
    late = act(flask_client, created, 0, final["version"], {"type": "draw"})
    assert late.status_code == 409 and late.get_json()["errors"][0]["code"] == "table_finished"


def test_a_table_survives_a_restart(make_app: Callable[..., Flask]) -> None:
    first = make_app()
    flask_client = first.test_client()
    created = create(flask_client)
    assert act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 200
    before = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 0)).get_json()
    get_db(first).dispose()
    second = make_app()
    client2 = second.test_client()
    after = client2.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 0)).get_json()
    assert after == before
    card = after["view"]["hand"][0]
    moved = act(client2, created, 0, 1, {"type": "discard", "card": card})
    assert moved.status_code == 200 and moved.get_json()["view"]["turn"] == 1


def test_an_action_retried_with_its_idempotency_key_is_taken_once(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client)
    first = act(flask_client, created, 0, 0, {"type": "draw"}, **{"Idempotency-Key": '"draw-1"'})
    again = act(flask_client, created, 0, 0, {"type": "draw"}, **{"Idempotency-Key": '"draw-1"'})
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true" and again.get_json() == first.get_json()
    assert true_table(app, created["id"]).version == 1
    # the same key from another seat is that seat's own: not a replay of seat 0's answer
    other = act(flask_client, created, 1, 0, {"type": "draw"}, **{"Idempotency-Key": '"draw-1"'})
    assert other.status_code == 409 and "Idempotent-Replayed" not in other.headers


def test_a_creation_retried_with_its_idempotency_key_gives_the_same_tokens(flask_client: FlaskClient) -> None:
    body = {"name": "Once", "preset": "pagat", "teams": TEAMS}
    first = flask_client.post("/v1/tables", json=body, headers={"Idempotency-Key": "t-1"})
    again = flask_client.post("/v1/tables", json=body, headers={"Idempotency-Key": "t-1"})
    assert first.status_code == again.status_code == 201 and again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert len(flask_client.get("/v1/games").get_json()) == 1


def test_an_unanswered_ask_is_a_yes_after_the_timeout(app: Flask, flask_client: FlaskClient) -> None:
    created = create(flask_client, answer_timeout=30)
    assert act(flask_client, created, 0, 0, {"type": "draw"}).status_code == 200
    asked = act(flask_client, created, 0, 1, {"type": "ask"}).get_json()
    assert asked["view"]["phase"] == "answer" and asked["view"]["answerer"] == 2
    early = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 0)).get_json()
    assert early["version"] == 2 and early["view"]["phase"] == "answer"  # not yet due
    with get_db(app).write_session() as session:  # the clock moved on past the timeout
        session.execute(
            update(Table)
            .where(Table.id == created["id"])
            .values(answer_due_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    late = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 0)).get_json()
    assert late["version"] == 3 and late["view"]["phase"] == "play" and late["view"]["permission"] is True
    assert act(flask_client, created, 2, 2, {"type": "answer", "yes": False}).status_code == 409  # moved on
    card = late["view"]["hand"][0]
    assert act(flask_client, created, 0, 3, {"type": "discard", "card": card}).status_code == 200
    with get_db(app).session() as session:  # the yes was written by the next action, before it
        last = session.scalars(
            select(TableAction).where(TableAction.table_id == created["id"]).order_by(TableAction.version.desc())
        ).all()[:2]
        assert [a.action for a in last] == [
            {"type": "discard", "card": card, "seat": 0},
            {"type": "answer", "yes": True, "seat": 2, "timed_out": True},
        ]


def test_random_seed_by_default_and_hidden(flask_client: FlaskClient, app: Flask) -> None:
    created = flask_client.post("/v1/tables", json={"name": "x", "preset": "pagat", "teams": TEAMS}).get_json()
    seed = true_table(app, created["id"]).seed
    view = flask_client.get(f"/v1/tables/{created['id']}/view", headers=seat_headers(created, 0)).get_data(as_text=True)
    assert str(round_seed(seed, 1)) not in view and str(seed) not in view and str(seed) not in str(created)
    other = flask_client.post("/v1/tables", json={"name": "y", "preset": "pagat", "teams": TEAMS}).get_json()
    assert true_state(app, other["id"]).seats[0].hand != true_state(app, created["id"]).seats[0].hand


OUT = {
    "clean_books": 2,
    "dirty_books": 2,
    "wild_books": 1,
    "red_threes_on_table": 1,
    "table_points": 465,
    "points_left": 25,
}
OTHER = {"clean_books": 1, "dirty_books": 2, "red_threes_caught": 1, "table_points": 260, "points_left": 185}
ROUND = [{"name": "North-South", "went_out": True, "tally": OUT}, {"name": "East-West", "tally": OTHER}]


def assert_table_open(response: Any, table: dict[str, Any]) -> None:
    assert response.status_code == 409, response.get_json()
    assert response.content_type == "application/problem+json"
    problem = response.get_json()
    assert problem["type"].endswith("/table-open")
    assert problem["table"] == table["id"] and problem["href"] == table["href"] == f"/v1/tables/{table['id']}"
    assert [(e.get("parameter"), e["code"]) for e in problem["errors"]] == [("game_id", "table_open")]
    assert table["href"] in problem["errors"][0]["detail"]


def test_round_writes_on_a_game_at_a_table_are_refused_until_it_is_finished(
    app: Flask, flask_client: FlaskClient
) -> None:
    game = flask_client.post(
        "/v1/games", json={"name": "Kept", "preset": "pagat", "teams": TEAMS, "rules": {"rounds": 2}}
    ).get_json()
    assert flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": ROUND}).status_code == 201
    table = flask_client.post("/v1/tables", json={"game": game["id"], "seed": 11}).get_json()
    assert table["round"] == 2
    before = flask_client.get(f"/v1/games/{game['id']}")
    round_1 = flask_client.get(f"/v1/games/{game['id']}/rounds/1")

    assert_table_open(flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": ROUND}), table)
    assert_table_open(
        flask_client.post(
            f"/v1/games/{game['id']}/rounds", json={"teams": ROUND, "round": 2}, headers={"Idempotency-Key": "k-append"}
        ),
        table,
    )
    corrected = [{**ROUND[0], "tally": {**OUT, "table_points": 470}}, ROUND[1]]
    assert_table_open(
        flask_client.put(
            f"/v1/games/{game['id']}/rounds/1", json={"teams": corrected}, headers={"If-Match": round_1.headers["ETag"]}
        ),
        table,
    )
    assert_table_open(
        flask_client.delete(f"/v1/games/{game['id']}/rounds/1", headers={"If-Match": before.headers["ETag"]}), table
    )
    after = flask_client.get(f"/v1/games/{game['id']}")
    assert after.get_json() == before.get_json() and after.headers["ETag"] == before.headers["ETag"]
    assert flask_client.get(f"/v1/games/{game['id']}/rounds/1").get_json() == round_1.get_json()

    ended = play_round(flask_client, app, table, check=False)  # the table's own append is not refused
    assert ended["status"] == "finished"
    finished = flask_client.get(f"/v1/games/{game['id']}")
    assert finished.get_json()["rounds_played"] == 2
    deleted = flask_client.delete(f"/v1/games/{game['id']}/rounds/2", headers={"If-Match": finished.headers["ETag"]})
    assert deleted.status_code == 204  # the table is finished: the game is the keeper's again
