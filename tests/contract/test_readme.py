"""The README documents every problem code and every preset."""

from __future__ import annotations

from pathlib import Path

from handfoot.engine import PRESETS
from handfoot.server.codes import PROBLEM_CODES
from handfoot.server.problems import problem_types

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    first_block = README.split("```")[1]
    assert "make run" in first_block and "make test" in first_block


def test_every_problem_code_is_in_the_readme() -> None:
    missing = [
        code
        for code in [*PROBLEM_CODES, *problem_types]
        if f"| `{code}` |" not in README
    ]
    assert not missing


def test_every_preset_has_a_readme_section() -> None:
    assert not [pid for pid in PRESETS if f"### `{pid}`" not in README]


def test_the_jq_recipe_prints_the_breakdown_the_readme_shows() -> None:
    """The recipe after ``<!-- jq-breakdown -->``, run by jq on the server's answer to the README's
    round, prints exactly the table the README shows."""
    import json
    import shutil
    import subprocess

    import pytest

    from handfoot.server import create_app

    jq = shutil.which("jq")
    if jq is None:
        pytest.skip("jq is not installed (.ci/run installs it)")
    recipe_block = README.split("<!-- jq-breakdown -->", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    program = recipe_block.split("jq -r '", 1)[1].rsplit("'", 1)[0]
    shown = README.split("```text\n", 1)[1].split("```", 1)[0]
    case = Path(__file__).resolve().parents[1] / "cases" / "worked" / "s0-worked-round-tally.json"
    body = json.loads(case.read_text(encoding="utf-8"))["request"]
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
    answer = app.test_client().post("/v1/rounds/score", json=body)
    assert answer.status_code == 200
    printed = subprocess.run([jq, "-r", program], input=answer.get_data(as_text=True), capture_output=True,
                             text=True, check=True).stdout
    assert printed == shown


def test_the_write_a_bot_example_prints_what_the_readme_shows(db_url: str, tmp_path: Path) -> None:
    """The bot after ``<!-- write-a-bot -->`` is examples/cautious_bot.py, and run against a fresh
    server (gunicorn with the production settings) it prints exactly the output after ``<!-- write-a-bot-output -->``
    (the table's seed and the bots' fix the game)."""
    import os
    import subprocess
    import sys

    from bench.live import LiveServer

    root = Path(__file__).resolve().parents[2]
    example = root / "examples" / "cautious_bot.py"
    shown_code = README.split("<!-- write-a-bot -->", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert shown_code == example.read_text(encoding="utf-8")
    shown = README.split("<!-- write-a-bot-output -->", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    with LiveServer(db_url, tmp_path / "gunicorn.log", workers=2) as server:  # production settings: threaded
        env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")} | {"HANDFOOT_URL": server.base}
        done = subprocess.run([sys.executable, str(example)], cwd=root, env=env, capture_output=True, text=True,
                              timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown


def test_the_handfoot_play_command_prints_what_the_readme_shows(db_url: str, tmp_path: Path) -> None:
    """The command after ``<!-- handfoot-play -->``, run against a fresh server (gunicorn with the
    production settings), prints exactly the output after ``<!-- handfoot-play-output -->`` (its seed
    fixes the table's shuffles and the bots' choices)."""
    import os
    import shlex
    import subprocess
    import sys

    from bench.live import LiveServer

    shown_command = README.split("<!-- handfoot-play -->", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    argv = shlex.split(shown_command)
    assert argv[:2] == ["handfoot", "play"] and "--seed" in argv
    shown = README.split("<!-- handfoot-play-output -->", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    with LiveServer(db_url, tmp_path / "gunicorn.log", workers=2) as server:
        env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")} | {"HANDFOOT_URL": server.base}
        done = subprocess.run([str(Path(sys.executable).with_name("handfoot")), *argv[1:]], env=env,
                              capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
