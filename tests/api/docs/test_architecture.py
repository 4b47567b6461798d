"""docs/architecture.md's "Life of a request" is true: each walk names, in order, every function of
``api/`` (``handfoot.server``) a warm request passes, counted strictly with a profiler."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from flask.testing import FlaskClient

import handfoot.server
from handfoot.server.resources.rounds.examples import WORKED_ROUND_REQUEST

ROOT = Path(__file__).resolve().parents[3]
SERVER = Path(handfoot.server.__file__).resolve().parent
#: The most functions of api/ a walk may pass (issue 40's bound).
MOST = 10


def passed(call: Callable[[], Any]) -> list[str]:
    """The functions of ``api/`` ``call`` passes, in the order first seen, as dotted names
    (``lifecycle.begin``, ``parsing.JSONBodyParser.load_json``): module path and qualified name,
    a function's ``<locals>`` left out, comprehensions and lambdas not counted."""
    seen: list[str] = []

    def hook(frame: FrameType, event: str, _arg: object) -> None:
        code = frame.f_code
        if event != "call" or code.co_name.startswith("<"):
            return
        path = Path(code.co_filename)
        if not path.is_relative_to(SERVER):
            return
        module = ".".join(path.relative_to(SERVER).with_suffix("").parts)
        qualname = re.sub(r"^.*<locals>\.", "", code.co_qualname)
        name = f"{module}.{qualname}"
        if name not in seen:
            seen.append(name)

    sys.setprofile(hook)
    try:
        call()
    finally:
        sys.setprofile(None)
    return seen


def documented(section: str) -> list[str]:
    """The function each numbered step of ``section`` in docs/architecture.md names first."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    body = text.split(f"### {section}\n", 1)[1].split("\n#", 1)[0]
    return [m.group(1) for m in re.finditer(r"^\d+\. [^`]*`([\w.]+)`", body, re.M)]


def same_walk(seen: list[str], doc: list[str]) -> bool:
    """Whether each documented name ends the dotted name of the function seen at its place."""
    return len(seen) == len(doc) and all(s == d or s.endswith("." + d) for s, d in zip(seen, doc, strict=True))


def test_a_score_request_passes_the_functions_its_walk_names(flask_client: FlaskClient) -> None:
    body = json.dumps(WORKED_ROUND_REQUEST)

    def score() -> None:
        answer = flask_client.post("/v1/rounds/score", data=body, content_type="application/json")
        assert answer.status_code == 200, answer.get_data(as_text=True)

    for _ in range(3):  # warm: what a process does once (first use of a route, of a schema) is left out
        score()
    seen, doc = passed(score), documented("A score request")
    assert same_walk(seen, doc), (seen, doc)
    assert len(seen) <= MOST
