"""The one-pass list fields of round requests (cards, melds, sides, players) answer exactly as the
marshmallow fields they replace.

The side lists taken as sent (``SideList``, ``plain_team``, ``plain_player``, ``plain_tally``) and the
score body taken as sent (``plain_score_body``) take exactly what marshmallow's own ``List(Nested(...))``
takes, meaning the same once its defaults are filled in, and refuse exactly what it refuses, with the same
errors.

Every request schema that takes sides or players is compared with a reference copy of itself whose
side and player lists are the plain ``fields.List(fields.Nested(...))`` (no one-pass path), on
bodies that hypothesis builds from valid sides and every kind of broken member: wrong types,
unknown members, names that are blank, invisible, too long or hold control characters, long card
strings, too many cards or melds, tallies, out-of-range perfect cuts, booleans for integers.

The one-pass card list fields (api/schemas.py CardList, MeldList) answer exactly like the
per-item fields they replace: the same values, and on bad items the same pointers and codes.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError, fields, validate

from handfoot.engine import RULE_FIELDS, HandFootError, round_from_mapping, score_round_request
from handfoot.server.problems import MAX_ERRORS_LISTED, engine_problem, flatten_messages
from handfoot.server.resources.checks.schemas import GoingOutCheckRequestSchema
from handfoot.server.resources.games.schemas import RoundCreateSchema, RoundUpdateSchema
from handfoot.server.resources.rounds.schemas import (
    PlayerSchema,
    RoundCompareRequestSchema,
    RoundScoreRequestSchema,
    SideList,
    TeamSchema,
    plain_player,
    plain_score_body,
    plain_team,
)
from handfoot.server.schemas import MAX_PLAYERS_PER_TEAM, MAX_TEAMS, Cards, Melds, RulesSchema, Schema, rules_ok
from tests.conftest import examples


def _reference(schema: type[Schema]) -> type[Schema]:
    """``schema`` with each SideList replaced by the ``List(Nested(...))`` it stands for."""
    replaced: dict[str, Any] = {}
    for name, field in schema._declared_fields.items():
        if isinstance(field, SideList):
            nested = field.inner
            assert isinstance(nested, fields.Nested)
            inner_schema = nested.nested
            if inner_schema is TeamSchema:
                inner_schema = _REF_TEAM
            replaced[name] = fields.List(
                fields.Nested(inner_schema),
                validate=field.validators,
                required=field.required,
                load_default=field.load_default,
                metadata=field.metadata,
            )
    return type(f"Reference{schema.__name__}", (schema,), replaced)


class _RefTeam(TeamSchema):
    players = fields.List(
        fields.Nested(PlayerSchema), validate=validate.Length(max=MAX_PLAYERS_PER_TEAM), load_default=list
    )


_REF_TEAM = _RefTeam

#: Card strings the schema takes (the engine judges them later) and ones it refuses (longer than 8).
GOOD_CARDS = st.sampled_from(["KS", "10H", "TD", "4♣", "JK", "2C", "3H", "kd", " QS ", "1X", "", "JKJKJKJK"])
CARDS = st.one_of(GOOD_CARDS, st.just("XXXXXXXXX"))
#: No infinities: JSON has none, and the test client's encoder (orjson) sends them as null, so a body
#: holding one is not the body the server reads.
BAD = st.one_of(
    st.none(),
    st.integers(-3, 3),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just({}),
    st.just("x"),
)
NAMES = st.one_of(
    st.sampled_from(
        [
            "North",
            "Ana",
            "Zoë",
            "李",
            " ",
            "\u200b",
            "",
            "a\x00b",
            "tab\tname",
            "x" * 100,
            "x" * 101,
            "\ud800",
            "  spaced  ",
            "\u00a0",
        ]
    ),
    st.text(max_size=6),
    BAD,
)


def _card_list(max_size: int = 6) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(CARDS, max_size=max_size),
        st.lists(CARDS, min_size=199, max_size=202),
        BAD,
        st.lists(BAD, min_size=1, max_size=2),
    )


def _optional(members: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional=members)


GOOD_PLAYER = st.fixed_dictionaries(
    {"name": st.sampled_from(["P", "Zoë", "x" * 100])},
    optional={"hand": st.lists(GOOD_CARDS, max_size=4), "foot": st.one_of(st.none(), st.lists(GOOD_CARDS, max_size=3))},
)
PLAYER_EDGES: dict[str, st.SearchStrategy[Any]] = {
    "name": NAMES,
    "hand": _card_list(),
    "foot": st.one_of(st.none(), _card_list()),
    "bogus": BAD,
}


@st.composite
def _one_off(
    draw: st.DrawFn, valid: st.SearchStrategy[dict[str, Any]], edges: dict[str, st.SearchStrategy[Any]]
) -> dict[str, Any]:
    """A valid item with one member set to a value at or past its edge (or an unknown member)."""
    item = dict(draw(valid))
    key = draw(st.sampled_from(sorted(edges)))
    item[key] = draw(edges[key])
    return item


PLAYER = st.one_of(
    GOOD_PLAYER,
    _one_off(GOOD_PLAYER, PLAYER_EDGES),
    _optional({"name": NAMES, "hand": _card_list(), "foot": _card_list(), "bogus": BAD}),
    BAD,
)
TALLY = st.fixed_dictionaries(
    {
        "clean_books": st.integers(0, 3),
        "dirty_books": st.integers(0, 3),
        "wild_books": st.just(0),
        "red_threes_on_table": st.just(0),
        "red_threes_caught": st.just(0),
        "table_points": st.integers(0, 500),
        "points_left": st.integers(-5, 50),
    }
)
MELDS = st.one_of(
    st.lists(st.lists(CARDS, max_size=8), max_size=4),
    st.lists(st.lists(CARDS), min_size=61, max_size=61),
    st.lists(st.lists(GOOD_CARDS, min_size=201, max_size=201), max_size=1),
    st.lists(st.one_of(BAD, _card_list()), max_size=3),
    BAD,
)
GOOD_TEAM = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["A", "B", "Nord-Süd"]),
        "melds": st.lists(st.lists(GOOD_CARDS, max_size=7), max_size=3),
        "players": st.lists(GOOD_PLAYER, max_size=2),
    },
    optional={
        "went_out": st.booleans(),
        "red_threes": st.lists(GOOD_CARDS, max_size=2),
        "burn": st.lists(GOOD_CARDS, max_size=2),
        "perfect_cuts": st.integers(0, 20),
        "tally": st.none(),
    },
)
TEAM_EDGES: dict[str, st.SearchStrategy[Any]] = {
    "name": NAMES,
    "went_out": st.one_of(st.booleans(), BAD),
    "melds": MELDS,
    "red_threes": _card_list(),
    "burn": _card_list(),
    "players": st.one_of(st.lists(PLAYER, max_size=3), st.lists(GOOD_PLAYER, min_size=9, max_size=9), BAD),
    "perfect_cuts": st.one_of(st.sampled_from([0, 20, 21, -1, True, 2.0]), BAD),
    "tally": st.one_of(TALLY, BAD),
    "bogus": BAD,
}
TALLY_EDGES: dict[str, st.SearchStrategy[Any]] = {
    "clean_books": st.one_of(st.sampled_from([0, -1, 10_000_000, 10_000_001, True, 2.0]), BAD),
    "table_points": st.one_of(st.sampled_from([0, 10_000_000, 10_000_001, False]), BAD),
    "perfect_cuts": st.sampled_from([0, 1, -1, None]),
    "rank_books": st.one_of(st.just([]), st.just([{"rank": "7", "clean_books": 1}]), BAD),
    "has_melded": st.one_of(st.booleans(), BAD),
    "bogus": BAD,
}
GOOD_TALLY_TEAM = st.fixed_dictionaries(
    {"name": st.sampled_from(["A", "B"]), "tally": TALLY},
    optional={
        "went_out": st.booleans(),
        "melds": st.just([]),
        "players": st.just([]),
        "red_threes": st.just([]),
        "burn": st.just([]),
    },
)
TALLY_TEAM = st.one_of(
    GOOD_TALLY_TEAM,
    _one_off(GOOD_TALLY_TEAM, TEAM_EDGES),
    st.builds(lambda team, tally: {**team, "tally": tally}, GOOD_TALLY_TEAM, _one_off(TALLY, TALLY_EDGES)),
)
TEAM = st.one_of(
    GOOD_TEAM, _one_off(GOOD_TEAM, TEAM_EDGES), _one_off(GOOD_TEAM, TEAM_EDGES), _optional(TEAM_EDGES), TALLY_TEAM, BAD
)
TEAMS = st.one_of(st.lists(TEAM, max_size=4), st.lists(TEAM, min_size=MAX_TEAMS + 1, max_size=MAX_TEAMS + 1), BAD)


def _load(schema: Schema, body: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "ok", schema.load(body)
    except ValidationError as err:
        return "error", err.messages


def _same(schema: type[Schema], body: dict[str, Any]) -> None:
    """``schema`` and its reference copy agree on ``body``: the same errors, or loads that mean the
    same (the reference's load of what ``schema`` took, taken as sent or not, is the reference's load
    of the body: only defaults differ)."""
    ref = _reference(schema)()
    fast, slow = _load(schema(), body), _load(ref, body)
    if fast[0] == "error":
        assert fast == slow
    else:
        assert slow[0] == "ok" and _load(ref, fast[1]) == slow


SCHEMAS = [
    RoundScoreRequestSchema,
    RoundCompareRequestSchema,
    RoundCreateSchema,
    RoundUpdateSchema,
    GoingOutCheckRequestSchema,
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: s.__name__)
def test_reference_copies_have_no_side_list(schema: type[Schema]) -> None:
    ref = _reference(schema)()
    assert not any(isinstance(f, SideList) for f in ref.fields.values())
    assert any(isinstance(f, SideList) for f in schema().fields.values())


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=TEAMS)
def test_sides_load_as_marshmallow_loads_them(teams: Any) -> None:
    for schema in (RoundScoreRequestSchema, RoundUpdateSchema):
        body = {"preset": "pagat", "teams": teams} if schema is RoundScoreRequestSchema else {"teams": teams}
        _same(schema, body)


@settings(max_examples=examples(300), deadline=None)
@given(players=st.one_of(st.lists(PLAYER, max_size=3), BAD))
def test_players_load_as_marshmallow_loads_them(players: Any) -> None:
    body = {"preset": "pagat", "melds": [["KS", "KH", "KD"]], "players": players}
    _same(GoingOutCheckRequestSchema, body)


@settings(max_examples=examples(300), deadline=None)
@given(item=TEAM)
def test_plain_team_is_taken_by_the_schema_or_declines(item: Any) -> None:
    if plain_team(item):
        assert _load(_REF_TEAM(), item)[0] == "ok"


@settings(max_examples=examples(300), deadline=None)
@given(item=PLAYER)
def test_plain_player_is_taken_by_the_schema_or_declines(item: Any) -> None:
    if plain_player(item):
        assert _load(PlayerSchema(), item)[0] == "ok"


SCORE_EDGES: dict[str, st.SearchStrategy[Any]] = {
    "preset": st.one_of(st.sampled_from(["pagat", "", "x" * 40, "x" * 41]), BAD),
    "round": st.one_of(st.sampled_from([1, 50, 0, 51, True, None]), BAD),
    "rules": st.one_of(st.sampled_from([{}, {"going_out_bonus": 200}, {"going_out_bonus": "x"}, {"bogus": 1}]), BAD),
    "bogus": BAD,
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=_one_off(
        st.fixed_dictionaries({"preset": st.just("pagat"), "teams": st.lists(GOOD_TEAM, min_size=1, max_size=2)}),
        SCORE_EDGES,
    )
)
def test_score_bodies_load_as_marshmallow_loads_them(body: Any) -> None:
    """A score body with one top-level member at or past its edge: taken as sent only when the
    schema takes it, else the schema's own errors."""
    _same(RoundScoreRequestSchema, body)
    if plain_score_body(body):
        assert RoundScoreRequestSchema().load(body) is body


