"""End to end: every ``handfoot`` command against the live server (``live_server``, conftest.py),
and ``score --offline`` with no server at all."""

from __future__ import annotations

import csv
import io
import json
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from handfoot.client.cli import EXIT_OK, EXIT_PROBLEM, main
from tests.conftest import WORKED_CASES
from tests.helpers.live import LiveServer, free_port

WORKED = WORKED_CASES / "s0-worked-round-tally.json"
# Seed 000's worked round as tally flags, the counts that are zero left out (0 is filled in).
TALLY_US = "Us:clean_books=2,dirty_books=2,wild_books=1,red_threes_on_table=1,table_points=465,points_left=25"
TALLY_THEM = "Them:clean_books=1,dirty_books=2,red_threes_caught=1,table_points=260,points_left=185"


def run(server: LiveServer | str, *argv: str, stdin: str = "", key: bool = True) -> tuple[int, str, str]:
    url = server if isinstance(server, str) else server.url
    auth = ["--api-key", server.api_key] if key and isinstance(server, LiveServer) else []
    out, err = io.StringIO(), io.StringIO()
    code = main(["--url", url, *auth, *argv], stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def create(server: LiveServer, name: str = "CLI night") -> dict[str, Any]:
    code, out, err = run(
        server,
        "create-game",
        "--name",
        name,
        "--preset",
        "pagat",
        "--side",
        "Us=Ann,Bob",
        "--side",
        "Them=Cy,Di",
        "--json",
    )
    assert (code, err) == (EXIT_OK, ""), err
    game: dict[str, Any] = json.loads(out)
    return game


def test_score_offline_needs_no_server() -> None:
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens: a request would fail with exit 3
    code, out, err = run(closed, "score", "--offline", str(WORKED))
    assert (code, err) == (EXIT_OK, "")
    assert "Team 1: 3740" in out and "Team 2: 1075" in out


def test_score_offline_and_online_print_the_same(live_server: LiveServer) -> None:
    offline = run(live_server, "score", "--offline", "--json", str(WORKED))
    online = run(live_server, "score", "--json", str(WORKED))
    assert offline[0] == online[0] == EXIT_OK
    assert json.loads(offline[1]) == json.loads(online[1])
    assert run(live_server, "score", "--offline", str(WORKED))[1] == run(live_server, "score", str(WORKED))[1]


def test_offline_error_under_json_is_the_servers_problem_document(live_server: LiveServer) -> None:
    bad = json.dumps({"preset": "pagat", "teams": [{"name": "A", "melds": [["XX"]]}]})
    offline = run(live_server, "score", "--offline", "--json", "-", stdin=bad)
    online = run(live_server, "score", "--json", "-", stdin=bad)
    assert offline[0] == online[0] == EXIT_PROBLEM
    a, b = json.loads(offline[1]), json.loads(online[1])
    assert (a["type"], a["status"], a["errors"]) == (b["type"], b["status"], b["errors"])
    assert a["errors"][0]["pointer"] == "/teams/0/melds/0/0"


def test_validate_a_meld(live_server: LiveServer) -> None:
    code, out, _ = run(live_server, "validate", "--preset", "pagat", "9D", "2S", "--onto", "9S", "9H", "9C", "--json")
    assert code == EXIT_OK
    assert json.loads(out) | {"problems": []} == {
        "valid": True,
        "kind": "dirty",
        "rank": "9",
        "complete": False,
        "size": 5,
        "naturals": 4,
        "wilds": 1,
        "points": 60,
        "problems": [],
    }
    code, out, _ = run(live_server, "validate", "--preset", "pagat", "9D", "9S", "9H")
    assert code == EXIT_OK and out.strip()


def test_validate_error_under_json(live_server: LiveServer) -> None:
    code, out, err = run(live_server, "validate", "--preset", "nope", "9D", "9S", "9H", "--json")
    assert (code, err) == (EXIT_PROBLEM, "")
    problem = json.loads(out)
    assert problem["status"] == 422 and problem["type"].endswith("/unknown-preset")
    code, out, err = run(live_server, "validate", "--preset", "nope", "9D", "9S", "9H")
    assert code == EXIT_PROBLEM and out == "" and "422" in err


def test_compare_presets(live_server: LiveServer) -> None:
    code, out, _ = run(live_server, "compare", str(WORKED), "--preset", "pagat", "--preset", "bicycle", "--json")
    assert code == EXIT_OK
    results = {r["preset"]: r for r in json.loads(out)["results"]}
    assert set(results) == {"pagat", "bicycle"}
    assert [t["total"] for t in results["pagat"]["teams"]] == [3740, 1075]
    code, out, _ = run(live_server, "compare", str(WORKED), "--preset", "pagat")
    assert code == EXIT_OK and "Team 1 3740, Team 2 1075" in out


def test_keep_a_game_from_the_shell(live_server: LiveServer, tmp_path: Path) -> None:
    game = create(live_server)
    gid = str(game["id"])
    assert [t["name"] for t in game["teams"]] == ["Us", "Them"]

    # round 1 from tally flags
    code, out, err = run(
        live_server, "add-round", gid, "--tally", TALLY_US, "--tally", TALLY_THEM, "--went-out", "Us", "--json"
    )
    assert (code, err) == (EXIT_OK, ""), out
    first = json.loads(out)
    assert first["number"] == 1
    assert [t["total"] for t in first["teams"]] == [3740, 1075]

    # round 2 from stdin, round 3 from a file (no one went out)
    teams = [dict(team, went_out=False) for team in first["request"]["teams"]]
    assert run(live_server, "add-round", gid, "-", stdin=json.dumps({"teams": teams}))[0] == EXIT_OK
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"teams": teams}), encoding="utf-8")
    code, out, _ = run(live_server, "add-round", gid, str(path), "--round", "3", "--json")
    assert code == EXIT_OK and json.loads(out)["number"] == 3

    # correct round 1: Us had no cards left after all
    fixed = TALLY_US.replace("points_left=25", "points_left=0")
    code, out, err = run(
        live_server, "correct-round", gid, "1", "--tally", fixed, "--tally", TALLY_THEM, "--went-out", "Us", "--json"
    )
    assert (code, err) == (EXIT_OK, ""), out
    corrected = json.loads(out)
    assert corrected["revision"] == 2
    assert [t["total"] for t in corrected["teams"]] == [3765, 1075]

    # the score sheet, as CSV and as JSON
    code, out, _ = run(live_server, "scoresheet", gid, "--csv")
    assert code == EXIT_OK
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["round", "Us", "Us total", "Them", "Them total"] and len(rows) == 4
    code, out, _ = run(live_server, "scoresheet", gid, "--json")
    assert code == EXIT_OK and len(json.loads(out)["rows"]) == 3

    # read round 1 and its revisions; take back round 3
    code, out, _ = run(live_server, "round", gid, "1", "--json")
    assert code == EXIT_OK and json.loads(out)["revision"] == 2
    code, out, _ = run(live_server, "revisions", gid, "1")
    assert code == EXIT_OK and [line.split(" (")[0] for line in out.splitlines()] == ["revision 1", "revision 2"]
    assert run(live_server, "delete-round", gid, "3") == (EXIT_OK, f"round 3 of game {gid} deleted\n", "")
    code, out, _ = run(live_server, "delete-round", gid, "1", "--json")
    assert code == EXIT_PROBLEM and json.loads(out)["status"] == 409  # only the last round can be taken back

    # delete; then the game is gone (the error as a problem document under --json)
    assert run(live_server, "delete-game", gid) == (EXIT_OK, f"game {gid} deleted\n", "")
    code, out, _ = run(live_server, "game", gid, "--json")
    assert code == EXIT_PROBLEM and json.loads(out)["status"] == 404


