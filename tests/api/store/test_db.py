"""The database layer: lazy engine, SQLite pragmas, sessions on both backends.

``HANDFOOT_SQLITE_SYNCHRONOUS``: ``FULL`` by default, ``NORMAL`` on request, anything else refused.

``handfoot-server backup PATH``: an online copy of the SQLite database, refused for PostgreSQL.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from sqlalchemy import select, text

from handfoot.server import create_app, migrate
from handfoot.server.cli import main
from handfoot.server.config import load_config, sqlite_synchronous_from_env
from handfoot.server.db import get_db, make_engine, sqlite_file
from handfoot.server.models import ApiKey
from tests.helpers.games import SEED_ROUND_1, TEAMS


def test_create_app_touches_no_database() -> None:
    app = create_app({"DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none"})
    assert app.test_client().get("/openapi.json").status_code == 200
    assert get_db(app)._engine is None


def test_sqlite_pragmas(app: Flask) -> None:
    with get_db(app).engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL, the durable default


def test_postgres_urls_use_psycopg() -> None:
    app = create_app({"DATABASE_URL": "postgresql://u@h/db"})
    assert get_db(app).url == "postgresql+psycopg://u@h/db"


@pytest.mark.db
def test_session_round_trip(app: Flask, db_backend: str) -> None:
    db = get_db(app)
    with db.session() as session:
        session.add(ApiKey(name="ci", key_hash="h1"))
    with db.session() as session:
        key = session.scalars(select(ApiKey)).one()
        assert (key.name, key.key_hash) == ("ci", "h1")
        assert key.created_at is not None


def synchronous_of(url: str, **kwargs: str) -> int:
    engine = make_engine(url, **kwargs)
    try:
        with engine.connect() as connection:
            value: int = connection.execute(text("PRAGMA synchronous")).scalar_one()
            return value
    finally:
        engine.dispose()


def test_default_is_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HANDFOOT_SQLITE_SYNCHRONOUS", raising=False)
    assert sqlite_synchronous_from_env() == "FULL"
    assert load_config({})["SQLITE_SYNCHRONOUS"] == "FULL"
    assert synchronous_of(f"sqlite:///{tmp_path / 'a.sqlite3'}") == 2  # FULL


def test_normal_is_an_opt_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDFOOT_SQLITE_SYNCHRONOUS", "normal")
    assert synchronous_of(f"sqlite:///{tmp_path / 'a.sqlite3'}") == 1  # NORMAL, also for migrations and floors
    assert synchronous_of(f"sqlite:///{tmp_path / 'b.sqlite3'}", sqlite_synchronous="FULL") == 2


@pytest.mark.parametrize("value", ["OFF", "0", "fast"])
def test_other_levels_are_refused_by_name(value: str) -> None:
    with pytest.raises(ValueError, match="HANDFOOT_SQLITE_SYNCHRONOUS"):
        load_config({"HANDFOOT_SQLITE_SYNCHRONOUS": value})


def test_backup_copies_the_games_while_a_connection_holds_a_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    migrate.upgrade(url)
    flask_client = create_app({"TESTING": True, "DATABASE_URL": url}).test_client()
    game = flask_client.post("/v1/games", json={"name": "kept", "preset": "pagat", "teams": TEAMS}).get_json()
    assert flask_client.post(f"/v1/games/{game['id']}/rounds", json={"teams": SEED_ROUND_1}).status_code == 201
    monkeypatch.setenv("DATABASE_URL", url)
    reader = sqlite3.connect(tmp_path / "live.sqlite3")  # the server keeps serving reads meanwhile
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM games").fetchone()
    copy = tmp_path / "backups" / "copy.sqlite3"
    result = CliRunner().invoke(main, ["backup", str(copy)])
    reader.close()
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "backups" / "copy.sqlite3-wal").exists()  # one self-contained file
    restored = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{copy}"}).test_client()
    stored = restored.get(f"/v1/games/{game['id']}").get_json()
    assert stored["name"] == "kept" and stored["rounds_played"] == 1
    # an existing file is kept unless --force
    again = CliRunner().invoke(main, ["backup", str(copy)])
    assert again.exit_code != 0 and "--force" in again.output
    assert CliRunner().invoke(main, ["backup", "--force", str(copy)]).exit_code == 0


def test_backup_refuses_postgresql(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    result = CliRunner().invoke(main, ["backup", str(tmp_path / "x.sqlite3")])
    assert result.exit_code != 0 and "pg_dump" in result.output


def test_the_server_command_prints_its_own_version() -> None:
    """``handfoot-server --version`` names the server's distribution and version (it printed Flask's
    versions: issue 31)."""
    from importlib.metadata import version

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"handfoot-server {version('handfoot-server')}\n"


@pytest.mark.parametrize(
    ("url", "file"),
    [
        ("sqlite:////srv/handfoot/h.db", "/srv/handfoot/h.db"),
        ("sqlite:///file:/srv/handfoot/h.db?mode=ro&uri=true", "/srv/handfoot/h.db"),
        ("sqlite:///file:///srv/handfoot/h.db?uri=true", "/srv/handfoot/h.db"),
        ("sqlite:///file:h.db?mode=rw&uri=true", "h.db"),
        ("sqlite:///file::memory:?uri=true", None),
        ("sqlite:///file:shared?mode=memory&cache=shared&uri=true", None),
        ("sqlite://", None),
        ("postgresql+psycopg://postgres@127.0.0.1/h", None),
    ],
)
def test_a_sqlite_url_names_its_file_in_either_form(url: str, file: str | None) -> None:
    """A path, or SQLite's URI filename (``file:...?uri=true``): the file the server opens, never a
    folder named ``file:`` made in the working directory (``make_engine`` makes the file's folder)."""
    assert sqlite_file(url) == (None if file is None else Path(file))


def test_an_engine_on_a_uri_filename_makes_no_folder_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_engine(f"sqlite:///file:{tmp_path}/db/h.db?mode=rwc&uri=true").dispose()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db"]
