"""A policy trained on handfoot_v0 plays a round at an HTTP table (the app in process, on a real
socket) through the seat-view encoder and the index read from the view, never refused; and
docs/bots.md's example of it is examples/rl_table_bot.py, printing what the docs show."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from handfoot.client import Client
from handfoot.rl import observation

ROOT = Path(__file__).resolve().parents[2]


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_table_bot", ROOT / "examples" / "rl_table_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_trained_policy_plays_a_round_at_a_table_through_the_encoder(
    threaded_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = example()
    policy = bot.train(rounds=2, seed=1)
    assert np.abs(policy.weights).sum() > 0  # fitted, not zero
    encoded: list[Any] = []
    real = observation.encode
    monkeypatch.setattr(bot, "encode", lambda view: encoded.append(view) or real(view))
    with Client(threaded_server) as hf:
        summaries = bot.play_at_table(hf, policy, seed=11)
    mine = summaries[0]
    assert mine.rounds == 1 and mine.actions > 10 and mine.refused == 0
    assert policy.decisions == len(encoded) >= mine.actions  # every choice from an encoded seat view
    assert all("actions" in view and "hand" in view for view in encoded)  # the table's views, listing and all
    assert all(s.refused == 0 for s in summaries) and len({str(s.totals) for s in summaries}) == 1


def docs_block(after: str) -> str:
    """The fenced block of docs/bots.md right after the line ``after``."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    found = re.search(re.escape(after) + r"\n+```\w*\n(.*?)```", text, re.DOTALL)
    assert found, after
    return found.group(1)


def test_the_docs_example_is_the_example_and_prints_what_they_show(
    threaded_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (ROOT / "examples" / "rl_table_bot.py").read_text(encoding="utf-8")
    shown = docs_block("<!-- rl-table-bot -->")
    assert shown in source
    monkeypatch.setenv("HANDFOOT_URL", threaded_server)
    example().main()
    assert capsys.readouterr().out == docs_block("<!-- rl-table-bot-output -->")
