"""The server's secret: the key of the HMACs (SHA-256) that sign the games list's cursors and derive
a table's round seeds, each for its own purpose (:func:`sign`).

``HANDFOOT_SECRET_KEY`` sets it (at least :data:`MIN_SECRET_LENGTH` characters); unset, each process
that builds the app draws one (docs/deploy.md).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping

import flask

#: The shortest ``HANDFOOT_SECRET_KEY`` accepted (characters): 32 hex digits are 128 bits.
MIN_SECRET_LENGTH = 32
ENV_VAR = "HANDFOOT_SECRET_KEY"
#: The configuration's key for it: not Flask's ``SECRET_KEY``, which stays unset so that Flask opens no
#: cookie session (its session interface gives the read-only null session without a key).
CONFIG_KEY = "SERVER_SECRET"


def secret_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """``HANDFOOT_SECRET_KEY`` as set (``None``: unset or empty); a ``ValueError`` naming the variable
    for one shorter than :data:`MIN_SECRET_LENGTH`."""
    env = os.environ if environ is None else environ
    raw = (env.get(ENV_VAR) or "").strip()
    if not raw:
        return None
    if len(raw) < MIN_SECRET_LENGTH:
        raise ValueError(f"{ENV_VAR} must be at least {MIN_SECRET_LENGTH} characters (random), got {len(raw)}")
    return raw


def init_app(app: flask.Flask) -> None:
    """A random ``SERVER_SECRET`` (64 hex digits) when the configuration has none;
    ``SERVER_SECRET_GENERATED`` says so."""
    if not app.config.get(CONFIG_KEY):
        app.config[CONFIG_KEY] = secrets.token_hex(32)
        app.config["SERVER_SECRET_GENERATED"] = True


def secret_key(app: flask.Flask | None = None) -> bytes:
    """The server's secret as bytes (``app``, or the current app's)."""
    value = (app or flask.current_app).config[CONFIG_KEY]
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def sign(key: bytes, purpose: str, message: bytes) -> bytes:
    """HMAC-SHA256 with ``key`` over ``purpose``, a NUL and ``message`` (32 bytes)."""
    return hmac.new(key, purpose.encode("ascii") + b"\0" + message, hashlib.sha256).digest()
