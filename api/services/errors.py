"""The errors of the services, each carrying the problem it is (RFC 9457): its HTTP ``status``, its
problem type's ``slug`` (``None``: the status's default type) and ``title``, and the rest of the
document from :meth:`GameServiceError.problem`. ``handfoot.server.problems.service_problem`` is the
one handler that sends them; nothing else here knows HTTP.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from handfoot.engine.errors import HandFootError, Problem


def json_pointer(path: Iterable[str | int]) -> str:
    """RFC 6901 JSON Pointer: ``("teams", 0, "melds")`` → ``"/teams/0/melds"``; ``()`` → ``""``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def _sentence(text: str, tail: str = ".") -> str:
    return text[:1].upper() + text[1:] + tail


class GameServiceError(Exception):
    """Base of the errors of the services. ``detail`` (default: the message), ``errors`` (the
    problem's items) and ``members`` (its extension members) make the rest of its document."""

    status = 500
    slug: str | None = None
    title = "Internal Server Error"

    def __init__(
        self, message: str = "", *, detail: str | None = None, errors: Sequence[dict[str, str]] = (), **members: Any
    ) -> None:
        super().__init__(message)
        self.detail = message if detail is None else detail
        self.errors = list(errors)
        self.members = members

    def problem(self, url_for: Callable[..., str], path_args: Mapping[str, Any]) -> dict[str, Any]:
        """``make_problem``'s keyword arguments: ``detail``, ``errors`` and the extension members;
        ``url_for`` builds a link, ``path_args`` are the request path's parameters."""
        return {"detail": self.detail, "errors": self.errors, **self.members}


def _item(code: str, detail: str, pointer: str = "", parameter: str | None = None) -> dict[str, str]:
    """An ``errors`` item at ``pointer`` into the body, or naming the request's ``parameter``."""
    where = {"pointer": pointer} if parameter is None else {"parameter": parameter}
    return {**where, "code": code, "detail": detail}


class GameNotFoundError(GameServiceError):
    status, title = 404, "Game not found"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}", detail=f"There is no game {game_id}.")


class RoundNotFoundError(GameServiceError):
    status, title = 404, "Round not found"

    def __init__(self, game_id: int, number: int) -> None:
        super().__init__(f"game {game_id} has no round {number}", detail=f"Game {game_id} has no round {number}.")


class GameFinishedError(GameServiceError):
    status, slug, title = 409, "game-finished", "Game finished"

    def __init__(self, reason: str) -> None:
        super().__init__(
            reason,
            detail=f"The game is over ({reason}): no more rounds.",
            end_reason=reason,
            errors=[_item("game_finished", reason)],
        )


class RoundNumberError(GameServiceError):
    status, slug, title = 409, "round-number", "Not the next round"

    def __init__(self, expected: int, given: int) -> None:
        message = f"the next round is {expected}, not {given}"
        item = _item("round_number", f"the next round is {expected}", "/round")
        super().__init__(message, detail=_sentence(message), next_round=expected, errors=[item])


class RoundLimitError(GameServiceError):
    """A game holds the most rounds it may (or a round the most revisions); ``pointer``: the request
    member that names it, if one does."""

    status, title = 409, "Too many rounds"
    code = "round_limit"

    def __init__(self, message: str, *, pointer: str = "") -> None:
        super().__init__(message, errors=[_item(self.code, message, pointer)])


class RevisionLimitError(RoundLimitError):
    """A round already has the most revisions a round may have."""

    code = "revision_limit"


class NotLastRoundError(GameServiceError):
    """Only a game's last round may be deleted (an earlier one is corrected instead)."""

    status, slug, title = 409, "not-last-round", "Not the last round"

    def __init__(self, number: int, last: int) -> None:
        message = f"only the last round ({last}) can be deleted, not round {number}: correct round {number} instead"
        item = _item("not_last_round", message)
        super().__init__(message, detail=_sentence(message), last_round=last, errors=[item])


class InvalidRequestError(GameServiceError):
    """The body is well-formed but does not fit the game (sides, players): a 422, an item per
    problem (codes of ``handfoot.server.codes.PROBLEM_CODES``)."""

    status, slug, title = 422, "validation-error", "Request does not fit the game"

    def __init__(self, problems: Sequence[Problem]) -> None:
        items = [_item(p.code, p.detail, json_pointer(p.path)) for p in problems]
        super().__init__("; ".join(p.detail for p in problems), errors=items)


class WriteConflictError(GameServiceError):
    """The write lost a race every time it was tried: a 409 (try again)."""

    status, title = 409, "Write conflict"


class StoreUnavailableError(GameServiceError):
    """The database is unreachable, or locked for longer than the busy timeout: a 503 (Retry-After)."""

    status, title = 503, "Database unavailable"

    def __init__(self, message: str = "") -> None:
        super().__init__(message, detail="The database is unreachable or busy; retry later.")


class TableNotFoundError(GameServiceError):
    """No table ``table_id`` for this caller (another key's table, or a Seat-Token not of its seats):
    one answer for all, so a wrong token learns no more than an unknown id."""

    status, title = 404, "Table not found"

    def __init__(self, table_id: int) -> None:
        item = _item("table_not_found", f"no table {table_id} for this API key or Seat-Token", parameter="table_id")
        super().__init__(
            f"no table {table_id}", detail=f"There is no table {table_id} for this request.", errors=[item]
        )


class TableVersionError(GameServiceError):
    """The version a seat sent is not the table's (``current``)."""

    status, slug, title = 409, "version-moved", "Version moved"

    def __init__(self, sent: int, current: int) -> None:
        message = f"the table is at version {current}, not {sent}: read the view again"
        item = _item("version_moved", f"the table is at version {current}", "/version")
        super().__init__(message, detail=_sentence(message), version=current, errors=[item])


class TableFinishedError(GameServiceError):
    """The table's game is over."""

    status, slug, title = 409, "table-finished", "Table finished"

    def __init__(self, table_id: int) -> None:
        message = f"table {table_id} is finished: its game is over"
        super().__init__(message, detail=_sentence(message), errors=[_item("table_finished", message)])


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
        if not in_play:
            self.status, self.title = 404, "Round not found"
            message = f"table {table_id} has played no round {number}"
            super().__init__(message, detail=_sentence(message))
            return
        self.status, self.slug, self.title = 409, "round-in-play", "Round in play"
        message = f"round {number} of table {table_id} is still in play"
        item = _item("round_in_play", message, parameter="number")
        super().__init__(message, detail=_sentence(message, ": its log is shown once it ends."), errors=[item])


class ActionRefusedError(GameServiceError):
    """The engine refused a seat's action (``error``: its PlayError or CardError): a 422 of the
    engine error's type, whose pointers lead into the body's ``action`` (a turn that is not the
    seat's names the Seat-Token, which says the seat)."""

    status = 422

    def __init__(self, error: HandFootError) -> None:
        items = [
            _item(p.code, p.detail, parameter="Seat-Token")
            if p.code == "not_your_turn"
            else _item(p.code, p.detail, json_pointer(("action", *p.path)))
            for p in error.problems
        ]
        super().__init__(str(error), detail="; ".join(p.detail for p in error.problems), errors=items)
        self.error = error
        self.slug, self.title = error.slug, error.title
