"""A side's round score as lines: :class:`Line`, :class:`Breakdown` and :class:`RoundScore`, the line
codes and labels (:data:`LINE_LABELS`), and :func:`breakdown`, the one function from a side's
:class:`~handfoot.engine.tallies.Tally` to its lines (for the cards form and the tally form alike;
the checks are :func:`~handfoot.engine.scoring.score_round`'s).
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from handfoot.engine.errors import Problem
from handfoot.engine.rules import RuleSet, per_rules
from handfoot.engine.tallies import Tally

__all__ = ["CUT_GRADES", "LINE_LABELS", "Breakdown", "Line", "RoundScore", "breakdown"]


class Line(NamedTuple):
    """One line of a breakdown: ``code`` (stable), ``label``, ``count`` and ``points_each`` where they
    apply, and ``points`` (signed).

    A named tuple (immutable, compared and hashed by value, fields by name or position), built with
    ``tuple.__new__`` (``_new_line``) rather than its generated Python ``__new__``: every side's
    breakdown has nine or so (docs/performance.md). The field ``count`` hides the tuple method of
    that name, on purpose: it is the JSON answer's name."""

    code: str
    label: str
    count: int | None  # type: ignore[assignment]
    points_each: int | None
    points: int


class Breakdown(NamedTuple):
    """A side's round score: ``name``, ``total`` (points) and the ``lines`` that sum to it;
    ``warnings``: what is scored but breaks a rule: the meld rules its table breaks where they stand
    and score (``illegal_melds_stand``, the Hodges family rules' "what's layed is played"), and
    ``table_below_opening_minimum`` (D81); empty otherwise. A named tuple, as
    :class:`Line` is, built with ``tuple.__new__``."""

    name: str
    total: int
    lines: tuple[Line, ...]
    warnings: tuple[Problem, ...] = ()

    def line(self, code: str) -> Line | None:
        return next((line for line in self.lines if line.code == code), None)


class RoundScore(NamedTuple):
    """Every side's breakdown, in the order given (a named tuple)."""

    round: int
    teams: tuple[Breakdown, ...]


LINE_LABELS: dict[str, str] = {
    "clean_books": "Clean books",
    "dirty_books": "Dirty books",
    "wild_books": "Wild books",
    "going_out": "Going out",
    "red_threes_on_table": "Red threes on the table",
    "red_threes_caught": "Red threes caught in hand or foot",
    "perfect_cut": "Perfect cuts",
    "cut_within_1": "Cuts one card off",
    "cut_within_3": "Cuts two or three cards off",
    "table_points": "Cards on the table",
    "burn": "Burn pile",
    "points_left": "Cards left in hands and feet",
}
(
    _LABEL_CLEAN,
    _LABEL_DIRTY,
    _LABEL_WILD,
    _LABEL_OUT,
    _LABEL_RED_TABLE,
    _LABEL_RED_CAUGHT,
    _LABEL_TABLE,
    _LABEL_BURN,
    _LABEL_LEFT,
) = itemgetter(
    "clean_books",
    "dirty_books",
    "wild_books",
    "going_out",
    "red_threes_on_table",
    "red_threes_caught",
    "table_points",
    "burn",
    "points_left",
)(LINE_LABELS)
#: The graded perfect cut (D29): (input, line code, the rule's bonus field) for each grade.
CUT_GRADES = (
    ("perfect_cuts", "perfect_cut", "perfect_cut_bonus"),
    ("cuts_within_1", "cut_within_1", "perfect_cut_within_1_bonus"),
    ("cuts_within_3", "cut_within_3", "perfect_cut_within_3_bonus"),
)


@per_rules
def _scored_cuts(rules: RuleSet) -> tuple[tuple[str, str, str, int], ...]:
    """(input, line code, label, bonus) of each grade of cut the rules score (bonus not 0)."""
    return tuple(
        (key, code, LINE_LABELS[code], getattr(rules, bonus))
        for key, code, bonus in CUT_GRADES
        if getattr(rules, bonus)
    )


