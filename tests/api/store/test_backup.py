"""``handfoot-server backup PATH``: an online copy of the SQLite database, refused for PostgreSQL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from handfoot.server import create_app, migrate
from handfoot.server.cli import main
from tests.helpers.games import SEED_ROUND_1, TEAMS


def test_backup_copies_the_games_while_a_connection_holds_a_read(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
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
