"""The SDK against openapi/openapi.json: every operation has a typed method
(``handfoot.client.OPERATIONS``), every result type's fields are its schema's members, optional
(``X | None`` or a default) exactly where the schema does not require them, and the SDK's enums
(provenance kinds, meld kinds, game and table statuses, table phases) are the document's.

It fails as soon as the API grows an operation or a member the SDK does not cover.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import typing
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import handfoot.client
import handfoot.client.params
from handfoot.client import types
from handfoot.client._loader import Result, _dump_plan
from handfoot.client._operations import normalise_path

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
SPEC: dict[str, Any] = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
SCHEMAS: dict[str, Any] = SPEC["components"]["schemas"]


def spec_operations() -> list[tuple[str, str]]:
    return sorted(
        (method.upper(), path) for path, item in SPEC["paths"].items() for method in item if method in HTTP_METHODS
    )


MAPPED = {(method, normalise_path(path)): name for (method, path), name in handfoot.client.OPERATIONS.items()}


def test_spec_has_operations() -> None:
    assert len(spec_operations()) >= 9


@pytest.mark.parametrize(("method", "path"), spec_operations(), ids=lambda v: str(v))
def test_every_spec_operation_has_an_sdk_method(method: str, path: str) -> None:
    name = MAPPED.get((method, normalise_path(path)))
    assert name is not None, (
        f"{method} {path} has no SDK method: add one to handfoot.client.Client and map it in sdk/_operations.py"
    )


@pytest.mark.parametrize("name", sorted(set(handfoot.client.OPERATIONS.values())))
def test_each_mapped_method_exists_and_is_typed(name: str) -> None:
    method = getattr(handfoot.client.Client, name, None)
    assert callable(method), f"handfoot.client.Client.{name} is mapped in handfoot.client.OPERATIONS but does not exist"
    signature = inspect.signature(method)
    assert signature.return_annotation is not inspect.Signature.empty, f"Client.{name} has no return type"
    for param in list(signature.parameters.values())[1:]:
        assert param.annotation is not inspect.Parameter.empty, f"Client.{name}({param.name}) is untyped"


def test_mapping_keys_are_well_formed() -> None:
    for method, path in handfoot.client.OPERATIONS:
        assert method in {m.upper() for m in HTTP_METHODS}
        assert path.startswith("/")


def test_every_served_operation_has_an_sdk_method(tmp_path: Path) -> None:
    """The app's own document too, so an operation is caught before openapi.json is regenerated."""
    from handfoot.server import create_app

    app = create_app({"DATABASE_URL": "sqlite:///" + str(tmp_path / "unused.sqlite3")})
    spec = app.test_client().get("/openapi.json").get_json()
    missing = [
        f"{method.upper()} {path}"
        for path, item in spec["paths"].items()
        for method in item
        if method in HTTP_METHODS and (method.upper(), normalise_path(path)) not in MAPPED
    ]
    assert missing == [], f"operations without an SDK method (map them in sdk/_operations.py): {missing}"


#: Each result type and the spec schema it reads.
SCHEMA_OF: dict[type[Result], str] = {
    types.Health: "Health",
    types.Liveness: "Live",
    types.PresetSummary: "PresetSummary",
    types.Provenance: "Provenance",
    types.RuleField: "RuleField",
    types.Preset: "Preset",
    types.Line: "Line",
    types.Breakdown: "Breakdown",
    types.RoundScore: "RoundScore",
    types.Comparison: "Comparison",
    types.RoundComparison: "RoundComparison",
    types.MeldCheck: "MeldCheck",
    types.OpeningCheck: "OpeningCheck",
    types.Books: "Books",
    types.GoingOutCheck: "GoingOutCheck",
    types.DiscardPileCheck: "DiscardPileCheck",
    types.ProblemItem: "ProblemError",
    types.TeamTotal: "SideTotal",
    types.GameTeam: "GameTeamOut",
    types.GameSummary: "GameSummary",
    types.Game: "Game",
    types.Round: "Round",
    types.RoundSummary: "RoundSummary",
    types.Revision: "Revision",
    types.ScoresheetRound: "ScoresheetRow",
    types.Scoresheet: "Scoresheet",
    types.PlayerStatistics: "PlayerStatistics",
    types.SideStatistics: "SideStatistics",
    types.Statistics: "Statistics",
    types.TableCreated: "TableCreated",
    types.SeatToken: "SeatToken",
    types.Table: "Table",
    types.SeatSummary: "SeatSummary",
    types.SideSummary: "SideSummary",
    types.SeatView: "SeatView",
    types.LastRound: "LastRound",
    types.SideScore: "Score",
    types.TableRound: "TableRound",
}
RESULT_TYPES = sorted(SCHEMA_OF, key=lambda cls: cls.__name__)


