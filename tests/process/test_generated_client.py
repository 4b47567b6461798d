"""A client generated from the committed openapi/openapi.json by an off-the-shelf generator works.

openapi-python-client (a dev dependency, from PyPI; it runs offline) generates a package from the
document into a temporary folder; the test imports it and, against gunicorn on a free port
(bench/live.py), scores seed 000's worked round (Team 1 3,740, Team 2 1,075) and
creates a game and appends that round to it. Its functions are named after the operationIds
(``score_round``, ``append_round``), and every operation of the document was generated. Code using it
passes ``mypy --strict``: the members an answer always sends are plain types, not ``X | Unset``.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bench.live import LiveServer
from tests.conftest import WORKED_CASES

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILE = ROOT / "openapi" / "openapi.json"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "handfoot_generated"


def snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("generated")
    config = out / "config.json"
    # No post hooks: the generator would run ruff over its output, which only formats it.
    config.write_text(
        json.dumps({"package_name_override": PACKAGE, "project_name_override": "handfoot-generated", "post_hooks": []})
    )
    # --meta none: the package alone (no pyproject of its own), written to --output-path.
    result = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(SPEC_FILE),
            "--output-path",
            str(out / PACKAGE),
            "--config",
            str(config),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert (out / PACKAGE / "client.py").is_file()
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def operation(generated: ModuleType, tag: str, operation_id: str) -> Any:
    return importlib.import_module(f"{generated.__name__}.api.{tag}.{snake(operation_id)}")


def test_every_operation_is_generated(generated: ModuleType) -> None:
    spec = json.loads(SPEC_FILE.read_text())
    for item in spec["paths"].values():
        for method, op in item.items():
            if method not in ("get", "put", "post", "delete", "patch"):
                continue
            module = operation(generated, op["tags"][0].lower(), op["operationId"])
            assert callable(module.sync_detailed), op["operationId"]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from handfoot.server import migrate

    folder = tmp_path_factory.mktemp("live")
    url = f"sqlite:///{folder / 'generated.sqlite3'}"
    migrate.upgrade(url)
    with LiveServer(url, folder / "gunicorn.log") as server:
        yield server


def test_scores_the_worked_round_and_appends_it(generated: ModuleType, live: LiveServer) -> None:
    models = importlib.import_module(f"{generated.__name__}.models")
    case = json.loads((WORKED_CASES / "s0-worked-round-tally.json").read_text())["request"]
    with generated.Client(base_url=live.base, raise_on_unexpected_status=True) as client:
        score = operation(generated, "rounds", "scoreRound").sync(
            client=client, body=models.RoundScoreRequest.from_dict(case)
        )
        assert [team.total for team in score.teams] == [3740, 1075]
        assert score.teams[0].lines[0].code == "clean_books"

        game = operation(generated, "games", "createGame").sync(
            client=client,
            body=models.GameCreate.from_dict(
                {
                    "name": "Generated",
                    "preset": "pagat",
                    "teams": [
                        {"name": "Team 1", "players": ["North", "South"]},
                        {"name": "Team 2", "players": ["East", "West"]},
                    ],
                }
            ),
        )
        body = models.RoundCreate.from_dict({"round": 1, "teams": case["teams"]})
        append = operation(generated, "games", "appendRound")
        answer = append.sync_detailed(client=client, game_id=game.id, body=body, idempotency_key='"generated-1"')
        assert answer.status_code == 201
        assert [team.total for team in answer.parsed.teams] == [3740, 1075]
        replay = append.sync_detailed(client=client, game_id=game.id, body=body, idempotency_key='"generated-1"')
        assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"

        got = operation(generated, "games", "getGame").sync(client=client, game_id=game.id)
        assert got.rounds_played == 1 and [t.total for t in got.totals] == [3740, 1075]


#: What an integrator writes with the generated client. Under ``mypy --strict`` it passes only if
#: the document lists the members always sent as ``required`` (else each is ``X | Unset`` and
#: ``result.teams[0]`` is "not indexable"), and only if a games operation takes a plain ``Client``
#: on a server with no keys (an operation with a ``security`` of its own asks an
#: ``AuthenticatedClient``, and a keyless user would need a cast), while a key's holder still
#: passes an ``AuthenticatedClient``.
TYPED_USE = f"""\
from {PACKAGE} import AuthenticatedClient, Client
from {PACKAGE}.api.games import get_game
from {PACKAGE}.api.rounds import score_round
from {PACKAGE}.models import Game, RoundScore, RoundScoreRequest


def first_total(client: Client, body: RoundScoreRequest) -> int:
    result = score_round.sync(client=client, body=body)
    assert isinstance(result, RoundScore)
    return result.teams[0].total


def first_line(result: RoundScore) -> tuple[str, int | None, int]:
    line = result.teams[0].lines[0]
    return line.code, line.count, line.points


def winner(client: AuthenticatedClient, game_id: int) -> tuple[str | None, int]:
    game = get_game.sync(client=client, game_id=game_id)
    assert isinstance(game, Game)
    return game.winner, game.totals[0].total


def keyless_winner(game_id: int) -> str | None:
    with Client(base_url="http://127.0.0.1:8000") as client:
        game = get_game.sync(client=client, game_id=game_id)
    assert isinstance(game, Game)
    return game.winner
"""


def test_the_generated_client_reads_answers_typed_under_mypy_strict(generated: ModuleType) -> None:
    folder = Path(generated.__file__).parents[1]  # beside the package: mypy finds it from the file's folder
    (folder / "typed_use.py").write_text(TYPED_USE, encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",  # the generated package is checked only where typed_use.py uses it
            "--config-file=",  # not the project's [tool.mypy]
            f"--cache-dir={folder / '.mypy_cache'}",
            "typed_use.py",
        ],
        cwd=folder,
        env={**os.environ, "MYPYPATH": ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
