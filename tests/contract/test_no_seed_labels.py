"""Players read the published rule sets' names, never the project's filing labels ("seed 000"):
not in the served presets, the OpenAPI document (descriptions, examples, enums) or the keeper's
static files (issue 19 items 3 and 7; docs/rules-decisions.md D24).

The OpenAPI document has a ``seed`` of its own since the tables (the seed a table deals from, and a
round's once it has ended): there the check looks for the labels themselves ("seed 000", "seeds
001 and 003"), not for the word.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from handfoot.engine import PRESETS

KEEPER = Path(__file__).resolve().parents[2] / "api" / "static" / "keeper"
SEED = re.compile("seed", re.IGNORECASE)
#: A filing label: "seed" and a three-digit number ("seed 000", "Seed 003", "seeds 000 and 001").
SEED_LABEL = re.compile(r"\bseeds?\W{0,3}\d{3}\b", re.IGNORECASE)


def _texts(value: Any, where: str = "") -> list[tuple[str, str]]:
    """Every string in a JSON value (object keys too), with where it is."""
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in [(f"{where}/{k}", str(k)), *_texts(v, f"{where}/{k}")]]
    if isinstance(value, list):
        return [t for i, v in enumerate(value) for t in _texts(v, f"{where}/{i}")]
    return [(where, value)] if isinstance(value, str) else []


@pytest.mark.parametrize("path", ["/v1/presets", *(f"/v1/presets/{pid}" for pid in PRESETS)])
def test_served_presets_show_no_seed(stateless_client: FlaskClient, path: str) -> None:
    response = stateless_client.get(path)
    assert response.status_code == 200
    found = [(where, text) for where, text in _texts(response.get_json()) if SEED.search(text)]
    assert not found


def test_the_openapi_document_shows_no_seed(stateless_client: FlaskClient) -> None:
    document = stateless_client.get("/openapi.json").get_json()
    found = [(where, text) for where, text in _texts(document) if SEED_LABEL.search(text)]
    assert not found
    committed = json.loads((KEEPER.parents[2] / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    assert not [(where, text) for where, text in _texts(committed) if SEED_LABEL.search(text)]
    assert SEED_LABEL.search("as in seed 000") and SEED_LABEL.search("seeds 001") and not SEED_LABEL.search("seed")


def test_the_keeper_page_shows_no_seed() -> None:
    files = [
        p
        for p in KEEPER.rglob("*")
        if p.is_file() and p.suffix in (".js", ".css", ".html", ".webmanifest", ".svg", ".json")
    ]
    assert len(files) > 10
    found = [
        f"{p.relative_to(KEEPER)}:{n}"
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if SEED.search(line)
    ]
    assert not found
