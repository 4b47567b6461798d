"""Typed Python client for the handfoot HTTP API (Hand and Foot rules, scoring and games).

>>> from sdk import Client
>>> with Client("http://127.0.0.1:8000") as hf:          # doctest: +SKIP
...     print(hf.score_round(preset="pagat", teams=[...]))

Depends only on ``requests``; never imports the server (``api``) or the engine.
"""

from ._client import Client
from ._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    HandFootError,
    NotFoundError,
    PayloadTooLargeError,
    PreconditionFailedError,
    PreconditionRequiredError,
    ProblemDetails,
    ProblemItem,
    RateLimitError,
    ServerError,
    UnprocessableEntityError,
    ValidationError,
)
from ._version import __version__
from .models import PROVENANCE_KINDS, Breakdown, Line, Preset, PresetSummary, Provenance, RoundScore
from .pagination import Page, iter_all
from .params import PlayerInput, TallyInput, TeamInput

__all__ = [
    "PROVENANCE_KINDS",
    "APIConnectionError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "Breakdown",
    "Client",
    "ConflictError",
    "HandFootError",
    "Line",
    "NotFoundError",
    "Page",
    "PayloadTooLargeError",
    "PlayerInput",
    "PreconditionFailedError",
    "PreconditionRequiredError",
    "Preset",
    "PresetSummary",
    "ProblemDetails",
    "ProblemItem",
    "Provenance",
    "RateLimitError",
    "RoundScore",
    "ServerError",
    "TallyInput",
    "TeamInput",
    "UnprocessableEntityError",
    "ValidationError",
    "__version__",
    "iter_all",
]
