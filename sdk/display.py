"""How results look: every ``__str__`` (small text tables) and ``_repr_html_`` (Jupyter) in one place.

The result types (``handfoot.types``) bind these functions as their methods, so a result prints
the same wherever it is shown. Numbers are points unless said otherwise; text output groups
thousands (``3,740``), and HTML escapes every string that came from a user or the server.
``score_plain`` is the ``handfoot score`` command's output: integers without separators.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .types.checks import Books, DiscardPileCheck, GoingOutCheck, MeldCheck, OpeningCheck
    from .types.games import Game, GameSummary, GameTeam, Revision, Round, Scoresheet, TeamTotal
    from .types.health import Health
    from .types.presets import Preset, PresetSummary, Provenance, RuleField
    from .types.problems import ProblemDetails, ProblemItem
    from .types.rounds import Breakdown, Comparison, Line, RoundComparison, RoundScore

__all__ = ["html_table", "score_plain", "text_table"]


# --------------------------------------------------------------------------- building blocks


def _int(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def _value(value: object) -> str:
    """A rule value as JSON (``[50, 90]``, ``{"JK": 50}``); strings as they are."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def text_table(rows: Sequence[Sequence[str]], right: Sequence[bool], indent: str = "") -> str:
    """Rows as aligned columns (``right[i]``: right-align column i); columns empty in every row
    are left out."""
    columns = [i for i in range(len(right)) if any(row[i] for row in rows)]
    widths = {i: max(len(row[i]) for row in rows) for i in columns}
    out = []
    for row in rows:
        cells = [row[i].rjust(widths[i]) if right[i] else row[i].ljust(widths[i]) for i in columns]
        out.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(out)


def html_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    numeric: Sequence[bool] = (),
    footer: Sequence[str] | None = None,
) -> str:
    """An HTML ``<table>``; every cell and the caption are escaped."""

    def cells(tag: str, values: Sequence[str]) -> str:
        parts = []
        for i, v in enumerate(values):
            style = ' style="text-align:right"' if i < len(numeric) and numeric[i] else ""
            parts.append(f"<{tag}{style}>{html.escape(v)}</{tag}>")
        return "<tr>" + "".join(parts) + "</tr>"

    out = ["<table>"]
    if caption is not None:
        out.append(f"<caption>{html.escape(caption)}</caption>")
    out.append("<thead>" + cells("th", header) + "</thead>")
    out.append("<tbody>" + "".join(cells("td", row) for row in rows) + "</tbody>")
    if footer is not None:
        out.append("<tfoot>" + cells("th", footer) + "</tfoot>")
    out.append("</table>")
    return "".join(out)


def _problem_lines(problems: Sequence[ProblemItem]) -> list[str]:
    return [f"  - {p}" for p in problems]


def _check_html(caption: str, rows: Sequence[tuple[str, str]], problems: Sequence[ProblemItem]) -> str:
    out = html_table(("", ""), rows, caption=caption)
    if problems:
        problem_rows = [(p.location, p.code, p.detail) for p in problems]
        out += html_table(("where", "code", "rule broken"), problem_rows, caption="Problems")
    return f"<div>{out}</div>"


def _with_problems(head: str, problems: Sequence[ProblemItem]) -> str:
    return "\n".join([head, *_problem_lines(problems)])


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


# --------------------------------------------------------------------------- problems and health


def problem_item_text(item: ProblemItem) -> str:
    text = f"{item.location}: {item.detail}" if item.location else item.detail
    return f"{text} [{item.code}]" if item.code else text


def problem_text(problem: ProblemDetails) -> str:
    head = f"{problem.status} {problem.title}"
    if problem.detail and problem.detail != problem.title:
        head += f": {problem.detail}"
    return _with_problems(head, problem.errors)


def health_text(health: Health) -> str:
    return f"status {health.status}, database {health.database}"


def health_html(health: Health) -> str:
    return html_table(("status", "database"), [(health.status, health.database)])


# --------------------------------------------------------------------------- presets


def preset_summary_text(preset: PresetSummary) -> str:
    head = f"{preset.id}: {preset.name}" + (f" ({preset.source})" if preset.source else "")
    return f"{head} - {preset.summary}" if preset.summary else head


def preset_summary_html(preset: PresetSummary) -> str:
    return html_table(("id", "name", "source", "summary"), [(preset.id, preset.name, preset.source, preset.summary)])


def provenance_text(provenance: Provenance) -> str:
    text = f"{provenance.kind}: {provenance.source}" if provenance.source else provenance.kind
    return f"{text} ({provenance.note})" if provenance.note else text