def members(cls: type[Result]) -> set[str]:
    """The JSON members a result type reads and ``to_dict()`` writes (not ``etag``: a header)."""
    return {member for _name, member, _omit_none, _keyed in _dump_plan(cls)}


def test_every_result_type_is_checked() -> None:
    declared = {getattr(types, name) for name in types.__all__}
    results = {cls for cls in declared if isinstance(cls, type) and issubclass(cls, Result)}
    assert results == set(SCHEMA_OF)


@pytest.mark.parametrize("cls", RESULT_TYPES, ids=lambda cls: cls.__name__)
def test_fields_are_the_schema_members(cls: type[Result]) -> None:
    assert members(cls) == set(SCHEMAS[SCHEMA_OF[cls]]["properties"])


def _nullable(member: dict[str, Any]) -> bool:
    """The document allows ``null`` for this member: ``type: [..., "null"]``, ``null`` in its enum,
    an ``anyOf`` with a ``null`` branch, or no type at all (any JSON value)."""
    kinds = member.get("type")
    if not any(key in member for key in ("type", "$ref", "anyOf", "oneOf", "allOf", "enum")):
        return True
    return (
        (isinstance(kinds, list) and "null" in kinds)
        or None in member.get("enum", ())
        or any(branch.get("type") == "null" for branch in member.get("anyOf", ()))
    )


def _admits_none(hint: Any) -> bool:
    """The SDK's field type admits ``None`` (``X | None``, or ``object``: any JSON value)."""
    return hint is object or type(None) in typing.get_args(hint)


@pytest.mark.parametrize("cls", RESULT_TYPES, ids=lambda cls: cls.__name__)
def test_a_member_that_may_be_null_is_optional_in_the_sdk(cls: type[Result]) -> None:
    """Where the server may send ``null`` the SDK's field admits ``None``, so mypy makes the caller
    handle it (and the loader does not refuse a real answer)."""
    hints = typing.get_type_hints(cls)
    properties = SCHEMAS[SCHEMA_OF[cls]]["properties"]
    for name, member, _omit_none, _keyed in _dump_plan(cls):
        if _nullable(properties[member]):
            assert _admits_none(hints[name]), f"{cls.__name__}.{name}: {hints[name]}"


def optionality_mismatches(cls: type[Result], schema: dict[str, Any]) -> list[str]:
    """Each field of ``cls`` whose optionality is not what ``schema`` says of its member.

    A member the spec lists as ``required`` is always sent: its field has no default, and its type
    admits ``None`` only where the member may be ``null`` (else ``result.created_at`` would be
    typed ``datetime | None`` and every caller would check for a ``None`` that never comes). A
    member the spec does not require may be left out: its field admits ``None`` or has a default
    (else the loader refuses an answer the spec allows)."""
    hints = typing.get_type_hints(cls)
    required = set(schema.get("required", ()))
    found = []
    for f in dataclasses.fields(cls):
        plan = [member for name, member, _omit, _keyed in _dump_plan(cls) if name == f.name]
        if not plan:
            continue  # not in the body (``etag``: a header)
        (member,) = plan
        has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        admits_none = _admits_none(hints[f.name])
        where = f"{cls.__name__}.{f.name} ({hints[f.name]})"
        if member in required and has_default:
            found.append(f"{where}: has a default, but the spec requires {member!r} (always sent)")
        if member in required and admits_none and not _nullable(schema["properties"][member]):
            found.append(f"{where}: admits None, but {member!r} is required and never null")
        if member not in required and not (admits_none or has_default):
            found.append(f"{where}: neither a default nor None, but the spec does not require {member!r}")
    return found