def test_round_input_mistakes_are_usage_errors(live_server: LiveServer) -> None:
    assert run(live_server, "add-round", "1", "--tally", "Us clean_books=2")[0] == 2
    assert run(live_server, "add-round", "1", "--tally", "Us:clean_books=two")[0] == 2
    assert run(live_server, "add-round", "1", "-", "--went-out", "Us", stdin="{}")[0] == 2
    assert run(live_server, "create-game", "--name", "x", "--preset", "pagat", "--side", "Us")[0] == 2


def test_a_write_without_the_key_is_refused(live_server: LiveServer) -> None:
    code, out, _ = run(
        live_server,
        "create-game",
        "--name",
        "x",
        "--preset",
        "pagat",
        "--side",
        "A=a",
        "--side",
        "B=b",
        "--json",
        key=False,
    )
    assert code == EXIT_PROBLEM and json.loads(out)["status"] == 401


def test_fish_completion_lists_commands_options_and_preset_ids() -> None:
    """Completion was bash/zsh only and knew no preset ids."""
    code, out, _ = run("http://127.0.0.1:1", "completion", "fish")
    assert code == EXIT_OK
    lines = out.splitlines()
    assert (
        "complete -c handfoot -n 'not __handfoot_command' -f -a delete-round -d 'take back a game's last round'"
        not in lines
    )  # quotes are escaped
    assert (
        "complete -c handfoot -n 'not __handfoot_command' -f -a delete-round -d 'take back a game\\'s last round'"
        in lines
    )
    preset = next(line for line in lines if "'__handfoot_using validate'" in line and "-l preset" in line)
    assert "-r -f -a 'pagat bicycle wikipedia" in preset
    assert any("'__handfoot_using games'" in line and "'in_progress tiebreaker finished'" in line for line in lines)