def rule_field_text(rule: RuleField) -> str:
    text = f"{rule.name} = {_value(rule.value)}"
    return f"{text}  ({rule.description})" if rule.description else text


def _preset_rows(preset: Preset) -> list[tuple[str, str, str, str, str]]:
    rows: list[tuple[str, str, str, str, str]] = []
    for key, value in preset.rules.items():
        p = preset.provenance.get(key)
        rows.append((key, _value(value), p.kind if p else "", p.source if p else "", p.note if p else ""))
    return rows


def preset_text(preset: Preset) -> str:
    lines = [f"{preset.name} ({preset.id})" + (f" - {preset.source}" if preset.source else "")]
    if preset.summary:
        lines.append(preset.summary)
    rows = [
        (key, value, f"[{kind}: {source}]" if source else (f"[{kind}]" if kind else ""))
        for key, value, kind, source, _note in _preset_rows(preset)
    ]
    if rows:
        lines.append(text_table(rows, (False, False, False), indent="  "))
    return "\n".join(lines)


def preset_html(preset: Preset) -> str:
    caption = f"{preset.name} ({preset.id})" + (f" - {preset.summary}" if preset.summary else "")
    return html_table(("rule", "value", "provenance", "source", "note"), _preset_rows(preset), caption=caption)


# --------------------------------------------------------------------------- scoring


def _line_cells(line: Line) -> tuple[str, str, str, str]:
    each = "" if line.points_each is None else f"x {_int(line.points_each)}"
    return (line.label, _int(line.count), each, _int(line.points))


def line_text(line: Line) -> str:
    label, count, each, points = _line_cells(line)
    middle = " ".join(p for p in (count, each) if p)
    return f"{label}: {middle} = {points}" if middle else f"{label}: {points}"


def breakdown_text(team: Breakdown) -> str:
    rows = [_line_cells(line) for line in team.lines]
    rows.append(("Total", "", "", _int(team.total)))
    return f"{team.name}\n{text_table(rows, (False, True, True, True), indent='  ')}"


def breakdown_html(team: Breakdown) -> str:
    rows = [(line.label, _int(line.count), _int(line.points_each), _int(line.points)) for line in team.lines]
    return html_table(
        ("item", "count", "each", "points"),
        rows,
        caption=team.name,
        numeric=(False, True, True, True),
        footer=("Total", "", "", _int(team.total)),
    )


def round_score_text(score: RoundScore) -> str:
    return "\n\n".join([f"Round {score.round} ({score.preset})", *(str(team) for team in score.teams)])


def round_score_html(score: RoundScore) -> str:
    head = f"<p><strong>{html.escape(f'Round {score.round} ({score.preset})')}</strong></p>"
    return "<div>" + head + "".join(breakdown_html(team) for team in score.teams) + "</div>"


def score_plain(score: RoundScore) -> str:
    """A round's breakdowns as plain tables, integers without separators (easy to grep)."""

    def num(value: int | None) -> str:
        return "" if value is None else str(value)

    head = f"Round {score.round} ({score.preset})"
    if score.rules_overridden:
        head += f", house rules: {', '.join(score.rules_overridden)}"
    parts = [head]
    for team in score.teams:
        rows = [("item", "count", "each", "points")]
        rows.extend((line.label, num(line.count), num(line.points_each), str(line.points)) for line in team.lines)
        rows.append(("Total", "", "", str(team.total)))
        parts.append(f"{team.name}\n{text_table(rows, (False, True, True, True))}")
    parts.append("\n".join(f"{team.name}: {team.total}" for team in score.teams))
    return "\n\n".join(parts) + "\n"


def comparison_text(result: Comparison) -> str:
    if result.teams is None:
        return _with_problems(f"{result.preset}: not legal under these rules", result.problems)
    return f"{result.preset}: " + ", ".join(f"{t.name} {_int(t.total)}" for t in result.teams)


def _comparison_rows(comparison: RoundComparison) -> tuple[list[str], list[tuple[str, ...]]]:
    names: list[str] = []
    for result in comparison.results:
        for team in result.teams or ():
            if team.name not in names:
                names.append(team.name)
    rows = []
    for result in comparison.results:
        totals = result.totals
        if totals is None:
            codes = ", ".join(sorted({p.code for p in result.problems}))
            rows.append((result.preset, *("" for _ in names), f"not legal: {codes}"))
        else:
            rows.append((result.preset, *(_int(totals.get(n)) for n in names), ""))
    return names, rows


