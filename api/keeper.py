"""The score keeper: a browser page at ``/`` keeping a game's score through the API (docs/keeper.md).

A plain Flask blueprint, out of the OpenAPI document, on ``api/static/keeper/``; ``/sw.js`` caches
the app shell under :func:`shell_version` (never ``/v1``).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, send_from_directory

#: The keeper's static files (HTML, CSS, ES modules): no build step.
KEEPER_STATIC = Path(__file__).resolve().parent / "static" / "keeper"

#: The service worker's source; :func:`service_worker` serves it at ``/sw.js`` with its shell list.
SERVICE_WORKER = "sw.js"

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


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file's (path, mtime in ns, size in bytes): what decides whether the shell must be read again."""
    return tuple((p.as_posix(), p.stat().st_mtime_ns, p.stat().st_size) for p in _files(folder))


@lru_cache(maxsize=4)  # a few versions at most: the files change only while someone edits them
def _shell(folder: Path, stamp: tuple[tuple[str, int, int], ...]) -> tuple[str, tuple[str, ...]]:
    digest = hashlib.sha256()
    urls = ["/"]
    for path in _files(folder):
        relative = path.relative_to(folder).as_posix()
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
        if relative != SERVICE_WORKER:
            urls.append(f"/keeper/{relative}")
    return digest.hexdigest()[:16], tuple(urls)


def shell_version(folder: Path = KEEPER_STATIC) -> tuple[str, tuple[str, ...]]:
    """The keeper's app shell in ``folder``: ``(version, urls)``, ``version`` 16 hex digits of the SHA-256
    of every file's path and bytes, ``urls`` the page and every ``/keeper/`` file but the worker;
    computed again only when a file's mtime or size changed."""
    return _shell(folder, _stamp(folder))


def service_worker_script(folder: Path = KEEPER_STATIC) -> str:
    """The worker's JavaScript: ``const SHELL = {"version": ..., "files": [...]};`` then ``sw.js``."""
    version, urls = shell_version(folder)
    shell = json.dumps({"version": version, "files": list(urls)})
    return f"const SHELL = {shell};\n" + (folder / SERVICE_WORKER).read_text(encoding="utf-8")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The keeper's service worker, at the root (its scope may be ``/``) and ``no-cache`` (a changed
    shell is installed at once)."""
    response = Response(service_worker_script(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