def _rule_value(name: str) -> st.SearchStrategy[Any]:
    """Values at and past the edges of rule ``name``'s field, and of every other kind."""
    spec = RULE_FIELDS[name]
    low = -5 if spec.minimum is None else spec.minimum
    high = 100_000 if spec.maximum is None else spec.maximum
    ints = st.sampled_from([low, low - 1, high, high + 1, 0, 1.0, True, None])
    contract = _optional({k: ints for k in ("clean_books", "dirty_books", "wild_books", "bogus")})
    edges = {
        "int": ints,
        "bool": st.sampled_from([True, False, 0, "true"]),
        "choice": st.sampled_from([*spec.choices, "", "bogus"]),
        "int_list": st.lists(ints, max_size=3),
        "contract": contract,
        "contract_list": st.lists(contract, max_size=2),
        "threshold_list": st.lists(_optional({"score": ints, "minimum": ints, "bogus": ints}), max_size=2),
        "rank_bonus_list": st.lists(
            _optional({"rank": st.sampled_from([*spec.choices, "2"]), "bonus": ints, "bogus": ints}), max_size=2
        ),
    }
    return st.one_of(edges[spec.kind], BAD, st.lists(BAD, max_size=2))


RULE_OBJECTS = st.one_of(
    st.sampled_from(sorted(RULE_FIELDS)).flatmap(lambda name: st.fixed_dictionaries({name: _rule_value(name)})),
    st.lists(st.sampled_from(sorted(RULE_FIELDS)), max_size=4, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: _rule_value(name) for name in names})
    ),
    _optional({"going_out_bonus": st.just(100), "bogus": BAD}),
    BAD,
    st.lists(BAD, max_size=1),
)


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULE_OBJECTS)
def test_rules_ok_is_the_rules_schemas_verdict(rules: Any) -> None:
    """``rules_ok`` (each member read by its own field) takes exactly the house-rules objects the
    whole RulesSchema takes."""
    assert rules_ok(rules) == (not RulesSchema().validate(rules))


