"""What a gunicorn worker inherits from the master (``api/gunicorn_conf.py``): the app built once
(``preload_app``), its objects frozen before the fork (``pre_fork``), no database pool."""

from __future__ import annotations

import gc

import handfoot.server.gunicorn_conf as conf


def test_the_masters_objects_are_frozen_before_a_worker_forks() -> None:
    """Frozen, the app's objects are left out of the worker's full collections (each walked every
    tracked object of the app, a few times a game: docs/performance.md)."""
    assert conf.preload_app is True
    before = gc.get_freeze_count()
    tracked = len(gc.get_objects())
    try:
        conf.pre_fork(None, None)
        assert gc.get_freeze_count() >= before + tracked // 2
        assert len(gc.get_objects()) < tracked // 2  # what a full collection walks now
    finally:
        gc.unfreeze()
