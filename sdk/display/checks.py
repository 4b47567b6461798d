"""How the answers of the check endpoints print."""

from __future__ import annotations

from collections.abc import Sequence

from ..types import (
    Books,
    DiscardPileCheck,
    GoingOutCheck,
    MeldCheck,
    OpeningCheck,
    ProblemItem,
)
from ._blocks import fmt_int, html_of, html_table, text_of, with_problems, yes_no


def _check_html(caption: str, rows: Sequence[tuple[str, str]], problems: Sequence[ProblemItem]) -> str:
    out = html_table(("", ""), rows, caption=caption)
    if problems:
        problem_rows = [(p.location, p.code, p.detail) for p in problems]
        out += html_table(("where", "code", "rule broken"), problem_rows, caption="Problems")
    return f"<div>{out}</div>"


def _meld_summary(check: MeldCheck) -> str:
    rank = f" of {check.rank}s" if check.rank else ""
    book = "a complete book" if check.complete else "not a book yet"
    return (
        f"{check.kind or 'mixed'} meld{rank}: {check.size} cards ({check.naturals} natural, {check.wilds} wild), "
        f"{fmt_int(check.points)} points, {book}"
    )


@text_of(MeldCheck)
def meld_check_text(check: MeldCheck) -> str:
    return with_problems(("valid " if check.valid else "INVALID ") + _meld_summary(check), check.problems)


@html_of(MeldCheck)
def meld_check_html(check: MeldCheck) -> str:
    rows = [
        ("valid", yes_no(check.valid)),
        ("kind", check.kind or "mixed"),
        ("rank", check.rank or ""),
        ("complete (a book)", yes_no(check.complete)),
        ("cards", f"{check.size} ({check.naturals} natural, {check.wilds} wild)"),
        ("points", fmt_int(check.points)),
    ]
    return _check_html("Meld check", rows, check.problems)


@text_of(OpeningCheck)
def opening_check_text(check: OpeningCheck) -> str:
    head = f"opening {'met' if check.met else 'NOT met'}: {fmt_int(check.points)} of {fmt_int(check.minimum)} points"
    return with_problems(head, check.problems)


@html_of(OpeningCheck)
def opening_check_html(check: OpeningCheck) -> str:
    rows = [("met", yes_no(check.met)), ("points", fmt_int(check.points)), ("minimum", fmt_int(check.minimum))]
    return _check_html("Opening check", rows, check.problems)


@text_of(Books)
def books_text(books: Books) -> str:
    return f"{books.clean_books} clean, {books.dirty_books} dirty, {books.wild_books} wild"


@text_of(GoingOutCheck)
def going_out_check_text(check: GoingOutCheck) -> str:
    head = f"may go out: {'unknown' if check.met and check.unknown else yes_no(check.met)}; books {check.books}"
    head += f"; contract {check.contract}"
    if check.missing.total:
        head += f"; missing {check.missing}"
    return with_problems(head, (*check.problems, *check.unknown))


@html_of(GoingOutCheck)
def going_out_check_html(check: GoingOutCheck) -> str:
    rows = [
        ("may go out", "unknown" if check.met and check.unknown else yes_no(check.met)),
        ("books", str(check.books)),
        ("contract", str(check.contract)),
        ("missing", str(check.missing)),
    ]
    return _check_html("Going-out check", rows, (*check.problems, *check.unknown))


@text_of(DiscardPileCheck)
def discard_pile_check_text(check: DiscardPileCheck) -> str:
    return with_problems(f"may take the pile: {yes_no(check.allowed)} ({check.cards} cards)", check.problems)


@html_of(DiscardPileCheck)
def discard_pile_check_html(check: DiscardPileCheck) -> str:
    rows = [("may take the pile", yes_no(check.allowed)), ("cards", str(check.cards))]
    return _check_html("Discard-pile check", rows, check.problems)