def test_the_benchmark_round_takes_the_one_pass_path() -> None:
    """Not behaviour, speed: every side of an ordinary round is taken without falling back."""
    from bench.rounds import score_body, score_rules_body, tally_body

    assert all(map(plain_team, score_body()["teams"]))
    for body in (score_body(), tally_body(), score_rules_body()):
        assert plain_score_body(body) and plain_score_body(body, cards_read=True)


ROUND: dict[str, Any] = {
    "preset": "pagat",
    "round": 1,
    "teams": [
        {
            "name": "A",
            "went_out": False,
            "melds": [["KS", "KH", "KD"], ["9S", "9H", "2C"]],
            "players": [{"name": "N", "hand": ["4S"]}, {"name": "S", "hand": [], "foot": ["QS"]}],
        },
        {
            "name": "B",
            "went_out": False,
            "melds": [["5S", "5H", "5D"]],
            "players": [{"name": "E", "hand": ["7S"]}, {"name": "W", "hand": ["8D"]}],
        },
    ],
}


class _Lists(Schema):
    cards = Cards("cards")
    melds = Melds("melds")


def test_valid_lists_load_as_lists() -> None:
    data = {"cards": ["KS", "10♠", "jk"], "melds": [["KS", "KH"], []]}
    assert _Lists().load(data) == data


