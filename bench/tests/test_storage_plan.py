"""The storage benchmark's plan of appends (bench/storage.py): no game is sent more rounds than the
API lets it hold, so every timed append is a stored round, not a cheap refusal. And its choice of
backends (``--databases``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench import storage
from handfoot.server.schemas import MAX_ROUNDS_PER_GAME


@pytest.mark.parametrize("seconds", [1, 3, 10])
def test_no_game_is_sent_more_rounds_than_it_holds(seconds: float) -> None:
    ids = list(range(1, storage.games_needed(seconds) + 1))
    paths = storage.append_paths(ids)
    per_game = Counter(paths)
    assert max(per_game.values()) == storage.ROUNDS_PER_GAME <= MAX_ROUNDS_PER_GAME
    assert len(per_game) == len(ids)
    assert len(paths) >= storage.APPEND_RATE_CEILING * seconds  # the list does not wrap within the window


def test_appends_go_to_50_games_at_a_time() -> None:
    ids = list(range(1, storage.games_needed(3) + 1))
    paths = storage.append_paths(ids)
    window = storage.GAMES * storage.ROUNDS_PER_GAME
    for start in range(0, len(paths), window):
        assert len(set(paths[start : start + window])) == storage.GAMES
    assert paths[: storage.GAMES] == [f"/v1/games/{i}/rounds" for i in ids[: storage.GAMES]]


class StopTest(Exception):  # noqa: N818 - not an error: the run's planned end
    """Ends a storage run once the backend it was run on is known."""


def test_databases_chooses_the_backends_storage_runs_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--databases sqlite`` runs storage on SQLite only: PostgreSQL's database is never made; and
    ``postgresql`` alone never touches SQLite."""
    from bench import run

    made: list[str] = []

    def fake_postgres() -> Any:
        made.append("postgresql")
        raise RuntimeError("not here")

    def fake_migrate(url: str) -> None:
        made.append(url)
        raise StopTest

    monkeypatch.setattr(run.storage, "postgres_database", fake_postgres)
    monkeypatch.setattr(run.storage, "migrate", fake_migrate)
    with pytest.raises(StopTest):
        run.bench_storage(run.Report(), 1, 1.0, [8], tmp_path, ["sqlite"])
    assert len(made) == 1 and made[0].startswith("sqlite:///")

    made.clear()
    report = run.Report()
    run.bench_storage(report, 1, 1.0, [8], tmp_path, ["postgresql"])
    assert made == ["postgresql"] and any("postgresql: skipped" in note for note in report.notes)


def test_an_unknown_database_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import run

    with pytest.raises(SystemExit) as exit_info:
        run.main(["--only", "storage", "--databases", "sqlite,oracle"])
    assert exit_info.value.code == 2 and "unknown database(s): oracle" in capsys.readouterr().err
