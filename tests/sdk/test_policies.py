"""A bot author's own policy: loaded from its module by ``module:attribute``, played in the arena and
at a table from the command line, the path's mistakes told without a traceback; the leaderboard
file keeps its ratings across runs."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from handfoot.client import Client
from handfoot.client.cli import EXIT_OK, EXIT_USAGE, main
from handfoot.client.leaderboard import FORMAT, Leaderboard, LeaderboardError
from handfoot.client.policies import PolicyLoadError, load_policy
from handfoot.engine.play.arena import POLICIES, run_arena

ONE_ROUND = {"rounds": 1}

#: A policy module as an author writes it (docs/bots.md): the first body the view lists of the
#: most useful kind, and a table bot's ``choose`` that plays the greedy reference bot.
MODULE = """
from handfoot.client.bots import policy_choose

ORDER = ("answer", "take_pile", "meld", "draw", "ask", "discard")
CALLS = []
_greedy = policy_choose("greedy", seed=0)


def first_listed(view, rules, rng):
    CALLS.append(view["seat"])
    by_type = {entry["type"]: entry for entry in view["actions"]}
    return [body for kind in ORDER if kind in by_type for body in by_type[kind]["send"]]


def choose(seat_view):
    return list(_greedy(seat_view))


NOT_A_FUNCTION = 3


MADE = []


class Remembering:  # a class of policies: made once (its model loaded), its instance called

    def __init__(self):
        self.decisions = 0
        MADE.append(self)

    def __call__(self, view, rules, rng):
        self.decisions += 1
        return first_listed(view, rules, rng)


class NeedsAFile:
    def __init__(self, path):
        self.path = path


def two_arguments(view, rules):
    return []
"""


@pytest.fixture
def author_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The module's name, importable from a temporary directory put on sys.path."""
    name = f"author_bot_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    (tmp_path / "broken_bot.py").write_text("raise RuntimeError('no model file')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_a_policy_from_the_authors_module_plays_in_the_arena_from_the_command_line(author_module: str) -> None:
    spec = f"{author_module}:first_listed"
    code, out, err = run("arena", "--policies", f"{spec},random", "--matches", "2", "--rule", "rounds=1", "--json")
    assert (code, err) == (EXIT_OK, "")
    report = json.loads(out)
    assert [p["name"] for p in report["policies"]] == [spec, "random"]
    assert all(p["games"] == 2 for p in report["policies"])
    loaded = load_policy(spec)
    assert loaded.policy is not None
    calls = __import__(author_module).CALLS
    assert calls and set(calls) <= {0, 1, 2, 3}  # it was asked, at the seats of its side
    # the same run in process, the policy given as a function: the same games
    again = run_arena({spec: loaded.policy, "random": POLICIES["random"]}, "pagat", 2, 0, ONE_ROUND)
    assert [g["totals"] for g in report["games"]] == [list(m.totals) for m in again.matches]


def test_a_class_of_policies_is_made_once_and_its_instance_plays(author_module: str) -> None:
    loaded = load_policy(f"{author_module}:Remembering")
    result = run_arena({"mine": loaded.for_arena("pagat"), "random": POLICIES["random"]}, "pagat", 2, 0, ONE_ROUND)
    assert result.entry("mine").games == 2
    made = __import__(author_module).MADE
    assert len(made) == 1 and made[0].decisions > 0  # one instance, asked at every decision


def test_a_table_bots_choose_loads_and_plays_in_the_arena_as_the_policy_it_wraps(author_module: str) -> None:
    loaded = load_policy(f"{author_module}:choose")
    assert loaded.choose is not None and loaded.policy is None
    code, out, _ = run(
        "arena", "--policies", f"{author_module}:choose,random", "--matches", "2", "--rule", "rounds=1", "--json"
    )
    assert code == EXIT_OK
    mine = json.loads(out)["policies"][0]
    code, out, _ = run("arena", "--policies", "greedy,random", "--matches", "2", "--rule", "rounds=1", "--json")
    greedy = json.loads(out)["policies"][0]
    assert {**mine, "name": "greedy"} == greedy  # it plays the greedy bot: the same figures


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ("no_such_module_anywhere:policy", "cannot import no_such_module_anywhere"),
        ("{module}:missing", "has no attribute missing"),
        ("{module}:NOT_A_FUNCTION", "is a int, not a function"),
        ("{module}:two_arguments", "takes 2 positional arguments"),
        ("broken_bot:policy", "importing broken_bot raised RuntimeError: no model file"),
        ("{module}:NeedsAFile", "cannot be made without arguments"),
        ("clever", "not a reference policy"),
        (":policy", "not a reference policy"),
    ],
)
def test_a_bad_policy_path_is_a_usage_error_without_a_traceback(author_module: str, policy: str, message: str) -> None:
    spec = policy.format(module=author_module)
    code, out, err = run("arena", "--policies", f"{spec},greedy", "--matches", "2")
    assert (code, out) == (EXIT_USAGE, "")
    assert err.startswith(f"handfoot: --policies {spec}") and message in err, err
    assert "Traceback" not in err
    with pytest.raises(PolicyLoadError, match=message):
        load_policy(spec)
    # handfoot play finds it before any request (no server at this address)
    out_play, err_play = io.StringIO(), io.StringIO()
    argv = ["--url", "http://127.0.0.1:9", "play", "--policy", spec]
    assert main(argv, stdout=out_play, stderr=err_play) == EXIT_USAGE
    assert message in err_play.getvalue() and "Traceback" not in err_play.getvalue()