def round_comparison_text(comparison: RoundComparison) -> str:
    names, rows = _comparison_rows(comparison)
    table = text_table([("preset", *names, ""), *rows], (False, *(True for _ in names), False), indent="  ")
    lines = [f"Round {comparison.round} under {len(comparison.results)} presets", table]
    for result in comparison.results:
        if not result.valid:
            lines.append(f"{result.preset}:")
            lines.extend("  " + line for line in _problem_lines(result.problems))
    return "\n".join(lines)


def round_comparison_html(comparison: RoundComparison) -> str:
    names, rows = _comparison_rows(comparison)
    return html_table(
        ("preset", *names, "problems"),
        rows,
        caption=f"Round {comparison.round} under {len(comparison.results)} presets",
        numeric=(False, *(True for _ in names), False),
    )


# --------------------------------------------------------------------------- checks


def _meld_summary(check: MeldCheck) -> str:
    rank = f" of {check.rank}s" if check.rank else ""
    book = "a complete book" if check.complete else "not a book yet"
    return (
        f"{check.kind or 'mixed'} meld{rank}: {check.size} cards ({check.naturals} natural, {check.wilds} wild), "
        f"{_int(check.points)} points, {book}"
    )


def meld_check_text(check: MeldCheck) -> str:
    return _with_problems(("valid " if check.valid else "INVALID ") + _meld_summary(check), check.problems)


def meld_check_html(check: MeldCheck) -> str:
    rows = [
        ("valid", _yes_no(check.valid)),
        ("kind", check.kind or "mixed"),
        ("rank", check.rank or ""),
        ("complete (a book)", _yes_no(check.complete)),
        ("cards", f"{check.size} ({check.naturals} natural, {check.wilds} wild)"),
        ("points", _int(check.points)),
    ]
    return _check_html("Meld check", rows, check.problems)


def opening_check_text(check: OpeningCheck) -> str:
    head = f"opening {'met' if check.met else 'NOT met'}: {_int(check.points)} of {_int(check.minimum)} points"
    return _with_problems(head, check.problems)


def opening_check_html(check: OpeningCheck) -> str:
    rows = [("met", _yes_no(check.met)), ("points", _int(check.points)), ("minimum", _int(check.minimum))]
    return _check_html("Opening check", rows, check.problems)


def books_text(books: Books) -> str:
    return f"{books.clean_books} clean, {books.dirty_books} dirty, {books.wild_books} wild"


def going_out_check_text(check: GoingOutCheck) -> str:
    head = f"may go out: {_yes_no(check.met)}; books {check.books}"
    if check.contract is not None:
        head += f"; contract {check.contract}"
    if check.missing.total:
        head += f"; missing {check.missing}"
    return _with_problems(head, check.problems)


def going_out_check_html(check: GoingOutCheck) -> str:
    rows = [("may go out", _yes_no(check.met)), ("books", str(check.books))]
    if check.contract is not None:
        rows.append(("contract", str(check.contract)))
    rows.append(("missing", str(check.missing)))
    return _check_html("Going-out check", rows, check.problems)


def discard_pile_check_text(check: DiscardPileCheck) -> str:
    return _with_problems(f"may take the pile: {_yes_no(check.allowed)} ({check.cards} cards)", check.problems)


def discard_pile_check_html(check: DiscardPileCheck) -> str:
    rows = [("may take the pile", _yes_no(check.allowed)), ("cards", str(check.cards))]
    return _check_html("Discard-pile check", rows, check.problems)


# --------------------------------------------------------------------------- games


def team_total_text(total: TeamTotal) -> str:
    return f"{total.name} {_int(total.total)}"


def game_team_text(team: GameTeam) -> str:
    return f"{team.name} ({', '.join(team.players)})" if team.players else team.name


def _round_head(r: Round) -> str:
    return f"Round {r.number}" + (f" (revision {r.revision})" if r.revision > 1 else "")


def round_text(r: Round) -> str:
    parts = [_round_head(r), *(str(team) for team in r.teams)]
    if r.totals_after:
        parts.append(f"Running totals: {_totals(r.totals_after)}")
    return "\n\n".join(parts)


def round_html(r: Round) -> str:
    out = [f"<p><strong>{html.escape(_round_head(r))}</strong></p>"]
    out.extend(breakdown_html(team) for team in r.teams)
    if r.totals_after:
        out.append(f"<p>{html.escape('Running totals: ' + _totals(r.totals_after))}</p>")
    return "<div>" + "".join(out) + "</div>"


def _summary_outcome(game: GameSummary) -> str:
    return _outcome(game.status, game.leaders, game.winner, game.tie, None)


