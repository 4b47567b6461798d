"""A meld action's melds judged from the seat's facts, and the side's table after it.

The predicates of :mod:`~handfoot.engine.play.legal` check each new meld and addition of an action by
the meld rule alone (:func:`meld_checks`, on the compositions of the side's melds the facts keep),
and build the side's melds and table after it only where a rule between melds may concern it (a
rank shared by two melds, a table with problems: :func:`table_after_melds`); else the action's
checks stand for the table after it, made by :func:`table_after` for the action taken only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from handfoot.engine.cards import Card, composition
from handfoot.engine.errors import Path, Problem
from handfoot.engine.melds import MeldCheck, validate_meld
from handfoot.engine.play.members import listed, refuse, without
from handfoot.engine.play.state import State
from handfoot.engine.table import Table, analyse_table, table_changed

if TYPE_CHECKING:  # the verdicts are legal's, which asks these
    from handfoot.engine.play.facts import Facts
    from handfoot.engine.play.legal import Verdict

#: The side's melds after an action, as the step lays them.
Melds = list[tuple[Card, ...]]


#: A meld action's melds as the meld rule checked them: ``{index on the side's table after: check}``,
#: additions first (the meld they change), then the new melds (past the table's end), in order.
Changed = dict[int, MeldCheck]


def meld_cards(
    found: Facts,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
    burn: Sequence[Card],
    words: bool,
) -> Sequence[Card] | None:
    """Every card of a meld action, held (``card_not_held`` at the path of the first use too many)
    and at least one (``unknown_action``); ``None`` where not, without ``words``."""
    if burn or len(new) + len(adds) != 1:
        every: list[Card] = []
        for meld in new:  # loops, not generators: no function made and called each time
            every += meld
        for _, meld in adds:
            every += meld
        every += burn
        cards: Sequence[Card] = every
    else:
        cards = new[0] if new else adds[0][1]  # one meld or addition: most candidates
    if cards and found.holds(cards):
        return cards
    if not words:
        return None
    if cards:
        groups: list[tuple[Sequence[Card], Path]] = [(m, ("melds", i)) for i, m in enumerate(new)]
        groups += [(m, ("add", k, "cards")) for k, (_, m) in enumerate(adds)]
        without(found.hand, [u for group, path in (*groups, (burn, ("burn",))) for u in listed(group, *path)])
    raise refuse("unknown_action", "a meld action needs cards: melds, add or burn", ())


def meld_checks(
    state: State,
    found: Facts,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
    words: bool = True,
) -> tuple[Changed, list[Problem]]:
    """Each addition and new meld of an action checked by the meld rule alone
    (``melds.validate_meld``, the meld endpoint's rule; an addition with the whole meld it makes),
    the side's melds read from the facts (their compositions kept), none copied: the checks
    (:data:`Changed`) and every rule they break, at a meld action's paths: ``("melds", i, ...)``
    for a new meld, ``("add", k, ...)`` for an addition (``unknown_meld`` at ``("add", k, "to")``);
    without ``words``, only the first (as the check worded it): whether, not why."""
    rules, melds = found.rules, found.melds
    count = len(melds)
    if len(new) + len(adds) == 1:  # one new meld or addition: most candidates
        if new:
            at, check = count, validate_meld(new[0], rules)
        elif 0 <= (at := adds[0][0]) < count:
            check = validate_meld(adds[0][1], rules, melds[at], found.composition(at))
        else:
            at, check = -1, None  # no such meld: worded below
        if check is not None and not check.problems:
            return {at: check}, []
        if check is not None and not words:
            return {}, list(check.problems)
    changed: Changed = {}
    problems: list[Problem] = []
    # a meld added to twice: the second addition reads the first
    grown: dict[int, tuple[tuple[Card, ...], int]] | None = {} if len(adds) > 1 else None
    for k, (to, cards) in enumerate(adds):
        if not 0 <= to < count:
            problems.append(Problem("unknown_meld", f"the side has no meld {to} (it has {count})", ("add", k, "to")))
            continue
        onto, comp = grown[to] if grown and to in grown else (melds[to], found.composition(to))
        check = validate_meld(cards, rules, onto, comp)
        if check.problems:
            if not words:
                return changed, list(check.problems)
            problems += [Problem(p.code, p.detail, ("add", k, *p.path)) for p in check.problems]
        if grown is not None:
            grown[to] = ((*onto, *cards), comp + composition(cards))
        # the check of an addition is the check of the whole meld it makes (the rule reads the
        # meld's composition; only a closed book tells an addition apart, and it refuses it)
        changed[to] = check
    for i, cards in enumerate(new):
        check = validate_meld(cards, rules)
        if check.problems:
            if not words:
                return changed, list(check.problems)
            problems += [Problem(p.code, p.detail, ("melds", i, *p.path[1:])) for p in check.problems]
        changed[count + i] = check
    return changed, problems


def checks_after(before: Table, changed: Changed) -> list[MeldCheck]:
    """The checks of the side's melds after an action: ``before``'s with ``changed``'s in place."""
    known = list(before.checks)
    for i, check in changed.items():
        if i < len(known):
            known[i] = check
        else:
            known.append(check)
    return known


def table_after_melds(
    state: State,
    found: Facts,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
    changed: Changed,
) -> tuple[Melds, Table, list[Problem]]:
    """The side's melds with ``adds`` and ``new`` melds (whose checks :func:`meld_checks` made,
    finding no problem: ``changed``), that table analysed, and the rules between melds they break
    (``table.analyse_table``, reusing the state's analysis of the melds left unchanged; a rule
    between melds at the meld of the action it concerns; ``()`` where it concerns only melds already
    on the table)."""
    table_now = found.table
    melds: Melds = list(found.melds)
    before = len(melds)
    for to, cards in adds:
        melds[to] = (*melds[to], *cards)
    melds += map(tuple, new)
    known = checks_after(table_now, changed)
    if not table_now.problems:  # the melds unchanged stand: only the changed ones' ranks are read again
        table = table_changed(table_now, known, changed, None if _apart(found, table_now, changed) else found.rules)
        if not table.problems:
            return melds, table, []
    else:
        table = analyse_table(melds, found.rules, known=known)
    problems: list[Problem] = []
    if table.problems:
        added = {to: k for k, (to, _) in reversed(list(enumerate(adds)))}
        for p in table.problems:
            if p.code in ("duplicate_open_meld", "second_book_of_rank"):
                j = p.path[1] if len(p.path) > 1 and isinstance(p.path[1], int) else -1
                path: Path = ("melds", j - before) if j >= before else ("add", added[j]) if j in added else ()
                problems.append(Problem(p.code, p.detail, path))
    return melds, table, problems


def _apart(found: Facts, before: Table, changed: Changed) -> bool:
    """Whether no meld at ``changed`` shares its rank with another meld: then no rule between melds
    (one open meld a rank, one book a rank where books burn) can concern the action, and its melds
    are judged each alone."""
    counts = found.rank_counts()  # made once a state
    old = before.checks
    if len(changed) == 1:  # one meld changed (most candidates): no second one to share its rank
        ((i, check),) = changed.items()
        rank = check.rank
        return rank is None or counts.get(rank, 0) <= (i < len(old) and old[i].rank == rank)
    seen = set()
    for i, check in changed.items():
        rank = check.rank
        if rank is None:  # a wild meld: the rules between melds read ranks
            continue
        if rank in seen or counts.get(rank, 0) > (i < len(old) and old[i].rank == rank):
            return False
        seen.add(rank)
    return True


def melds_after(
    state: State,
    found: Facts,
    new: Sequence[Sequence[Card]],
    adds: Sequence[tuple[int, Sequence[Card]]],
    words: bool,
    checks: Changed | None = None,
) -> tuple[Melds | None, Table | None, Changed | None, list[Problem]]:
    """A meld action's melds judged: each by the meld rule (:func:`meld_checks`), then, where a
    rule between melds may concern them (a rank shared, a table with problems), the side's melds
    after it and their table (:func:`table_after_melds`): ``(melds, table, None, problems)``; else
    judged each alone, no table built: ``(None, None, checks, [])``. ``problems``: every rule
    broken (without ``words``, the first only). ``checks``: :func:`meld_checks`' answer where the
    caller has it (no problem found), not made again."""
    if checks is None:
        changed, problems = meld_checks(state, found, new, adds, words)
        if problems:
            return None, None, None, problems
    else:
        changed = checks
    table_now = found.table
    if not table_now.problems and _apart(found, table_now, changed):
        return None, None, changed, []
    melds, table, problems = table_after_melds(state, found, new, adds, changed)
    return melds, table, None, problems


def table_after(before: Table, verdict: Verdict) -> Table | None:
    """The side's table after an accepted action: ``verdict.table``, or made from the checks its
    judging kept (``before``: the side's table before it), or ``None`` where it made neither."""
    if verdict.table is not None or verdict.checks is None:
        return verdict.table
    return table_changed(before, checks_after(before, verdict.checks), verdict.checks)
