"""Running what the README shows, as a reader would: a ``$`` session in a shell, a ``>>>`` session
in an interpreter, a snippet whose prints are commented with their output, and a server command in a
network namespace of its own. Each gives back a transcript, laid out as the README lays it out, for
tests/process/test_readme_outputs.py to compare.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest


class Context:
    """What a run needs: a server started on first use, a scratch folder, ``monkeypatch``."""

    def __init__(self, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.request, self.tmp_path, self.monkeypatch = request, tmp_path, monkeypatch
        self._url: str | None = None

    @property
    def url(self) -> str:
        """The base URL of the app served in this process on a fresh migrated database."""
        if self._url is None:
            self._url = str(self.request.getfixturevalue("threaded_server"))
        return self._url

    def shell_env(self) -> dict[str, str]:
        """The environment of a shown shell command: this interpreter's ``bin`` first on ``PATH``
        (``handfoot``, ``python``), and ``HANDFOOT_URL`` naming this test's server."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        env["HANDFOOT_URL"] = self.url
        return env

    def here(self, command: str) -> str:
        """``command`` aimed at this test's server instead of ``make run``'s."""
        return command.replace("http://127.0.0.1:8000", self.url)


T = TypeVar("T")


def in_thread(work: Callable[[], T]) -> T:
    """``work()`` in a thread of its own: a shown snippet may call ``asyncio.run``, which fails where
    an earlier test left an event loop running in this thread."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(work).result()


def exec_printing(code: str, namespace: dict[str, Any]) -> str:
    """What ``code`` prints to stdout, run in ``namespace``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<README>", "exec"), namespace)
    return out.getvalue()


def python_session(session: str, namespace: dict[str, Any]) -> str:
    """The transcript of a ``>>>`` session run as the interpreter runs it: each statement (its
    ``>>>`` line and any ``...`` lines) in ``single`` mode, so an expression's value is shown, and an
    exception as its last traceback line, ``Name: message`` (the README leaves out the stack)."""
    transcript: list[str] = []
    lines = session.splitlines(keepends=True)
    index = 0
    while index < len(lines):
        if not lines[index].startswith(">>> "):
            index += 1  # the shown answer of the statement before; produced again below
            continue
        statement = [lines[index]]
        index += 1
        while index < len(lines) and lines[index].startswith("... "):
            statement.append(lines[index])
            index += 1
        transcript.extend(statement)
        source = "".join(line[4:] for line in statement)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(source, "<README>", "single"), namespace)
            except Exception as exc:  # noqa: BLE001 - printed, as the interpreter would
                print(f"{type(exc).__name__}: {exc}")
        transcript.append(out.getvalue())
    return "".join(transcript)


_PRINT_COMMENT = re.compile(r"^(\s*print\(.*\)\s+#\s)(.*)$")


def commented_prints(code: str, namespace: dict[str, Any]) -> str:
    """``code`` with each ``print(...)  # shown`` comment replaced by the line that print printed,
    in order (each such print prints one line, once)."""
    return with_printed_comments(code, exec_printing(code, namespace))


def with_printed_comments(code: str, output: str) -> str:
    """``code`` with each ``print(...)  # shown`` comment replaced by its line of ``output`` (what
    ``code`` printed, run here or by another interpreter), in order."""
    printed = output.splitlines()
    lines = code.splitlines(keepends=True)
    commented = [i for i, line in enumerate(lines) if _PRINT_COMMENT.match(line)]
    if len(printed) != len(commented):
        return f"{code}# printed {len(printed)} lines for {len(commented)} commented prints: {printed}\n"
    for i, out in zip(commented, printed, strict=True):
        match = _PRINT_COMMENT.match(lines[i])
        assert match is not None
        lines[i] = f"{match.group(1)}{out}\n"
    return "".join(lines)


def run_bash(script: str, ctx: Context, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``script`` run by bash in ``cwd`` with the shown commands' environment, stderr into stdout
    (as a terminal shows both)."""
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env=ctx.shell_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
    )


def _command_end(lines: list[str], start: int) -> int:
    """The index after the shell command beginning at ``lines[start]`` (a ``$ `` line, continued by
    a trailing backslash or by a quote left open)."""
    end = start + 1
    text = lines[start][2:]
    while end < len(lines):
        try:
            shlex.split(text, comments=True)
            if not text.rstrip().endswith("\\"):
                break
        except ValueError:  # a quote still open
            pass
        text += lines[end]
        end += 1
    return end


def shell_session(session: str, ctx: Context, cwd: Path) -> str:
    """The transcript of a ``$`` session: its commands run in turn by one bash, each followed by what
    it printed. A command's output gets a final newline where it has none (curl prints a body as
    the server sent it; the README's block ends the line, as the terminal's next prompt would)."""
    lines = session.splitlines(keepends=True)
    commands: list[tuple[str, str]] = []  # (the lines as shown, the command to run)
    index = 0
    while index < len(lines):
        if lines[index].startswith("$ "):
            end = _command_end(lines, index)
            shown = "".join(lines[index:end])
            commands.append((shown, ctx.here(shown[2:])))
            index = end
        else:
            index += 1
    # After each command, a newline (ending an output without one) and a separator line; `$?` is
    # kept for the next command (`echo $?`).
    separator = "<<readme: next command>>"
    script = "".join(f"{command}\n__rc=$?; echo; echo '{separator}'; (exit $__rc)\n" for _, command in commands)
    done = run_bash(script, ctx, cwd)
    outputs = done.stdout.split(f"\n{separator}\n")  # the newline echoed goes with the separator
    transcript = []
    for (shown, _), out in zip(commands, outputs, strict=False):
        transcript.append(shown + out + ("" if out.endswith("\n") or not out else "\n"))
    return "".join(transcript)


def _net_namespace() -> None:
    """Skip unless this process may make a network namespace (root, or CAP_SYS_ADMIN)."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode:
        pytest.skip("cannot make a network namespace (unshare -n): run as root")


def served_process(command: str, ctx: Context, *, env: dict[str, str]) -> tuple[str, str]:
    """``command`` run by bash in a network namespace of its own (so 127.0.0.1:8000 is free), until
    ``GET http://127.0.0.1:8000/health`` answers or 60 s pass; then stopped. Returns what it printed
    and what ``/health`` answered."""
    _net_namespace()
    needs("curl", "ip")
    script = (
        "set -m\n"  # job control: the command runs in a process group of its own, stopped whole
        "ip link set lo up\n"
        f"{command} > served.log 2>&1 &\n"
        "for _ in $(seq 300); do\n"
        "  if answer=$(curl -s --max-time 2 http://127.0.0.1:8000/health); then break; fi; sleep 0.2\n"
        "done\n"
        "kill -TERM -- -$! 2>/dev/null; wait\n"
        'printf %s "$answer"\n'
    )
    done = subprocess.run(
        ["unshare", "-n", "bash", "-c", script], cwd=ctx.tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    return (ctx.tmp_path / "served.log").read_text(encoding="utf-8", errors="replace"), done.stdout


def needs(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (.ci/run installs it)")
