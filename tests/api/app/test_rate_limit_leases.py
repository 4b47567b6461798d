"""Leased rate-limit counting (``api/ratelimit.py``'s ``Leases``): several workers share one
allowance, never grant past it, refuse at most the documented few early, and hit the shared
storage far less than once a request on a busy key."""

from __future__ import annotations

import random
from pathlib import Path

from limits.storage import Storage

from handfoot.server.ratelimit import LEASE_FRACTION, LEASE_MAX, Leases, SQLiteStorage


class Counting(SQLiteStorage):
    """The shared file, counting its ``incr`` calls."""

    incrs = 0

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        Counting.incrs += 1
        return super().incr(key, expiry, amount)


def granted(storage: Storage, limit: int, workers: int, requests: int, seed: int) -> int:
    """Requests granted out of ``requests`` spread at random over ``workers`` (one Leases each)."""
    leases = [Leases() for _ in range(workers)]
    rng = random.Random(seed)
    return sum(rng.choice(leases).take(storage, "key", limit, 60)[0] <= limit for _ in range(requests))


def test_leases_never_grant_past_the_limit_and_refuse_at_most_the_bound_early(tmp_path: Path) -> None:
    limit, workers = 6400, 3
    bound = (workers - 1) * min(LEASE_MAX, limit // LEASE_FRACTION)
    for seed in range(3):
        storage = Counting(f"handfoot+sqlite://{tmp_path / f'limits-{seed}.sqlite3'}")
        Counting.incrs = 0
        got = granted(storage, limit, workers, limit + 500, seed)
        assert limit - bound <= got <= limit, (got, limit, bound)
        assert Counting.incrs < got / 8, (Counting.incrs, got)  # leased, not one hit a request


def test_small_limits_are_counted_request_by_request(tmp_path: Path) -> None:
    storage = SQLiteStorage(f"handfoot+sqlite://{tmp_path / 'limits.sqlite3'}")
    for seed in range(5):
        storage.reset()
        assert granted(storage, 12, 4, 60, seed) == 12


def test_counts_and_reset_follow_the_shared_window(tmp_path: Path) -> None:
    storage = SQLiteStorage(f"handfoot+sqlite://{tmp_path / 'limits.sqlite3'}")
    one, other = Leases(), Leases()
    counts = [one.take(storage, "k", 10_000, 60)[0] for _ in range(3)] + [other.take(storage, "k", 10_000, 60)[0]]
    assert counts[:2] == [1, 2] and counts[2] == 3 and counts[3] > 3  # the second hit leased the third
    assert one.take(storage, "k", 10_000, 60)[1] == storage.get_expiry("k")
