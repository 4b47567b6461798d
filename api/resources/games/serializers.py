"""Documents of the games resource, built from the services' rows: what ``schemas.py`` documents."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import flask
from flask_smorest import Blueprint as SmorestBlueprint

from handfoot.server.idempotency import Answer
from handfoot.server.models import Game, Round, RoundRevision
from handfoot.server.services.games import GameColumns, side_names
from handfoot.server.services.rounds import Appended, AppendedRound, WrittenGame

from .schemas import GameSchema, RoundSchema


def iso(value: datetime | None) -> str | None:
    """A stored timestamp (aware, UTC: ``models.UTCDateTime``) as the answers write it (ISO 8601)."""
    return None if value is None else value.isoformat()


def _totals(names: list[str], values: list[int]) -> list[dict[str, Any]]:
    return [{"name": n, "total": t} for n, t in zip(names, values, strict=True)]


def round_members(sides: list[str], running: list[list[int]], rnd: Round | AppendedRound) -> dict[str, Any]:
    """A round's members for ``RoundSchema`` (timestamps as datetimes)."""
    after = running[rnd.number - 1] if rnd.number <= len(running) else [0] * len(sides)
    return {
        "number": rnd.number,
        "revision": rnd.revision,
        "request": rnd.request,
        "teams": rnd.teams,
        "totals_after": _totals(sides, after),
        "created_at": rnd.created_at,
        "updated_at": rnd.updated_at,
    }


def round_doc(game: Game, rnd: Round) -> dict[str, Any]:
    return round_members(side_names(game), game.state["running"], rnd)


def round_answer(appended: Appended) -> dict[str, Any]:
    """The answer to an append as JSON-ready data: what ``RoundSchema().dump(round_members(...))`` gives,
    without marshmallow walking the Breakdowns (docs/performance.md)."""
    game, rnd = appended
    doc = round_members(game.sides, game.state["running"], rnd)
    doc["request"] = dict(rnd.request)
    doc["created_at"] = iso(rnd.created_at)
    doc["updated_at"] = iso(rnd.updated_at)
    return doc


def summary_doc(game: GameColumns) -> dict[str, Any]:
    state = game.state
    return {
        "id": game.id,
        "name": game.name,
        "preset": game.preset,
        "status": state["status"],
        "teams": game.teams,
        "totals": state["totals"],
        "leaders": state["leaders"],
        "winner": state["winner"],
        "tie": state["tie"],
        "rounds_played": state["rounds_played"],
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }


def round_scores(running: list[list[int]]) -> list[list[int]]:
    """Each round's scores (points, side order) from the running totals after each round
    (``games.state["running"]``), which are their sums: the score sheet without reading a round."""
    before = [0] * len(running[0]) if running else []
    scores = []
    for after in running:
        scores.append([a - b for a, b in zip(after, before, strict=True)])
        before = after
    return scores


def round_summaries(game: GameColumns, numbers: Sequence[tuple[int, int]] | None = None) -> list[dict[str, Any]]:
    """``RoundSummarySchema`` of each round: scores and totals from the game's state; of the round
    rows only ``number`` and ``revision`` are read: ``numbers`` (``read_game``, the export), else the
    game's loaded rounds (``get_game(..., rounds="numbers")``, a mapped ``Game``)."""
    if numbers is None:
        assert isinstance(game, Game), "a game's plain columns come with their round numbers"
        numbers = [(r.number, r.revision) for r in game.rounds]
    sides = side_names(game)
    running = game.state["running"]
    scores = round_scores(running)
    # one URL built by the router, its siblings from it: one url_for a read, not one a round
    first = round_location(game.id, 1)
    prefix = first[: -len("1")]
    return [
        {
            "number": number,
            "revision": revision,
            "scores": _totals(sides, scores[number - 1]),
            "totals_after": _totals(sides, running[number - 1]),
            "href": f"{prefix}{number}",
        }
        for number, revision in numbers
    ]


def game_doc(game: GameColumns, numbers: Sequence[tuple[int, int]] | None = None) -> dict[str, Any]:
    """``GameSchema``'s members; ``numbers``: each round's number and revision, else the game's
    rounds must be loaded (their numbers and revisions at least)."""
    state = game.state
    return {
        **summary_doc(game),
        "rules": game.rules_snapshot,
        "rules_overridden": game.rules_overridden,
        "house_rules": game.house_rules,
        "next_round": state["next_round"],
        "next_opening_minimum": state["next_opening_minimum"],
        "next_opening_minimums": state["next_opening_minimums"],
        "next_contract": state["next_contract"],
        "end_reason": state["end_reason"],
        "rounds": round_summaries(game, numbers),
        "version": game.version,
    }


