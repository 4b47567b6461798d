"""API resources: one blueprint per resource, registered in the order listed here.

Each module in :data:`BLUEPRINT_MODULES` exposes ``blp`` (a ``handfoot.server.blueprint.Blueprint``) and
optionally ``register_spec(api)``, called after its blueprint is registered.
The order fixes the order of paths and tags in the OpenAPI document.
"""

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
