"""How stored games, rounds, revisions and score sheets print."""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..types import (
    Game,
    GameSummary,
    GameTeam,
    Revision,
    Round,
    RoundSummary,
    Scoresheet,
    TeamTotal,
)
from ._blocks import fmt_int, fmt_value, html_of, html_table, text_of, text_table, yes_no
from .scoring import breakdown_html


def _totals(totals: Sequence[TeamTotal]) -> str:
    return ", ".join(str(t) for t in totals)


def _outcome(status: str, leaders: Sequence[str], winner: str | None, tie: bool, end_reason: str | None) -> str:
    """``in progress: Us leads``, ``finished: Us won (rounds)``, ``tiebreaker: tie between ...``."""
    if winner is not None:
        text = f"{winner} won"
    elif tie:
        text = f"tie between {' and '.join(leaders)}"
    elif leaders:
        text = f"{' and '.join(leaders)} {'lead' if len(leaders) > 1 else 'leads'}"
    else:
        text = "no rounds yet"
    text = f"{status.replace('_', ' ')}: {text}"
    return f"{text} ({end_reason})" if end_reason else text


@text_of(TeamTotal)
def team_total_text(total: TeamTotal) -> str:
    return f"{total.name} {fmt_int(total.total)}"


@text_of(GameTeam)
def game_team_text(team: GameTeam) -> str:
    return f"{team.name} ({', '.join(team.players)})" if team.players else team.name


def _round_head(r: Round | RoundSummary) -> str:
    return f"Round {r.number}" + (f" (revision {r.revision})" if r.revision > 1 else "")


@text_of(Round)
def round_text(r: Round) -> str:
    parts = [_round_head(r), *(str(team) for team in r.teams)]
    if r.totals_after:
        parts.append(f"Running totals: {_totals(r.totals_after)}")
    return "\n\n".join(parts)


@html_of(Round)
def round_html(r: Round) -> str:
    out = [f"<p><strong>{html.escape(_round_head(r))}</strong></p>"]
    out.extend(breakdown_html(team) for team in r.teams)
    if r.totals_after:
        out.append(f"<p>{html.escape('Running totals: ' + _totals(r.totals_after))}</p>")
    return "<div>" + "".join(out) + "</div>"


@text_of(RoundSummary)
def round_summary_text(r: RoundSummary) -> str:
    return f"{_round_head(r)}: {_totals(r.scores)}; running totals: {_totals(r.totals_after)}"


@html_of(RoundSummary)
def round_summary_html(r: RoundSummary) -> str:
    names = [t.name for t in r.scores]
    after = {t.name: t.total for t in r.totals_after}
    row = (str(r.number), *(f"{fmt_int(t.total)} ({fmt_int(after.get(t.name))})" for t in r.scores))
    return html_table(("round", *names), [row], caption=_round_head(r), numeric=(True, *(True for _ in names)))


def _summary_outcome(game: GameSummary) -> str:
    return _outcome(game.status, game.leaders, game.winner, game.tie, None)


@text_of(GameSummary)
def game_summary_text(game: GameSummary) -> str:
    rounds = f"{game.rounds_played} round{'s' if game.rounds_played != 1 else ''}"
    totals = _totals(game.totals) or ", ".join(t.name for t in game.teams)
    return f"#{game.id} {game.name} ({game.preset}, {rounds}): {totals} - {_summary_outcome(game)}"


@html_of(GameSummary)
def game_summary_html(game: GameSummary) -> str:
    row = (str(game.id), game.name, game.preset, str(game.rounds_played), _totals(game.totals), _summary_outcome(game))
    return html_table(("id", "name", "preset", "rounds", "totals", "status"), [row])


def _sheet_rows(game: Game) -> list[tuple[str, ...]]:
    names = [t.name for t in game.teams]
    rows: list[tuple[str, ...]] = []
    for r in game.rounds:
        scores = r.totals
        after = {t.name: t.total for t in r.totals_after}
        rows.append((str(r.number), *(f"{fmt_int(scores.get(n))} ({fmt_int(after.get(n))})" for n in names)))
    return rows


