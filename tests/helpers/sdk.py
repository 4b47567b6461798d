"""Shared constants and builders for the SDK tests (a unique module name, importable by tests)."""

from __future__ import annotations

BASE = "http://api.test"
PROBLEM_JSON = "application/problem+json"


def problem(status: int, title: str, **members: object) -> dict[str, object]:
    """A problem+json body with an absolute ``type`` derived from ``title``."""
    body: dict[str, object] = {
        "type": f"https://handfoot.example/problems/{title.lower().replace(' ', '-')}",
        "title": title,
        "status": status,
    }
    body.update(members)
    return body
