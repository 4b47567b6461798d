"""The ``handfoot`` command: arguments, output and exit codes (HTTP mocked with ``responses``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import requests
import responses
from responses import matchers

from handfoot.client.cli import EXIT_OK, EXIT_PROBLEM, EXIT_UNAVAILABLE, EXIT_USAGE, main
from tests.helpers.sdk import BASE, PROBLEM_JSON, problem
from tests.sdk.test_checks import MELD_JSON
from tests.sdk.test_client import PRESET_JSON, SCORE_JSON
from tests.sdk.test_games import GAME_JSON, ROUND_JSON, SUMMARY_JSON

ROUND = {"preset": "pagat", "round": 1, "teams": [{"name": "Team 1"}, {"name": "Team 2"}]}


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--url", BASE, *argv], stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def round_file(tmp_path: Path) -> Path:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ROUND), encoding="utf-8")
    return path


def test_score_prints_a_table(rsps: responses.RequestsMock, round_file: Path) -> None:
    rsps.post(f"{BASE}/v1/rounds/score", json=SCORE_JSON)
    code, out, err = run("score", str(round_file))
    assert (code, err) == (EXIT_OK, "")
    assert "Clean books      2   500    1000" in out
    assert out.rstrip().endswith("Team 1: 3740\nTeam 2: 1075")
    assert json.loads(rsps.calls[0].request.body or b"") == ROUND


def test_score_from_stdin_with_preset_and_json(rsps: responses.RequestsMock) -> None:
    rsps.post(f"{BASE}/v1/rounds/score", json=SCORE_JSON)
    code, out, _ = run("score", "-", "--preset", "bicycle", "--json", stdin=json.dumps({"teams": []}))
    assert code == EXIT_OK
    assert json.loads(out)["teams"][0]["total"] == 3740
    assert json.loads(rsps.calls[0].request.body or b"") == {"preset": "bicycle", "round": 1, "teams": []}


def test_score_reads_a_shared_case_file(rsps: responses.RequestsMock, tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"id": "x", "request": ROUND, "expect": {}}), encoding="utf-8")
    rsps.post(f"{BASE}/v1/rounds/score", json=SCORE_JSON)
    assert run("score", str(case))[0] == EXIT_OK


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{not json", "stdin is not JSON"),
        ('{"preset": "pagat"}', "a `teams` list"),
        ('{"teams": []}', "no preset"),
    ],
)
def test_score_usage_errors(stdin: str, message: str) -> None:
    code, out, err = run("score", "-", stdin=stdin)
    assert code == EXIT_USAGE and out == "" and message in err


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run("score", str(tmp_path / "nope.json"))
    assert code == EXIT_USAGE and "cannot read" in err


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bogus"]) == EXIT_USAGE
    assert main([]) == EXIT_USAGE
    assert main(["--help"]) == EXIT_OK
    help_text = capsys.readouterr().out
    assert "handfoot-server keys create NAME" in help_text
    assert "handfoot-server migrate" in help_text and "HANDFOOT_URL" in help_text


def test_422_prints_problems_and_exits_1(rsps: responses.RequestsMock, round_file: Path) -> None:
    err_item = {"pointer": "/teams/0/melds/0/0", "code": "unknown_card", "detail": "'XX' is not a card"}
    rsps.post(
        f"{BASE}/v1/rounds/score",
        status=422,
        json=problem(422, "Invalid card", detail="'XX' is not a card", errors=[err_item]),
        content_type=PROBLEM_JSON,
    )
    code, out, err = run("score", str(round_file))
    assert code == EXIT_PROBLEM and out == ""
    assert err.splitlines() == [
        "handfoot: 422 Invalid card: 'XX' is not a card",
        "  - /teams/0/melds/0/0: 'XX' is not a card [unknown_card]",
    ]


def test_server_error_and_no_connection_exit_3(rsps: responses.RequestsMock, sleeps: list[float]) -> None:
    for _ in range(3):
        rsps.get(f"{BASE}/v1/presets", status=500)
    assert run("presets")[0] == EXIT_UNAVAILABLE
    for _ in range(3):
        rsps.get(f"{BASE}/v1/presets", body=requests.ConnectionError("refused"))
    code, _, err = run("presets")
    assert code == EXIT_UNAVAILABLE
    assert (
        err == f"handfoot: no handfoot server at {BASE} (refused); start one with `make run` or "
        "`handfoot-server serve`, or give --url\n"
    )


def test_a_timeout_names_the_server_and_the_seconds(rsps: responses.RequestsMock, sleeps: list[float]) -> None:
    """A timeout said "no answer from the server: " with an empty reason; it names the URL and the limit."""
    for _ in range(3):
        rsps.get(f"{BASE}/v1/presets", body=requests.ReadTimeout())
    code, _, err = run("presets", "--timeout", "2.5")
    assert code == EXIT_UNAVAILABLE
    assert err == f"handfoot: no answer from the handfoot server at {BASE} within 2.5 s (--timeout)\n"


def test_connection_options_go_before_or_after_the_command(rsps: responses.RequestsMock) -> None:
    """``--url``, ``--api-key`` and ``--timeout`` worked only before the command; after it they were
    refused as unknown arguments. Given on both sides, the one after the command wins."""
    rsps.get("http://after.example/v1/presets", json=[])
    out, err = io.StringIO(), io.StringIO()
    code = main(["presets", "--url", "http://after.example", "--api-key", "k2"], stdout=out, stderr=err)
    assert (code, err.getvalue()) == (EXIT_OK, "")
    assert rsps.calls[0].request.headers["Authorization"] == "Bearer k2"
    rsps.get("http://after.example/v1/presets/pagat", json=PRESET_JSON)
    assert main(["--url", BASE, "preset", "pagat", "--url", "http://after.example"], stdout=out, stderr=err) == 0


def test_validate_exits_1_on_an_illegal_meld(rsps: responses.RequestsMock) -> None:
    """``validate`` exited 0 whatever the answer: a script could not tell a legal meld from an illegal one."""
    rsps.post(f"{BASE}/v1/melds/validate", json=MELD_JSON)
    code, out, _ = run("validate", "--preset", "pagat", "9D", "2S", "2C", "JK")
    assert code == EXIT_PROBLEM and out.startswith("INVALID dirty meld of 9s")
    rsps.post(f"{BASE}/v1/melds/validate", json={**MELD_JSON, "valid": True, "problems": []})
    assert run("validate", "--preset", "pagat", "9D", "9S", "2C", "--json")[0] == EXIT_OK


def test_create_game_and_add_round_quiet_print_the_id(rsps: responses.RequestsMock) -> None:
    """Scripts took the new game's id out of a table; ``--quiet`` prints it alone."""
    rsps.post(f"{BASE}/v1/games", json=GAME_JSON, status=201)
    code, out, _ = run("create-game", "--name", "F", "--preset", "pagat", "--side", "Us=A", "--side", "Them=B", "-q")
    assert (code, out) == (EXIT_OK, "12\n")
    rsps.post(f"{BASE}/v1/games/12/rounds", json={**ROUND_JSON, "number": 4}, status=201)
    code, out, _ = run("add-round", "12", "--tally", "Us:clean_books=1", "--tally", "Them:", "--quiet")
    assert (code, out) == (EXIT_OK, "4\n")