def breakdown(
    name: str, went_out: bool, tally: Tally, rules: RuleSet, round_number: int, warnings: tuple[Problem, ...] = ()
) -> Breakdown:
    """The lines of one side's score from its tally (no checks: see :func:`score_round`), in this
    order: books by kind (``*_book_bonus`` each; a book of a rank of ``rank_book_bonuses`` is counted
    on that rank's line ``books_of_<rank>`` instead, at its own bonus, D30), going out
    (``going_out_bonus_for`` the round), red threes on the table (``red_three_table_points``, or
    ``..._unmelded`` for a side that has not melded), red threes caught (``red_three_caught_points``),
    perfect cuts (each grade only when the rules give its bonus: ``perfect_cut_bonus``,
    ``perfect_cut_within_1_bonus``, ``perfect_cut_within_3_bonus``), the table's card points, the
    burn pile (only where ``after_book`` is ``burn``), and the points left (negative). The total is
    the sum of the lines' points; ``warnings`` are the side's meld rules that stand (D31)."""
    t, new = tally, _new_line
    red_each = rules.red_three_table_points if t.melded else rules.red_three_table_points_unmelded
    out_each = rules.going_out_bonus_for(round_number)
    clean, dirty = t.clean_books, t.dirty_books
    if t.rank_books:  # a book of a rank with its own bonus is scored on that rank's line instead
        clean -= sum(b.clean_books for b in t.rank_books)
        dirty -= sum(b.dirty_books for b in t.rank_books)
    lines = [
        new(Line, ("clean_books", _LABEL_CLEAN, clean, rules.clean_book_bonus, clean * rules.clean_book_bonus)),
        new(Line, ("dirty_books", _LABEL_DIRTY, dirty, rules.dirty_book_bonus, dirty * rules.dirty_book_bonus)),
        new(
            Line, ("wild_books", _LABEL_WILD, t.wild_books, rules.wild_book_bonus, t.wild_books * rules.wild_book_bonus)
        ),
    ]
    if rules.rank_book_bonuses:
        held = {b.rank: b.clean_books + b.dirty_books for b in t.rank_books}
        lines += [
            new(
                Line,
                (
                    f"books_of_{b.rank}",
                    f"Books of {b.rank}s",
                    held.get(b.rank, 0),
                    b.bonus,
                    held.get(b.rank, 0) * b.bonus,
                ),
            )
            for b in rules.rank_book_bonuses
        ]
    lines += [
        new(Line, ("going_out", _LABEL_OUT, int(went_out), out_each, out_each if went_out else 0)),
        new(
            Line,
            (
                "red_threes_on_table",
                _LABEL_RED_TABLE,
                t.red_threes_on_table,
                red_each,
                t.red_threes_on_table * red_each,
            ),
        ),
        new(
            Line,
            (
                "red_threes_caught",
                _LABEL_RED_CAUGHT,
                t.red_threes_caught,
                rules.red_three_caught_points,
                t.red_threes_caught * rules.red_three_caught_points,
            ),
        ),
    ]
    for key, code, label, each in _scored_cuts(rules):
        count = getattr(t, key)
        lines.append(new(Line, (code, label, count, each, count * each)))
    lines.append(new(Line, ("table_points", _LABEL_TABLE, None, None, t.table_points)))
    if rules.after_book == "burn":
        lines.append(new(Line, ("burn", _LABEL_BURN, None, None, t.burn_points)))
    lines.append(new(Line, ("points_left", _LABEL_LEFT, None, None, -t.points_left)))
    return _new(Breakdown, (name, sum(map(_points_of, lines)), tuple(lines), warnings))


#: ``_new_line(Line, (code, label, count, points_each, points))``: a Line without its Python
#: ``__new__`` (what ``Line._make`` does).
_new_line = _new = tuple.__new__
_points_of = itemgetter(4)  # Line.points
