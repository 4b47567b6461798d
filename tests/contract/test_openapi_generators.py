"""openapi/openapi.json as client generators read it (issue 20, item 5).

Every operation has a stable camelCase ``operationId`` (api/spec.py's table, none missing, none
stale, no two alike); ``info`` has a description, contact and license; ``servers`` is set; no 405
is listed; every body shown (requests, answers, shared error answers) has a real example, and no
example holds the placeholders a viewer makes up without one (``"string"``, ``"additionalProp1"``);
every problem example is a problem document of its own status.
"""

from __future__ import annotations

import http
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from handfoot.server.problems import PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE, problem_types
from handfoot.server.spec import OPERATION_IDS

SPEC: dict[str, Any] = json.loads((Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text())
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
OPERATIONS = [
    (method.upper(), path, op)
    for path, item in SPEC["paths"].items()
    for method, op in item.items()
    if method in METHODS
]
IDS = [f"{m} {p}" for m, p, _ in OPERATIONS]
CAMEL = re.compile(r"^[a-z]+(?:[A-Z][a-z0-9]*)*$")
PLACEHOLDERS = {"string", "additionalProp1", "additionalProp2", "additionalProp3"}


def resolve(node: Any) -> Any:
    """``node`` with a local ``$ref`` followed (once, as the document nests them)."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = SPEC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


@pytest.mark.parametrize(("method", "path", "op"), OPERATIONS, ids=IDS)
def test_operation_has_a_camel_case_operation_id(method: str, path: str, op: dict[str, Any]) -> None:
    assert "operationId" in op, f"{method} {path}: add it to api/spec.py's OPERATION_IDS"
    assert CAMEL.match(op["operationId"]), op["operationId"]


def test_operation_ids_are_unique_and_none_is_stale() -> None:
    ids = [op["operationId"] for _, _, op in OPERATIONS if "operationId" in op]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert len(OPERATION_IDS.values()) == len(set(OPERATION_IDS.values()))
    served = {(m, p) for m, p, _ in OPERATIONS}
    assert set(OPERATION_IDS) <= served, f"OPERATION_IDS names no operation: {set(OPERATION_IDS) - served}"


def test_info_and_servers() -> None:
    info = SPEC["info"]
    assert info["title"] == "handfoot" and re.match(r"^\d+\.\d+\.\d+$", info["version"])
    assert len(info["description"]) > 200
    assert info["contact"]["name"]
    assert info["license"] == {"name": "MIT", "identifier": "MIT"}
    assert SPEC["servers"] and all("url" in s and s.get("description") for s in SPEC["servers"])


@pytest.mark.parametrize(("method", "path", "op"), OPERATIONS, ids=IDS)
def test_no_405_listed(method: str, path: str, op: dict[str, Any]) -> None:
    assert "405" not in op["responses"]


def media_types() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(where, media type, media type object)`` of every body the document shows."""
    for method, path, op in OPERATIONS:
        for media, content in op.get("requestBody", {}).get("content", {}).items():
            yield f"{method} {path} request", media, content
        for status, response in op["responses"].items():
            for media, content in resolve(response).get("content", {}).items():
                yield f"{method} {path} {status}", media, content
    for name, response in SPEC["components"].get("responses", {}).items():
        for media, content in response.get("content", {}).items():
            yield f"components.responses.{name}", media, content


MEDIA = list(media_types())


@pytest.mark.parametrize(("where", "media", "content"), MEDIA, ids=[f"{w} {m}" for w, m, _ in MEDIA])
def test_every_body_has_an_example(where: str, media: str, content: dict[str, Any]) -> None:
    assert "example" in content or content.get("examples"), f"{where} ({media}) has no example"


def strings_in(node: Any) -> Iterator[str]:
    """Every key and string value in ``node``, however deep."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from strings_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings_in(value)
    elif isinstance(node, str):
        yield node


def examples_in(node: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every ``example`` and ``examples[*].value`` in the document, with where it is."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "example":
                yield where, value
            elif key == "examples" and isinstance(value, dict):
                for name, item in value.items():
                    yield f"{where}/examples/{name}", item.get("value") if isinstance(item, dict) else item
            elif key != "examples":
                yield from examples_in(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from examples_in(value, f"{where}/{i}")


def test_no_example_holds_a_placeholder() -> None:
    found = [(where, s) for where, example in examples_in(SPEC) for s in strings_in(example) if s in PLACEHOLDERS]
    assert not found, found
    assert len(list(examples_in(SPEC))) > 40  # the walk saw the document's examples


def test_the_placeholder_check_can_fail() -> None:
    """The walk finds a placeholder at any depth (so the test above could fail)."""
    made_up = {
        "paths": {
            "/x": {
                "get": {
                    "responses": {
                        "200": {"content": {"application/json": {"example": {"a": [{"additionalProp1": 1}]}}}}
                    }
                }
            }
        }
    }
    assert [s for _, e in examples_in(made_up) for s in strings_in(e) if s in PLACEHOLDERS] == ["additionalProp1"]


def problem_examples() -> Iterator[tuple[str, int, Any]]:
    for where, media, content in MEDIA:
        if media == PROBLEM_CONTENT_TYPE:
            status = where.split()[-1] if not where.startswith("components") else where.split(".")[-1]
            yield where, _status_of(status), content.get("example")


def _status_of(key: str) -> int:
    """The status of a response key (``"404"``, ``"NOT_FOUND"``); the default answer's example is a 500."""
    if key.isdigit():
        return int(key)
    return 500 if key in ("default", "DEFAULT_ERROR") else int(http.HTTPStatus[key])


PROBLEMS = list(problem_examples())


@pytest.mark.parametrize(("where", "status", "example"), PROBLEMS, ids=[w for w, _, _ in PROBLEMS])
def test_problem_examples_are_problems_of_their_status(where: str, status: int, example: Any) -> None:
    schema = {**SPEC["components"]["schemas"]["Problem"], "$defs": SPEC["components"]["schemas"]}
    text = json.dumps(schema).replace("#/components/schemas/", "#/$defs/")
    Draft202012Validator(json.loads(text)).validate(example)
    assert example["status"] == status, where
    slug = example["type"].removeprefix(PROBLEM_TYPE_BASE)
    assert example["type"] != slug and slug in problem_types, example["type"]


def _schema_node(node: dict[str, Any]) -> dict[str, Any] | None:
    """The schema an example beside it must fit: a media type's or parameter's ``schema``, or the
    node itself where it is a schema."""
    if isinstance(node.get("schema"), dict):
        schema: dict[str, Any] = node["schema"]
        return schema
    if any(key in node for key in ("type", "$ref", "properties", "allOf", "anyOf", "oneOf", "enum")):
        return node
    return None


def every_example(node: Any = SPEC, where: str = "#") -> Iterator[tuple[str, dict[str, Any], Any]]:
    """(where, schema, example) for every example in the document: of a schema, a property, a
    parameter, a request or an answer (``example``, a list of ``examples``, or named ``examples``)."""
    if isinstance(node, dict):
        schema = _schema_node(node)
        if schema is not None:
            shown = node.get("examples")
            values = [node["example"]] if "example" in node else []
            if isinstance(shown, list):
                values += shown
            elif isinstance(shown, dict):
                values += [item["value"] for item in shown.values() if isinstance(item, dict) and "value" in item]
            for value in values:
                yield where, schema, value
        for key, child in node.items():
            yield from every_example(child, f"{where}/{key}")
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from every_example(child, f"{where}/{index}")


EXAMPLES = list(every_example())


def test_every_example_fits_its_schema() -> None:
    """A generated client or a mock server trusts the examples: each must be what the schema allows."""
    assert len(EXAMPLES) > 100  # the walk finds them (a walk that found none would pass)
    misfits = []
    for where, schema, example in EXAMPLES:
        validator = Draft202012Validator({**schema, "components": SPEC["components"]})
        errors = [error.message for error in validator.iter_errors(example)]
        if errors:
            misfits.append(f"{where}: {errors[:2]}")
    assert not misfits, "\n".join(misfits)


def test_the_example_check_can_fail() -> None:
    schema = {"$ref": "#/components/schemas/Breakdown", "components": SPEC["components"]}
    assert list(Draft202012Validator(schema).iter_errors({"name": "Us", "total": 1, "lines": []}))
