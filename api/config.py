"""Application configuration, read from the environment: every variable, its unit and default are
in docs/configuration.md. A bad number raises ``ValueError`` naming its variable;
``create_app(config)`` takes a mapping that overrides any of these.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from handfoot.server.secret import secret_from_env
from handfoot.server.spec import spec_options


def _checkout_root() -> Path | None:
    """The repository root when the server runs from a checkout (``api/`` beside ``pyproject.toml``
    and ``migrations/``), else ``None`` (installed from the wheel, as ``handfoot/server``)."""
    root = Path(__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() and (root / "migrations").is_dir() else None


#: The repository root in a checkout; ``None`` when installed.
CHECKOUT_ROOT = _checkout_root()


def _default_sqlite_path() -> Path:
    if CHECKOUT_ROOT is not None:
        return CHECKOUT_ROOT / "var" / "handfoot.sqlite3"
    from platformdirs import user_data_path  # the user's data directory, by the platform's rules

    return user_data_path("handfoot") / "handfoot.sqlite3"


#: The SQLite file used when ``DATABASE_URL`` is not set: ``var/handfoot.sqlite3`` in a checkout,
#: else ``handfoot.sqlite3`` in the user's data directory (``~/.local/share/handfoot`` on Linux).
DEFAULT_SQLITE_PATH = _default_sqlite_path()

DEFAULT_MAX_BODY_BYTES = 1024 * 1024

#: The accepted values of ``HANDFOOT_SQLITE_SYNCHRONOUS``; the first is the default. ``OFF`` is not
#: offered: it may corrupt the database on power loss.
SQLITE_SYNCHRONOUS_LEVELS = ("FULL", "NORMAL", "EXTRA")

#: Where Swagger UI's static files are served from (``create_app``).
SWAGGER_UI_STATIC_URL = "/docs/static/"


def default_database_url() -> str:
    """The SQLAlchemy URL of the default SQLite file (absolute path)."""
    return f"sqlite:///{DEFAULT_SQLITE_PATH}"


def normalize_database_url(url: str) -> str:
    """Pick the psycopg 3 driver for bare PostgreSQL URLs; leave the rest alone."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def database_url_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``DATABASE_URL`` from the environment, or the default SQLite file."""
    env = os.environ if environ is None else environ
    return normalize_database_url(env.get("DATABASE_URL") or default_database_url())


def _int_from_env(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from None
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def sqlite_synchronous_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``HANDFOOT_SQLITE_SYNCHRONOUS`` upper-cased, default ``FULL``; raises ``ValueError`` naming
    the variable for a value outside :data:`SQLITE_SYNCHRONOUS_LEVELS`."""
    env = os.environ if environ is None else environ
    raw = (env.get("HANDFOOT_SQLITE_SYNCHRONOUS") or "").strip().upper() or SQLITE_SYNCHRONOUS_LEVELS[0]
    if raw not in SQLITE_SYNCHRONOUS_LEVELS:
        raise ValueError(
            f"HANDFOOT_SQLITE_SYNCHRONOUS must be one of {', '.join(SQLITE_SYNCHRONOUS_LEVELS)}, got {raw!r}"
        )
    return raw


def load_config(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The app configuration: fixed API settings plus what the environment sets."""
    env = os.environ if environ is None else environ
    return {
        # flask-smorest / OpenAPI. API_VERSION is the *contract* version, not the package version,
        # so a release does not dirty the committed openapi/openapi.json: its one source (docs/development.md,
        # "Versions"). Raise it when the HTTP contract changes (minor: additions; major: breaks).
        "API_TITLE": "handfoot",
        "API_VERSION": "1.0.0",
        "API_SPEC_OPTIONS": spec_options(),  # info.description, contact, license; servers (api/spec.py)
        "OPENAPI_VERSION": "3.1.0",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        # Swagger UI at /docs, its JS/CSS served by us from the flask-swagger-ui package (offline).
        "OPENAPI_SWAGGER_UI_PATH": "/docs",
        "OPENAPI_SWAGGER_UI_URL": SWAGGER_UI_STATIC_URL,
        # validatorUrl null: the page never asks an outside validator about our document.
        "OPENAPI_SWAGGER_UI_CONFIG": {"deepLinking": True, "validatorUrl": None},
        # Request limits: werkzeug raises 413 past this size.
        "MAX_CONTENT_LENGTH": _int_from_env(env, "HANDFOOT_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES),
        # Database (the engine is created lazily, on first use; see api/db.py).
        "DATABASE_URL": database_url_from_env(env),
        "SQLITE_BUSY_TIMEOUT": float(env.get("HANDFOOT_SQLITE_BUSY_TIMEOUT") or 15),
        "SQLITE_SYNCHRONOUS": sqlite_synchronous_from_env(env),
        # Rate limiting and CORS (api/security.py).
        "RATE_LIMIT": env.get("HANDFOOT_RATE_LIMIT", ""),
        "RATE_LIMIT_STORAGE": env.get("HANDFOOT_RATE_LIMIT_STORAGE") or "",  # "": api/ratelimit.py's file
        "RATE_LIMIT_KEY_PREFIX": env.get("HANDFOOT_RATE_LIMIT_KEY_PREFIX", ""),
        "SEAT_RATE_LIMIT": env.get("HANDFOOT_SEAT_RATE_LIMIT", ""),
        "CORS_ORIGINS": env.get("HANDFOOT_CORS_ORIGINS", ""),
        # The server's public URL (https://scores.example.org): pagination links are built on it.
        "PUBLIC_URL": env.get("HANDFOOT_PUBLIC_URL") or None,
        # The key of signed cursors and round seeds (api/secret.py); None: drawn at start-up.
        "SERVER_SECRET": secret_from_env(env),
        # Waiting requests per worker process (api/resources/tables/waits.py); 0: its default.
        "WAITS_PER_ADDRESS": _int_from_env(env, "HANDFOOT_WAITS_PER_ADDRESS", 0),
        "WAITS_PER_PROCESS": _int_from_env(env, "HANDFOOT_WAITS_PER_PROCESS", 0),
        # Prometheus metrics at /metrics (api/metrics.py): "off" removes them; a token protects them.
        "METRICS": env.get("HANDFOOT_METRICS", "on"),
        "METRICS_TOKEN": env.get("HANDFOOT_METRICS_TOKEN") or None,
        "WAITS_PER_OWNER": _int_from_env(env, "HANDFOOT_WAITS_PER_OWNER", 0),
    }
