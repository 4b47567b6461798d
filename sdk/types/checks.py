"""The check endpoints: ``POST /v1/melds/validate``, ``/v1/openings/check``, ``/v1/going-out/check``
and ``/v1/discard-pile/check``.

A check answers a well-formed question even when the answer is no: each result is truthy when
the answer is yes, and ``problems`` names every rule broken, each with a stable ``code``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .. import display
from .._loader import Result
from .problems import ProblemItem

__all__ = ["BookKind", "Books", "DiscardPileCheck", "GoingOutCheck", "MeldCheck", "OpeningCheck"]

#: A meld's kind (DESIGN §3): clean (naturals only), dirty (with wild cards) or wild (wild cards only).
BookKind = Literal["clean", "dirty", "wild"]


@dataclass(frozen=True, slots=True)
class MeldCheck(Result):
    """The answer of ``POST /v1/melds/validate``: is this meld (or this meld after adding cards
    ``onto`` one on the table) legal? ``kind`` is ``None`` for mixed ranks; ``complete``: it is a
    book; ``points``: its card points."""

    valid: bool
    kind: BookKind | None
    rank: str | None
    complete: bool
    size: int
    naturals: int
    wilds: int
    points: int
    problems: tuple[ProblemItem, ...] = ()

    def __bool__(self) -> bool:
        return self.valid

    __str__ = display.meld_check_text
    _repr_html_ = display.meld_check_html


@dataclass(frozen=True, slots=True)
class OpeningCheck(Result):
    """The answer of ``POST /v1/openings/check``: the ``points`` counted against the round's
    ``minimum``, whether the opening is legal and ``met``, and the ``problems``."""

    points: int
    minimum: int
    met: bool
    problems: tuple[ProblemItem, ...] = ()

    def __bool__(self) -> bool:
        return self.met

    __str__ = display.opening_check_text
    _repr_html_ = display.opening_check_html


@dataclass(frozen=True, slots=True)
class Books(Result):
    """Books by kind (also a contract: the books a side needs to go out)."""

    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0

    @property
    def total(self) -> int:
        return self.clean_books + self.dirty_books + self.wild_books

    __str__ = display.books_text


@dataclass(frozen=True, slots=True)
class GoingOutCheck(Result):
    """The answer of ``POST /v1/going-out/check``: may the side go out? ``books`` on the table,
    ``missing`` books for the ``contract``, and the ``problems``."""

    met: bool
    books: Books
    missing: Books = field(default_factory=Books)
    contract: Books | None = None
    problems: tuple[ProblemItem, ...] = ()

    def __bool__(self) -> bool:
        return self.met

    __str__ = display.going_out_check_text
    _repr_html_ = display.going_out_check_html


@dataclass(frozen=True, slots=True)
class DiscardPileCheck(Result):
    """The answer of ``POST /v1/discard-pile/check``: may the player take the pile
    (``allowed``), how many ``cards`` that takes, and the ``problems``."""

    allowed: bool
    cards: int
    problems: tuple[ProblemItem, ...] = ()

    def __bool__(self) -> bool:
        return self.allowed

    __str__ = display.discard_pile_check_text
    _repr_html_ = display.discard_pile_check_html
