"""Configuration from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from handfoot.server import create_app
from handfoot.server.config import CHECKOUT_ROOT, load_config
from handfoot.server.db import describe_database
from handfoot.server.secret import secret_key


def test_defaults() -> None:
    config = load_config({})
    assert config["DATABASE_URL"] == f"sqlite:///{CHECKOUT_ROOT / 'var' / 'handfoot.sqlite3'}"
    assert Path(config["DATABASE_URL"].removeprefix("sqlite:///")).is_absolute()
    assert config["MAX_CONTENT_LENGTH"] == 1024 * 1024
    assert (config["API_TITLE"], config["API_VERSION"], config["OPENAPI_VERSION"]) == (
        "handfoot",
        "1.0.0",
        "3.1.0",
    )
    assert config["OPENAPI_SWAGGER_UI_PATH"] == "/docs"
    assert not config["OPENAPI_SWAGGER_UI_URL"].startswith(("http:", "https:", "//"))


def test_environment_overrides() -> None:
    config = load_config({"DATABASE_URL": "postgres://u@h/db", "HANDFOOT_MAX_BODY_BYTES": "2048"})
    assert config["DATABASE_URL"] == "postgresql+psycopg://u@h/db"
    assert config["MAX_CONTENT_LENGTH"] == 2048


@pytest.mark.parametrize("raw", ["lots", "0", "-5"])
def test_bad_body_limit_is_rejected(raw: str) -> None:
    with pytest.raises(ValueError, match="HANDFOOT_MAX_BODY_BYTES"):
        load_config({"HANDFOOT_MAX_BODY_BYTES": raw})


def test_describe_database_hides_password() -> None:
    assert describe_database("sqlite:////tmp/x.sqlite3") == "SQLite database file: /tmp/x.sqlite3"
    assert "secret" not in describe_database("postgresql+psycopg://u:secret@h/db")


def test_the_secret_key_comes_from_the_environment_or_is_drawn_at_start_up() -> None:
    assert load_config({})["SERVER_SECRET"] is None
    assert load_config({"HANDFOOT_SECRET_KEY": "s" * 32})["SERVER_SECRET"] == "s" * 32
    with pytest.raises(ValueError, match="HANDFOOT_SECRET_KEY"):
        load_config({"HANDFOOT_SECRET_KEY": "short"})
    drawn = [create_app({"SERVER_SECRET": None}) for _ in range(2)]
    assert all(app.config["SERVER_SECRET_GENERATED"] and len(secret_key(app)) == 64 for app in drawn)
    assert secret_key(drawn[0]) != secret_key(drawn[1])  # one per process start, never a fixed default
    assert secret_key(create_app({"SERVER_SECRET": "s" * 32})) == b"s" * 32
