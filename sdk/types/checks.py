"""The check endpoints: ``POST /v1/melds/validate``, ``/v1/openings/check``, ``/v1/going-out/check``
and ``/v1/discard-pile/check``.

A check answers a well-formed question even when the answer is no: each result is truthy when
the answer is yes, and ``problems`` names every rule broken, each with a stable ``code``
(empty when the answer is yes). Points are card points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Literal

from .._loader import Result
from .problems import ProblemItem

__all__ = ["BookKind", "Books", "DiscardPileCheck", "GoingOutCheck", "MeldCheck", "OpeningCheck"]

#: A meld's kind (DESIGN §3): clean (naturals only), dirty (with wild cards) or wild (wild cards only).
BookKind = Literal["clean", "dirty", "wild"]


#: Field metadata of the member that says yes or no (``valid``, ``met``, ``allowed``).
_ANSWER: Mapping[str, bool] = MappingProxyType({"handfoot.client.answer": True})


@dataclass(frozen=True, slots=True)
class _Check(Result):
    """A check's answer: truthy when the answer is yes (its ``_ANSWER`` field is true)."""

    def __bool__(self) -> bool:
        return all(getattr(self, f.name) for f in fields(self) if f.metadata.get("handfoot.client.answer"))


@dataclass(frozen=True, slots=True)
class MeldCheck(_Check):
    """The answer of ``POST /v1/melds/validate``: is this meld (or this meld after adding cards
    ``onto`` one on the table) legal, and what is it?"""

    valid: bool = field(metadata=_ANSWER)
    kind: BookKind | None
    """``None`` when the cards are not all of one rank (wild cards aside)."""
    rank: str | None
    complete: bool
    """The meld is a complete book (it has ``book_size`` cards)."""
    size: int
    naturals: int
    wilds: int
    points: int
    """Card points of the whole meld."""
    problems: tuple[ProblemItem, ...]


@dataclass(frozen=True, slots=True)
class OpeningCheck(_Check):
    """The answer of ``POST /v1/openings/check``: do the opening melds count enough points?"""

    points: int
    """Card points the opening melds count (those that count toward the minimum)."""
    minimum: int
    """The round's opening minimum, in points."""
    met: bool = field(metadata=_ANSWER)
    problems: tuple[ProblemItem, ...]


@dataclass(frozen=True, slots=True)
class Books(Result):
    """Books by kind (also a contract: the books a side needs to go out)."""

    clean_books: int
    dirty_books: int
    wild_books: int

    @property
    def total(self) -> int:
        return self.clean_books + self.dirty_books + self.wild_books


@dataclass(frozen=True, slots=True)
class GoingOutCheck(_Check):
    """The answer of ``POST /v1/going-out/check``: may the side go out? ``books`` on the table,
    ``missing`` books for the ``contract``, and the ``problems``."""

    met: bool = field(metadata=_ANSWER)
    """No rule is known to be broken; not a yes where ``unknown`` lists an input not given."""
    books: Books
    missing: Books
    contract: Books
    problems: tuple[ProblemItem, ...]
    unknown: tuple[ProblemItem, ...]
    """Each input not given on which ``met`` rests (code ``input_needed``, with its pointer): the
    check is falsy while any is listed (unknown is not yes)."""

    def __bool__(self) -> bool:
        return self.met and not self.unknown


@dataclass(frozen=True, slots=True)
class DiscardPileCheck(_Check):
    """The answer of ``POST /v1/discard-pile/check``: may the player take the pile?"""

    allowed: bool = field(metadata=_ANSWER)
    cards: int
    """How many cards taking the pile takes."""
    problems: tuple[ProblemItem, ...]
