"""Every block that shows an output, in the README and in the docs files its sections moved to
(``DOCUMENTS``, tests/helpers/readme.py), is run here, and what it prints is compared with what the
document shows: a change that alters an output fails until the document shows the new one.

The documents name their blocks with ``<!-- NAME -->`` above the fence (tests/helpers/readme.py);
:data:`RUNNERS` runs each named block and tests/contract/test_readme.py fails on a block that shows
an output and has no name. Servers run in this process (``served``: a real socket, a fresh migrated
SQLite database a test), except where the process itself is what a block shows (``make run``,
``handfoot-server serve``): those start once, briefly, in a network namespace of their own, so
that they bind the README's 127.0.0.1:8000 whatever else runs on the machine.

A failing test's message is a diff from what the document shows to what the code prints. After a
deliberate change, ``UPDATE_README=1`` writes what the code prints into the documents (review the diff).

What is compared is exact but for the normalisations of :func:`normalise` and
:func:`only_shown_headers` (ports, times, CRLF line ends, the HTTP headers the README leaves out),
and a command output's missing final newline in a ``$`` session (:func:`shell_session`).
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.helpers.readme import PROJECT_ROOT, Block, named_blocks, read_documents, replace_block
from tests.helpers.transcripts import (
    Context,
    commented_prints,
    exec_printing,
    in_thread,
    needs,
    python_session,
    run_bash,
    served_process,
    shell_session,
)

# --- Normalisation: written once, each with its reason ------------------------------------------


def normalise(text: str) -> str:
    """``text`` with what differs from run to run, and is no output of the code, made constant."""
    # Ports: the README's server is `make run`'s, on 127.0.0.1:8000; a test's takes a free port.
    text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>", text)
    # Times: a revision says when it was replaced (UTC, to the minute): the clock's, not the code's.
    text = re.sub(r"\b\d{4}-\d\d-\d\d \d\d:\d\d\b", "<time>", text)
    # Line ends: curl prints the server's CRLF header lines as they came.
    return text.replace("\r\n", "\n")


_HEADER = re.compile(r"([A-Za-z][A-Za-z0-9-]*): ")


def only_shown_headers(shown: str, produced: str) -> str:
    """``produced`` with only the HTTP header lines whose names ``shown`` has: ``curl -i`` prints
    every header, and the README shows those a reader needs (the status line, ``Content-Type``);
    the others (``Date``, ``Server``, ``Content-Length``) say when and by what it was served."""
    shown_names = {m.group(1).lower() for line in shown.splitlines() if (m := _HEADER.match(line))}
    kept: list[str] = []
    in_headers = False
    for line in produced.splitlines(keepends=True):
        if line.startswith("HTTP/"):
            in_headers = True
        elif in_headers and not line.strip():
            in_headers = False
        elif in_headers and (m := _HEADER.match(line)) and m.group(1).lower() not in shown_names:
            continue
        kept.append(line)
    return "".join(kept)


def compare(name: str, block: Block, produced: str) -> str | None:
    """``None`` when ``produced`` is what the block ``name`` shows (after :func:`normalise`), else a
    message naming the block and its document, with a diff from the document to the code's output."""
    shown = normalise(block.text)
    made = normalise(only_shown_headers(block.text, produced))
    if shown == made:
        return None
    diff = difflib.unified_diff(
        shown.splitlines(keepends=True),
        made.splitlines(keepends=True),
        f"{block.document} <!-- {name} --> (line {block.line})",
        "what the code prints",
    )
    return f"block {name!r} ({block.where}) is not what the code prints:\n{''.join(diff)}"


T = TypeVar("T")

# --- What runs each block --------------------------------------------------------------------------

Problems = list[str]


@dataclass(frozen=True)
class Runner:
    """``reads``: the blocks a run reads; ``compares``: those of them whose text it produces and
    compares (the others are run, or say what a run must show); ``run`` gives the problems."""

    reads: tuple[str, ...]
    compares: tuple[str, ...]
    run: Callable[[dict[str, Block], Context], Problems]


#: ``UPDATE_README=1``: a shown output that differs is written into its document (ports as the
#: README's, headers as shown) instead of failing; review the diff, then commit it.
UPDATE_README = os.environ.get("UPDATE_README") == "1"


