"""Run the notebooks of examples/ against a throwaway server and write their outputs back in.

    make notebooks                                 # installs the notebooks extra, then runs this
    python examples/run_notebooks.py               # every notebook
    python examples/run_notebooks.py history.ipynb # some
    python examples/run_notebooks.py --no-write    # run them, leave the files as they are (the tests)

A server (``handfoot-server serve``, one worker, no API keys) is started on a free port of
127.0.0.1 with a SQLite file in a temporary folder, and each notebook runs in a fresh kernel with
``HANDFOOT_URL`` pointing at it (those that need no server never ask it). A notebook must leave the
server's games as it found them: the games list is compared before and after each one. The server
and its folder are removed at the end, whatever happened. Needs the ``notebooks`` extra
(``pip install -e '.[notebooks]'``: Jupyter, nbclient, pandas, matplotlib) and the server.
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
from pathlib import Path

import nbclient
import nbformat

from handfoot.client import APIConnectionError, Client, ServerError

EXAMPLES = Path(__file__).resolve().parent
NOTEBOOKS = ("replay_game.ipynb", "history.ipynb", "other_rules.ipynb", "arena.ipynb")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def throwaway_server() -> Iterator[str]:
    """A server on a free port and a temporary SQLite file; its URL. Stopped and removed after."""
    with tempfile.TemporaryDirectory(prefix="handfoot-notebooks-") as folder:
        url = f"http://127.0.0.1:{free_port()}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
        env["DATABASE_URL"] = f"sqlite:///{folder}/notebooks.sqlite3"
        command = [sys.executable, "-m", "handfoot.server.cli", "serve", "-w", "1", "-b", url.removeprefix("http://")]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_for(url, server)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)


def wait_for(url: str, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    """Until ``/health`` answers; raises ``RuntimeError`` with the server's output if it died."""
    deadline = time.monotonic() + seconds
    with Client(url, max_retries=0, timeout=1) as hf:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"the server stopped: {server.stderr.read().decode() if server.stderr else ''}")
            try:
                hf.health()
                return
            except (APIConnectionError, ServerError):  # not listening yet, or not migrated yet
                time.sleep(0.2)
    raise RuntimeError(f"no server at {url} after {seconds:g} s")


def games(url: str) -> list[tuple[int, str]]:
    with Client(url) as hf:
        return [(game.id, game.name) for game in hf.games()]


def run(name: str, url: str, *, write: bool = True) -> None:
    """Execute ``examples/NAME`` in a fresh kernel and (``write``) write it back with its outputs;
    raises nbclient's ``CellExecutionError`` (the cell and its traceback) when a cell fails."""
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
    write = "--no-write" not in argv
    names = [arg for arg in argv if arg != "--no-write"]
    with throwaway_server() as url:
        for name in names or NOTEBOOKS:
            before = games(url)
            started = time.monotonic()
            run(name, url, write=write)
            after = games(url)
            if after != before:
                print(f"{name}: left the server's games changed: {before} -> {after}", file=sys.stderr)
                return 1
            written = "outputs written" if write else "file left as it was"
            print(f"{name}: ran in {time.monotonic() - started:.0f} s, {written}, the server as it was")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
