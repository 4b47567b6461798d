"""A pytest-xdist worker whose last garbage collection is slow ends without a ``KeyboardInterrupt``
traceback once tests/helpers/session_end.py's hook runs (tests/conftest.py imports it).

A passing ``make test`` printed one (issue 44): execnet sends a worker a SIGINT when its pytest has
not returned 5 s after the worker reported its end, and pytest's two full collections of a
million-object heap took longer. Here one garbage object whose finalizer takes 7 s stands for that
heap (automatic collection off, so it waits for the session's end as the heap's work does). The
contrast run, without the hook, shows the traceback the plugin prevents."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.live import PROJECT_ROOT

SLOW_END = """\
import gc
import time

gc.disable()  # the cycle below is left for the session's end, as a big heap's collection is


class SlowToFree:
    def __del__(self) -> None:
        time.sleep(7)  # longer than execnet's 5 s after the worker reported its end


def test_leaves_a_slow_cycle() -> None:
    held = SlowToFree()
    held.me = held
"""


def run_one_worker(tmp_path: Path, *plugins: str) -> str:
    """``pytest -n 1`` on :data:`SLOW_END` with ``plugins`` (``-p``); what it printed."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # not the project's settings
    (tmp_path / "test_slow_end.py").write_text(SLOW_END, encoding="utf-8")
    options = [arg for name in plugins for arg in ("-p", name)]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "1", "-p", "no:cacheprovider", *options, "test_slow_end.py"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    printed = done.stdout + done.stderr
    assert done.returncode == 0 and "1 passed" in printed, printed
    return printed


def test_a_slow_last_collection_ends_quietly(tmp_path: Path) -> None:
    printed = run_one_worker(tmp_path, "tests.helpers.session_end")
    assert "KeyboardInterrupt" not in printed and "Traceback" not in printed, printed


def test_without_the_hook_the_worker_is_interrupted(tmp_path: Path) -> None:
    """Why: the run above must be one that prints the traceback when nothing collects early."""
    printed = run_one_worker(tmp_path)
    assert "KeyboardInterrupt" in printed, printed
