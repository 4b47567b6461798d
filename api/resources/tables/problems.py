"""The tables resource's answers: ``Cache-Control: no-store`` on every one. Who sent a request is the
views' decorators' (``handfoot.server.auth``); errors are answered by ``handfoot.server.problems``."""

from __future__ import annotations

import flask
from flask_smorest import Blueprint


def _no_store(response: flask.Response) -> flask.Response:
    """A seat's answers hold its hand, a creation's the tokens: no cache keeps them."""
    response.headers["Cache-Control"] = "no-store"
    return response


def guard(blp: Blueprint) -> None:
    """``Cache-Control: no-store`` on every answer of ``blp``."""
    blp.after_request(_no_store)
