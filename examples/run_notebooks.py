"""Run the notebooks of examples/ against a throwaway server and write their outputs back in.

    make notebooks                                 # installs the notebooks extra, then runs this
    python examples/run_notebooks.py               # every notebook
    python examples/run_notebooks.py history.ipynb # some (a name in examples/, or a path)
    python examples/run_notebooks.py --no-write    # run them, leave the files as they are (the tests)

A server (``handfoot-server serve``, one worker, no API keys) is started on a free port of
127.0.0.1 with a SQLite file in a temporary folder, and each notebook runs in a fresh kernel with
``HANDFOOT_URL`` pointing at it (those that need no server never ask it). A notebook must leave the
server as it found it: its games (each game's summary: rounds, totals, status, last change) and
their rounds (the CSV export) are compared before and after each one; a change is an error that
names the notebook and the games, exit status 1. The server is stopped and its folder removed at
the end, whatever happened; nothing is written beside the notebooks. Needs the ``notebooks`` extra
(``pip install --config-settings editable_mode=strict -e '.[notebooks]'``: Jupyter, nbclient,
pandas, matplotlib) and the server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbclient
import nbformat

from handfoot.client import APIConnectionError, Client, GameSummary, ServerError

EXAMPLES = Path(__file__).resolve().parent
NOTEBOOKS = ("replay_game.ipynb", "history.ipynb", "other_rules.ipynb", "arena.ipynb")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def throwaway_server() -> Iterator[str]:
    """A server on a free port and a temporary SQLite file; its URL. Stopped and removed after.

    Raises ``RuntimeError`` (with what the server printed) if it stops or does not answer."""
    with tempfile.TemporaryDirectory(prefix="handfoot-notebooks-") as folder:
        url = f"http://127.0.0.1:{free_port()}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
        env["DATABASE_URL"] = f"sqlite:///{folder}/notebooks.sqlite3"
        command = [sys.executable, "-m", "handfoot.server.cli", "serve", "-w", "1", "-b", url.removeprefix("http://")]
        log = Path(folder) / "server.log"  # a file, not a pipe: a pipe nobody reads fills and stalls the server
        with log.open("wb") as output:
            server = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
        try:
            wait_for(url, server, log)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:  # gunicorn's graceful stop hung: not left running
                server.kill()
                server.wait(timeout=30)


def wait_for(url: str, server: subprocess.Popen[bytes], log: Path, seconds: float = 60) -> None:
    """Until ``/health`` answers; raises ``RuntimeError`` with the server's output if it died."""
    deadline = time.monotonic() + seconds
    with Client(url, max_retries=0, timeout=1) as hf:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"the server stopped: {log.read_text(errors='replace')}")
            try:
                hf.health()
                return
            except (APIConnectionError, ServerError):  # not listening yet, or not migrated yet
                time.sleep(0.2)
    raise RuntimeError(f"no server at {url} after {seconds:g} s: {log.read_text(errors='replace')}")


@dataclass(frozen=True)
class ServerState:
    """What a notebook may not leave changed: every game's summary and every round (the export)."""

    games: tuple[GameSummary, ...]
    rounds_csv: str

    def names(self) -> list[str]:
        return [f"#{game.id} {game.name!r} ({game.rounds_played} rounds)" for game in self.games]


def server_state(url: str) -> ServerState:
    with Client(url) as hf:
        return ServerState(tuple(hf.games()), hf.export_csv())


def run(name: str, url: str, *, write: bool = True) -> None:
    """Execute ``examples/NAME`` (or the notebook at the path ``NAME``) in a fresh kernel, run from
    examples/, and (``write``) write it back with its outputs; raises nbclient's
    ``CellExecutionError`` (the cell and its traceback) when a cell fails."""
    path = EXAMPLES / name
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    env["HANDFOOT_URL"] = url
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute(env=env)
    if write:
        nbformat.write(notebook, path)  # type: ignore[no-untyped-call]


def main(argv: list[str]) -> int:
    """Run the notebooks ``argv`` names (every one by default); 0, or 1 when one changed the server."""
    write = "--no-write" not in argv
    names = [arg for arg in argv if arg != "--no-write"]
    with throwaway_server() as url:
        for name in names or NOTEBOOKS:
            before = server_state(url)
            started = time.monotonic()
            run(name, url, write=write)
            after = server_state(url)
            if after != before:
                change = f"games {before.names()} -> {after.names()}"
                if after.games == before.games:
                    change = "the games' rounds changed (the export differs)"
                print(f"{name}: left the server changed: {change}", file=sys.stderr)
                return 1
            written = "outputs written" if write else "file left as it was"
            print(f"{name}: ran in {time.monotonic() - started:.0f} s, {written}, the server as it was")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
