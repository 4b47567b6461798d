"""The README's one-minute start, as written, on a fresh clone: ``git clone`` of this repository's
``HEAD`` (what is committed; a change not yet committed is not in it), then ``make run PORT=...``
exactly as the README's ``make-run`` block writes it, from a shell that has no virtualenv of this
checkout on its ``PATH``. Once ``/health`` answers, the README's ``validate-curl`` session and its
``first-sdk-call`` snippet (run by the clone's ``.venv/bin/python``, ``HANDFOOT_URL`` naming the
port as the README says) print what the README shows.

tests/process/test_readme_outputs.py runs the same blocks from this checkout, its ``.venv``
installed; here nothing is installed: the first ``make run`` makes ``.venv`` and installs into it
from the package index (pip's cache is used, as a reader's would be). That takes minutes, so the
wait is bounded at :data:`INSTALL_TIMEOUT`, and a failure shows what ``make run`` printed. The port
is a free one (the README's ``PORT=`` line), since the install needs the network and so cannot run
in a network namespace of its own. Every process ``make run`` started is stopped (its process
group), pass or fail.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.helpers.readme import PROJECT_ROOT, Block, named_blocks, read_documents
from tests.helpers.transcripts import Context, needs, shell_session, with_printed_comments
from tests.process.test_readme_outputs import compare

pytestmark = pytest.mark.process

#: How long the first ``make run`` of a fresh clone may take to serve: creating ``.venv`` and
#: installing both distributions and the development tools (docs/development.md gives the times).
INSTALL_TIMEOUT = 15 * 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def readers_environment() -> dict[str, str]:
    """This environment as a reader's shell has it: without this checkout's virtualenv (on ``PATH``
    or as ``VIRTUAL_ENV``), the outer ``make``'s variables, or handfoot's settings (``HANDFOOT_*``,
    ``DATABASE_URL``); pip's settings (its cache among them) are kept."""
    venv_bin = str(Path(sys.executable).parent)
    dropped = {"VIRTUAL_ENV", "DATABASE_URL", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PYTHONPATH", "PYTHONHOME"}
    env = {k: v for k, v in os.environ.items() if k not in dropped and not k.startswith("HANDFOOT_")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p and p != venv_bin)
    return env


def make_run_command(block: Block, port: int) -> list[str]:
    """The README's ``make run PORT=...`` line, its port changed to ``port``."""
    lines = [shlex.split(line, comments=True) for line in block.text.splitlines()]
    (shown,) = [words for words in lines if any(w.startswith("PORT=") for w in words)]
    assert shown == ["make", "run", "PORT=8080"], f"the README's make-run block changed: {block.text}"
    return ["make", "run", f"PORT={port}"]


@dataclass
class Served:
    """``make run`` in the clone ``root``, serving on ``url``; ``log`` is what it printed."""

    root: Path
    url: str
    log: Path

    def printed(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop ``process``'s group (make, gunicorn's master and workers): TERM, then KILL."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    # gunicorn's workers may outlive make by a moment: the group is gone once none answers.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture
def served_clone(tmp_path: Path) -> Iterator[Served]:
    needs("git", "make", "curl")
    root = tmp_path / "handfoot"
    subprocess.run(
        ["git", "clone", "--quiet", "--no-local", str(PROJECT_ROOT), str(root)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    port = free_port()
    command = make_run_command(named_blocks(read_documents())["make-run"], port)
    served = Served(root, f"http://127.0.0.1:{port}", tmp_path / "make-run.log")
    with served.log.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=root, env=readers_environment(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + INSTALL_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"{shlex.join(command)} exited {process.returncode} before serving:\n{served.printed()}")
            if time.monotonic() > deadline:
                pytest.fail(f"{shlex.join(command)} did not serve in {INSTALL_TIMEOUT} s:\n{served.printed()}")
            try:
                if requests.get(f"{served.url}/health", timeout=2).ok:
                    break
            except requests.ConnectionError:
                pass
            time.sleep(1)
        yield served
    finally:
        stop(process)
        shutil.rmtree(root, ignore_errors=True)


class CloneContext(Context):
    """The shown commands' environment for the clone: its ``.venv/bin`` first on ``PATH``, and
    ``make run``'s URL in place of the README's."""

    def __init__(
        self, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, served: Served
    ) -> None:
        super().__init__(request, tmp_path, monkeypatch)
        self._url = served.url
        self.bin = served.root / ".venv" / "bin"

    def shell_env(self) -> dict[str, str]:
        env = readers_environment()
        env["PATH"] = f"{self.bin}{os.pathsep}{env['PATH']}"
        return env


def test_the_one_minute_start_works_on_a_fresh_clone(
    served_clone: Served, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = named_blocks(read_documents())
    printed = served_clone.printed()
    assert f"serving on {served_clone.url}" in printed, printed
    ctx = CloneContext(request, tmp_path, monkeypatch, served_clone)
    problems = []
    curl = shell_session(blocks["validate-curl"].text, ctx, served_clone.root)
    problems.append(compare("validate-curl", blocks["validate-curl"], curl))
    code = blocks["first-sdk-call"].text
    done = subprocess.run(
        [str(ctx.bin / "python"), "-c", code],
        cwd=served_clone.root,
        env=ctx.shell_env() | {"HANDFOOT_URL": served_clone.url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"the first SDK call failed ({done.returncode}):\n{done.stdout}{done.stderr}"
    problems.append(compare("first-sdk-call", blocks["first-sdk-call"], with_printed_comments(code, done.stdout)))
    found = [p for p in problems if p]
    assert not found, "\n\n".join(found) + f"\n\nmake run printed:\n{printed}"


# --- The test of the test ---------------------------------------------------------------------------


def test_the_readme_s_port_line_is_the_command_run() -> None:
    block = named_blocks(read_documents())["make-run"]
    assert make_run_command(block, 9999) == ["make", "run", "PORT=9999"]
    changed = Block(
        block.line, block.info, block.text.replace("make run PORT=8080", "make serve PORT=8080"), "make-run"
    )
    with pytest.raises(AssertionError, match="the README's make-run block changed"):
        make_run_command(changed, 9999)


def test_a_reader_s_shell_has_no_virtualenv_of_this_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    venv_bin = str(Path(sys.executable).parent)
    monkeypatch.setenv("PATH", f"{venv_bin}{os.pathsep}/usr/bin")
    for name in ("VIRTUAL_ENV", "HANDFOOT_URL", "DATABASE_URL", "MAKEFLAGS"):
        monkeypatch.setenv(name, "set")
    monkeypatch.setenv("PIP_CACHE_DIR", "/cache")
    env = readers_environment()
    assert env["PATH"] == "/usr/bin" and env["PIP_CACHE_DIR"] == "/cache"
    assert not {"VIRTUAL_ENV", "HANDFOOT_URL", "DATABASE_URL", "MAKEFLAGS"} & set(env)
