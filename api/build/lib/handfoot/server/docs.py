"""Offline docs: Swagger UI's static files, served from the installed flask-swagger-ui package.

flask-smorest renders the ``/docs`` page (``OPENAPI_SWAGGER_UI_PATH``) and loads the UI's JS/CSS
from ``OPENAPI_SWAGGER_UI_URL``, which points here, so no CDN is involved.
"""

from __future__ import annotations

from pathlib import Path

import flask
import flask_swagger_ui

from handfoot.server.config import SWAGGER_UI_STATIC_URL

#: Swagger UI 5 (reads OpenAPI 3.1), as shipped by flask-swagger-ui.
SWAGGER_UI_DIST = Path(flask_swagger_ui.__file__).resolve().parent / "dist"


def make_docs_blueprint() -> flask.Blueprint:
    """A blueprint serving ``SWAGGER_UI_DIST`` at ``SWAGGER_UI_STATIC_URL``."""
    return flask.Blueprint(
        "swagger_ui_static",
        __name__,
        static_folder=str(SWAGGER_UI_DIST),
        static_url_path=SWAGGER_UI_STATIC_URL.rstrip("/"),
    )
