"""The engine benchmark: one process per run, each with its own fixed hash seed (bench/run.py); and
the cost of a side of 16 melds against 8, judged per card."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from bench import engine_bench, rounds
from bench import run as bench_run
from bench.report import Report, Row


def test_each_run_is_a_process_with_its_own_hash_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake_run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        assert args[1:] == ["-m", "bench.engine_bench"]
        seed = kwargs["env"]["PYTHONHASHSEED"]
        seen.append(seed)
        return subprocess.CompletedProcess(args, 0, json.dumps({"score_cards": 10.0 + int(seed), "floor_score": 2.0}))

    monkeypatch.setattr(bench_run.subprocess, "run", fake_run)
    samples = bench_run.engine_processes(3)
    assert seen == ["0", "1", "2"]
    assert samples == {"score_cards": [10.0, 11.0, 12.0], "floor_score": [2.0, 2.0, 2.0]}


def test_one_process_times_every_case() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.engine_bench"], capture_output=True, text=True, check=True, timeout=120
    )
    timings = json.loads(done.stdout)
    assert set(timings) == set(engine_bench.cases())
    assert all(us > 0 for us in timings.values())
    assert set(engine_bench.RATIOS) | set(engine_bench.RATIOS.values()) | set(engine_bench.SCALING) <= set(timings)


def test_a_side_of_16_melds_has_twice_the_cards_of_8_and_the_other_side_stays() -> None:
    small, big = (sum(map(len, rounds.side_melds(n))) for n in (8, 16))
    assert big == 2 * small > 0 and len(rounds.side_melds(16)) == 16
    bodies = [rounds.side_body(n) for n in (8, 16)]
    assert bodies[0]["teams"][1] == bodies[1]["teams"][1] and "tally" not in bodies[0]["teams"][1]
    assert len(rounds.all_cards(bodies[1])) - len(rounds.all_cards(bodies[0])) == small
    with pytest.raises(ValueError):
        rounds.side_melds(24)  # more twos than 5 decks hold


def _scaling_rows(us_8: float, us_16: float) -> dict[str, Row]:
    report = Report()
    bench_run.bench_scaling(report, {"score_8_melds": [us_8, us_8], "score_16_melds": [us_16, us_16]})
    return {row.measure: row for row in report.rows}


def test_scaling_is_judged_per_card() -> None:
    cards_8, cards_16 = (len(rounds.all_cards(rounds.side_body(n))) for n in (8, 16))
    linear = _scaling_rows(100.0, 100.0 * cards_16 / cards_8)  # the same time per card
    assert linear["score_8_melds per card"].values == [100.0 / cards_8] * 2
    assert linear["score_16_melds / score_8_melds"].values == pytest.approx([cards_16 / cards_8] * 2)
    assert linear["score_16_melds / score_8_melds per card"].values == pytest.approx([1.0, 1.0])
    assert linear["score_16_melds / score_8_melds per card"].met is True
    cliff = _scaling_rows(85.0, 201.0)  # issue 17's fall off the fast path
    assert cliff["score_16_melds / score_8_melds per card"].met is False