def _fish_complete(script: str, line: str) -> list[str]:
    """What fish offers for the command line ``line`` (the words, without their descriptions)."""
    done = subprocess.run(["fish", "-c", f"{script}\ncomplete -C {shlex.quote(line)}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [item.split("\t")[0] for item in done.stdout.splitlines()]


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish")
def test_fish_reads_its_completion() -> None:
    """fish's ``__fish_use_subcommand`` took the value of ``--url`` for the command: after
    ``handfoot --url URL`` it offered files, not commands."""
    script = run("http://127.0.0.1:1", "completion", "fish")[1]
    assert _fish_complete(script, "handfoot valid") == ["validate"]
    assert _fish_complete(script, "handfoot --url http://x sc") == ["score", "scoresheet"]
    assert _fish_complete(script, "handfoot --url=http://x --timeout 3 games --status f") == ["finished"]
    assert _fish_complete(script, "handfoot score f.json --preset b") == ["bga", "bicycle"]
    assert _fish_complete(script, "handfoot preset sa") == ["saskatchewan"]
    assert _fish_complete(script, "handfoot games --url http://x --st") == ["--status"]


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_scripts_are_generated(shell: str) -> None:
    code, out, _ = run("http://127.0.0.1:1", "completion", shell)
    assert code == EXIT_OK
    assert "complete -o default -F _handfoot handfoot" in out
    assert ("bashcompinit" in out) == (shell == "zsh")
    for word in ("add-round", "correct-round", "scoresheet", "--offline", "--tally", "in_progress"):
        assert word in out


def _complete(script: str, *words: str) -> list[str]:
    """What bash offers after ``handfoot WORDS`` (the last word is the one being completed)."""
    quoted = " ".join(shlex.quote(word) for word in words)
    probe = f'{script}\nCOMP_WORDS=(handfoot {quoted}); COMP_CWORD={len(words)}; _handfoot; echo "${{COMPREPLY[@]}}"'

    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True)
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_commands_options_and_choices() -> None:
    script = run("http://127.0.0.1:1", "completion", "bash")[1]
    assert "correct-round" in _complete(script, "co")
    assert _complete(script, "--url", "http://x", "sc") == ["score", "scoresheet"]
    assert "--offline" in _complete(script, "score", "--o")
    assert _complete(script, "games", "--status", "fin") == ["finished"]
    assert _complete(script, "score", "f.json", "--preset", "b") == ["bicycle", "bga"]
    assert _complete(script, "preset", "sa") == ["saskatchewan"]
    assert "delete-round" in _complete(script, "de")
