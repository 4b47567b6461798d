"""The errors of the services (mapped to problems by ``api/resources/games/problems.py``). No HTTP here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class GameServiceError(Exception):
    """Base of the errors of the services."""


class GameNotFoundError(GameServiceError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class RoundNotFoundError(GameServiceError):
    def __init__(self, game_id: int, number: int) -> None:
        super().__init__(f"game {game_id} has no round {number}")
        self.game_id, self.number = game_id, number


class GameFinishedError(GameServiceError):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RoundNumberError(GameServiceError):
    def __init__(self, expected: int, given: int) -> None:
        super().__init__(f"the next round is {expected}, not {given}")
        self.expected, self.given = expected, given


class RoundLimitError(GameServiceError):
    code = "round_limit"


class RevisionLimitError(RoundLimitError):
    """A round already has the most revisions a round may have."""

    code = "revision_limit"


class NotLastRoundError(GameServiceError):
    """Only a game's last round may be deleted (an earlier one is corrected instead)."""

    def __init__(self, number: int, last: int) -> None:
        super().__init__(f"only the last round ({last}) can be deleted, not round {number}: "
                         f"correct round {number} instead")
        self.number, self.last = number, last


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """A problem at ``path`` in the request body (a JSON Pointer is built from it by the route);
    ``code`` is one of ``handfoot.server.codes.PROBLEM_CODES``."""

    path: tuple[str | int, ...]
    code: str
    detail: str


class InvalidRequestError(GameServiceError):
    """The body is well-formed but does not fit the game (sides, players): a 422."""

    def __init__(self, problems: Sequence[FieldProblem]) -> None:
        super().__init__("; ".join(p.detail for p in problems))
        self.problems = tuple(problems)


class WriteConflictError(GameServiceError):
    """The write lost a race every time it was tried: a 409 (try again)."""


class StoreUnavailableError(GameServiceError):
    """The database is unreachable, or locked for longer than the busy timeout: a 503."""