@pytest.mark.parametrize(
    ("where", "value", "pointer"),
    [
        (("teams", 0, "melds", 1, 2), 5, "/teams/0/melds/1/2"),
        (("teams", 1, "melds", 0, 1), "X" * 9, "/teams/1/melds/0/1"),
        (("teams", 0, "players", 1, "foot", 0), None, "/teams/0/players/1/foot/0"),
        (("teams", 1, "players", 0, "hand", 0), ["KS"], "/teams/1/players/0/hand/0"),
        (("teams", 0, "melds", 1), "KS", "/teams/0/melds/1"),
        (("teams", 0, "melds"), "KS", "/teams/0/melds"),
    ],
)
def test_bad_items_are_named_by_position(flask_client: Any, where: tuple[Any, ...], value: Any, pointer: str) -> None:
    body = copy.deepcopy(ROUND)
    target = body
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    response = flask_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 422
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert [e["pointer"] for e in response.get_json()["errors"]] == [pointer]


def test_too_many_cards_and_melds(flask_client: Any) -> None:
    body = copy.deepcopy(ROUND)
    body["teams"][0]["players"][0]["hand"] = ["4S"] * 201
    body["teams"][1]["melds"] = [["5S", "5H", "5D"]] * 61
    response = flask_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 422
    pointers = sorted(e["pointer"] for e in response.get_json()["errors"])
    assert pointers == ["/teams/0/players/0/hand", "/teams/1/melds"]


def test_unknown_card_is_named_by_the_engine(flask_client: Any) -> None:
    body = copy.deepcopy(ROUND)
    body["teams"][1]["melds"][0][2] = "ZZ"
    response = flask_client.post("/v1/rounds/score", json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [(e["pointer"], e["code"]) for e in errors] == [("/teams/1/melds/0/2", "unknown_card")]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=TEAMS)
def test_a_body_whose_cards_the_engine_reads_is_one_the_schema_takes(teams: Any) -> None:
    """``POST /v1/rounds/score`` leaves the cards of a body to the engine when every other member is
    plain (``cards_read``): when the engine then reads the whole round, the schema takes the body as
    sent too, so its answer is the one the schema's load before the engine gives. (A body the engine
    does not read goes through the schema's load: its errors, if any, are the answer.)"""
    body = {"preset": "pagat", "teams": teams}
    if not plain_score_body(body, cards_read=True):
        return
    try:
        round_from_mapping(body)
    except HandFootError:
        return
    assert plain_score_body(body)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=TEAMS)
def test_the_score_route_answers_as_the_schema_then_the_engine(stateless_client: Any, teams: Any) -> None:
    """The route's answer (status, and each error's pointer and code) is the schema's load's when it
    refuses the body, else the engine's on what the schema loaded."""
    body = {"preset": "pagat", "teams": teams}
    answer = stateless_client.post("/v1/rounds/score", json=body)
    loaded = _load(RoundScoreRequestSchema(), copy.deepcopy(body))
    if loaded[0] == "error":
        errors = flatten_messages({"json": loaded[1]})[:MAX_ERRORS_LISTED]  # a problem lists at most so many
        expected = (422, [(e["pointer"], e["code"]) for e in errors])
    else:
        try:
            score_round_request(loaded[1])
            expected = (200, [])
        except HandFootError as err:
            expected = (422, [(e["pointer"], e["code"]) for e in engine_problem(err)["errors"]])
    got = answer.get_json()
    assert (answer.status_code, [(e["pointer"], e["code"]) for e in got.get("errors", [])]) == expected, got
