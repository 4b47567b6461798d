"""How statistics across games print: a table of players, then one of sides."""

from __future__ import annotations

from collections.abc import Sequence

from ..types import PlayerStatistics, SideStatistics, Statistics
from ._blocks import fmt_int, html_of, html_table, text_of, text_table

_HEADER = ("", "games", "wins", "rounds", "average", "best", "went out", "clean", "dirty", "wild")
_RIGHT = (False, *([True] * (len(_HEADER) - 1)))


def _average(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def _cells(label: str, f: PlayerStatistics | SideStatistics) -> list[str]:
    return [
        label,
        str(f.games),
        str(f.wins),
        str(f.rounds),
        _average(f.average_round),
        "-" if f.best_round is None else fmt_int(f.best_round),
        str(f.went_out),
        *(str(f.books.get(kind, 0)) for kind in ("clean", "dirty", "wild")),
    ]


def _tables(stats: Statistics) -> tuple[list[list[str]], list[list[str]]]:
    players = [_cells(p.name, p) for p in stats.players]
    sides = [_cells(" & ".join(s.players), s) for s in stats.sides]
    return players, sides


def _head(stats: Statistics) -> str:
    games, rounds = stats.games, stats.rounds
    return f"{games} game{'s' if games != 1 else ''}, {rounds} round{'s' if rounds != 1 else ''}"


def _text(title: str, rows: Sequence[Sequence[str]]) -> str:
    return text_table([[title, *_HEADER[1:]], *rows], _RIGHT)


@text_of(Statistics)
def statistics_text(stats: Statistics) -> str:
    players, sides = _tables(stats)
    return "\n\n".join([_head(stats), _text("player", players), _text("side", sides)])


@html_of(Statistics)
def statistics_html(stats: Statistics) -> str:
    players, sides = _tables(stats)
    return (
        "<div>"
        + html_table(["player", *_HEADER[1:]], players, caption=_head(stats), numeric=_RIGHT)
        + html_table(["side", *_HEADER[1:]], sides, numeric=_RIGHT)
        + "</div>"
    )
