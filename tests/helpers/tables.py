"""Helpers of the tables tests: a table made over HTTP, its true state read from the database, a seat
driven by the engine's reference policies, and the hidden-information check every answer goes through."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from handfoot.engine.play import State
from handfoot.engine.play.bots import actor, greedy_policy
from handfoot.server.db import get_db
from handfoot.server.services import store
from handfoot.server.services import tables as tables_svc

TEAMS = [{"name": "North-South", "players": ["North", "South"]}, {"name": "East-West", "players": ["East", "West"]}]
CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$|^JK$")
CARD_IN_TEXT = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b|\bJK\b")


def create(flask_client: FlaskClient, **extra: Any) -> dict[str, Any]:
    body = {"name": "Bots", "preset": "pagat", "teams": TEAMS, "seed": 424242, **extra}
    response = flask_client.post("/v1/tables", json=body)
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def seat_headers(created: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Seat-Token": created["seats"][seat]["token"]}


def true_table(app: Flask, table_id: int) -> tables_svc.TableData:
    """The table as stored (its hidden cards included), read beside the API."""
    db = get_db(app)
    db.end_session(quietly=True)
    return store.read(db, lambda session: tables_svc._load(session, table_id))


def true_state(app: Flask, table_id: int) -> State:
    return true_table(app, table_id).state


def card_strings(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every card string in a JSON value, with its path."""
    if isinstance(value, str):
        if CARD.match(value):
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_strings(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from card_strings(item, (*path, i))


def assert_hides(answer: Any, state: State, seat: int, table_seed: int) -> None:
    """``answer`` (a SeatView, a problem, an event's data) shown to ``seat`` while ``state`` is in
    play holds no card but the seat's own and the public ones, no stock, and neither seed."""
    text = json.dumps(answer)
    numbers = set(re.findall(r"\d+", text))
    assert str(state.seed) not in numbers
    assert table_seed < 1000 or str(table_seed) not in numbers  # a small seed is any small number
    mine = Counter(c.code for c in state.seats[seat].hand)
    public = {tuple(c.code for c in m) for side in state.sides for m in side.melds}
    for path, code in card_strings(answer):
        where = [p for p in path if isinstance(p, str)]
        if where[:2] == ["view", "hand"] or (where[:2] == ["view", "actions"]):
            assert code in mine, (path, code)
        elif where[:2] == ["view", "sides"] and where[2:3] in (["melds"], ["red_threes"], ["burn"]):
            side = state.sides[path[2]]
            if where[2] == "melds":
                assert tuple(answer["view"]["sides"][path[2]]["melds"][path[4]]) in public
            else:
                assert code in {c.code for c in getattr(side, where[2])}, (path, code)
        elif where[:3] == ["view", "pile", "top"]:
            assert code == state.pile[0].code
        elif where[:1] == ["last_round"]:
            continue  # an ended round: public
        elif where[:2] == ["view", "history"]:
            # the round's public events (tests/engine/play/test_play_history.py: each card named was
            # laid, discarded, taken from the pile or a red three laid out): the stored round's own
            assert answer["view"]["history"][path[2]] == json.loads(json.dumps(state.history[path[2]])), path
            assert path[3] in ("cards", "melds", "add", "burn", "card"), path
        else:
            raise AssertionError(f"a card at {path}: {code}")
    if isinstance(answer, dict) and "view" in answer:
        view = answer["view"]
        assert Counter(view["hand"]) == mine
        top = [view["pile"]["top"]] if view["pile"]["top"] else []
        assert set(view["cards"]) == {*mine, *top}  # card facts: the hand's and the pile top's only
        assert not {"hands", "feet", "seed", "stock"} & set(view)
        for s, shown in zip(state.seats, view["seats"], strict=True):
            assert set(shown) == {"name", "side", "hand_size", "foot_size", "played_from_foot"}
            assert shown["hand_size"] == len(s.hand)
    for item in answer.get("errors", []) if isinstance(answer, dict) else []:
        for code in CARD_IN_TEXT.findall(item["detail"]) + CARD_IN_TEXT.findall(answer.get("detail", "")):
            assert code in mine, code


def play_turn(
    flask_client: FlaskClient, app: Flask, created: dict[str, Any], rng: random.Random, check: bool = True
) -> dict[str, Any]:
    """The acting seat's greedy move, sent candidate after candidate until one is taken; every answer
    (the view, each refusal) checked for hidden information. The greedy policy sends only bodies the
    view lists, so its first candidate is taken (what the view lists, the table accepts). Returns the
    accepted action's answer."""
    table = true_table(app, created["id"])
    state = tables_svc.shown(table).state
    seat = actor(state)
    headers = seat_headers(created, seat)
    view = flask_client.get(f"/v1/tables/{created['id']}/view", headers=headers).get_json()
    if check:
        assert_hides(view, state, seat, table.seed)
    for tried, action in enumerate(greedy_policy(view["view"], state.rules, rng)):
        action = {k: v for k, v in action.items() if k != "seat"}  # as a seat posts it: the token says the seat
        response = flask_client.post(
            f"/v1/tables/{created['id']}/actions", headers=headers, json={"version": view["version"], "action": action}
        )
        answer = response.get_json()
        if response.status_code == 200:
            if check and answer["status"] == "playing" and answer["round"] == state.round:
                assert_hides(answer, true_state(app, created["id"]), seat, table.seed)
            assert tried == 0, f"listed, then refused: {answer}"
            return dict(answer)
        assert response.status_code == 422, answer
        if check:
            assert_hides(answer, state, seat, table.seed)
    raise AssertionError("no candidate taken")


def play_round(
    flask_client: FlaskClient, app: Flask, created: dict[str, Any], seed: int = 1, check: bool = True
) -> dict[str, Any]:
    """Play the table's round to its end by greedy moves; the answer of the action that ended it."""
    rng = random.Random(seed)
    number = true_table(app, created["id"]).round
    for _ in range(5000):
        answer = play_turn(flask_client, app, created, rng, check)
        if answer["round"] != number or answer["status"] == "finished":
            return answer
    raise AssertionError("the round did not end")
