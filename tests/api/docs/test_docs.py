"""The OpenAPI document and Swagger UI are served, with no internet access needed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask.views import MethodView

from handfoot.server.blueprint import Blueprint


def test_openapi_json_served(flask_client: FlaskClient) -> None:
    r = flask_client.get("/openapi.json")
    assert r.status_code == 200
    spec = r.get_json()
    assert spec["openapi"] == "3.1.0"
    assert {k: spec["info"][k] for k in ("title", "version")} == {"title": "handfoot", "version": "1.0.0"}
    assert spec["info"]["license"]["identifier"] == "MIT" and spec["servers"]
    assert "/health" in spec["paths"]


def test_docs_page_is_offline(flask_client: FlaskClient) -> None:
    r = flask_client.get("/docs")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    refs = re.findall(r"""<(?:script|link)\b[^>]*\b(?:src|href)\s*=\s*["']([^"']+)""", html)
    assert refs, html
    for ref in refs:
        assert not re.match(r"(?i)^(https?:)?//", ref), ref
        asset = flask_client.get(ref)
        assert asset.status_code == 200, ref
        assert len(asset.data) > 1000
    assert not re.search(r"(?i)\b(src|href)\s*=\s*[\"']?(https?:)?//", html)
    assert "/openapi.json" in html
    # Swagger UI would otherwise ask validator.swagger.io about the document (an outside request)
    assert '"validatorUrl": null' in html


def test_pagination_adds_link_header(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    blp = Blueprint("Paged", __name__, url_prefix="/paged", description="Test only.")

    @blp.route("")
    class Items(MethodView):
        @blp.response(200)
        @blp.paginate()
        def get(self, pagination_parameters: Any) -> list[int]:
            items = list(range(25))
            pagination_parameters.item_count = len(items)
            first = pagination_parameters.first_item
            return items[first : first + pagination_parameters.page_size]

    app.extensions["handfoot.api"].register_blueprint(blp)
    r = app.test_client().get("/paged?page=2&page_size=10&status=open")
    assert r.status_code == 200
    assert r.get_json() == list(range(10, 20))
    assert r.headers["X-Pagination"]
    links = dict((rel, url) for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', r.headers["Link"]))
    base = "http://localhost/paged?status=open&page="
    assert links == {
        "first": base + "1&page_size=10",
        "prev": base + "1&page_size=10",
        "next": base + "3&page_size=10",
        "last": base + "3&page_size=10",
    }
