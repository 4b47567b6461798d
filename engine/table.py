"""A side's table: its melds validated together, books counted by kind, the rules between melds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from handfoot.engine.cards import MELD_CARDS_MAX, MELD_KEY_LIMIT, THREE_FIELD, Card, composition
from handfoot.engine.errors import Path, Problem
from handfoot.engine.melds import BookKind, MeldCheck, checks_kept, meld_of, meld_rules, validate_meld
from handfoot.engine.rules import Contract, RuleSet, per_rules


class Table(NamedTuple):
    """``checks`` (one per meld, in order), ``books`` (complete valid melds by kind), ``points`` (card
    points of every melded card), ``problems`` (paths ``path + (meld index, card index?)``).

    A named tuple, built with ``tuple.__new__`` (every side of every round has one)."""

    checks: tuple[MeldCheck, ...]
    books: Contract
    points: int
    problems: tuple[Problem, ...]

    def closed_ranks(self) -> set[str]:
        """Ranks (canonical text) that have a completed book on this table."""
        ranks: set[str] = set()
        for check in self.checks:  # a loop: a comprehension is a function made and called
            if check.complete and check.rank is not None:
                ranks.add(check.rank)
        return ranks

    def standing_books(self) -> Contract:
        """The completed melds by kind, valid or not: the books of a table whose melds stand as laid
        (``illegal_melds_stand``, D31). A meld of no kind (mixed ranks) is no book."""
        kinds = [c.kind for c in self.checks if c.complete]
        return Contract(kinds.count(BookKind.CLEAN), kinds.count(BookKind.DIRTY), kinds.count(BookKind.WILD))

    def open_ranks(self) -> set[str]:
        """Ranks that have an unfinished meld on this table."""
        return {c.rank for c in self.checks if not c.complete and c.rank is not None}


_new = tuple.__new__
_meld_rules = per_rules(meld_rules)  # read by every table analysed: made once per rule set


def analyse_table(
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    path: Path = ("melds",),
    known: Sequence[MeldCheck | None] = (),
) -> Table:
    """Validate every meld of one side and the rules between melds.

    Each meld is checked by :func:`~handfoot.engine.melds.meld_of` on its composition. Between
    melds (see :func:`_table_problems`): two unfinished melds of one rank (``duplicate_open_meld``,
    when ``one_open_meld_per_rank``); another meld of a rank whose book is complete where the rules
    burn instead (``second_book_of_rank``, when ``after_book`` is ``burn``). An invalid meld is no
    book.

    ``known``: checks already made of the first melds under the same rules (``known[i]`` the check
    of ``melds[i]``, ``None`` where that meld changed), reused rather than made again: how a step
    judges a table after adding cards to one meld of a table it has analysed.

    A table read by its melds' keys (``handfoot.engine.cards``: no meld of threes or of more than 15
    cards), at the default ``path`` and with no ``known``, is made once per rule set and those keys
    (the next states of a round, and every state read back from its JSON form, lay the same melds
    again): the answer depends on nothing else.
    """
    if not known and path == _MELDS:
        kept = kept_table(melds, rules)
        if kept is not None:
            return kept[1]
    return _analysed(melds, rules, path, known)


def kept_table(melds: Sequence[Sequence[Card]], rules: RuleSet) -> tuple[RuleSet, Table] | None:
    """``(rules, analyse_table(melds, rules))``, made once per rule set and the melds' keys and
    shared (what a :class:`~handfoot.engine.play.state.Side` keeps as its table); ``None`` where a
    meld has no key (threes, or more than 15 cards)."""
    keys = []
    for meld in melds:  # loops: a card's key by a specialised attribute read, not attrgetter
        key = 0
        for card in meld:
            key += card.meld_key
        if key >= MELD_KEY_LIMIT:
            return None
        keys.append(key)
    made = _tables_made(rules)
    found = made.get(tuple(keys))
    if found is None:
        if len(made) >= _TABLES_KEPT:  # a bound on memory: start again
            made.clear()
        found = made[tuple(keys)] = (rules, _analysed(melds, rules, _MELDS, ()))
    return found


_MELDS: Path = ("melds",)


@per_rules
def _tables_made(rules: RuleSet) -> dict[tuple[int, ...], tuple[RuleSet, Table]]:
    """:func:`kept_table` made under ``rules``, by the melds' keys."""
    return {}


_TABLES_KEPT = 4096  # a game lays a few hundred tables; past this many, start again


