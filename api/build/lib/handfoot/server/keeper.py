"""The score keeper: a browser page served at ``/`` that keeps a game's score through the API.

A plain Flask blueprint (not flask-smorest), so the page stays out of the OpenAPI document. Its
HTML, CSS and JS live in ``api/static/keeper/`` and ship with the package; the page loads nothing
from outside the server, and its Content-Security-Policy says so to the browser.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

#: The keeper's static files (HTML, CSS, ES modules): no build step.
KEEPER_STATIC = Path(__file__).resolve().parent / "static" / "keeper"

#: Everything from this server only: no CDN, no inline script, no framing by other sites.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

bp = Blueprint(
    "keeper",
    __name__,
    static_folder=str(KEEPER_STATIC),
    static_url_path="/keeper",
)


@bp.get("/")
def index() -> Response:
    """The keeper page."""
    response = send_from_directory(KEEPER_STATIC, "index.html", max_age=0)
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