def test_handfoot_play_seats_the_authors_policy_and_reference_bots(author_module: str, threaded_server: str) -> None:
    spec = f"{author_module}:first_listed"
    argv = ["--url", threaded_server, "play", "--policy", spec, "--seat", "1", "--others", "planner"]
    code, out, err = run(*argv, "--rules", '{"rounds": 1}', "--seed", "4", "--json")
    assert (code, err) == (EXIT_OK, "")
    doc = json.loads(out)
    assert [b["bot"] for b in doc["bots"]] == ["planner", spec, "planner", "planner"]
    assert doc["bots"][1]["actions"] > 0 and doc["bots"][1]["refused"] == 0
    assert doc["scoresheet"]["status"] == "finished"
    with Client(threaded_server) as client:
        assert client.scoresheet(doc["game"]).status == "finished"


def test_play_usage_errors_of_policy_and_bots() -> None:
    def play(*argv: str) -> str:
        out, err = io.StringIO(), io.StringIO()
        assert main(["--url", "http://127.0.0.1:9", "play", *argv], stdout=out, stderr=err) == EXIT_USAGE
        return err.getvalue()

    assert "give --bots" in play()
    assert "give --bots" in play("--bots", "greedy,greedy,greedy,greedy", "--policy", "greedy")
    assert "--seat 4: the table has seats 0 to 3" in play("--policy", "greedy", "--seat", "4")
    assert "--others clever" in play("--policy", "greedy", "--others", "clever")


ARENA = ("arena", "--policies", "greedy,random", "--matches", "4", "--rule", "rounds=1")