def test_a_refused_round_exits_1(rsps: responses.RequestsMock) -> None:
    """A round the rules refuse (two sides going out) is not stored: ``add-round`` exits 1, so a
    script's ``handfoot add-round ... && next`` stops there, and the rule broken is on stderr."""
    refused = {
        "pointer": "/teams/1/went_out",
        "code": "two_sides_out",
        "detail": "More than one side is marked as having gone out.",
    }
    rsps.post(
        f"{BASE}/v1/games/12/rounds",
        status=422,
        json=problem(422, "Round breaks the rules", errors=[refused]),
        content_type=PROBLEM_JSON,
    )
    code, out, err = run(
        "add-round", "12", "--tally", "Us:", "--tally", "Them:", "--went-out", "Us", "--went-out", "Them"
    )
    assert (code, out) == (EXIT_PROBLEM, "")
    assert err.splitlines() == [
        "handfoot: 422 Round breaks the rules",
        "  - /teams/1/went_out: More than one side is marked as having gone out. [two_sides_out]",
    ]
    sent = json.loads(rsps.calls[0].request.body or "{}")
    assert [team["went_out"] for team in sent["teams"]] == [True, True]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_round_from_a_terminal_is_refused_not_awaited() -> None:
    """``add-round GAME`` with no FILE and no --tally read standard input silently, so at a terminal it
    looked hung; it refuses at once, saying what to give."""
    out, err = io.StringIO(), io.StringIO()
    code = main(["--url", BASE, "add-round", "12"], stdout=out, stderr=err, stdin=_Terminal())
    assert code == EXIT_USAGE
    assert "standard input, which is a terminal: give a FILE, --tally flags, or pipe the JSON in" in err.getvalue()


