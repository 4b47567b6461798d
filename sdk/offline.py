"""The engine's answers as the client's result types, with no server.

``score_round_offline(body)`` scores a round with ``handfoot.engine`` (standard library only) and
returns a ``handfoot.client.types.RoundScore``: the same fields, the same ``to_dict()`` JSON and the
same text and HTML renderings (``handfoot.client.display``) as ``Client.score_round``. The engine's
result is converted through the JSON form the API answers with (``{preset, round,
rules_overridden, teams: [{name, total, lines: [{code, label, count, points_each, points}], warnings}]}``,
points signed), so one loader reads both.

A round that breaks the rules raises ``OfflineProblemError``, whose ``problem`` is the problem
document the server would send (status 422, ``errors`` with JSON Pointers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from handfoot import engine

from .types import ProblemDetails, RoundScore

__all__ = ["OfflineProblemError", "problem_of", "round_score_json", "score_round_offline"]

#: The problem ``type`` prefix and the slug per engine error, as the server names them (the SDK
#: never imports the server: this is the HTTP contract's table, docs/problems.md).
PROBLEM_BASE = "https://handfoot.dev/problems/"
_SLUGS: dict[type[engine.HandFootError], str] = {
    engine.CardError: "invalid-card",
    engine.UnknownPresetError: "unknown-preset",
    engine.RulesError: "invalid-rules",
    engine.InvalidMeldError: "invalid-meld",
    engine.RoundError: "invalid-round",
}


class OfflineProblemError(ValueError):
    """The engine refused the round; ``problem`` is the document the server would answer with."""

    def __init__(self, problem: ProblemDetails) -> None:
        super().__init__(problem.detail or problem.title)
        self.problem = problem


def _pointer(path: tuple[str | int, ...]) -> str:
    """An engine problem path as a JSON Pointer (RFC 6901): ``("teams", 0)`` → ``/teams/0``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def problem_of(err: engine.HandFootError, instance: str = "/v1/rounds/score") -> ProblemDetails:
    """The problem document (status 422) for an engine error: one ``errors`` item per problem."""
    return ProblemDetails.from_json(
        {
            "type": PROBLEM_BASE + _SLUGS.get(type(err), "rules-broken"),
            "title": err.title,
            "status": 422,
            "detail": str(err),
            "instance": instance,
            "errors": [{"pointer": _pointer(p.path), "code": p.code, "detail": p.detail} for p in err.problems],
        },
        status=422,
    )


def round_score_json(preset: str, score: engine.RoundScore, rules_overridden: tuple[str, ...] = ()) -> dict[str, Any]:
    """The API's JSON answer of ``POST /v1/rounds/score`` for an engine ``RoundScore``."""
    return {
        "preset": preset,
        "round": score.round,
        "rules_overridden": list(rules_overridden),
        "teams": [
            {
                "name": team.name,
                "total": team.total,
                "lines": [line._asdict() for line in team.lines],
                "warnings": [{"pointer": _pointer(p.path), "code": p.code, "detail": p.detail} for p in team.warnings],
            }
            for team in score.teams
        ],
    }


def score_round_offline(body: Mapping[str, Any]) -> RoundScore:
    """Score ``body`` (the body of ``POST /v1/rounds/score``: ``{preset, rules?, round?, teams}``)
    with the engine; raises ``OfflineProblemError`` when the round breaks the rules."""
    try:
        resolved = engine.rules_of(body)
        score = engine.score_round_body(body, resolved.rules)
    except engine.HandFootError as err:
        raise OfflineProblemError(problem_of(err)) from err
    return RoundScore.from_json(round_score_json(str(body.get("preset", "")), score, resolved.overridden))
