"""Many writers at once on a real threaded server: nothing lost, nothing doubled.

16 threads: 8 append rounds to one game (with Idempotency-Keys, retrying on 409 and 503), 8 correct
rounds of two other games (GET for the ETag, PUT with If-Match, retrying on 412). Afterwards every
round number appears exactly once, the totals equal a recomputation from the stored rounds, and
every successful correction left exactly one revision.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from typing import Any

import pytest
import requests
from flask import Flask
from sqlalchemy import select

from handfoot.server.db import get_db
from handfoot.server.models import Game, Round, RoundRevision
from tests.helpers.games import TEAMS, tally

pytestmark = pytest.mark.db

APPENDERS = 8
APPENDS_EACH = 5
CORRECTORS = 8
CORRECTIONS_EACH = 4


def small_round(points: int) -> list[dict[str, Any]]:
    return [tally("Team 1", clean=1, table=points), tally("Team 2", clean=1, table=100)]


def send(method: str, url: str, retry_on: tuple[int, ...], attempts: int = 200, **kwargs: Any) -> requests.Response:
    for _ in range(attempts):
        response = requests.request(method, url, timeout=60, **kwargs)
        if response.status_code not in retry_on:
            return response
        time.sleep(0.01)
    raise AssertionError(f"{method} {url}: still {response.status_code} after {attempts} attempts")


def test_concurrent_appends_and_corrections(app: Flask, threaded_server: str, db_backend: str) -> None:
    def create(rules: dict[str, Any]) -> int:
        response = requests.post(f"{threaded_server}/v1/games", json={"name": "c", "preset": "pagat", "rules": rules,
                                                             "teams": TEAMS}, timeout=30)
        assert response.status_code == 201, response.text
        return int(response.json()["id"])

    target = create({"rounds": 50})
    corrected = [create({}), create({})]
    for game_id in corrected:
        for _ in range(3):
            response = requests.post(f"{threaded_server}/v1/games/{game_id}/rounds", json={"teams": small_round(100)},
                                     timeout=30)
            assert response.status_code == 201, response.text

    errors: list[str] = []
    corrections: Counter[tuple[int, int]] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(APPENDERS + CORRECTORS)

    def appender(i: int) -> None:
        start.wait()
        for j in range(APPENDS_EACH):
            key = str(uuid.uuid4())
            response = send("POST", f"{threaded_server}/v1/games/{target}/rounds", (409, 503),
                            json={"teams": small_round(100 + 5 * (i * APPENDS_EACH + j))},
                            headers={"Idempotency-Key": f'"{key}"'})
            if response.status_code != 201:
                errors.append(f"append: {response.status_code} {response.text}")
            # a retry of a completed append returns it again and stores nothing
            again = send("POST", f"{threaded_server}/v1/games/{target}/rounds", (409, 503),
                         json={"teams": small_round(100 + 5 * (i * APPENDS_EACH + j))},
                         headers={"Idempotency-Key": f'"{key}"'})
            if again.status_code != 201 or again.json() != response.json():
                errors.append(f"replay: {again.status_code} {again.text}")

    def corrector(i: int) -> None:
        game_id = corrected[i % 2]
        number = 1 + (i // 2) % 3
        start.wait()
        done = 0
        while done < CORRECTIONS_EACH:
            url = f"{threaded_server}/v1/games/{game_id}/rounds/{number}"
            got = send("GET", url, (503,))
            response = send("PUT", url, (409, 503), json={"teams": small_round(105 + 5 * i + 10 * done)},
                            headers={"If-Match": got.headers["ETag"]})
            if response.status_code == 412:
                continue
            if response.status_code != 200:
                errors.append(f"correct: {response.status_code} {response.text}")
                return
            done += 1
            with lock:
                corrections[(game_id, number)] += 1

    threads = [threading.Thread(target=appender, args=(i,)) for i in range(APPENDERS)]
    threads += [threading.Thread(target=corrector, args=(i,)) for i in range(CORRECTORS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors[:5]

    with get_db(app).session() as session:
        for game_id in [target, *corrected]:
            game = session.get(Game, game_id)
            assert game is not None
            rounds = session.scalars(select(Round).where(Round.game_id == game_id).order_by(Round.number)).all()
            expected_rounds = APPENDERS * APPENDS_EACH if game_id == target else 3
            assert [r.number for r in rounds] == list(range(1, expected_rounds + 1))  # each number once
            totals = [sum(r.teams[side]["total"] for r in rounds) for side in range(2)]
            assert [t["total"] for t in game.state["totals"]] == totals
            assert game.rounds_played == expected_rounds
            for r in rounds:
                revisions = session.scalars(select(RoundRevision).where(RoundRevision.round_id == r.id)
                                            .order_by(RoundRevision.revision)).all()
                made = corrections[(game_id, r.number)]
                assert r.revision == made + 1
                assert [v.revision for v in revisions] == list(range(1, made + 1))  # no revision lost
        target_game = session.get(Game, target)
        assert target_game is not None
        table_points = sorted(r.request["teams"][0]["tally"]["table_points"] for r in session.scalars(
            select(Round).where(Round.game_id == target)))
        assert table_points == [100 + 5 * k for k in range(APPENDERS * APPENDS_EACH)]  # each append once
    assert sum(corrections.values()) == CORRECTORS * CORRECTIONS_EACH
