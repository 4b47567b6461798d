"""``HANDFOOT_SQLITE_SYNCHRONOUS``: ``FULL`` by default, ``NORMAL`` on request, anything else refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from handfoot.server.config import load_config, sqlite_synchronous_from_env
from handfoot.server.db import make_engine


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
