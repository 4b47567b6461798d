"""The command line's shared habits: ``--version``, house rules as ``--rule KEY=VALUE`` on every
command that takes them, deletes confirmed at a terminal (``--yes`` to skip), and completion of game
ids from the server."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import responses
from responses import matchers

from handfoot.client.cli import EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, main
from tests.helpers.live import LiveServer
from tests.helpers.sdk import BASE
from tests.sdk.test_cli_e2e import WORKED, create
from tests.sdk.test_cli_e2e import run as run_live


class Terminal(io.StringIO):
    """Standard input that is a terminal, with what the person types."""

    def isatty(self) -> bool:
        return True


def run(*argv: str, stdin: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--url", BASE, *argv], stdout=out, stderr=err, stdin=stdin or io.StringIO())
    return code, out.getvalue(), err.getvalue()


def test_version_names_the_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    from handfoot.client import __version__

    assert run("--version")[0] == EXIT_OK
    assert capsys.readouterr().out == f"handfoot {__version__}\n"


def test_create_game_sends_its_house_rules(rsps: responses.RequestsMock) -> None:
    def body(request: Any) -> tuple[int, dict[str, str], str]:
        sent = json.loads(request.body)
        assert sent["rules"] == {"going_out_bonus": 200, "contract": {"clean_books": 2}, "name_rule": "x=y"}
        return 500, {}, "{}"  # the body is what this test reads; the answer is refused

    rsps.add_callback(responses.POST, f"{BASE}/v1/games", callback=body)
    args = ["create-game", "--name", "N", "--preset", "pagat", "--side", "A=Ann", "--side", "B=Bo"]
    rules = ["--rule", "going_out_bonus=200", "--rule", 'contract={"clean_books": 2}', "--rule", "name_rule=x=y"]
    code, _, _ = run(*args, *rules)
    assert code != EXIT_OK and len(rsps.calls) >= 1


def test_a_rule_without_a_value_is_a_usage_error() -> None:
    code, _, err = run("score", str(WORKED), "--offline", "--rule", "going_out_bonus")
    assert code == EXIT_USAGE and "--rule 'going_out_bonus': expected KEY=VALUE" in err


def test_score_applies_house_rules_over_the_files() -> None:
    """Seed 000's worked round: Team 1 went out for 100 under Pagat; a 300 bonus adds 200."""
    plain = run("score", str(WORKED), "--offline", "--json")
    richer = run("score", str(WORKED), "--offline", "--json", "--rule", "going_out_bonus=300")
    totals = [[team["total"] for team in json.loads(result[1])["teams"]] for result in (plain, richer)]
    assert totals[1][0] - totals[0][0] == 200 and totals[1][1] == totals[0][1]


def test_play_and_arena_take_the_same_rule_option() -> None:
    from handfoot.client._completion import _commands
    from handfoot.client.cli import build_parser

    commands = _commands(build_parser())
    for command in ("score", "create-game", "play", "arena"):
        [rule] = [a for a in commands[command]._actions if "--rule" in a.option_strings]
        assert (rule.metavar, rule.dest, type(rule).__name__) == ("KEY=VALUE", "rule", "_AppendAction"), command


@pytest.mark.parametrize("answer", ["n\n", "\n", "whatever\n"])
def test_a_terminal_is_asked_before_a_game_is_deleted(
    live_server: LiveServer, capsys: pytest.CaptureFixture[str], answer: str
) -> None:
    game = create(live_server, "Friday")
    code = run_at(live_server, "delete-game", str(game["id"]), stdin=Terminal(answer))[0]
    err = capsys.readouterr().err
    assert code == EXIT_PROBLEM
    assert f"Delete game #{game['id']} (Friday) and all its rounds? [y/N] " in err and "nothing deleted" in err
    assert run_live(live_server, "game", str(game["id"]))[0] == EXIT_OK  # still there


def test_yes_at_the_prompt_deletes(live_server: LiveServer) -> None:
    game = create(live_server, "Saturday")
    done = run_at(live_server, "delete-game", str(game["id"]), stdin=Terminal("y\n"))
    assert done[:2] == (EXIT_OK, f"game {game['id']} deleted\n")
    assert run_live(live_server, "game", str(game["id"]))[0] == EXIT_PROBLEM  # 404


def run_at(server: LiveServer, *argv: str, stdin: io.StringIO) -> tuple[int, str, str]:
    """``run`` against the live server, with its key."""
    out, err = io.StringIO(), io.StringIO()
    key = ["--api-key", server.api_key] if server.api_key else []
    code = main(["--url", server.url, *key, *argv], stdout=out, stderr=err, stdin=stdin)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("flag", ["--yes", "-y"])
def test_yes_deletes_without_asking(rsps: responses.RequestsMock, flag: str) -> None:
    rsps.delete(f"{BASE}/v1/games/12", status=204)
    rsps.delete(f"{BASE}/v1/games/12/rounds/3", status=204, match=[matchers.header_matcher({"If-Match": '"g"'})])
    assert run("delete-game", "12", flag, stdin=Terminal(""))[:2] == (EXIT_OK, "game 12 deleted\n")
    done = run("delete-round", "12", "3", "--if-match", '"g"', flag, stdin=Terminal(""))
    assert done[:2] == (EXIT_OK, "round 3 of game 12 deleted\n")


def test_taking_back_a_round_asks_a_terminal(rsps: responses.RequestsMock, capsys: pytest.CaptureFixture[str]) -> None:
    code = run("delete-round", "12", "3", stdin=Terminal("no\n"))[0]
    assert code == EXIT_PROBLEM and "Take back round 3 of game #12? [y/N] " in capsys.readouterr().err
    assert len(rsps.calls) == 0


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_the_servers_game_ids(live_server: LiveServer, tmp_path: Path) -> None:
    ids = [create(live_server, f"Completion {n}")["id"] for n in range(2)]
    script = run_live(live_server, "completion", "bash")[1]
    bin_dir = tmp_path / "bin"  # `handfoot` on PATH, as an installed command
    bin_dir.mkdir()
    (bin_dir / "handfoot").write_text(f'#!/bin/sh\nexec {sys.executable} -m handfoot.client.cli "$@"\n')
    (bin_dir / "handfoot").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "HANDFOOT_URL": live_server.url,
        "HANDFOOT_API_KEY": live_server.api_key or "",
    }

    def complete(*words: str) -> list[str]:
        quoted = " ".join(words)
        probe = (
            f'{script}\nCOMP_WORDS=(handfoot {quoted}); COMP_CWORD={len(words)}; _handfoot; echo "${{COMPREPLY[@]}}"'
        )
        done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True, env=env)
        return done.stdout.split()

    offered = complete("scoresheet", "")
    assert {str(i) for i in ids} <= set(offered)
    assert {str(i) for i in ids} <= set(complete("play", "--game", ""))
    assert not {str(i) for i in ids} & set(complete("scoresheet", "--"))  # an option: no request
    assert not {str(i) for i in ids} & set(complete("score", "--offline", ""))  # score takes no game
