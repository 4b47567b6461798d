"""openapi/openapi.json is what the app generates, and it is a valid OpenAPI 3.1 document.

After changing the API, regenerate it with ``make openapi`` (or run this test with
``UPDATE_OPENAPI=1``) and commit the file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from handfoot.server import create_app

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def generate_spec_text(tmp_path: Path) -> str:
    """What ``flask --app 'handfoot.server:create_app' openapi write`` writes (the ``make openapi`` command)."""
    out = tmp_path / "openapi.json"
    app = create_app({"DATABASE_URL": "sqlite:///" + str(tmp_path / "unused.sqlite3")})
    result = app.test_cli_runner().invoke(args=["openapi", "write", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    return result


def test_committed_spec_is_fresh(tmp_path: Path) -> None:
    generated = generate_spec_text(tmp_path)
    if os.environ.get("UPDATE_OPENAPI") == "1":
        SPEC_FILE.parent.mkdir(exist_ok=True)
        SPEC_FILE.write_text(generated, encoding="utf-8")
    assert SPEC_FILE.exists(), "run `make openapi`"
    committed = SPEC_FILE.read_text(encoding="utf-8")
    assert json.loads(committed) == json.loads(generated), (
        "openapi/openapi.json is stale: run `make openapi` (or UPDATE_OPENAPI=1 pytest) and commit"
    )
    assert committed == generated, "openapi/openapi.json is not formatted as `make openapi` writes"
    assert generated.endswith("}\n")


def test_spec_is_valid_openapi_31(spec: dict[str, Any]) -> None:
    assert spec["openapi"] == "3.1.0"
    validate(spec)


def test_served_spec_equals_committed(spec: dict[str, Any], tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": "sqlite:///" + str(tmp_path / "unused.sqlite3")})
    assert app.test_client().get("/openapi.json").get_json() == spec


def test_errors_are_documented_as_problem_json(spec: dict[str, Any]) -> None:
    responses = spec["components"]["responses"]
    assert set(responses["DEFAULT_ERROR"]["content"]) == {"application/problem+json"}
    for name, response in responses.items():
        for content_type in response.get("content", {}):
            assert content_type == "application/problem+json", name
    problem = spec["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail", "instance", "errors"} <= set(problem["properties"])
    assert {"pointer", "parameter", "code", "detail"} <= set(
        spec["components"]["schemas"]["ProblemError"]["properties"]
    )
    methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in methods:
                assert "default" in operation["responses"], (method, path)


def test_health_documents_503(spec: dict[str, Any]) -> None:
    responses = spec["paths"]["/health"]["get"]["responses"]
    assert "200" in responses
    assert "application/problem+json" in responses["503"]["content"]
    assert "Retry-After" in responses["503"]["headers"]


#: Members an answer leaves out at times, by schema: flask-smorest's page metadata has no page
#: numbers for an empty list, and no previous or next page at the ends.
SOMETIMES_SENT: dict[str, set[str]] = {
    "PaginationMetadata": {"first_page", "last_page", "page", "previous_page", "next_page"},
}


def _refs(node: Any, spec: dict[str, Any]) -> set[str]:
    """The component schemas ``node`` refers to, through header components too."""
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[1])
        elif isinstance(ref, str) and ref.startswith("#/components/headers/"):
            found |= _refs(spec["components"]["headers"][ref.rsplit("/", 1)[1]], spec)
        for value in node.values():
            found |= _refs(value, spec)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value, spec)
    return found


def answer_schemas(spec: dict[str, Any]) -> set[str]:
    """Every component schema an answer (2xx or 3xx, body or header) uses, nested ones included."""
    schemas = spec["components"]["schemas"]
    todo = [
        name
        for item in spec["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        for status, response in operation.get("responses", {}).items()
        if status[0] in "23"
        for name in _refs(response, spec)
    ]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_refs(schemas[name], spec))
    return seen


def test_answers_mark_every_member_they_always_send_required(spec: dict[str, Any]) -> None:
    """A generated client types a member left out of ``required`` as ``X | Unset``: every member an
    answer always sends (null where allowed) is listed, so ``result.teams[0].total`` is an ``int``.
    That the server does send them: tests/sdk/test_types.py validates real answers against these schemas."""
    answers = answer_schemas(spec)
    assert {"RoundScore", "Breakdown", "Line", "Game", "Table", "PaginationMetadata"} <= answers
    schemas = spec["components"]["schemas"]
    for name in sorted(answers):
        members = set(schemas[name].get("properties", {}))
        assert set(schemas[name].get("required", ())) == members - SOMETIMES_SENT.get(name, set()), name
