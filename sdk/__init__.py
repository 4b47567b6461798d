"""Typed Python client for the handfoot HTTP API (Hand and Foot rules, scoring and games).

>>> from handfoot.client import Client
>>> with Client("http://127.0.0.1:8000") as hf:          # doctest: +SKIP
...     print(hf.score_round(preset="pagat", teams=[...]))

Depends only on ``requests``; never imports the server (``handfoot.server``) or the engine.
Results are ``handfoot.client.types`` (one module per resource), printed by ``handfoot.client.display``.
"""

from . import _errors, display, types  # noqa: F401  (display registers how each result prints)
from ._client import Client
from ._errors import *  # noqa: F403  (every exception: handfoot.client._errors.__all__)
from ._operations import OPERATIONS
from ._raw import Headers, RawResponse
from ._version import __version__
from .pagination import Page, iter_all
from .params import Card, GameTeamInput, PlayerInput, TallyInput, TeamInput
from .types import *  # noqa: F403  (every result type: handfoot.client.types.__all__)

__all__ = [
    "OPERATIONS",
    "Card",
    "Client",
    "GameTeamInput",
    "Headers",
    "Page",
    "PlayerInput",
    "RawResponse",
    "TallyInput",
    "TeamInput",
    "__version__",
    "iter_all",
    *_errors.__all__,
    *types.__all__,
]
