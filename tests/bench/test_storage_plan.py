"""The storage benchmark's plan of appends (bench/storage.py): no game is sent more rounds than the
API lets it hold, so every timed append is a stored round, not a cheap refusal."""

from __future__ import annotations

from collections import Counter

import pytest

from api.services.games import MAX_ROUNDS_PER_GAME
from bench import storage


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
        assert len(set(paths[start:start + window])) == storage.GAMES
    assert paths[: storage.GAMES] == [f"/v1/games/{i}/rounds" for i in ids[: storage.GAMES]]
