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
    """A game holds the most rounds it may (or a round the most revisions); ``pointer``: the request
    member that names it, if one does."""

    code = "round_limit"

    def __init__(self, message: str, *, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer


class RevisionLimitError(RoundLimitError):
    """A round already has the most revisions a round may have."""

    code = "revision_limit"


class NotLastRoundError(GameServiceError):
    """Only a game's last round may be deleted (an earlier one is corrected instead)."""

    def __init__(self, number: int, last: int) -> None:
        super().__init__(
            f"only the last round ({last}) can be deleted, not round {number}: correct round {number} instead"
        )
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


class TableNotFoundError(GameServiceError):
    """No table ``table_id`` for this caller (another key's table, or a Seat-Token not of its seats)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id


class TableVersionError(GameServiceError):
    """The version a seat sent is not the table's (``current``)."""

    def __init__(self, sent: int, current: int) -> None:
        super().__init__(f"the table is at version {current}, not {sent}: read the view again")
        self.sent, self.current = sent, current


class TableFinishedError(GameServiceError):
    """The table's game is over."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is finished: its game is over")
        self.table_id = table_id


class TableOpenError(GameServiceError):
    """The game already has a table playing it."""

    def __init__(self, game_id: int, table_id: int) -> None:
        super().__init__(f"game {game_id} is already played at table {table_id}")
        self.game_id, self.table_id = game_id, table_id


class TableRoundError(GameServiceError):
    """Round ``number`` of a table is still in play (``in_play``: a 409) or was never played there (404)."""

    def __init__(self, table_id: int, number: int, *, in_play: bool) -> None:
        super().__init__(
            f"round {number} of table {table_id} is still in play"
            if in_play
            else f"table {table_id} has played no round {number}"
        )
        self.table_id, self.number, self.in_play = table_id, number, in_play


class ActionRefusedError(GameServiceError):
    """The engine refused a seat's action (``error``: its PlayError or CardError); a 422 whose
    pointers lead into the body's ``action``."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error
