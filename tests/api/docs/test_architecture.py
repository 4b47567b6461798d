"""docs/architecture.md's "Life of a request" is true: each walk names, in order, every function of
``api/`` (``handfoot.server``) a warm request passes, counted strictly with a profiler."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from flask.testing import FlaskClient

import handfoot.server
from handfoot.engine import rules_of
from handfoot.engine.play.bots import actor, greedy_policy
from handfoot.server.resources.rounds.examples import WORKED_ROUND_REQUEST
from tests.helpers import tables

ROOT = Path(__file__).resolve().parents[3]
SERVER = Path(handfoot.server.__file__).parent  # as the code objects name their files: not resolved
#: The most functions of api/ a walk may pass (issue 40's bound).
MOST = 10


def passed(call: Callable[[], Any]) -> list[tuple[str, ...]]:
    """The functions of ``api/`` ``call`` passes, in the order first seen, each as the dotted names
    a reader may call it by: module path and qualified name (``db.Database.end_session``); a local
    function by its own name and by the function it is made in (``lifecycle.begin`` made in
    ``init_app``, ``auth.seated``'s wrapper). Comprehensions and lambdas are not counted."""
    seen: list[tuple[str, ...]] = []

    def hook(frame: FrameType, event: str, _arg: object) -> None:
        code = frame.f_code
        if event != "call" or code.co_name.startswith("<"):
            return
        path = Path(code.co_filename)
        if not path.is_relative_to(SERVER):
            return
        module = ".".join(path.relative_to(SERVER).with_suffix("").parts).removesuffix(".__init__")
        outer, *inner = code.co_qualname.split(".<locals>.")
        names = (f"{module}.{outer}", f"{module}.{inner[-1]}") if inner else (f"{module}.{outer}",)
        if names not in seen:
            seen.append(names)

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


def named(names: tuple[str, ...], doc: str) -> bool:
    """Whether ``doc`` (a name the document gives) names the function seen as ``names``."""
    return any(n == doc or n.endswith("." + doc) for n in names)


def test_a_score_request_passes_the_functions_its_walk_names(flask_client: FlaskClient) -> None:
    body = json.dumps(WORKED_ROUND_REQUEST)

    def score() -> None:
        answer = flask_client.post("/v1/rounds/score", data=body, content_type="application/json")
        assert answer.status_code == 200, answer.get_data(as_text=True)

    for _ in range(3):  # warm: what a process does once (first use of a route, of a schema) is left out
        score()
    seen, doc = passed(score), documented("A score request")
    assert len(seen) == len(doc) and all(named(n, d) for n, d in zip(seen, doc, strict=True)), (seen, doc)
    assert len(seen) <= MOST


def test_a_table_action_passes_its_ten_steps_in_order_and_the_count_stated(flask_client: FlaskClient) -> None:
    """The action's walk names ten steps, each a function the action passes, in the order it first
    passes them (the helpers a step calls are named inside it); the strict count the document
    states is the one measured."""
    app = flask_client.application
    created = tables.create(flask_client)
    rng = random.Random(7)
    for _ in range(4):  # warm: a seat known to the process, the statements compiled
        tables.play_turn(flask_client, app, created, rng, check=False)
    seat = actor(tables.true_state(app, created["id"]))
    headers = {**tables.seat_headers(created, seat), "Idempotency-Key": '"walk-1"'}
    view = flask_client.get(f"/v1/tables/{created['id']}/view", headers=headers).get_json()
    action = {k: v for k, v in greedy_policy(view["view"], rules_of({"preset": "pagat"}).rules, rng)[0].items()}
    action.pop("seat", None)
    body = json.dumps({"version": view["version"], "action": action})

    def act() -> None:
        answer = flask_client.post(
            f"/v1/tables/{created['id']}/actions", data=body, content_type="application/json", headers=headers
        )
        assert answer.status_code == 200, answer.get_data(as_text=True)

    seen, doc = passed(act), documented("A table's action")
    assert len(doc) == MOST, doc
    places = [next((i for i, names in enumerate(seen) if named(names, d)), -1) for d in doc]
    assert -1 not in places and places == sorted(places), (seen, doc)
    text = (ROOT / "docs" / "architecture.md").read_text()
    stated = re.search(r"passes (\d+) since", text)
    assert stated and int(stated.group(1)) == len(seen), "\n".join(n[0] for n in seen)