def game_summary_text(game: GameSummary) -> str:
    rounds = f"{game.rounds_played} round{'s' if game.rounds_played != 1 else ''}"
    totals = _totals(game.totals) or ", ".join(t.name for t in game.teams)
    return f"#{game.id} {game.name} ({game.preset}, {rounds}): {totals} - {_summary_outcome(game)}"


def game_summary_html(game: GameSummary) -> str:
    row = (str(game.id), game.name, game.preset, str(game.rounds_played), _totals(game.totals), _summary_outcome(game))
    return html_table(("id", "name", "preset", "rounds", "totals", "status"), [row])


def _sheet_rows(game: Game) -> list[tuple[str, ...]]:
    names = [t.name for t in game.teams]
    rows: list[tuple[str, ...]] = []
    for r in game.rounds:
        scores = r.totals
        after = {t.name: t.total for t in r.totals_after}
        rows.append((str(r.number), *(f"{_int(scores.get(n))} ({_int(after.get(n))})" for n in names)))
    return rows


def _game_outcome(game: Game) -> str:
    return _outcome(game.status, game.leaders, game.winner, game.tie, game.end_reason)


def game_text(game: Game) -> str:
    lines = [f"Game #{game.id} {game.name} ({game.preset})".rstrip()]
    if game.house_rules:
        lines.append("house rules: " + ", ".join(f"{k}={_value(v)}" for k, v in game.house_rules.items()))
    lines.append("sides: " + "; ".join(str(t) for t in game.teams))
    if game.rounds:
        header = ("round", *(t.name for t in game.teams))
        lines.append(text_table([header, *_sheet_rows(game)], (True, *(True for _ in game.teams)), "  "))
    lines.append("totals: " + (_totals(game.totals) or "-"))
    lines.append(_game_outcome(game))
    if game.next_round is not None:
        text = f"next: round {game.next_round}"
        if game.next_opening_minimum is not None:
            text += f", opening minimum {_int(game.next_opening_minimum)}"
        if game.next_contract is not None:
            text += f", contract {game.next_contract}"
        lines.append(text)
    return "\n".join(lines)


def game_html(game: Game) -> str:
    names = [t.name for t in game.teams]
    totals = {t.name: t.total for t in game.totals}
    return html_table(
        ("round", *names),
        _sheet_rows(game),
        caption=f"Game #{game.id} {game.name} ({game.preset}) - {_game_outcome(game)}",
        numeric=(True, *(True for _ in names)),
        footer=("total", *(_int(totals.get(n)) for n in names)),
    )


def revision_text(revision: Revision) -> str:
    if revision.current:
        state = "current"
    elif revision.replaced_at is not None:
        state = f"replaced {revision.replaced_at:%Y-%m-%d %H:%M}"
    else:
        state = "replaced"
    by = f" by {revision.author}" if revision.author else ""
    totals = ", ".join(f"{t.name} {_int(t.total)}" for t in revision.teams)
    return f"revision {revision.revision} ({state}{by}): {totals}"


def revision_html(revision: Revision) -> str:
    row = (
        str(revision.revision),
        _yes_no(revision.current),
        revision.author or "",
        "" if revision.created_at is None else revision.created_at.isoformat(),
        "" if revision.replaced_at is None else revision.replaced_at.isoformat(),
        *(_int(t.total) for t in revision.teams),
    )
    header = ("revision", "current", "author", "created", "replaced", *(t.name for t in revision.teams))
    return html_table(header, [row])


def _sheet_cells(sheet: Scoresheet) -> list[tuple[str, ...]]:
    return [tuple(_int(v) for v in row.values()) for row in sheet.rows()]


def _sheet_outcome(sheet: Scoresheet) -> str:
    return _outcome(sheet.status or "in_progress", sheet.leaders, sheet.winner, sheet.tie, None)


def scoresheet_text(sheet: Scoresheet) -> str:
    cols = sheet.columns()
    lines = [f"Score sheet of game #{sheet.game_id} {sheet.name}".rstrip()]
    lines.append(text_table([tuple(cols), *_sheet_cells(sheet)], [True] * len(cols), "  "))
    if sheet.status:
        lines.append(_sheet_outcome(sheet))
    return "\n".join(lines)


def scoresheet_html(sheet: Scoresheet) -> str:
    cols = sheet.columns()
    caption = f"Game #{sheet.game_id} {sheet.name}" + (f" - {_sheet_outcome(sheet)}" if sheet.status else "")
    return html_table(cols, _sheet_cells(sheet), caption=caption, numeric=[True] * len(cols))
