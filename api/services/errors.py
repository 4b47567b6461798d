"""The errors of the services, each carrying the problem it is (RFC 9457): its HTTP ``status``, its
problem type's ``slug`` (``None``: the status's default type) and ``title``, and the rest of the
document from :meth:`GameServiceError.problem`. ``handfoot.server.problems.service_problem`` is the
one handler that sends them; nothing else here knows HTTP.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from handfoot.engine.errors import HandFootError


class GameServiceError(Exception):
    """Base of the errors of the services."""

    status = 500
    slug: str | None = None
    title = "Internal Server Error"

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        """The problem's ``detail``, ``errors`` and extension members (``make_problem``'s keyword
        arguments); ``url_for`` builds a link, ``path_args`` are the request path's parameters."""
        return {"detail": str(self)}


def _sentence(error: Exception, tail: str = ".") -> str:
    text = str(error)
    return text[:1].upper() + text[1:] + tail


class GameNotFoundError(GameServiceError):
    status, title = 404, "Game not found"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {"detail": f"There is no game {self.game_id}."}


class RoundNotFoundError(GameServiceError):
    status, title = 404, "Round not found"

    def __init__(self, game_id: int, number: int) -> None:
        super().__init__(f"game {game_id} has no round {number}")
        self.game_id, self.number = game_id, number

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {"detail": f"Game {self.game_id} has no round {self.number}."}


class GameFinishedError(GameServiceError):
    status, slug, title = 409, "game-finished", "Game finished"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "detail": f"The game is over ({self.reason}): no more rounds.",
            "end_reason": self.reason,
            "errors": [{"pointer": "", "code": "game_finished", "detail": self.reason}],
        }


class RoundNumberError(GameServiceError):
    status, slug, title = 409, "round-number", "Not the next round"

    def __init__(self, expected: int, given: int) -> None:
        super().__init__(f"the next round is {expected}, not {given}")
        self.expected, self.given = expected, given

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        detail = f"the next round is {self.expected}"
        return {
            "detail": _sentence(self),
            "next_round": self.expected,
            "errors": [{"pointer": "/round", "code": "round_number", "detail": detail}],
        }


class RoundLimitError(GameServiceError):
    """A game holds the most rounds it may (or a round the most revisions); ``pointer``: the request
    member that names it, if one does."""

    status, title = 409, "Too many rounds"
    code = "round_limit"

    def __init__(self, message: str, *, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {"detail": str(self), "errors": [{"pointer": self.pointer, "code": self.code, "detail": str(self)}]}


class RevisionLimitError(RoundLimitError):
    """A round already has the most revisions a round may have."""

    code = "revision_limit"


class NotLastRoundError(GameServiceError):
    """Only a game's last round may be deleted (an earlier one is corrected instead)."""

    status, slug, title = 409, "not-last-round", "Not the last round"

    def __init__(self, number: int, last: int) -> None:
        super().__init__(
            f"only the last round ({last}) can be deleted, not round {number}: correct round {number} instead"
        )
        self.number, self.last = number, last

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "detail": _sentence(self),
            "last_round": self.last,
            "errors": [{"pointer": "", "code": "not_last_round", "detail": str(self)}],
        }


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """A problem at ``path`` in the request body (a JSON Pointer is built from it by the route);
    ``code`` is one of ``handfoot.server.codes.PROBLEM_CODES``."""

    path: tuple[str | int, ...]
    code: str
    detail: str


