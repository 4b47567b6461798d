"""The retry policy, written once: ``Transport`` (requests) and ``AsyncTransport`` (httpx) both ask it.

* Which requests: GET, HEAD, PUT, DELETE (and OPTIONS); a POST only when it carries an
  ``Idempotency-Key`` or the caller marks it ``idempotent=True`` (a side-effect-free computation
  such as ``/v1/rounds/score``). Any other POST is sent exactly once.
* When: connection errors and timeouts; statuses 408, 429, 502, 503, 504; 500 only for requests
  that are idempotent by nature (the methods above, or ``idempotent=True``), not for keyed POSTs;
  409 only when the problem ``type`` ends with ``/problems/idempotency-in-flight``. Never 412 or
  422 (nor any other status).
* How long: ``Retry-After`` (seconds or HTTP date) when the server sends one, if it is at most 60 s
  (a longer wait is not attempted: the error is raised at once); otherwise 0.5·2ⁿ seconds capped at
  8 s, with up to 25 % jitter subtracted.
* The ``Idempotency-Key`` is made once per call and sent unchanged on every retry (the transports).
"""

from __future__ import annotations

import random

from ._http import parse_retry_after

__all__ = [
    "IDEMPOTENCY_IN_FLIGHT_SUFFIX",
    "INITIAL_RETRY_DELAY",
    "MAX_RETRY_AFTER",
    "MAX_RETRY_DELAY",
    "backoff_delay",
    "is_naturally_idempotent",
    "retry_wait",
    "should_retry_status",
]

INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
MAX_RETRY_AFTER = 60.0
IDEMPOTENCY_IN_FLIGHT_SUFFIX = "/problems/idempotency-in-flight"

_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
_RETRY_STATUSES = frozenset({408, 429, 502, 503, 504})


def backoff_delay(retry_number: int) -> float:
    """The wait before retry ``retry_number`` (0-based): 0.5·2ⁿ ≤ 8 s, minus up to 25 % jitter."""
    base = min(INITIAL_RETRY_DELAY * (2.0**retry_number), MAX_RETRY_DELAY)
    return base * (1.0 - 0.25 * random.random())


def is_naturally_idempotent(method: str, idempotent: bool) -> bool:
    """Safe to repeat without a key: an idempotent method, or a POST declared free of side effects."""
    return method.upper() in _IDEMPOTENT_METHODS or idempotent


def should_retry_status(status: int, problem_type: str, naturally_idempotent: bool) -> bool:
    """Whether an error answer is worth another try (the module's "When")."""
    if status in _RETRY_STATUSES:
        return True
    if status == 500:
        return naturally_idempotent
    if status == 409:
        return problem_type.endswith(IDEMPOTENCY_IN_FLIGHT_SUFFIX)
    return False


def retry_wait(retry_number: int, retry_after: str | None) -> float | None:
    """Seconds to wait before retry ``retry_number``: ``Retry-After`` when sent, else the back-off;
    ``None`` when the server asks for more than ``MAX_RETRY_AFTER`` (then do not retry)."""
    wait = parse_retry_after(retry_after)
    if wait is None:
        return backoff_delay(retry_number)
    return wait if wait <= MAX_RETRY_AFTER else None
