"""The examples/ scripts and notebook run against the live test server (and offline)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from handfoot.client import Client
from tests.helpers.live import PROJECT_ROOT, LiveServer

EXAMPLES = PROJECT_ROOT / "examples"


def run_example(name: str, live_server: LiveServer | None = None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    if live_server is not None:
        env["HANDFOOT_URL"] = live_server.url
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_score_round_example(live_server: LiveServer) -> None:
    done = run_example("score_round.py", live_server)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("Team 1: 3740\nTeam 2: 1075")
    assert "Wild books" in done.stdout


def test_meld_bot_example(live_server: LiveServer) -> None:
    done = run_example("meld_bot.py", live_server, "--turns", "8", "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert "would break the rules (too_many_wilds)" in done.stdout  # the server refused a greedy meld
    assert "opening met" in done.stdout and "melds checked" in done.stdout


def test_offline_score_example() -> None:
    done = run_example("offline_score.py")  # no server at all
    assert done.returncode == 0, done.stderr
    totals = [line.split()[-1] for line in done.stdout.splitlines() if line.strip().startswith("Total")]
    assert totals == ["3740", "1075"]


def test_rl_random_greedy_example() -> None:
    """Random agents and the engine's greedy bot through the PettingZoo environment (no server)."""
    done = run_example("rl_random_greedy.py", None, "--preset", "pagat", "--rounds", "2", "--seed", "7")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "pagat, 2 rounds from seed 7; greedy: seat_1, seat_3, random: the others"
    assert [line.split(":")[0] for line in lines[1:]] == ["round 1", "round 2", "rewards", "game"]
    rounds = [[int(p.split()[-1]) for p in line.split(": ")[1].split(", ")] for line in lines[1:3]]
    game = [int(p.split()[-1]) for p in lines[4].split(": ")[1].split(", ")]
    assert game == [sum(column) for column in zip(*rounds, strict=True)]  # the game's totals add the rounds
    rewards = [int(p.split()[-1]) for p in lines[3].split(": ")[1].split(", ")]
    assert rewards == [game[0], game[1], game[0], game[1]]  # each seat was given its side's points