@pytest.mark.parametrize("cls", RESULT_TYPES, ids=lambda cls: cls.__name__)
def test_a_field_is_optional_exactly_where_the_spec_does_not_require_its_member(cls: type[Result]) -> None:
    problems = optionality_mismatches(cls, SCHEMAS[SCHEMA_OF[cls]])
    assert not problems, "\n".join(problems)


def test_an_optional_field_for_a_required_member_is_found() -> None:
    """The check above can fail: a field typed ``X | None`` with a default, for a member the spec
    requires and never sends as ``null``, is named twice; a field with neither, for a member the
    spec does not require, once."""

    @dataclasses.dataclass(frozen=True, slots=True)
    class Made(Result):
        always: datetime | None = None
        sometimes: int = dataclasses.field(default=0)
        maybe: str = ""

    schema = {
        "properties": {"always": {"type": "string"}, "sometimes": {"type": "integer"}, "maybe": {"type": "string"}},
        "required": ["always"],
    }
    assert optionality_mismatches(Made, schema) == [
        "Made.always (datetime.datetime | None): has a default, but the spec requires 'always' (always sent)",
        "Made.always (datetime.datetime | None): admits None, but 'always' is required and never null",
    ]

    @dataclasses.dataclass(frozen=True, slots=True)
    class Strict(Result):
        sometimes: int

    assert optionality_mismatches(Strict, {"properties": {"sometimes": {"type": "integer"}}}) == [
        "Strict.sometimes (<class 'int'>): neither a default nor None, but the spec does not require 'sometimes'"
    ]


def test_provenance_kinds_are_the_spec_enum() -> None:
    assert list(handfoot.client.PROVENANCE_KINDS) == SCHEMAS["Provenance"]["properties"]["kind"]["enum"]


def test_the_sdks_rule_names_are_the_documents_rules() -> None:
    """``types.RULE_NAMES`` (``RuleName``) are the ``Rules`` schema's members, in its order: a rule the
    server adds (the players at the table, sides by parity, a pile never taken, ...) is named here."""
    assert list(types.RULE_NAMES) == list(SCHEMAS["Rules"]["properties"])
    assert {"players_alone_min", "sides_by_parity", "pile_take_allowed", "red_threes_automatic_foot"} <= set(
        types.RULE_NAMES
    )


def test_game_statuses_are_the_spec_enum() -> None:
    """``GameStatus`` (on ``GameSummary``/``Game``/``Scoresheet`` and ``games(status=...)``) is the enum of the
    games list's ``status`` filter, so mypy refuses a status the server would refuse."""
    (status,) = [p for p in SPEC["paths"]["/v1/games"]["get"]["parameters"] if p["name"] == "status"]
    assert list(handfoot.client.GAME_STATUSES) == status["schema"]["enum"]


@pytest.mark.parametrize("schema", ["GameSummary", "Game", "Scoresheet"])
def test_game_answers_list_the_statuses_the_sdk_types(schema: str) -> None:
    """Each answer's ``status`` carries the document's enum, the ``GameStatus`` the SDK types it as (a
    generated client then types it as the same literal, not as any string)."""
    assert list(handfoot.client.GAME_STATUSES) == SCHEMAS[schema]["properties"]["status"]["enum"]


@pytest.mark.parametrize("schema", ["Table", "TableCreated", "SeatView"])
def test_table_statuses_are_the_spec_enum(schema: str) -> None:
    """``TableStatus`` (``Table.status``, ``TableCreated.status``, ``SeatView.status``) is the document's enum."""
    assert list(types.TABLE_STATUSES) == SCHEMAS[schema]["properties"]["status"]["enum"]


@pytest.mark.parametrize("schema", ["Table", "SeatViewBody"])
def test_table_phases_are_the_spec_enum(schema: str) -> None:
    """``TablePhase`` (``Table.phase``, ``SeatView.phase``) is the document's enum (the engine's phases)."""
    assert list(types.TABLE_PHASES) == SCHEMAS[schema]["properties"]["phase"]["enum"]


def test_table_event_types_are_the_spec_enum() -> None:
    """``TableEventType`` (the view's ``history``) is the document's enum (the engine's event types)."""
    event = SCHEMAS["SeatViewBody"]["properties"]["history"]["items"]
    assert list(types.TABLE_EVENT_TYPES) == event["properties"]["type"]["enum"]