def _analysed(
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    path: Path,
    known: Sequence[MeldCheck | None],
) -> Table:
    """:func:`analyse_table`, made."""
    mr = _meld_rules(rules)
    kept = checks_kept(rules)  # meld_of's look-up, made here: no call a meld
    checks: list[MeldCheck] = []
    books = [0, 0, 0]  # clean, dirty, wild
    points = 0
    ranks: set[str] = set()
    between = broken = False  # between: two melds of one rank (the rules between melds concern them)
    reuse = len(known)
    for i, meld in enumerate(melds):
        check = known[i] if i < reuse else None
        if check is None:
            size = len(meld)
            if size <= MELD_CARDS_MAX:
                comp = composition(meld)
                check = (None if comp & THREE_FIELD else kept.get((comp, size, 0))) or meld_of(
                    comp, size, meld, (), rules, mr
                )
            else:
                check = validate_meld(meld, rules)
        checks.append(check)
        _valid, kind, rank, complete, _size, _naturals, _wilds, meld_points, meld_problems = check
        points += meld_points
        if rank is not None:
            if rank in ranks:
                between = True
            ranks.add(rank)
        if meld_problems:
            broken = True
        elif complete:  # by identity: an enum hashes in Python
            books[0 if kind is _CLEAN else 1 if kind is _DIRTY else 2] += 1
    problems = _table_problems(checks, rules, path, between) if between or broken else ()
    return _new(Table, (tuple(checks), _books(books), points, problems))


_CLEAN, _DIRTY = BookKind.CLEAN, BookKind.DIRTY


#: Where a valid completed meld of each kind counts in a table's books (clean, dirty, wild).
_KIND_INDEX: dict[BookKind | None, int] = {BookKind.CLEAN: 0, BookKind.DIRTY: 1, BookKind.WILD: 2}


def _books(counts: list[int]) -> Contract:
    """The :class:`Contract` of ``counts`` (clean, dirty, wild books): one a count, made on first
    asking (a frozen dataclass's ``__init__`` writes each field through ``object.__setattr__``, and
    every table analysed has one)."""
    key = tuple(counts)
    found = _BOOKS.get(key)
    if found is None:
        if len(_BOOKS) >= _BOOKS_KEPT:  # a bound on memory: start again
            _BOOKS.clear()
        found = _BOOKS[key] = Contract(*key)
    return found


_BOOKS: dict[tuple[int, ...], Contract] = {}
_BOOKS_KEPT = 1024


def table_changed(
    before: Table,
    checks: Sequence[MeldCheck],
    changed: Iterable[int],
    rules: RuleSet | None = None,
    path: Path = ("melds",),
) -> Table:
    """:func:`analyse_table`'s answer for melds whose checks are ``checks``: ``before``'s, but at
    the indexes ``changed`` (a meld changed, or a new one past ``before``'s end). Only where
    ``before`` has no problems and every check at ``changed`` is valid: ``before``'s books and
    points with those melds' told apart, not every meld counted again (how a step's candidate is
    judged). Where one of those melds shares its rank with another, ``rules`` is given and the
    rules between melds are read again (problems at ``path``); else none concerns them."""
    books = [before.books.clean_books, before.books.dirty_books, before.books.wild_books]
    points = before.points
    old = before.checks
    for i in changed:
        if i < len(old):
            was = old[i]
            points -= was.points
            if was.complete:
                books[_KIND_INDEX[was.kind]] -= 1
        check = checks[i]
        points += check.points
        if check.complete:
            books[_KIND_INDEX[check.kind]] += 1
    problems = _table_problems(checks, rules, path, True) if rules is not None else ()
    return _new(Table, (tuple(checks), _books(books), points, problems))


def _table_problems(checks: Sequence[MeldCheck], rules: RuleSet, path: Path, between: bool) -> tuple[Problem, ...]:
    """Every meld's problems and, when ``between`` (two melds share a rank), the rules between
    melds, meld by meld."""
    one_open = between and rules.one_open_meld_per_rank
    burn = between and rules.after_book == "burn"
    problems: list[Problem] = []
    open_seen: dict[str, int] = {}
    complete_seen: dict[str, int] = {}
    for j, check in enumerate(checks):
        for p in check.problems:
            problems.append(Problem(p.code, f"meld {j}: {p.detail}", (*path, j, *p.path[1:])))
        rank = check.rank
        if not between or rank is None:
            continue
        if not check.complete:
            if one_open and rank in open_seen:
                problems.append(
                    Problem(
                        "duplicate_open_meld",
                        f"meld {j}: a second unfinished meld "
                        f"of {rank}s (meld {open_seen[rank]} is one); one "
                        "open meld per rank (one_open_meld_per_rank)",
                        (*path, j),
                    )
                )
            open_seen.setdefault(rank, j)
        if burn:
            if rank in complete_seen and complete_seen[rank] != j:
                problems.append(_second(rank, j, complete_seen[rank], path))
            elif check.complete:
                problems.extend(_second(rank, k, j, path) for k, c in enumerate(checks[:j]) if c.rank == rank)
                complete_seen[rank] = j
    return tuple(problems)


def _second(rank: str, j: int, book: int, path: Path) -> Problem:
    return Problem(
        "second_book_of_rank",
        f"meld {j}: the {rank}s already have a completed book "
        f"(meld {book}); further {rank}s go to the burn pile (after_book burn)",
        (*path, j),
    )
