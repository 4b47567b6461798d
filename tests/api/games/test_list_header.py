"""``X-Pagination`` is documented as what is sent (issue 18, defect 6): a header whose value is JSON
text, so the document gives its media type (OpenAPI 3 header ``content``), not an object schema
that a header's string value can never match."""

from __future__ import annotations

import json

import jsonschema
from flask.testing import FlaskClient

from tests.helpers.games import create_game


def test_x_pagination_is_documented_as_json_text_and_sent_so(flask_client: FlaskClient) -> None:
    spec = flask_client.get("/openapi.json").get_json()
    header = spec["components"]["headers"]["PAGINATION"]
    assert "schema" not in header
    schema = header["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/PaginationMetadata"}
    create_game(flask_client)
    sent = flask_client.get("/v1/games").headers["X-Pagination"]
    metadata = json.loads(sent)
    jsonschema.validate(metadata, spec["components"]["schemas"]["PaginationMetadata"])
    assert metadata["total"] == 1