def _game_outcome(game: Game) -> str:
    return _outcome(game.status, game.leaders, game.winner, game.tie, game.end_reason)


@text_of(Game)
def game_text(game: Game) -> str:
    lines = [f"Game #{game.id} {game.name} ({game.preset})".rstrip()]
    if game.house_rules:
        lines.append("house rules: " + ", ".join(f"{k}={fmt_value(v)}" for k, v in game.house_rules.items()))
    lines.append("sides: " + "; ".join(str(t) for t in game.teams))
    if game.rounds:
        header = ("round", *(t.name for t in game.teams))
        lines.append(text_table([header, *_sheet_rows(game)], (True, *(True for _ in game.teams)), "  "))
    lines.append("totals: " + (_totals(game.totals) or "-"))
    lines.append(_game_outcome(game))
    if game.next_round is not None:
        text = f"next: round {game.next_round}"
        if game.next_opening_minimum is not None:
            text += f", opening minimum {fmt_int(game.next_opening_minimum)}"
        if game.next_contract is not None:
            text += f", contract {game.next_contract}"
        lines.append(text)
    return "\n".join(lines)


@html_of(Game)
def game_html(game: Game) -> str:
    names = [t.name for t in game.teams]
    totals = {t.name: t.total for t in game.totals}
    return html_table(
        ("round", *names),
        _sheet_rows(game),
        caption=f"Game #{game.id} {game.name} ({game.preset}) - {_game_outcome(game)}",
        numeric=(True, *(True for _ in names)),
        footer=("total", *(fmt_int(totals.get(n)) for n in names)),
    )


@text_of(Revision)
def revision_text(revision: Revision) -> str:
    if revision.current:
        state = "current"
    elif revision.replaced_at is not None:
        state = f"replaced {revision.replaced_at:%Y-%m-%d %H:%M}"
    else:
        state = "replaced"
    by = f" by {revision.author}" if revision.author else ""
    totals = ", ".join(f"{t.name} {fmt_int(t.total)}" for t in revision.teams)
    return f"revision {revision.revision} ({state}{by}): {totals}"


@html_of(Revision)
def revision_html(revision: Revision) -> str:
    row = (
        str(revision.revision),
        yes_no(revision.current),
        revision.author or "",
        revision.created_at.isoformat(),
        "" if revision.replaced_at is None else revision.replaced_at.isoformat(),
        *(fmt_int(t.total) for t in revision.teams),
    )
    header = ("revision", "current", "author", "created", "replaced", *(t.name for t in revision.teams))
    return html_table(header, [row])


def _sheet_cells(sheet: Scoresheet) -> list[tuple[str, ...]]:
    return [tuple(fmt_int(v) for v in row.values()) for row in sheet.rows()]


def _sheet_outcome(sheet: Scoresheet) -> str:
    return _outcome(sheet.status or "in_progress", sheet.leaders, sheet.winner, sheet.tie, None)


@text_of(Scoresheet)
def scoresheet_text(sheet: Scoresheet) -> str:
    cols = sheet.columns()
    lines = [f"Score sheet of game #{sheet.game_id} {sheet.name}".rstrip()]
    lines.append(text_table([tuple(cols), *_sheet_cells(sheet)], [True] * len(cols), "  "))
    if sheet.status:
        lines.append(_sheet_outcome(sheet))
    return "\n".join(lines)


@html_of(Scoresheet)
def scoresheet_html(sheet: Scoresheet) -> str:
    cols = sheet.columns()
    caption = f"Game #{sheet.game_id} {sheet.name}" + (f" - {_sheet_outcome(sheet)}" if sheet.status else "")
    return html_table(cols, _sheet_cells(sheet), caption=caption, numeric=[True] * len(cols))
