"""A pytest plugin (tests/conftest.py imports its hook): a session's last garbage collection is done
before a pytest-xdist worker reports that it has finished, not after.

Why: once a worker has sent ``workerfinished``, the controller tells it to exit, and execnet gives
the worker's pytest 5 seconds to return before it sends the worker a SIGINT. What the worker still
does then is pytest's unconfigure, which runs two full garbage collections (its unraisable
exceptions' check). After the schema fuzz and the Hypothesis tests a worker holds about a million
objects, and on the 2-core machine under load each of those collections took 3.5 to 3.8 s: the
SIGINT came, and a passing ``make test`` printed a ``KeyboardInterrupt`` traceback (issue 44;
tests/process/test_session_end.py).

Here, at the end of ``pytest_sessionfinish`` (before the worker reports, under no clock), the
garbage is collected, its finalizers run (an exception one raises is still reported by pytest's
unraisable check), and what is left is frozen (``gc.freeze``): the collections after it look only
at objects made since, which takes milliseconds.
"""

from __future__ import annotations

import gc

import pytest


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
