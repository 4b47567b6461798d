"""One rule of the RuleSet as players and developers read it: :class:`RuleField` (kind, range, group
and meaning), and :func:`field_of`, which the catalogue's parts (``fields_deal``, ``fields_melds``,
``fields_play``) build their entries with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RANK_BONUS_RANKS", "RuleField", "field_of"]


@dataclass(frozen=True, slots=True)
class RuleField:
    """One RuleSet field: ``kind`` (int, bool, choice, int_list, contract, contract_list,
    threshold_list, rank_bonus_list), whether ``None`` is allowed, its range or choices, group, and
    two texts: ``description``, what the value means in players' words (the keeper's label; no
    field names, "none" for ``None``), and ``note``, for developers, how the value reads with other
    fields by their names, its JSON shape and choice values (empty: the description says it all)."""

    name: str
    kind: str
    group: str
    description: str
    minimum: int | None = 0
    maximum: int | None = None
    nullable: bool = False
    choices: tuple[str, ...] = ()
    note: str = ""
    parse: Callable[[Any, tuple[str | int, ...]], Any] | None = field(default=None, compare=False)


#: The ranks a book of its own bonus may have: the natural ranks, and 3 (books of black threes).
RANK_BONUS_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "3")


def field_of(name: str, kind: str, group: str, description: str, **kw: Any) -> RuleField:
    """One entry of :data:`~handfoot.engine.rule_fields.RULE_FIELDS`."""
    return RuleField(name, kind, group, description, **kw)
