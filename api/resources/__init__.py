"""API resources: each module of :data:`BLUEPRINT_MODULES` exposes ``blp`` (and optionally
``register_spec(api)``); their order is the OpenAPI document's order of paths and tags."""

from __future__ import annotations

import importlib
from typing import Any

BLUEPRINT_MODULES: list[str] = [
    "handfoot.server.resources.health.routes",
    "handfoot.server.resources.presets.routes",
    "handfoot.server.resources.rounds.routes",
    "handfoot.server.resources.checks.routes",
    "handfoot.server.resources.games.routes",
    "handfoot.server.resources.history.routes",
    "handfoot.server.resources.tables.routes",
]


def register_blueprints(api: Any) -> None:
    """Register every blueprint of :data:`BLUEPRINT_MODULES` on ``api`` (an ``Api``)."""
    for module_name in BLUEPRINT_MODULES:
        module = importlib.import_module(module_name)
        api.register_blueprint(module.blp)
        register_spec = getattr(module, "register_spec", None)
        if register_spec is not None:  # e.g. security schemes the module's operations use
            register_spec(api)