def test_the_views_going_out_problems_and_book_values_are_the_spec_members() -> None:
    """``GoingOutProblem`` is an item of the view's ``going_out.errors``, every member; ``BookValue``
    the numbers and code of a line of a side's ``book_values``, each a required member."""
    body = SCHEMAS["SeatViewBody"]["properties"]
    error = body["going_out"]["properties"]["errors"]["items"]
    assert set(types.GoingOutProblem._fields) == set(error["properties"]) == set(error["required"])
    line = body["sides"]["items"]["properties"]["book_values"]["items"]
    assert set(types.BookValue._fields) <= set(line["required"])
    assert {"complete", "melds", "book_values"} <= set(body["sides"]["items"]["properties"])


def test_book_kinds_are_the_spec_enum() -> None:
    assert [*types.checks.BookKind.__args__, None] == SCHEMAS["MeldCheck"]["properties"]["kind"]["enum"]


# The request TypedDicts: their required keys are the schema's ``required`` members exactly, and
# every key is a member (so mypy refuses a body the server would refuse for a missing member).
INPUTS = {
    "TallyInput": "Tally",
    "TeamInput": "Team",
    "PlayerInput": "Player",
    "GameTeamInput": "GameTeam",
}


@pytest.mark.parametrize(("typed_dict", "schema"), sorted(INPUTS.items()))
def test_request_typeddicts_match_the_spec(typed_dict: str, schema: str) -> None:
    cls = getattr(handfoot.client.params, typed_dict)
    assert set(cls.__required_keys__) == set(SCHEMAS[schema].get("required", ())), typed_dict
    assert set(cls.__annotations__) == set(SCHEMAS[schema]["properties"]), typed_dict


ASYNC_ALSO = {"scoresheet_csv", "export_csv", "with_options", "games_page", "with_raw_response"}


@pytest.mark.parametrize("name", sorted(set(handfoot.client.OPERATIONS.values()) | ASYNC_ALSO))
def test_async_client_has_each_method_with_the_same_parameters(name: str) -> None:
    aio = pytest.importorskip("handfoot.client.aio", reason="the async extra (httpx)")
    sync_method, async_method = getattr(handfoot.client.Client, name), getattr(aio.AsyncClient, name)
    assert list(inspect.signature(async_method).parameters) == list(inspect.signature(sync_method).parameters)
    if name not in ("with_options", "with_raw_response"):
        assert inspect.iscoroutinefunction(async_method) or inspect.isasyncgenfunction(async_method), name


def test_both_clients_have_the_same_public_surface() -> None:
    """What one client offers the other does too (methods, settings, ``last_response``), so code moves
    between them by adding ``await``; only the closing differs (``close`` / ``aclose``)."""
    aio = pytest.importorskip("handfoot.client.aio", reason="the async extra (httpx)")

    def public(obj: object) -> set[str]:
        return {name for name in dir(obj) if not name.startswith("_")}

    assert public(handfoot.client.Client) - {"close"} == public(aio.AsyncClient) - {"aclose"}
    # ... and on instances: what __init__ sets (base_url, api_key, timeout, max_retries...) too
    sync, asyn = handfoot.client.Client("http://127.0.0.1:1"), aio.AsyncClient("http://127.0.0.1:1")
    try:
        assert public(sync) - {"close"} == public(asyn) - {"aclose"}
        for name in sorted(public(sync) - {"close"}):
            mine, theirs = getattr(handfoot.client.Client, name, None), getattr(aio.AsyncClient, name, None)
            if inspect.isfunction(mine):  # every method, not only the operations: the same parameters
                assert list(inspect.signature(mine).parameters) == list(inspect.signature(theirs).parameters), name
    finally:
        sync.close()
        asyncio.run(asyn.aclose())


def test_preset_ids_are_the_servers() -> None:
    """The SDK's ``PresetId`` (mypy's check of ``preset="pagatt"``, and the shell's completion of
    ``--preset``) lists the presets the server serves, in its order."""
    from handfoot.engine import PRESETS

    assert list(handfoot.client.PRESET_IDS) == list(PRESETS)