def execute_notebook(name: str, env: dict[str, str]) -> list[Any]:
    """Run ``examples/NAME`` in a fresh kernel; its code cells' outputs, in order."""
    nbformat = pytest.importorskip("nbformat", reason="nbformat/nbclient are dev extras: pip install -e '.[dev]'")
    nbclient = pytest.importorskip("nbclient", reason="nbformat/nbclient are dev extras: pip install -e '.[dev]'")
    notebook = nbformat.read(EXAMPLES / name, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute(env=env)  # raises CellExecutionError, with the cell and traceback, on any failure
    return [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]


def _text(outputs: list[Any]) -> str:
    return "\n".join(str(out.get("text", "")) + str(out.get("data", {}).get("text/plain", "")) for out in outputs)


def _dataframes(outputs: list[Any]) -> list[str]:
    """The HTML of every pandas DataFrame shown (pandas renders them as ``<table class="dataframe">``)."""
    return [html for out in outputs if 'class="dataframe"' in (html := str(out.get("data", {}).get("text/html", "")))]


def game_ids(server: LiveServer) -> list[int]:
    with Client(server.url, api_key=server.api_key) as hf:
        return [game.id for game in hf.games()]


def test_replay_game_notebook(live_server: LiveServer) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    env["HANDFOOT_URL"] = live_server.url
    env["HANDFOOT_API_KEY"] = live_server.api_key
    before = game_ids(live_server)
    outputs = execute_notebook("replay_game.ipynb", env)
    assert game_ids(live_server) == before  # its demo game deleted in its last cell
    text = _text(outputs)
    assert "round 1: Team 1 3740, Team 2 1075" in text
    assert '"round","Team 1","Team 1 total","Team 2","Team 2 total"' in text
    # the chart is drawn inline (a PNG in the cell's output), and the score sheet is a DataFrame
    assert any("image/png" in out.get("data", {}) for out in outputs)
    [frame] = _dataframes(outputs)
    assert "Team 1 total" in frame and "9085" in frame


def test_committed_notebooks_carry_their_outputs() -> None:
    nbformat = pytest.importorskip("nbformat", reason="nbformat is a dev extra")
    for name in ("replay_game.ipynb", "other_rules.ipynb", "history.ipynb", "arena.ipynb"):
        notebook = nbformat.read(EXAMPLES / name, as_version=4)
        outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
        assert _dataframes(outputs), name
    replay = nbformat.read(EXAMPLES / "replay_game.ipynb", as_version=4)
    assert any("image/png" in out.get("data", {}) for cell in replay.cells for out in cell.get("outputs", []))


def test_history_notebook(live_server: LiveServer) -> None:
    """The export as a DataFrame in one line, and the statistics as another (issue 20, item 7)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    env["HANDFOOT_URL"] = live_server.url
    env["HANDFOOT_API_KEY"] = live_server.api_key
    before = game_ids(live_server)
    outputs = execute_notebook("history.ipynb", env)  # a cell asserts the figures agree with the rows
    assert game_ids(live_server) == before  # its two games deleted in its last cell
    rounds, pivot, players = _dataframes(outputs)
    assert "total_after" in rounds and "Grandma &amp; Sam" in rounds
    assert rounds.split("<tbody>")[1].count("<tr>") == 4  # one row per side per round
    assert "bga" in pivot and "pagat" in pivot
    assert "average_round" in players and "Grandma" in players
    assert "2 games, 2 rounds" in _text(outputs)


def test_other_rules_notebook_needs_no_server() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    env["HANDFOOT_URL"] = "http://127.0.0.1:9"  # nothing listens: the notebook must not ask
    outputs = execute_notebook("other_rules.ipynb", env)
    assert "under pagat: Us 11035, Them 7205" in _text(outputs)
    frames = _dataframes(outputs)
    assert len(frames) == 1 and "bicycle" in frames[0] and "all_wild_not_allowed" in frames[0]
    assert any("Cards left in hands and feet" in str(out.get("data", {}).get("text/html", "")) for out in outputs)


def test_arena_notebook_needs_no_server() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    env["HANDFOOT_URL"] = "http://127.0.0.1:9"  # nothing listens: the arena plays in process
    outputs = execute_notebook("arena.ipynb", env)  # its last cell asserts the planner's edge
    text = _text(outputs)
    assert "20 matches of pagat (10 deals), seed 7" in text
    assert "planner: " in text and "points a round" in text
    policies, games = _dataframes(outputs)
    assert "win_rate_low" in policies and "planner margin" in games
    assert any("image/png" in out.get("data", {}) for out in outputs)


def test_async_bot_example(live_server: LiveServer) -> None:
    pytest.importorskip("httpx", reason="the async extra: pip install -e '.[async]'")
    done = run_example("async_bot.py", live_server)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Team 1 3740, Team 2 1075"
    assert lines[1].startswith("valid dirty meld of 9s") and lines[2].startswith("INVALID")


def run_notebooks(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``make notebooks``' command, ``examples/run_notebooks.py ARGS``, with its temporary files
    (the server's folder) in ``tmp_path/tmp`` (``TMPDIR``), which it must leave empty."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    return subprocess.run(
        [sys.executable, str(EXAMPLES / "run_notebooks.py"), *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env | {"TMPDIR": str(tmp)},
    )


def left_behind(tmp_path: Path) -> list[str]:
    """What a run left: files in its ``TMPDIR`` and processes (the server, a kernel) still running
    with that ``TMPDIR`` in their environment (read from /proc)."""
    tmp = tmp_path / "tmp"
    found = [f"file {path}" for path in tmp.rglob("*")]
    marker = f"TMPDIR={tmp}".encode()
    for proc in Path("/proc").iterdir():
        try:
            environ = (proc / "environ").read_bytes().split(b"\0")
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile, or not a process
            continue
        if proc.name.isdigit() and marker in environ:
            found.append(f"process {proc.name}: {command}")
    return found


def examples_files() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in EXAMPLES.iterdir() if path.is_file()}


def test_make_notebooks_runs_them_against_a_throwaway_server(tmp_path: Path) -> None:
    """``make notebooks``' runner: each notebook against its own server, which it leaves as found
    (``--no-write``: the checkout's files are left alone); then no server, kernel or file is left."""
    files = examples_files()
    done = run_notebooks(tmp_path, "--no-write")
    assert done.returncode == 0, done.stderr
    for name in ("replay_game.ipynb", "history.ipynb", "other_rules.ipynb", "arena.ipynb"):
        assert f"{name}: ran in" in done.stdout
    assert done.stdout.count("file left as it was, the server as it was") == 4, done.stdout
    assert left_behind(tmp_path) == []
    assert examples_files() == files  # nothing written beside the notebooks, nor into them


NOTEBOOK_LEAVING_A_GAME = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "a1",
            "metadata": {},
            "outputs": [],
            "source": [
                "from handfoot.client import Client\n",
                "teams = [{'name': 'A', 'players': ['a', 'c']}, {'name': 'B', 'players': ['b', 'd']}]\n",
                "Client().create_game(name='left behind', preset='pagat', teams=teams)",
            ],
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_make_notebooks_fails_a_notebook_that_leaves_a_game(tmp_path: Path) -> None:
    """Why: the runner's check must see a change (the history notebook once left two games), and
    the server and its folder still go when it fails."""
    notebook = tmp_path / "leaves_a_game.ipynb"
    notebook.write_text(json.dumps(NOTEBOOK_LEAVING_A_GAME), encoding="utf-8")
    done = run_notebooks(tmp_path, "--no-write", str(notebook))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{notebook}: left the server changed: games [] -> [\"#1 'left behind' (0 rounds)\"]" in done.stderr
    assert left_behind(tmp_path) == []
