"""The smallest table a rule set seats: what tests that need "some legal sides" build."""

from __future__ import annotations

from handfoot.engine import RuleSet, sides_problems


def per_side(rules: RuleSet, sides: int = 2) -> int:
    """The fewest players a side for ``sides`` sides of one size that ``rules`` seat (the total
    player counts and ``sides_by_parity`` included: the Wages reunion rules seat no two players
    alone, so two sides there are two teams of two)."""
    for size in range(rules.players_per_team_min, rules.players_per_team_max + 1):
        names = [f"S{i}" for i in range(sides)]
        if not sides_problems(rules, names, [[f"S{i}P{p}" for p in range(size)] for i in range(sides)]):
            return size
    raise AssertionError(f"no {sides} equal sides are legal under these rules")
