"""A round body scored against a stored game: its teams matched to the game's sides by name, then
scored by the engine (``engine.score_round_body``), for an append and a correction
(``services.rounds``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handfoot import engine
from handfoot.engine.errors import Problem
from handfoot.server.schemas import breakdown_data
from handfoot.server.services.errors import InvalidRequestError


def match_sides(names: Sequence[str], teams: Sequence[Mapping[str, Any]]) -> list[int]:
    """For each team of a round body, the index of its game side: matched by the engine's name key
    (``engine.name_key``: case and Unicode composition ignored, as the game's duplicate check
    compares names), every side exactly once. Raises :class:`InvalidRequestError`."""
    index = {engine.name_key(name): i for i, name in enumerate(names)}
    problems: list[Problem] = []
    seen: dict[int, int] = {}
    order: list[int] = []
    for i, team in enumerate(teams):
        name = team["name"]
        side = index.get(engine.name_key(name))
        if side is None:
            problems.append(
                Problem(
                    "unknown_side",
                    f"{name!r} is not a side of this game ({', '.join(map(repr, names))})",
                    ("teams", i, "name"),
                )
            )
        elif side in seen:
            problems.append(
                Problem("duplicate_side", f"side {name!r} is already teams[{seen[side]}]", ("teams", i, "name"))
            )
        else:
            seen[side] = i
            order.append(side)
    missing = [name for side, name in enumerate(names) if side not in seen]
    if missing:
        problems.append(
            Problem(
                "missing_side",
                f"every side of the game appears once; missing: {', '.join(map(repr, missing))}",
                ("teams",),
            )
        )
    if problems:
        raise InvalidRequestError(problems)
    return order


def score(names: Sequence[str], body: Mapping[str, Any], number: int, rules: engine.RuleSet) -> list[dict[str, Any]]:
    """The engine's Breakdowns of a round body, in the order of the game's sides ``names``, each
    under its side's name as the game spells it (engine errors raise)."""
    order = match_sides(names, body["teams"])
    teams = [
        team if team["name"] == names[side] else {**team, "name": names[side]}
        for team, side in zip(body["teams"], order, strict=True)
    ]
    result = engine.score_round_body({**body, "teams": teams, "round": number}, rules)
    breakdowns: list[dict[str, Any]] = [{}] * len(order)
    for side, breakdown in zip(order, result.teams, strict=True):
        breakdowns[side] = breakdown_data(breakdown)
    return breakdowns