def game_answer(game: Game, numbers: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """A game read's answer as JSON-ready data: what ``GameSchema().dump(game_doc(...))`` gives, without
    marshmallow walking every round."""
    doc = game_doc(game, numbers)
    doc["created_at"] = iso(game.created_at)
    doc["updated_at"] = iso(game.updated_at)
    return doc


def revisions_doc(rnd: Round, revisions: list[RoundRevision], *, with_current: bool) -> list[dict[str, Any]]:
    """A page of the audit trail, oldest first: earlier revisions, then (``with_current``: the page
    reaches the end of the trail) the round as it stands."""

    def entry(r: Round | RoundRevision, created_at: datetime, replaced_at: datetime | None) -> dict[str, Any]:
        return {
            "revision": r.revision,
            "current": replaced_at is None,
            "request": r.request,
            "teams": r.teams,
            "created_at": created_at,
            "replaced_at": replaced_at,
            "author": r.author,
        }

    earlier = [entry(r, r.created_at, r.replaced_at) for r in revisions]
    return [*earlier, entry(rnd, rnd.updated_at, None)] if with_current else earlier


def scoresheet(game: Game) -> dict[str, Any]:
    """``ScoresheetSchema``'s members, from the game row alone (its stored running totals)."""
    state = game.state
    running = state["running"]
    rows = [
        {"round": k, "scores": scores, "totals": running[k - 1]}
        for k, scores in enumerate(round_scores(running), start=1)
    ]
    return {
        "game_id": game.id,
        "name": game.name,
        "teams": side_names(game),
        "rows": rows,
        "totals": [t["total"] for t in state["totals"]],
        "status": state["status"],
        "leaders": state["leaders"],
        "winner": state["winner"],
        "tie": state["tie"],
    }


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"; ``|`` starts a DDE
#: call in some): looked for after any leading whitespace, and in full-width forms too (U+FF1D is ``=``).
FORMULA_STARTS = ("=", "+", "-", "@", "|")


def csv_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs: text whose start, or whose part after any ``;``, starts
    with a tab or a carriage return, or whose first character past any whitespace (a no-break space
    too), read as NFKC (U+FF1D is ``=``), is one of :data:`FORMULA_STARTS`, gets a ``'`` there
    (OWASP's advice). A ``;`` counts because a spreadsheet whose list separator it is splits the
    line there, quotes or not, and starts a cell with what follows. Numbers (negative scores too)
    and other text are unchanged."""
    if not isinstance(value, str):
        return value
    return ";".join(_guarded(part) for part in value.split(";"))


def _guarded(text: str) -> str:
    """``text`` as the start of a cell: with a leading ``'`` when a spreadsheet would run it."""
    seen = unicodedata.normalize("NFKC", text).lstrip()
    return "'" + text if text.startswith(("\t", "\r")) or seen.startswith(FORMULA_STARTS) else text


class CSVWriter:
    """``csv.writer`` for files a spreadsheet opens: every text cell neutralised (:func:`csv_cell`)
    and quoted (``QUOTE_NONNUMERIC``), so a ``;`` or ``,`` in a name never splits it whatever list
    separator the spreadsheet uses; numbers are written bare."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([csv_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def scoresheet_csv(sheet: Mapping[str, Any]) -> str:
    """A header ``round,<side>,<side> total,...`` and one line per round, written by
    :class:`CSVWriter` (text quoted and neutralised; the JSON score sheet keeps names exact)."""
    out = io.StringIO()
    writer = CSVWriter(out)
    writer.writerow(["round", *(c for name in sheet["teams"] for c in (name, f"{name} total"))])
    for row in sheet["rows"]:
        writer.writerow([row["round"], *(v for pair in zip(row["scores"], row["totals"], strict=True) for v in pair)])
    return out.getvalue()


# --------------------------------------------------------------------------------------------
# ETags, locations, and the answers stored with an Idempotency-Key


def game_etag(game: Game) -> dict[str, int]:
    return game_version_etag(game.id, game.version)


def game_version_etag(game_id: int, version: int) -> dict[str, int]:
    """The ETag of game ``game_id`` at ``version`` (a deletion's repeat checks the one before it)."""
    return {"game": game_id, "version": version}


def round_etag(game_id: int, rnd: Round | AppendedRound) -> dict[str, int]:
    return round_etag_at(game_id, rnd.number, rnd.revision)


def round_etag_at(game_id: int, number: int, revision: int) -> dict[str, int]:
    """The ETag of round ``number`` at ``revision`` (a correction's repeat checks the one before)."""
    return {"game": game_id, "round": number, "revision": revision}


def game_location(game_id: int) -> str:
    return flask.url_for("Games.GameItem", game_id=game_id)


def round_location(game_id: int, number: int) -> str:
    return flask.url_for("Games.RoundItem", game_id=game_id, number=number)


def _etag_header(data: Any) -> str:
    return f'"{SmorestBlueprint._generate_etag(data)}"'  # the value flask-smorest's set_etag sends


def created_game_answer(game: Game) -> Answer:
    """The 201 of a game creation, as stored with its Idempotency-Key (the game dumped through
    ``GameSchema``, as the route's answer is)."""
    return Answer(
        201,
        {"Location": game_location(game.id), "ETag": _etag_header(game_etag(game))},
        GameSchema().dump(game_doc(game)),
    )


def corrected_round_answer(corrected: tuple[WrittenGame, Round]) -> Answer:
    """The 200 of a correction, as stored with its Idempotency-Key (the round dumped through
    ``RoundSchema``, as the route's answer is)."""
    game, rnd = corrected
    body = RoundSchema().dump(round_members(game.sides, game.state["running"], rnd))
    return Answer(200, {"ETag": _etag_header(round_etag(game.id, rnd))}, body)


def appended_round_answer(appended: Appended) -> Answer:
    """The 201 of an append, as stored with its Idempotency-Key."""
    game, rnd = appended
    return Answer(
        201,
        {"Location": round_location(game.id, rnd.number), "ETag": _etag_header(round_etag(game.id, rnd))},
        round_answer(appended),
    )
