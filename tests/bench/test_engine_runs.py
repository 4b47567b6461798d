"""The engine benchmark: one process per run, each with its own fixed hash seed (bench/run.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from bench import engine_bench
from bench import run as bench_run


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
    done = subprocess.run([sys.executable, "-m", "bench.engine_bench"], capture_output=True, text=True,
                          check=True, timeout=120)
    timings = json.loads(done.stdout)
    assert set(timings) == set(engine_bench.cases())
    assert all(us > 0 for us in timings.values())
    assert set(engine_bench.RATIOS) | set(engine_bench.RATIOS.values()) <= set(timings)