def board_after(path: Path, *argv: str) -> dict[str, Any]:
    code, out, err = run(*ARENA, "--leaderboard", str(path), *argv)
    assert code == EXIT_OK, err
    assert "Leaderboard: pagat (rounds=1)" in out
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_the_leaderboard_keeps_its_ratings_across_two_runs(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    first = board_after(path, "--seed", "1")
    assert first["format"] == FORMAT and first["seeds"] == [1]
    by_name = {p["name"]: p for p in first["policies"]}
    assert {p["games"] for p in by_name.values()} == {4} and {p["deals"] for p in by_name.values()} == {2}
    assert by_name["greedy"]["mu"] > 25 > by_name["random"]["mu"]  # greedy won these deals

    second = board_after(path, "--seed", "2")
    after = {p["name"]: p for p in second["policies"]}
    assert second["seeds"] == [1, 2]
    assert {p["games"] for p in after.values()} == {8} and {p["runs"] for p in after.values()} == {2}

    # run 2 was rated from run 1's ratings: the same as recording run 2 on the board run 1 left
    run2 = run_arena(["greedy", "random"], "pagat", 4, 2, ONE_ROUND)
    board = Leaderboard("pagat", dict(ONE_ROUND), {})
    board.record(run_arena(["greedy", "random"], "pagat", 4, 1, ONE_ROUND))
    board.record(run2)
    assert {n: (s.mu, s.sigma) for n, s in board.standings.items()} == {
        n: (p["mu"], p["sigma"]) for n, p in after.items()
    }
    fresh = Leaderboard("pagat", dict(ONE_ROUND), {})
    fresh.record(run2)
    assert fresh.standings["greedy"].mu != pytest.approx(after["greedy"]["mu"])  # the prior counted
    # --json gives the board in the report: run 2 alone on a new file is the fresh board
    code, out, _ = run(*ARENA, "--leaderboard", str(tmp_path / "new.board"), "--seed", "2", "--json")
    assert code == EXIT_OK
    shown = {p["name"]: (p["mu"], p["sigma"], p["games"]) for p in json.loads(out)["leaderboard"]["policies"]}
    assert shown == {n: (s.mu, s.sigma, s.games) for n, s in fresh.standings.items()}
    assert after["greedy"]["sigma"] < by_name["greedy"]["sigma"]  # more deals, surer


def test_the_leaderboard_refuses_other_rules_and_files_that_are_not_boards(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    board_after(path, "--seed", "1")
    before = path.read_text(encoding="utf-8")
    code, out, err = run("arena", "--policies", "greedy,random", "--matches", "2", "--leaderboard", str(path))
    assert (code, out) == (EXIT_USAGE, "")
    assert "rates pagat (rounds=1); this run plays pagat" in err and "do not mix" in err
    assert path.read_text(encoding="utf-8") == before
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(LeaderboardError, match="not a leaderboard"):
        Leaderboard.load(junk, "pagat")
    code, _, err = run("arena", "--policies", "greedy,random", "--matches", "2", "--leaderboard", str(junk))
    assert code == EXIT_USAGE and "not a leaderboard" in err and "Traceback" not in err


def test_a_seed_played_again_on_a_board_is_said(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    board_after(path, "--seed", "3")
    code, _, err = run(*ARENA, "--leaderboard", str(path), "--seed", "3")
    assert code == EXIT_OK and "seed 3 was played on" in err


def test_a_table_bot_in_the_arena_does_not_encode_the_view_to_json(monkeypatch: pytest.MonkeyPatch) -> None:
    # each decision freezes the engine's view once; plain_view and sendable copy it without JSON
    from handfoot.client.arena import table_bot_policy
    from handfoot.client.bots import policy_choose

    sendable: list[Any] = []
    greedy = policy_choose("greedy", preset="pagat")

    def choose(sv: Any) -> list[Any]:
        sendable.extend(sv.sendable())
        return list(greedy(sv))

    policies = {"table bot": table_bot_policy(choose, "pagat", ONE_ROUND), "random": POLICIES["random"]}
    encoded: list[object] = []
    monkeypatch.setattr(json, "dumps", lambda body, *a, **k: encoded.append(body))
    monkeypatch.setattr(json, "loads", lambda *a, **k: pytest.fail("a view decoded from JSON"))
    run_arena(policies, "pagat", 2, 0, ONE_ROUND)
    assert sendable and encoded == []


ROOT = Path(__file__).resolve().parents[2]


def bots_md_blocks() -> tuple[str, list[str]]:
    """docs/bots.md's excerpt of the example policy and its commands (the sh block that names it)."""
    from tests.helpers.readme import fenced_blocks

    blocks = fenced_blocks((ROOT / "docs" / "bots.md").read_text(encoding="utf-8"), "docs/bots.md")
    excerpt = next(b.text for b in blocks if b.info == "python" and b.text.startswith("def policy("))
    commands = next(b.text for b in blocks if b.info == "sh" and "examples.policy_bot:policy" in b.text)
    return excerpt, commands.splitlines()


def test_the_docs_policy_is_the_example_and_its_commands_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threaded_server: str
) -> None:
    import shlex

    excerpt, commands = bots_md_blocks()
    shown = [line for line in excerpt.splitlines() if line.strip() != "..."]
    assert "\n".join(shown) in (ROOT / "examples" / "policy_bot.py").read_text(encoding="utf-8")
    monkeypatch.chdir(ROOT)  # the module is imported from the current directory, as the docs say
    monkeypatch.syspath_prepend(str(ROOT))  # (the test process's sys.path may lack it)
    board = tmp_path / "pagat.leaderboard"
    outputs = []
    for line in commands:
        argv = shlex.split(line)
        assert argv[0] == "handfoot"
        argv = [str(board) if word == "pagat.leaderboard" else word for word in argv[1:]]
        if argv[0] == "play":
            argv = ["--url", threaded_server, *argv, "--json"]
        code, out, err = run(*argv)
        assert (code, err) == (EXIT_OK, ""), err
        outputs.append(out)
    doc = json.loads(board.read_text(encoding="utf-8"))
    by_name = {p["name"]: p for p in doc["policies"]}
    assert by_name["examples.policy_bot:policy"]["runs"] == 2 and by_name["planner"]["runs"] == 1
    assert by_name["examples.policy_bot:policy"]["games"] == 20 and doc["seeds"] == [1, 2]
    played = json.loads(outputs[-1])
    assert [b["bot"] for b in played["bots"]] == ["examples.policy_bot:policy", "planner", "planner", "planner"]
    assert played["bots"][0]["refused"] == 0 and played["bots"][0]["actions"] > 0  # it picks from `send`
