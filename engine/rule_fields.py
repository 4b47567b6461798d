"""The RuleSet field catalogue (:data:`RULE_FIELDS`: each field's kind, range, group and meaning,
gathered from ``fields_deal``, ``fields_melds`` and ``fields_play``) and the parser of override values.

:func:`apply_overrides` builds house rules on top of any preset (checked by
:func:`~handfoot.engine.rule_consistency.consistency_problems`); :func:`rules_from_mapping`
rebuilds a stored snapshot. Errors are :class:`~handfoot.engine.errors.RulesError` with
``unknown_rule``, ``invalid_rule_value`` or ``inconsistent_rules`` problems.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from handfoot.engine import fields_deal, fields_melds, fields_play
from handfoot.engine.errors import Problem, RulesError
from handfoot.engine.rule_consistency import consistency_problems
from handfoot.engine.rule_field import RANK_BONUS_RANKS, RuleField
from handfoot.engine.rules import Contract, RankBonus, RuleSet, Threshold

__all__ = [
    "RANK_BONUS_RANKS",
    "RULE_FIELDS",
    "RuleField",
    "apply_overrides",
    "consistency_problems",
    "parse_value",
    "rules_from_mapping",
]

#: The members of a contract: books needed by kind.
_BOOK_KINDS = ("clean_books", "dirty_books", "wild_books")

RULE_FIELDS: dict[str, RuleField] = {
    f.name: f for f in [*fields_deal.FIELDS, *fields_melds.FIELDS, *fields_play.FIELDS]
}

assert set(RULE_FIELDS) == {f.name for f in fields(RuleSet)}, "RULE_FIELDS and RuleSet differ"

# -- parsing override values ----------------------------------------------------------------------


def _bad(path: tuple[str | int, ...], detail: str) -> RulesError:
    return RulesError([Problem("invalid_rule_value", detail, path)])


def _int(value: Any, spec: RuleField, path: tuple[str | int, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(path, f"{spec.name}: expected a whole number, got {value!r}")
    if spec.minimum is not None and value < spec.minimum:
        raise _bad(path, f"{spec.name}: {value} is below the minimum {spec.minimum}")
    if spec.maximum is not None and value > spec.maximum:
        raise _bad(path, f"{spec.name}: {value} is above the maximum {spec.maximum}")
    return value


def _object(value: Any, keys: tuple[str, ...], spec: RuleField, path: tuple[str | int, ...]) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise _bad(path, f"{spec.name}: expected an object with {', '.join(keys)}")
    unknown = [k for k in value if k not in keys]
    if unknown:
        raise RulesError(
            [Problem("unknown_rule", f"{spec.name}: unknown member {k!r}", (*path, str(k))) for k in unknown]
        )
    missing = [k for k in keys if k not in value]
    if missing and keys != _BOOK_KINDS:
        raise _bad(path, f"{spec.name}: missing {', '.join(missing)}")
    return {k: _int(value.get(k, 0), spec, (*path, k)) for k in keys}


def parse_value(name: str, value: Any, path: tuple[str | int, ...]) -> Any:  # noqa: C901 - one branch a field kind
    """Check and convert one override value of field ``name``; raise :class:`RulesError`."""
    spec = RULE_FIELDS[name]
    if value is None:
        if spec.nullable:
            return None
        raise _bad(path, f"{name} may not be null")
    if spec.kind == "int":
        return _int(value, spec, path)
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise _bad(path, f"{name}: expected true or false, got {value!r}")
        return value
    if spec.kind == "choice":
        if value not in spec.choices:
            raise _bad(path, f"{name}: expected one of {', '.join(spec.choices)}, got {value!r}")
        return value
    if not isinstance(value, (list, tuple)) and spec.kind != "contract":
        raise _bad(path, f"{name}: expected a list")
    if spec.kind == "int_list":
        if len(value) > 50:
            raise _bad(path, f"{name}: at most 50 entries")
        return tuple(_int(v, spec, (*path, i)) for i, v in enumerate(value))
    if spec.kind == "contract":
        return Contract(**_object(value, _BOOK_KINDS, spec, path))
    if spec.kind == "contract_list":
        if len(value) > 50:
            raise _bad(path, f"{name}: at most 50 entries")
        return tuple(Contract(**_object(v, _BOOK_KINDS, spec, (*path, i))) for i, v in enumerate(value))
    if spec.kind == "threshold_list":
        if len(value) > 50:
            raise _bad(path, f"{name}: at most 50 entries")
        return tuple(Threshold(**_object(v, ("score", "minimum"), spec, (*path, i))) for i, v in enumerate(value))
    if spec.kind == "rank_bonus_list":
        return _rank_bonuses(value, spec, path)
    raise AssertionError(spec.kind)  # pragma: no cover


def _rank_bonuses(value: Any, spec: RuleField, path: tuple[str | int, ...]) -> tuple[RankBonus, ...]:
    """``[{rank, bonus}]``: each rank one of ``spec.choices``, at most once; each bonus in range."""
    if len(value) > len(spec.choices):
        raise _bad(path, f"{spec.name}: at most {len(spec.choices)} entries, one a rank")
    out: list[RankBonus] = []
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise _bad((*path, i), f"{spec.name}: expected an object with rank, bonus")
        unknown = [k for k in item if k not in ("rank", "bonus")]
        if unknown:
            raise RulesError(
                [Problem("unknown_rule", f"{spec.name}: unknown member {k!r}", (*path, i, str(k))) for k in unknown]
            )
        rank = item.get("rank")
        if rank not in spec.choices:
            raise _bad((*path, i, "rank"), f"{spec.name}: rank expected one of {', '.join(spec.choices)}, got {rank!r}")
        if any(b.rank == rank for b in out):
            raise _bad((*path, i, "rank"), f"{spec.name}: the {rank}s are listed twice")
        if "bonus" not in item:
            raise _bad((*path, i), f"{spec.name}: missing bonus")
        out.append(RankBonus(rank, _int(item["bonus"], spec, (*path, i, "bonus"))))
    return tuple(out)


def apply_overrides(base: RuleSet, overrides: Mapping[str, Any], path: tuple[str | int, ...] = ("rules",)) -> RuleSet:
    """``base`` with house-rule ``overrides`` applied, then checked for consistency.

    Raises :class:`RulesError`: ``unknown_rule`` for a key the model does not have,
    ``invalid_rule_value`` for a value of the wrong type or out of range, ``inconsistent_rules``
    when the result contradicts itself (see :func:`consistency_problems`). Every problem's path is
    ``path + (key, ...)``.
    """
    if not overrides:
        return base
    problems: list[Problem] = []
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in RULE_FIELDS:
            problems.append(
                Problem(
                    "unknown_rule",
                    f"{key!r} is not a rule; see GET /v1/presets/{{id}} for every rule's name",
                    (*path, str(key)),
                )
            )
            continue
        try:
            changes[key] = parse_value(key, value, (*path, key))
        except RulesError as err:
            problems.extend(err.problems)
    if problems:
        raise RulesError(problems)
    rules = replace(base, **changes)
    problems = [p.at(*path) for p in consistency_problems(rules)]
    if problems:
        raise RulesError(problems)
    return rules


#: Rules added after snapshots were first stored, with the value that reads an older snapshot as it was
#: played (no limit on the players at the table, sides not by parity, the pile taken, a foot's red
#: threes laid out as the game did then: at the deal, where automatic).
_LATER_RULES: Mapping[str, Any] = {
    "players_alone_min": None,
    "players_alone_max": None,
    "players_in_teams_min": None,
    "players_in_teams_max": None,
    "sides_by_parity": False,
    "pile_take_allowed": True,
    "red_threes_automatic_foot": "dealt",
}


def rules_from_mapping(data: Mapping[str, Any]) -> RuleSet:
    """Rebuild a RuleSet from :meth:`RuleSet.to_mapping` output (e.g. a stored game's snapshot); a
    rule added since the snapshot was stored reads as the snapshot was played (:data:`_LATER_RULES`)."""
    data = {**_LATER_RULES, **data}
    missing = [f.name for f in fields(RuleSet) if f.name not in data]
    if missing:
        raise RulesError([Problem("invalid_rule_value", f"missing rule {m!r}", ("rules", m)) for m in missing])
    values = {name: parse_value(name, data[name], ("rules", name)) for name in RULE_FIELDS}
    return RuleSet(**values)
