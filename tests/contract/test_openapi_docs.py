"""The OpenAPI document reads as a manual: every operation and every field is documented."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SPEC: dict[str, Any] = json.loads((Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text())
OPERATIONS = [
    (path, method, op)
    for path, item in SPEC["paths"].items()
    for method, op in item.items()
    if method in ("get", "post", "put", "patch", "delete")
]


@pytest.mark.parametrize(("path", "method", "op"), OPERATIONS, ids=[f"{m.upper()} {p}" for p, m, _ in OPERATIONS])
def test_operation_is_documented(path: str, method: str, op: dict[str, Any]) -> None:
    assert op.get("summary"), "summary"
    assert op.get("description"), "description"
    if "requestBody" in op:
        content = op["requestBody"]["content"]
        assert any("example" in c or "examples" in c for c in content.values()), "request example"
    ok = [r for code, r in op["responses"].items() if code.startswith("2")]
    assert ok, "a success response"
    for response in ok:
        for media, content in response.get("content", {}).items():
            if media == "application/json":
                assert "example" in content or "examples" in content, "response example"
    assert "500" in op["responses"] and "405" not in op["responses"]
    if "requestBody" in op:
        assert {"400", "413", "422"} <= set(op["responses"]), "body errors listed"


def _fields(name: str, schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(name, prop, spec) for prop, spec in schema.get("properties", {}).items()]


FIELDS = [f for name, schema in SPEC["components"]["schemas"].items() for f in _fields(name, schema)]


@pytest.mark.parametrize(("schema", "field", "spec"), FIELDS, ids=[f"{s}.{f}" for s, f, _ in FIELDS])
def test_field_is_described(schema: str, field: str, spec: dict[str, Any]) -> None:
    described = spec.get("description") or (
        ("$ref" in spec or any("$ref" in s for s in spec.get("allOf", []))) and spec.get("description")
    )
    assert described, f"{schema}.{field} has no description"
