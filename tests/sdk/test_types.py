"""The result types against the server: every type loads a real answer of each operation, gives
it back member for member with ``to_dict()``, and survives pickle, ``copy.deepcopy`` and
``dataclasses.asdict``. (Their fields against the spec: tests/contract/test_sdk_coverage.py.)"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import handfoot.client
from handfoot import engine
from handfoot.client import types
from handfoot.client._loader import Result, load
from handfoot.engine.play.bots import greedy_policy
from tests.contract.test_sdk_coverage import SCHEMA_OF, SPEC
from tests.helpers.live import PROJECT_ROOT, LiveServer
from tests.sdk.test_games import SUMMARY_JSON

WORKED_ROUND: dict[str, Any] = json.loads((PROJECT_ROOT / "examples" / "worked_round.json").read_text("utf-8"))

#: Every result type the SDK declares.
RESULT_TYPES = {
    cls for name in types.__all__ if isinstance(cls := getattr(types, name), type) and issubclass(cls, Result)
}


# --------------------------------------------------------------------------- a real answer of each operation


def answers(server: LiveServer) -> Iterator[tuple[str, type[Result], object]]:
    """``(operation, result type, decoded JSON)`` for each operation, as the server sent them."""
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {server.api_key}"

    def call(method: str, path: str, body: object = None, **headers: str) -> Any:
        response = http.request(method, server.url + path, json=body, headers=headers, timeout=30)
        assert response.status_code in (200, 201), response.text
        return response.json()

    call.base = server.url  # type: ignore[attr-defined]  # for the table's keyed actions

    teams = WORKED_ROUND["teams"]
    yield "GET /health", types.Health, call("GET", "/health")
    yield "GET /health/ready", types.Health, call("GET", "/health/ready")
    yield "GET /health/live", types.Liveness, call("GET", "/health/live")
    for item in call("GET", "/v1/presets"):
        yield "GET /v1/presets", types.PresetSummary, item
        yield f"GET /v1/presets/{item['id']}", types.Preset, call("GET", f"/v1/presets/{item['id']}")
    yield "POST /v1/rounds/score", types.RoundScore, call("POST", "/v1/rounds/score", WORKED_ROUND)
    house = {**WORKED_ROUND, "rules": {"clean_book_bonus": 400}}
    yield "POST /v1/rounds/score (house rules)", types.RoundScore, call("POST", "/v1/rounds/score", house)
    compare = {"presets": ["pagat", "bicycle"], "teams": teams}
    yield "POST /v1/rounds/compare", types.RoundComparison, call("POST", "/v1/rounds/compare", compare)
    out_early = [{"name": "A", "went_out": True, "tally": {}}, {"name": "B", "tally": {}}]  # no contract
    refused = {"presets": ["pagat", "bicycle"], "teams": out_early}
    yield "POST /v1/rounds/compare (refused)", types.RoundComparison, call("POST", "/v1/rounds/compare", refused)
    for cards in (["9D", "2S", "2C", "JK"], ["KS", "KH", "KD"], ["KS", "9H", "2C"]):
        meld = {"preset": "pagat", "cards": cards}
        yield "POST /v1/melds/validate", types.MeldCheck, call("POST", "/v1/melds/validate", meld)
    opening = {"preset": "pagat", "round": 1, "melds": [["KS", "KH", "KD"]]}
    yield "POST /v1/openings/check", types.OpeningCheck, call("POST", "/v1/openings/check", opening)
    going_out = {"preset": "pagat", "melds": [["KS", "KH", "KD"]], "players": [{"name": "N", "hand": []}]}
    yield "POST /v1/going-out/check", types.GoingOutCheck, call("POST", "/v1/going-out/check", going_out)
    pile = {"preset": "pagat", "hand": ["KS", "KH"], "pile": ["KD", "4C"]}
    yield "POST /v1/discard-pile/check", types.DiscardPileCheck, call("POST", "/v1/discard-pile/check", pile)

    sides = [{"name": "Team 1", "players": ["North", "South"]}, {"name": "Team 2", "players": ["East", "West"]}]
    created = call("POST", "/v1/games", {"name": "Types", "preset": "pagat", "teams": sides})
    yield "POST /v1/games", types.Game, created
    game = f"/v1/games/{created['id']}"
    yield "POST /v1/games/{id}/rounds", types.Round, call("POST", f"{game}/rounds", {"teams": teams})
    etag = http.get(server.url + f"{game}/rounds/1", timeout=30).headers["ETag"]
    corrected = call("PUT", f"{game}/rounds/1", {"teams": teams[::-1]}, **{"If-Match": etag})
    yield "PUT /v1/games/{id}/rounds/{n}", types.Round, corrected
    yield "GET /v1/games/{id}/rounds/{n}", types.Round, call("GET", f"{game}/rounds/1")
    for item in call("GET", f"{game}/rounds/1/revisions"):
        yield "GET /v1/games/{id}/rounds/{n}/revisions", types.Revision, item
    yield "GET /v1/games/{id} (in progress)", types.Game, call("GET", game)
    for _ in range(3):  # pagat's four rounds: the game is finished
        call("POST", f"{game}/rounds", {"teams": teams})
    yield "GET /v1/games/{id} (finished)", types.Game, call("GET", game)
    for item in call("GET", "/v1/games?page_size=5"):
        yield "GET /v1/games", types.GameSummary, item
    yield "GET /v1/games/{id}/scoresheet", types.Scoresheet, call("GET", f"{game}/scoresheet")
    yield "GET /v1/games/stats", types.Statistics, call("GET", "/v1/games/stats")
    yield from table_answers(call)
    exported = http.get(server.url + "/v1/games/export", timeout=30)
    assert exported.status_code == 200, exported.text
    for line in exported.text.splitlines()[-2:]:  # one game a line
        yield "GET /v1/games/export", types.Game, json.loads(line)


def table_answers(call: Any) -> Iterator[tuple[str, type[Result], object]]:
    """A table's answers: created, its summary, a seat's views and actions through its first round
    (played by the engine's greedy policy for every seat, one seat at a time), the round ended."""
    sides = [{"name": "NS", "players": ["N", "S"]}, {"name": "EW", "players": ["E", "W"]}]
    created = call("POST", "/v1/tables", {"name": "Types table", "preset": "pagat", "teams": sides, "seed": 3})
    yield "POST /v1/tables", types.TableCreated, created
    table = f"/v1/tables/{created['id']}"
    tokens = [seat["token"] for seat in created["seats"]]
    yield "GET /v1/tables/{id}", types.Table, call("GET", table)
    rules = engine.rules_of({"preset": "pagat"}).rules
    rng = random.Random(3)
    views = [call("GET", f"{table}/view", **{"Seat-Token": token}) for token in tokens]
    yield "GET /v1/tables/{id}/view", types.SeatView, views[0]
    while views[0]["round"] == 1:
        seat = next(i for i, v in enumerate(views) if v["view"]["actions"])
        for action in greedy_policy(views[seat]["view"], rules, rng):
            answer = requests.post(
                call.base + f"{table}/actions",
                timeout=30,
                json={"version": views[seat]["version"], "action": action},
                headers={"Seat-Token": tokens[seat], "Idempotency-Key": f'"{uuid.uuid4()}"'},
            )
            if answer.status_code == 200:
                break
            assert answer.status_code == 422, answer.text
        views = [call("GET", f"{table}/view", **{"Seat-Token": token}) for token in tokens]
    yield "POST /v1/tables/{id}/actions (round 2 dealt)", types.SeatView, answer.json()
    yield "GET /v1/tables/{id}/view (after a round)", types.SeatView, views[1]
    yield (
        "GET /v1/tables/{id}/rounds/{n}",
        types.TableRound,
        call("GET", f"{table}/rounds/1", **{"Seat-Token": tokens[0]}),
    )


@pytest.fixture(scope="module")
def loaded(live_server: LiveServer) -> list[tuple[str, object, Result]]:
    return [(operation, data, load(cls, data)) for operation, cls, data in answers(live_server)]


def nested_results(value: object) -> Iterator[Result]:
    """``value`` and every result inside it."""
    if isinstance(value, Result):
        yield value
        for f in dataclasses.fields(value):  # type: ignore[arg-type]
            yield from nested_results(getattr(value, f.name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from nested_results(item)
    elif isinstance(value, tuple):
        for item in value:
            yield from nested_results(item)


def test_to_dict_is_what_the_server_sent(loaded: list[tuple[str, object, Result]]) -> None:
    for operation, data, result in loaded:
        assert result.to_dict() == data, operation
        assert type(result).from_json(result.to_dict()) == result, operation


def test_every_answer_is_valid_under_its_schema_in_the_document(loaded: list[tuple[str, object, Result]]) -> None:
    """Each answer against its schema in openapi/openapi.json (JSON Schema 2020-12, as OpenAPI 3.1's
    are): members listed as ``required`` are sent, types and ``null`` are as documented, no member
    is undocumented (``additionalProperties: false``)."""
    registry: Registry[Any] = Registry().with_resource("urn:handfoot:openapi", Resource(SPEC, DRAFT202012))
    for operation, data, result in loaded:
        ref = {"$ref": f"urn:handfoot:openapi#/components/schemas/{SCHEMA_OF[type(result)]}"}
        errors = [
            f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
            for error in Draft202012Validator(ref, registry=registry).iter_errors(data)
        ]
        assert errors == [], operation


def test_every_type_met_in_a_real_answer(loaded: list[tuple[str, object, Result]]) -> None:
    seen = {type(r) for _, _, result in loaded for r in nested_results(result)}
    assert seen == RESULT_TYPES


def test_results_pickle_deepcopy_and_asdict(loaded: list[tuple[str, object, Result]]) -> None:
    for operation, _data, result in loaded:
        for r in nested_results(result):
            assert pickle.loads(pickle.dumps(r)) == r, operation
            assert copy.deepcopy(r) == r, operation
            plain = dataclasses.asdict(r)  # type: ignore[call-overload]
            assert set(plain) == {f.name for f in dataclasses.fields(r)}  # type: ignore[arg-type]
            assert plain == dataclasses.asdict(copy.deepcopy(r))  # type: ignore[call-overload]
            json.dumps(plain, default=str)  # plain data all the way down


def test_a_copy_of_read_only_rules_stays_read_only(loaded: list[tuple[str, object, Result]]) -> None:
    preset = next(r for _, _, r in loaded if isinstance(r, types.Preset))
    for rules in (preset.rules, pickle.loads(pickle.dumps(preset)).rules, copy.deepcopy(preset).rules):
        with pytest.raises(TypeError):
            rules["book_size"] = 8  # type: ignore[index]
    house = dict(preset.rules)
    house["book_size"] = 8  # a plain dict copy is the way to build house rules
    assert preset.rules["book_size"] == 7


def test_the_etag_comes_from_the_header_and_stays_out_of_to_dict(live_server: LiveServer) -> None:
    with handfoot.client.Client(live_server.url, api_key=live_server.api_key) as hf:
        game = hf.create_game(
            name="ETag",
            preset="pagat",
            teams=[{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
        )
    assert game.etag and "etag" not in game.to_dict()
    assert pickle.loads(pickle.dumps(game)).etag == game.etag


def test_problem_details_pickle_and_deepcopy(live_server: LiveServer) -> None:
    with handfoot.client.Client(live_server.url) as hf, pytest.raises(handfoot.client.UnprocessableEntityError) as info:
        hf.validate_meld(preset="pagat", cards=["XX"])
    problem = info.value.problem
    assert problem.errors and pickle.loads(pickle.dumps(problem)) == problem == copy.deepcopy(problem)
    assert dataclasses.asdict(problem)["errors"][0]["code"] == "unknown_card"


def test_a_status_outside_game_status_is_refused() -> None:
    """``GameSummary.status`` is a ``GameStatus``: a value the type does not list is an
    ``APIResponseValidationError`` naming the member, not a string that no ``match`` arm handles."""
    item = {**SUMMARY_JSON, "status": "paused"}
    with pytest.raises(handfoot.client.APIResponseValidationError, match=r"status.*'in_progress'.*'paused'"):
        types.GameSummary.from_json(item)
    assert types.GameSummary.from_json({**item, "status": "tiebreaker"}).status == "tiebreaker"