def test_round_revisions_and_delete_round(rsps: responses.RequestsMock) -> None:
    """The SDK's round(), revisions() and delete_round() had no command."""
    rsps.get(f"{BASE}/v1/games/12/rounds/1", json=ROUND_JSON, headers={"ETag": '"r1"'})
    code, out, _ = run("round", "12", "1", "--json")
    assert code == EXIT_OK and json.loads(out)["totals_after"][0] == {"name": "Us", "total": 3740}
    revision = {
        "revision": 1,
        "current": True,
        "request": ROUND_JSON["request"],
        "teams": ROUND_JSON["teams"],
        "created_at": ROUND_JSON["created_at"],
        "replaced_at": None,
        "author": None,
    }
    rsps.get(f"{BASE}/v1/games/12/rounds/1/revisions", json=[revision])
    code, out, _ = run("revisions", "12", "1")
    assert (code, out) == (EXIT_OK, "revision 1 (current): Us 3,740, Them 1,075\n")
    rsps.delete(f"{BASE}/v1/games/12/rounds/1", status=204, match=[matchers.header_matcher({"If-Match": '"g1"'})])
    assert run("delete-round", "12", "1", "--if-match", '"g1"') == (EXIT_OK, "round 1 of game 12 deleted\n", "")


def test_presets_and_preset(rsps: responses.RequestsMock) -> None:
    rsps.get(f"{BASE}/v1/presets", json=[{"id": "pagat", "name": "Pagat", "source": "Pagat", "summary": "13/13"}])
    rsps.get(f"{BASE}/v1/presets/pagat", json={**PRESET_JSON, "rules": {"book_size": 7}})
    code, out, _ = run("presets")
    assert code == EXIT_OK and out.splitlines()[1].split() == ["pagat", "Pagat", "Pagat", "13/13"]
    code, out, _ = run("preset", "pagat", "--json")
    assert json.loads(out)["rules"] == {"book_size": 7}


def test_games_and_game(rsps: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDFOOT_API_KEY", "k1")
    rsps.get(f"{BASE}/v1/games", json=[SUMMARY_JSON, {**SUMMARY_JSON, "id": 11}])
    rsps.get(f"{BASE}/v1/games/12", json=GAME_JSON)
    code, out, _ = run("games", "--status", "in_progress", "--limit", "1")
    assert code == EXIT_OK
    assert out.splitlines()[1].split()[:5] == ["12", "Friday", "pagat", "1", "in_progress"]
    assert len(out.splitlines()) == 2
    assert rsps.calls[0].request.headers["Authorization"] == "Bearer k1"
    assert "status=in_progress" in (rsps.calls[0].request.url or "")
    code, out, _ = run("game", "12", "--json")
    assert json.loads(out)["totals"] == [{"name": "Us", "total": 3740}, {"name": "Them", "total": 1075}]
