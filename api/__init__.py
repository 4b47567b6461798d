"""The handfoot HTTP API: ``create_app()`` builds the Flask app (no database access here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, abort, request

from handfoot.server import db, security
from handfoot.server.config import DEFAULT_SQLITE_PATH, load_config
from handfoot.server.docs import make_docs_blueprint
from handfoot.server.errors import Api
from handfoot.server.jsonio import JSONProvider
from handfoot.server.keeper import bp as keeper_blueprint
from handfoot.server.resources import register_blueprints

__all__ = ["create_app"]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: config from the environment, overridden by ``config``.

    Touches no database: the engine is created on first use (``handfoot.server.db.get_db().engine``), so
    ``flask openapi write`` works with no database, and each gunicorn worker gets its own pool.
    """
    # The instance folder is named, not found: Flask's search for it does not follow a namespace
    # package (handfoot) laid out by an editable install. Nothing is written there.
    app = Flask(__name__, instance_path=str(DEFAULT_SQLITE_PATH.parent))
    app.json = JSONProvider(app)  # orjson, members in insertion order (api/jsonio.py)
    app.config.update(load_config())
    if config:
        app.config.update(config)

    db.init_app(app)
    app.before_request(_reject_large_bodies)
    security.init_app(app)  # CORS (off by default), rate limiting on /v1 (HANDFOOT_RATE_LIMIT)
    app.register_blueprint(make_docs_blueprint())
    app.register_blueprint(keeper_blueprint)  # the score keeper page at / (api/keeper.py)

    api = Api(app)
    register_blueprints(api)
    app.extensions["handfoot.api"] = api
    return app


def _reject_large_bodies() -> None:
    """413 as soon as a declared Content-Length is over the limit, whatever the route.

    Bodies without a Content-Length (chunked) are cut off by werkzeug when read.
    """
    limit = request.max_content_length
    if limit is not None and request.content_length is not None and request.content_length > limit:
        abort(413)