def _problems(blocks: dict[str, Block], produced: dict[str, str]) -> Problems:
    problems = [p for name, text in produced.items() if (p := compare(name, blocks[name], text))]
    if UPDATE_README:
        for name, text in produced.items():
            if compare(name, blocks[name], text) is not None:
                shown = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:8000", only_shown_headers(blocks[name].text, text))
                document = blocks[name].document
                updated = replace_block(read_documents(), name, shown)[document]
                (PROJECT_ROOT / document).write_text(updated, encoding="utf-8")
        return []
    return problems


def _serves_as_shown(command: str, ctx: Context, *, says: list[str]) -> Problems:
    """``command`` (bash, in the shown commands' environment less ``HANDFOOT_*``, its database a
    scratch SQLite file) prints each line of ``says`` and answers ``/health`` on 127.0.0.1:8000."""
    database = ctx.tmp_path / "served.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")} | {
        "DATABASE_URL": f"sqlite:///{database}",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    log, health = served_process(command, ctx, env=env)
    says = [line.replace("<database>", str(database)) for line in says]
    problems = [f"{command!r} printed no line {line!r}:\n{log}" for line in says if line not in log]
    if '"status":"ok"' not in health:
        problems.append(f"{command!r} did not answer /health on 127.0.0.1:8000 ({health!r}):\n{log}")
    return problems


def _make_run(blocks: dict[str, Block], ctx: Context) -> Problems:
    """``make run`` as the first block shows it (its other line, ``make test``, is the suite itself),
    the install step taken as done: it migrates, prints the SQLite path, serves on 127.0.0.1:8000."""
    assert re.search(
        r"^make run +# .*SQLite path printed.*serve http://127\.0\.0\.1:8000", blocks["make-run"].text, re.M
    ), blocks["make-run"].text
    venv = Path(sys.executable).parent.parent
    command = f"make -C {shlex.quote(str(PROJECT_ROOT))} --old-file={venv}/.installed-dev VENV={venv} run"
    return _serves_as_shown(
        command, ctx, says=["SQLite database file: <database>", "database at head", "serving on http://127.0.0.1:8000"]
    )


def _installed_serve(blocks: dict[str, Block], ctx: Context) -> Problems:
    """The ``handfoot-server serve`` line of the install block: it migrates, then serves on
    127.0.0.1:8000 (from this environment: building and installing the wheels, the lines before it,
    is what .ci/dist-check does on CI)."""
    lines = [line for line in blocks["install-wheels"].text.splitlines() if line.startswith("handfoot-server serve")]
    assert len(lines) == 1 and "# migrates, then serves on 127.0.0.1:8000" in lines[0], blocks["install-wheels"].text
    return _serves_as_shown(
        shlex.join(shlex.split(lines[0], comments=True)),
        ctx,
        says=["database at head", "serving on http://127.0.0.1:8000"],
    )


def _jq_breakdown(blocks: dict[str, Block], ctx: Context) -> Problems:
    """The scoring ``curl`` piped into the ``jq`` recipe prints the breakdown shown."""
    needs("curl", "jq")
    curl = ctx.here(blocks["jq-breakdown-input"].text).rstrip("\n")
    done = run_bash(f"{curl} | {blocks['jq-breakdown'].text}", ctx, ctx.tmp_path)
    return _problems(blocks, {"jq-breakdown-output": done.stdout})


def _shell_sessions(*names: str) -> Callable[[dict[str, Block], Context], Problems]:
    def run(blocks: dict[str, Block], ctx: Context) -> Problems:
        needs("curl")
        return _problems(blocks, {name: shell_session(blocks[name].text, ctx, PROJECT_ROOT) for name in names})

    return run


def _python_in_checkout(ctx: Context, work: Callable[[], T]) -> T:
    """``work()`` as a reader runs a snippet: in the checkout (its paths are the checkout's), with
    ``HANDFOOT_URL`` naming this test's server, in a thread of its own."""
    ctx.monkeypatch.chdir(PROJECT_ROOT)
    ctx.monkeypatch.setenv("HANDFOOT_URL", ctx.url)
    ctx.monkeypatch.delenv("HANDFOOT_API_KEY", raising=False)
    return in_thread(work)


def _commented(name: str, *, server: bool = False) -> Callable[[dict[str, Block], Context], Problems]:
    def run(blocks: dict[str, Block], ctx: Context) -> Problems:
        code = blocks[name].text
        if server:
            produced = _python_in_checkout(ctx, lambda: commented_prints(code, {}))
        else:
            ctx.monkeypatch.chdir(PROJECT_ROOT)
            produced = in_thread(lambda: commented_prints(code, {}))
        return _problems(blocks, {name: produced})

    return run


def _printed(name: str, *, server: bool = False) -> Callable[[dict[str, Block], Context], Problems]:
    """The program ``name`` prints the block ``name-output`` (``server``: with a server, as a reader
    runs it against ``make run``)."""

    def run(blocks: dict[str, Block], ctx: Context) -> Problems:
        code = blocks[name].text
        if server:
            produced = _python_in_checkout(ctx, lambda: exec_printing(code, {}))
        else:
            produced = in_thread(lambda: exec_printing(code, {}))
        return _problems(blocks, {f"{name}-output": produced})

    return run


def _table_curl(blocks: dict[str, Block], ctx: Context) -> Problems:
    """The curl and jq flow at a table, in a scratch folder (it writes its answers there)."""
    needs("curl", "jq")
    done = run_bash(ctx.here(blocks["table-curl"].text), ctx, ctx.tmp_path)
    return _problems(blocks, {"table-curl-output": done.stdout})


SDK_SESSION = (
    "sdk-score",
    "sdk-checks",
    "sdk-errors",
    "stored-games",
    "stored-games-corrections",
    "stored-games-scoresheet",
)


def _sdk(blocks: dict[str, Block], ctx: Context) -> Problems:
    """docs/sdk.md's Python, in its order, in one interpreter (as a reader pastes it):
    each later block uses the names the earlier ones made (``hf``, ``body``, ``g``, ``round_2``)."""

    def work() -> dict[str, str]:
        namespace: dict[str, Any] = {}
        produced: dict[str, str] = {}
        for name in SDK_SESSION:
            text = blocks[name].text
            if text.startswith(">>> "):
                produced[name] = python_session(text, namespace)
            else:
                produced[f"{name}-output"] = exec_printing(text, namespace)
        return produced

    return _problems(blocks, _python_in_checkout(ctx, work))


def _keeping_score(blocks: dict[str, Block], ctx: Context) -> Problems:
    """The shell's score keeping, line by line in a scratch folder (its files go there; the
    README's example files are the checkout's): every command succeeds, and ``create-game`` prints
    game #1 as its comment says. Its last line, ``handfoot play``, is the ``handfoot-play`` block's
    command, run there."""
    lines = blocks["keeping-score"].text.rstrip("\n").split("\n")
    play = blocks["handfoot-play"].text.strip()
    assert lines[-1].split("#")[0].strip() == play, (lines[-1], play)
    assert "# prints game #1" in lines[0], lines[0]
    (ctx.tmp_path / "examples").symlink_to(PROJECT_ROOT / "examples")
    script = "set -e\n" + "\n".join(lines[:-1]) + "\n"
    done = run_bash(script, ctx, ctx.tmp_path)
    problems = [] if done.returncode == 0 else [f"keeping-score: a command failed ({done.returncode}):\n{done.stdout}"]
    if not done.stdout.startswith("Game #1 Friday (pagat)\n"):
        problems.append(f"keeping-score: create-game does not print game #1:\n{done.stdout}")
    return problems


def _write_a_bot(blocks: dict[str, Block], ctx: Context) -> Problems:
    """The shown bot is examples/cautious_bot.py, and the shown command runs it."""
    example = (PROJECT_ROOT / "examples" / "cautious_bot.py").read_text(encoding="utf-8")
    command = ctx.here(blocks["write-a-bot-command"].text)
    done = run_bash(command, ctx, PROJECT_ROOT, timeout=600)
    return _problems(blocks, {"write-a-bot": example, "write-a-bot-output": done.stdout})


def _rl_table_bot(blocks: dict[str, Block], ctx: Context) -> Problems:
    """The shown ``choose`` is examples/rl_table_bot.py's, and the shown command runs the example."""
    example = (PROJECT_ROOT / "examples" / "rl_table_bot.py").read_text(encoding="utf-8")
    excerpt = [] if blocks["rl-table-bot"].text in example else ["rl-table-bot: not in examples/rl_table_bot.py"]
    done = run_bash(ctx.here(blocks["rl-table-bot-command"].text), ctx, PROJECT_ROOT, timeout=600)
    return excerpt + _problems(blocks, {"rl-table-bot-output": done.stdout})


def _handfoot_play(blocks: dict[str, Block], ctx: Context) -> Problems:
    done = run_bash(blocks["handfoot-play"].text, ctx, ctx.tmp_path, timeout=600)
    return _problems(blocks, {"handfoot-play-output": done.stdout})


def _handfoot_arena(blocks: dict[str, Block], ctx: Context) -> Problems:
    """The arena in process: no server (stderr too, as a terminal shows it: a short run prints no progress)."""
    done = run_bash(blocks["handfoot-arena"].text, ctx, ctx.tmp_path, timeout=600)
    return _problems(blocks, {"handfoot-arena-output": done.stdout})


RUNNERS: dict[str, Runner] = {
    "make-run": Runner(("make-run",), (), _make_run),
    "jq-breakdown": Runner(
        ("jq-breakdown-input", "jq-breakdown", "jq-breakdown-output"), ("jq-breakdown-output",), _jq_breakdown
    ),
    "validate-curl": Runner(("validate-curl",), ("validate-curl",), _shell_sessions("validate-curl")),
    "problem-curl": Runner(("problem-curl",), ("problem-curl",), _shell_sessions("problem-curl")),
    "engine-request": Runner(("engine-request",), ("engine-request",), _commented("engine-request")),
    "play-engine": Runner(("play-engine", "play-engine-output"), ("play-engine-output",), _printed("play-engine")),
    "first-sdk-call": Runner(("first-sdk-call",), ("first-sdk-call",), _commented("first-sdk-call", server=True)),
    "stored-game": Runner(
        ("stored-game", "stored-game-output"), ("stored-game-output",), _printed("stored-game", server=True)
    ),
    "table-curl": Runner(("table-curl", "table-curl-output"), ("table-curl-output",), _table_curl),
    "sdk": Runner(
        (*SDK_SESSION, "sdk-score-output", "stored-games-output"),
        (
            "sdk-score-output",
            "sdk-checks",
            "sdk-errors",
            "stored-games-output",
            "stored-games-corrections",
            "stored-games-scoresheet",
        ),
        _sdk,
    ),
    "engine-file": Runner(("engine-file",), ("engine-file",), _commented("engine-file")),
    "async-client": Runner(("async-client",), ("async-client",), _commented("async-client", server=True)),
    "handfoot-score": Runner(("handfoot-score",), ("handfoot-score",), _shell_sessions("handfoot-score")),
    "keeping-score": Runner(("keeping-score",), (), _keeping_score),
    "install-wheels": Runner(("install-wheels",), (), _installed_serve),
    "write-a-bot": Runner(
        ("write-a-bot", "write-a-bot-command", "write-a-bot-output"),
        ("write-a-bot", "write-a-bot-output"),
        _write_a_bot,
    ),
    "rl-table-bot": Runner(
        ("rl-table-bot", "rl-table-bot-command", "rl-table-bot-output"), ("rl-table-bot-output",), _rl_table_bot
    ),
    "handfoot-play": Runner(("handfoot-play", "handfoot-play-output"), ("handfoot-play-output",), _handfoot_play),
    "handfoot-arena": Runner(("handfoot-arena", "handfoot-arena-output"), ("handfoot-arena-output",), _handfoot_arena),
}


def check(runner: str, documents: dict[str, str], ctx: Context) -> Problems:
    """Run :data:`RUNNERS`' ``runner`` on the blocks of ``documents`` (text by path): the problems
    found. A snippet that raises (a name it never defines) fails naming the blocks it ran."""
    try:
        return RUNNERS[runner].run(named_blocks(documents), ctx)
    except Exception as exc:
        raise AssertionError(f"blocks {RUNNERS[runner].reads} raised {type(exc).__name__}: {exc}") from exc


@pytest.fixture
def ctx(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Context:
    return Context(request, tmp_path, monkeypatch)


@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_the_readme_block_prints_what_it_shows(runner: str, ctx: Context) -> None:
    problems = check(runner, read_documents(), ctx)
    assert not problems, "\n\n".join(problems)


def test_every_named_block_is_run_and_every_run_block_is_named() -> None:
    named = set(named_blocks(read_documents()))
    read = [name for runner in RUNNERS.values() for name in runner.reads]
    assert len(read) == len(set(read)), "a block is read by two runners"
    assert named == set(read), {"named, run by nothing": named - set(read), "run, named nowhere": set(read) - named}
    assert all(set(r.compares) <= set(r.reads) for r in RUNNERS.values())


# --- The test of the test --------------------------------------------------------------------------


def _alter(text: str) -> str:
    """``text`` with its last digit changed that :func:`normalise` keeps (else a line added)."""
    for match in reversed(list(re.finditer(r"\d", text))):
        altered = f"{text[: match.start()]}{(int(match.group()) + 1) % 10}{text[match.end() :]}"
        if normalise(altered) != normalise(text):
            return altered
    return text + "a line the code does not print\n"


@pytest.mark.parametrize("name", sorted(name for runner in RUNNERS.values() for name in runner.compares))
def test_a_changed_output_fails_naming_its_block(name: str) -> None:
    """Every compared block: what the README shows passes against itself; changed by one digit, the
    same comparison fails and names the block, its document and its line."""
    block = named_blocks(read_documents())[name]
    assert compare(name, block, block.text) is None
    altered = Block(block.line, block.info, _alter(block.text), block.name, block.document)
    message = compare(name, altered, block.text)
    assert message is not None and f"block {name!r} ({block.document} line {block.line})" in message


@pytest.mark.parametrize(
    ("runner", "name"),
    [
        ("play-engine", "play-engine-output"),  # a program's output
        ("validate-curl", "validate-curl"),  # a shell session
        ("sdk", "sdk-checks"),
    ],
)  # an interpreter session
def test_a_changed_output_fails_the_run(runner: str, name: str, ctx: Context) -> None:
    """The whole path, from the document's text to the run, for a block of each kind: with one number
    of its shown output changed the run fails, naming the block, and only it."""
    if UPDATE_README:
        pytest.skip("UPDATE_README=1 writes outputs instead of failing")
    documents = read_documents()
    block = named_blocks(documents)[name]
    altered = replace_block(documents, name, _alter(block.text))
    assert altered != documents and altered[block.document] != documents[block.document]
    problems = check(runner, altered, ctx)
    assert len(problems) == 1 and f"block {name!r} ({block.document} line" in problems[0], problems


def test_sessions_are_transcribed_as_a_terminal_and_an_interpreter_show_them(ctx: Context) -> None:
    """The transcripts compared above: a ``$`` session's outputs (one without a final newline ended
    as a terminal ends it), continued commands, exit codes kept for ``echo $?``; a ``>>>`` session's
    values, prints, compound statements and exceptions; a print's output in its comment."""
    ctx._url = "http://127.0.0.1:9"  # nothing listens: these commands ask no server
    shell = "$ printf 'no newline'\n$ echo two \\\n  lines\n$ false\n$ echo $?\n"
    assert shell_session(shell, ctx, ctx.tmp_path) == (
        "$ printf 'no newline'\nno newline\n$ echo two \\\n  lines\ntwo lines\n$ false\n$ echo $?\n1\n"
    )
    python = ">>> x = [1, 2]\n>>> x\n>>> for i in x: print(i)\n>>> x[5]\n"
    assert python_session(python, {}) == (
        ">>> x = [1, 2]\n>>> x\n[1, 2]\n>>> for i in x: print(i)\n1\n2\n>>> x[5]\nIndexError: list index out of range\n"
    )
    assert commented_prints("x = 3\nprint(x * 2)   # 7\n", {}) == "x = 3\nprint(x * 2)   # 6\n"
