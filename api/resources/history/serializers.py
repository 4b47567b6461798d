"""Documents of the history resource: the export's lines (NDJSON, CSV) and the statistics.
An NDJSON line is a game as ``GET /v1/games/{id}`` gives it; a CSV row one side in one round,
written as the score sheet's are (``games.serializers.CSVWriter``).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from handfoot.engine import LINE_LABELS
from handfoot.engine.history import BOOK_KINDS, side_round_facts
from handfoot.server.resources.games.serializers import CSVWriter, game_doc, iso
from handfoot.server.services.history import Figures, Statistics, StoredGame

#: Players of a side in one CSV cell, joined by this.
PLAYERS_SEPARATOR = "; "

#: The CSV header: the game, the round, the side, its score and running total, whether it went out
#: and won the game, its books by kind, then each breakdown line's points (empty where the game's
#: rules have no such line).
CSV_COLUMNS: tuple[str, ...] = (
    "game_id",
    "game",
    "preset",
    "game_created_at",
    "game_status",
    "round",
    "side",
    "players",
    "score",
    "total_after",
    "went_out",
    "won_game",
    *(f"{kind}_books" for kind in BOOK_KINDS),
    *(f"{code}_points" for code in LINE_LABELS),
)


def export_doc(game: StoredGame) -> dict[str, Any]:
    """The game as ``GameSchema().dump(game_doc(game))`` gives it (``GET /v1/games/{id}``), JSON-ready
    without marshmallow."""
    doc = game_doc(game, [(r.number, r.revision) for r in game.rounds])
    for key in ("created_at", "updated_at"):
        doc[key] = iso(doc[key])
    return doc


def export_line(game: StoredGame) -> str:
    """One NDJSON line (ending in ``\\n``): the game as ``GET /v1/games/{id}`` gives it."""
    return json.dumps(export_doc(game), ensure_ascii=False, separators=(",", ":")) + "\n"


def ndjson_lines(batches: Iterable[list[StoredGame]]) -> Iterator[str]:
    for batch in batches:
        yield "".join(export_line(game) for game in batch)


def csv_rows(game: StoredGame) -> Iterator[list[Any]]:
    """The CSV rows of one game: per round, one per side, in the game's side order."""
    state = game.state
    winner = state["winner"] if state["status"] == "finished" else None
    created = iso(game.created_at)
    for index, rnd in enumerate(game.rounds):
        after = state["running"][index]
        for side, (team, breakdown) in enumerate(zip(game.teams, rnd.teams, strict=True)):
            facts = side_round_facts(breakdown)
            points = {line["code"]: line["points"] for line in breakdown["lines"]}
            yield [
                game.id,
                game.name,
                game.preset,
                created,
                state["status"],
                rnd.number,
                team["name"],
                PLAYERS_SEPARATOR.join(team["players"]),
                facts.score,
                after[side],
                int(facts.went_out),
                int(winner is not None and winner == team["name"]),
                *(facts.books.get(kind, 0) for kind in BOOK_KINDS),
                *(points.get(code, "") for code in LINE_LABELS),
            ]


def csv_chunks(batches: Iterable[list[StoredGame]]) -> Iterator[str]:
    """The header, then one chunk of rows per batch of games."""
    out = io.StringIO()
    writer = CSVWriter(out)
    writer.writerow(CSV_COLUMNS)
    for batch in batches:
        for game in batch:
            writer.writerows(csv_rows(game))
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    if out.tell():  # no game at all: the header alone
        yield out.getvalue()


def _figures(figures: Figures) -> dict[str, Any]:
    return {
        "names": list(figures.names),
        "games": figures.games,
        "finished": figures.finished,
        "wins": figures.wins,
        "rounds": figures.rounds,
        "points": figures.points,
        "average_round": figures.average_round,
        "best_round": figures.best_round,
        "went_out": figures.went_out,
        "books": dict(figures.books),
    }


def _order(figures: Figures, tiebreak: str) -> tuple[int, int, str]:
    return (-figures.games, -figures.wins, tiebreak)


def statistics_doc(stats: Statistics) -> dict[str, Any]:
    players = sorted(stats.players.items(), key=lambda kv: _order(kv[1], kv[0]))
    sides = sorted(stats.sides.items(), key=lambda kv: _order(kv[1], "\x00".join(kv[0])))
    return {
        "games": stats.games,
        "rounds": stats.rounds,
        "players": [{"name": f.names[-1], **_figures(f)} for _, f in players],
        "sides": [{"players": list(f.players), **_figures(f)} for _, f in sides],
    }