def _pointer(path: Sequence[str | int]) -> str:
    """RFC 6901 JSON Pointer of ``path`` (as ``handfoot.server.problems.json_pointer``)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


class InvalidRequestError(GameServiceError):
    """The body is well-formed but does not fit the game (sides, players): a 422."""

    status, slug, title = 422, "validation-error", "Request does not fit the game"

    def __init__(self, problems: Sequence[FieldProblem]) -> None:
        super().__init__("; ".join(p.detail for p in problems))
        self.problems = tuple(problems)

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "detail": str(self),
            "errors": [{"pointer": _pointer(p.path), "code": p.code, "detail": p.detail} for p in self.problems],
        }


class WriteConflictError(GameServiceError):
    """The write lost a race every time it was tried: a 409 (try again)."""

    status, title = 409, "Write conflict"


class StoreUnavailableError(GameServiceError):
    """The database is unreachable, or locked for longer than the busy timeout: a 503 (Retry-After)."""

    status, title = 503, "Database unavailable"

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {"detail": "The database is unreachable or busy; retry later."}


class TableNotFoundError(GameServiceError):
    """No table ``table_id`` for this caller (another key's table, or a Seat-Token not of its seats):
    one answer for all, so a wrong token learns no more than an unknown id."""

    status, title = 404, "Table not found"

    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        detail = f"no table {self.table_id} for this API key or Seat-Token"
        return {
            "detail": f"There is no table {self.table_id} for this request.",
            "errors": [{"parameter": "table_id", "code": "table_not_found", "detail": detail}],
        }


class TableVersionError(GameServiceError):
    """The version a seat sent is not the table's (``current``)."""

    status, slug, title = 409, "version-moved", "Version moved"

    def __init__(self, sent: int, current: int) -> None:
        super().__init__(f"the table is at version {current}, not {sent}: read the view again")
        self.sent, self.current = sent, current

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        detail = f"the table is at version {self.current}"
        return {
            "detail": str(self).capitalize() + ".",
            "version": self.current,
            "errors": [{"pointer": "/version", "code": "version_moved", "detail": detail}],
        }


class TableFinishedError(GameServiceError):
    """The table's game is over."""

    status, slug, title = 409, "table-finished", "Table finished"

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is finished: its game is over")
        self.table_id = table_id

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "detail": str(self).capitalize() + ".",
            "errors": [{"pointer": "", "code": "table_finished", "detail": str(self)}],
        }


class TableOpenError(GameServiceError):
    """The game already has a table playing it: named by its id (``table``) and URL (``href``); the
    error item names the game where the request does (its path's ``game_id``, else the body's ``game``)."""

    status, slug, title = 409, "table-open", "Table open"

    def __init__(self, game_id: int, table_id: int) -> None:
        super().__init__(f"game {game_id} is already played at table {table_id}")
        self.game_id, self.table_id = game_id, table_id

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        href = url_for("Tables.TableItem", table_id=self.table_id)
        where = {"parameter": "game_id"} if "game_id" in path_args else {"pointer": "/game"}
        return {
            "detail": f"Game {self.game_id} is being played at table {self.table_id} ({href}): "
            "its rounds are stored by the table.",
            "table": self.table_id,
            "href": href,
            "errors": [{**where, "code": "table_open", "detail": f"{self} ({href})"}],
        }


class TableRoundError(GameServiceError):
    """Round ``number`` of a table is still in play (``in_play``: a 409) or was never played there (404)."""

    def __init__(self, table_id: int, number: int, *, in_play: bool) -> None:
        super().__init__(
            f"round {number} of table {table_id} is still in play"
            if in_play
            else f"table {table_id} has played no round {number}"
        )
        self.table_id, self.number, self.in_play = table_id, number, in_play
        self.status, self.slug = (409, "round-in-play") if in_play else (404, None)
        self.title = "Round in play" if in_play else "Round not found"

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        if not self.in_play:
            return {"detail": _sentence(self)}
        return {
            "detail": _sentence(self, ": its log is shown once it ends."),
            "errors": [{"parameter": "number", "code": "round_in_play", "detail": str(self)}],
        }


class ActionRefusedError(GameServiceError):
    """The engine refused a seat's action (``error``: its PlayError or CardError): a 422 of the
    engine error's type, whose pointers lead into the body's ``action`` (a turn that is not the
    seat's names the Seat-Token, which says the seat)."""

    status = 422

    def __init__(self, error: HandFootError) -> None:
        super().__init__(str(error))
        self.error = error
        self.slug, self.title = error.slug, error.title

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        problems = self.error.problems
        items = [
            {"parameter": "Seat-Token", "code": p.code, "detail": p.detail}
            if p.code == "not_your_turn"
            else {"pointer": _pointer(("action", *p.path)), "code": p.code, "detail": p.detail}
            for p in problems
        ]
        return {"detail": "; ".join(p.detail for p in problems), "errors": items}
