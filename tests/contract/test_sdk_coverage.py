"""Every operation of openapi/openapi.json has a typed SDK method (``handfoot.client.OPERATIONS``).

The table also maps operations the document does not list yet (the games API of
docs/games-api.md): this test checks the document's operations, so it keeps passing when those
land, and fails as soon as the API grows an operation the SDK does not cover.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

import handfoot.client
from handfoot.client._operations import normalise_path

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def spec_operations() -> list[tuple[str, str]]:
    spec = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    return sorted(
        (method.upper(), path)
        for path, item in spec["paths"].items()
        for method in item
        if method in HTTP_METHODS
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
