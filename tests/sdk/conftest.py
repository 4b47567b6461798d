"""Fixtures for the SDK tests: a mocked HTTP layer (``responses``), and a recorded ``time.sleep`` (the live
server for the end-to-end tests is ``live_server`` in tests/conftest.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import responses

from handfoot.client import Client
from tests.helpers.sdk import BASE


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HANDFOOT_URL", raising=False)
    monkeypatch.delenv("HANDFOOT_API_KEY", raising=False)


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every ``time.sleep`` duration requested; nothing actually sleeps."""
    recorded: list[float] = []
    monkeypatch.setattr(time, "sleep", recorded.append)
    return recorded


@pytest.fixture
def rsps(sleeps: list[float]) -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        yield mock


@pytest.fixture
def sdk_client() -> Iterator[Client]:
    with Client(BASE, max_retries=2) as c:
        yield c


@pytest.fixture
def once() -> Iterator[Client]:
    """A client that never retries, so each response is seen exactly once."""
    with Client(BASE, max_retries=0) as c:
        yield c
