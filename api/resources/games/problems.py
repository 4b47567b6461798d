"""Who a request of the games resource is: the API key's owner (its errors are answered by
``handfoot.server.problems``)."""

from __future__ import annotations

import flask
from flask_smorest import Blueprint

from handfoot.server import auth


def _authenticate() -> None:
    flask.g.actor = auth.authenticate()


def current_actor() -> auth.Actor:
    """Who sent the request (set by :func:`guard`'s authentication)."""
    actor: auth.Actor = flask.g.actor
    return actor


def guard(blp: Blueprint) -> None:
    """Authenticate every request of ``blp`` (``flask.g.actor``)."""
    blp.before_request(_authenticate)
