"""The handfoot HTTP API: ``create_app()`` builds the Flask app (no database access here)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Blueprint, Flask

from handfoot.server import db, lifecycle, metrics, secret, security
from handfoot.server.config import DEFAULT_SQLITE_PATH, SWAGGER_UI_STATIC_URL, load_config
from handfoot.server.jsonio import JSONProvider
from handfoot.server.keeper import bp as keeper_blueprint
from handfoot.server.resources import register_blueprints
from handfoot.server.rest_api import Api

__all__ = ["create_app"]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: config from the environment, overridden by ``config``. Touches no database (the
    engine is made on first use), so ``flask openapi write`` needs none."""
    # The instance folder is named, not found: Flask's search for it does not follow a namespace
    # package (handfoot) laid out by an editable install. Nothing is written there.
    app = Flask(__name__, instance_path=str(DEFAULT_SQLITE_PATH.parent))
    app.json = JSONProvider(app)  # orjson, members in insertion order (api/jsonio.py)
    app.config.update(load_config())
    if config:
        app.config.update(config)

    secret.init_app(app)  # a random key when HANDFOOT_SECRET_KEY is unset (api/secret.py)
    db.init_app(app)
    security.init_app(app)  # CORS (off by default), rate limiting on /v1 (HANDFOOT_RATE_LIMIT)
    metrics.init_app(app)  # Prometheus metrics at /metrics (HANDFOOT_METRICS, HANDFOOT_METRICS_TOKEN)
    lifecycle.init_app(app)  # what runs before and after every view (api/lifecycle.py)
    # Swagger UI's JS and CSS for /docs, from the installed flask-swagger-ui package: no CDN.
    swagger_ui = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
    app.register_blueprint(
        Blueprint(
            "swagger_ui_static", __name__, static_folder=swagger_ui, static_url_path=SWAGGER_UI_STATIC_URL.rstrip("/")
        )
    )
    app.register_blueprint(keeper_blueprint)  # the score keeper page at / (api/keeper.py)

    api = Api(app)
    register_blueprints(api)
    app.extensions["handfoot.api"] = api
    return app
