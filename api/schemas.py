"""Schema pieces shared by the resources: strict scalars, card lists, house rules, problem items.
The house-rules schema is generated from the engine's rule catalogue (``handfoot.engine.RULE_FIELDS``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow.types import StrSequenceOrSet
from marshmallow.utils import get_value

from handfoot.engine import PRESETS, RULE_FIELDS, Breakdown, RuleField, bodies
from handfoot.server.problems import CodedMessage
from handfoot.server.services.errors import json_pointer

#: The limits of request sizes (docs/reliability.md): the engine's reader's (``handfoot.engine.bodies``).
MAX_CARD_LENGTH = bodies.MAX_CARD_LENGTH
MAX_CARDS_PER_LIST = bodies.MAX_CARDS_PER_LIST
MAX_MELDS_PER_TEAM = bodies.MAX_MELDS_PER_TEAM
MAX_NAME_LENGTH = bodies.MAX_NAME_LENGTH
MAX_PLAYERS_PER_TEAM = bodies.MAX_PLAYERS_PER_TEAM
MAX_PRESET_ID_LENGTH = bodies.MAX_PRESET_ID_LENGTH
MAX_ROUNDS_PER_GAME = bodies.MAX_ROUNDS_PER_GAME
MAX_TEAMS = bodies.MAX_TEAMS


class Schema(ma.Schema):
    """Base schema: unknown members are refused by name (422 ``unknown_field``)."""

    class Meta:
        unknown = ma.RAISE

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        """``marshmallow.utils.get_value`` inlined for plain names (same results): two helper calls per value
        were a fifth of a round's dump (docs/performance.md)."""
        if "." in attr:
            return get_value(obj, attr, default)
        if not hasattr(obj, "__getitem__"):
            return getattr(obj, attr, default)
        try:
            return obj[attr]
        except (KeyError, IndexError, TypeError, AttributeError):
            return getattr(obj, attr, default)


F = TypeVar("F", bound=fields.Field[Any])


def Doc(field: Callable[..., F], description: str, *args: Any, **kw: Any) -> F:  # noqa: N802 - a field factory
    """``field(*args, **kw)`` documented by ``description``."""
    return field(*args, metadata={"description": description}, **kw)


def Required(field: Callable[..., F], description: str, *args: Any, **kw: Any) -> F:  # noqa: N802
    """A required member, described: a request's must be sent, an answer's always is."""
    return Doc(field, description, *args, required=True, **kw)


def Int(**kw: Any) -> fields.Integer:  # noqa: N802 - a field factory, read like a class
    """An integer that refuses strings, floats and booleans."""
    return StrictInteger(strict=True, **kw)


class StrictInteger(fields.Integer):
    def _validated(self, value: Any) -> Any:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._validated(value)


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only (no ``"yes"``, ``1``, ``"true"``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def Bool(**kw: Any) -> fields.Boolean:  # noqa: N802
    return StrictBoolean(**kw)


def _card_list(**kw: Any) -> fields.List[Any]:
    return fields.List(
        fields.String(validate=validate.Length(max=MAX_CARD_LENGTH)),
        validate=validate.Length(max=MAX_CARDS_PER_LIST),
        **kw,
    )


def Cards(description: str, **kw: Any) -> fields.List[Any]:  # noqa: N802
    """A list of card strings (``10H``, ``QS``, ``JK``; aliases ``T``, ``♠`` ...), parsed by the engine."""
    return _card_list(metadata={"description": description, "example": ["KS", "KH", "2C"]}, **kw)


def Melds(description: str, **kw: Any) -> fields.List[Any]:  # noqa: N802
    return fields.List(
        _card_list(),
        validate=validate.Length(max=MAX_MELDS_PER_TEAM),
        metadata={"description": description, "example": [["KS", "KH", "KD"], ["9S", "9H", "2C"]]},
        **kw,
    )


def RoundNumber(description: str = "Round number (1 = first).", **kw: Any) -> fields.Integer:  # noqa: N802
    """A round number: 1 to ``MAX_ROUNDS_PER_GAME``."""
    return Int(validate=validate.Range(1, MAX_ROUNDS_PER_GAME), metadata={"description": description}, **kw)


#: Every preset's id, in the registry's order: the spec's ``enum`` wherever a preset is named, so
#: a generated client types it (an unknown id sent is still the engine's 422, naming it).
PRESET_IDS: list[str] = list(PRESETS)


def PresetId(description: str = "A preset id (GET /v1/presets), e.g. `pagat`.", **kw: Any) -> fields.String:  # noqa: N802
    return fields.String(
        validate=validate.Length(min=1, max=MAX_PRESET_ID_LENGTH),
        metadata={"description": description, "example": "pagat", "enum": PRESET_IDS},
        **kw,
    )


#: A name (games, sides, players): any Unicode text of 1 to ``MAX_NAME_LENGTH`` characters, stored
#: as sent, but for control characters and lone surrogates, and showing something (the engine's rule,
#: ``bodies.name_characters_problem``: a 422 ``invalid_value``). As a JSON Schema pattern (which
#: cannot name surrogates):
_NAME_CHAR = "[^\\u0000-\\u001f\\u007f-\\u009f]"
_BLANK = "\\s\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u180e\\u200b-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\ufeff"
NAME_PATTERN = f"^{_NAME_CHAR}*[^{_BLANK}]{_NAME_CHAR}*$"


def check_name_characters(value: str) -> None:
    problem = bodies.name_characters_problem(value)
    if problem:
        raise ma.ValidationError(problem)


def Name(description: str, **kw: Any) -> fields.String:  # noqa: N802
    return fields.String(
        validate=[validate.Length(min=1, max=MAX_NAME_LENGTH), check_name_characters],
        metadata={
            "description": f"{description} Any Unicode text with at least one visible character and no "
            "control characters, stored as sent.",
            "pattern": NAME_PATTERN,
        },
        **kw,
    )


class ContractSchema(Schema):
    clean_books = Int(validate=validate.Range(0, 40), load_default=0, metadata={"description": "Clean books."})
    dirty_books = Int(validate=validate.Range(0, 40), load_default=0, metadata={"description": "Dirty books."})
    wild_books = Int(validate=validate.Range(0, 40), load_default=0, metadata={"description": "Wild books."})


class ThresholdSchema(Schema):
    score = Int(required=True, metadata={"description": "From this cumulative score (points) on..."})
    minimum = Doc(Int, "...the opening minimum is this (points).", required=True, validate=validate.Range(0, 100_000))


class RankBonusSchema(Schema):
    rank = Required(
        fields.String,
        "The books' rank: 4-10, J, Q, K, A, or 3 (books of black threes).",
        validate=validate.OneOf(RULE_FIELDS["rank_book_bonuses"].choices),
    )
    bonus = Doc(
        Int,
        "The bonus (points) of each completed book of that rank, in place of its kind's.",
        required=True,
        validate=validate.Range(-100_000, 100_000),
    )


def _rule_field(spec: RuleField) -> fields.Field[Any]:
    # The document is read by developers: the players' words, then how the value reads with the other fields.
    meta = {"description": f"{spec.description} ({spec.note})" if spec.note else spec.description}
    rng = validate.Range(spec.minimum, spec.maximum)
    if spec.kind == "int":
        return Int(allow_none=spec.nullable, validate=rng, metadata=meta)
    if spec.kind == "bool":
        return Bool(metadata=meta)
    if spec.kind == "choice":
        return fields.String(validate=validate.OneOf(spec.choices), metadata=meta)
    if spec.kind == "int_list":
        return fields.List(Int(validate=rng), validate=validate.Length(max=50), metadata=meta)
    if spec.kind == "contract":
        return fields.Nested(ContractSchema, metadata=meta)
    if spec.kind == "contract_list":
        return fields.List(fields.Nested(ContractSchema), validate=validate.Length(max=50), metadata=meta)
    if spec.kind == "threshold_list":
        return fields.List(fields.Nested(ThresholdSchema), validate=validate.Length(max=50), metadata=meta)
    if spec.kind == "rank_bonus_list":
        return fields.List(
            fields.Nested(RankBonusSchema), validate=validate.Length(max=len(spec.choices)), metadata=meta
        )
    raise AssertionError(spec.kind)


#: House-rule overrides: every member optional, each a RuleSet field of the engine.
RulesSchema: type[ma.Schema] = Schema.from_dict(
    {name: _rule_field(spec) for name, spec in RULE_FIELDS.items()}, name="RulesSchema"
)

#: RulesSchema's fields by the member each reads: every one optional, with no hook or schema-level
#: validator, so each member sent is read by its own field alone.
_RULE_FIELDS_BY_MEMBER: dict[str, fields.Field[Any]] = {
    field.data_key or name: field for name, field in RulesSchema().load_fields.items()
}


def unknown_rule(member: str) -> CodedMessage:
    """The message for a house rule that is no rule field: ``unknown_field``, naming the closest rule
    names (a misspelling: ``going_out_bonsu`` -> ``going_out_bonus``) or where the names are listed."""
    close = difflib.get_close_matches(member, _RULE_FIELDS_BY_MEMBER, n=3, cutoff=0.6)
    hint = (
        f"did you mean {' or '.join(repr(name) for name in close)}?"
        if close
        else "the rule names are the `fields` of GET /v1/presets/{preset_id}."
    )
    return CodedMessage(f"Unknown field: {member!r} is not a house rule; {hint}", "unknown_field")


def rules_messages(rules: dict[str, Any]) -> dict[str, Any]:
    """The messages ``RulesSchema().load(rules)`` raises (empty when it takes ``rules``), from the
    members sent alone: a load walks each of the ~70 fields for the few members a request sends."""
    messages: dict[str, Any] = {}
    for member, value in rules.items():
        field = _RULE_FIELDS_BY_MEMBER.get(member)
        if field is None:
            messages[member] = [unknown_rule(member)]
            continue
        try:
            field.deserialize(value, member, rules)
        except ma.ValidationError as error:
            messages[member] = error.messages
    return messages


class RulesField(fields.Nested):
    """House rules: a ``Nested(RulesSchema)``; an empty object (most requests) loads as ``{}``
    without walking the schema's fields, exactly what ``RulesSchema().load({})`` returns."""

    def _deserialize(
        self,
        value: Any,
        attr: str | None,
        data: Mapping[str, Any] | None,
        partial: bool | StrSequenceOrSet | None = None,
        **kwargs: Any,
    ) -> Any:
        if type(value) is dict:
            if not value:
                return {}
            messages = rules_messages(value)  # the one reading of each member (and of names unknown)
            if messages:
                raise ma.ValidationError(messages)
        return super()._deserialize(value, attr, data, partial, **kwargs)


def Rules(**kw: Any) -> fields.Nested:  # noqa: N802
    return RulesField(
        RulesSchema,
        load_default=dict,
        metadata={
            "description": "House rules: overrides on top of the preset, by rule name (see GET /v1/presets/{id}). "
            "Unknown names, out-of-range values and rules that contradict each other are refused (422)."
        },
        **kw,
    )


class ProblemErrorSchema(ma.Schema):
    """One item of a problem's ``errors``: where, which rule (``code``), and why."""

    pointer = Doc(
        fields.String, 'JSON Pointer (RFC 6901) into the request body, e.g. "/teams/0/melds/1/2"; "" is the whole body.'
    )
    parameter = Doc(fields.String, "Name of the query, header or path parameter at fault.")
    code = Required(fields.String, "Stable machine-readable code (docs/problems.md).")
    detail = Required(fields.String, "The problem in words.")


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details (the document ``problems.make_problem`` builds), with an ``errors``
    extension listing every problem found."""

    class Meta:
        # RFC 9457 §3.2: problem types may add extension members; clients ignore unknown ones.
        unknown = ma.INCLUDE

    type = Required(fields.String, "URI of the problem type (https://handfoot.dev/problems/...).")
    title = Required(fields.String, "Summary of the type.")
    status = Required(fields.Integer, "The HTTP status code.")
    detail = Doc(fields.String, "This occurrence in words.")
    instance = Doc(fields.String, "The request path.")
    errors = Required(
        fields.List,
        "Every problem found, each at a pointer or parameter (at most the first 100: "
        "then `errors_found` counts them all and `errors_not_listed` the rest).",
        fields.Nested(ProblemErrorSchema),
    )
    errors_found = Doc(fields.Integer, "Only when not every error is listed: how many problems were found.")
    errors_not_listed = Doc(fields.Integer, "Only when not every error is listed: how many are left out of `errors`.")


class ProblemItemSchema(Schema):
    """One rule broken, in a check's answer: the same shape as an error's ``errors`` item."""

    # a Field: EngineProblemSchema dumps it with a Function
    pointer: fields.Field[Any] = Required(fields.String, "JSON Pointer into the request body, e.g. `/melds/1/2`.")
    code = Required(fields.String, "Stable problem code (docs/problems.md).")
    detail = Required(fields.String, "The rule broken, in words, with its rule name.")


def _problem_pointer(problem: Any) -> str:
    """An engine ``Problem``'s ``path`` as a JSON Pointer; a stored one (a round's breakdown, as
    ``breakdown_data`` wrote it: ``{pointer, code, detail}``) keeps the pointer it was stored with."""
    if isinstance(problem, dict):
        return str(problem["pointer"])
    return json_pointer(problem.path)


class EngineProblemSchema(ProblemItemSchema):
    """Dumps an engine ``Problem`` (its ``path`` becomes a JSON Pointer), or a stored one as it is."""

    pointer = fields.Function(  # typed as the String it dumps (a Function has no type of its own)
        _problem_pointer,
        required=True,
        metadata={"type": "string", **ProblemItemSchema._declared_fields["pointer"].metadata},
    )


def Problems(**kw: Any) -> fields.List[Any]:  # noqa: N802
    return fields.List(
        fields.Nested(EngineProblemSchema),
        **kw,
        metadata={"description": "Every rule broken (empty when none), each with a stable code."},
    )


def breakdown_data(breakdown: Breakdown) -> dict[str, Any]:
    """An engine ``Breakdown`` as plain data: what ``BreakdownSchema().dump`` gives, member for member,
    without marshmallow reading every value (docs/performance.md; tests/api/test_scoring_api.py
    checks it against the schema)."""
    # Each line's members written out (LineSchema's, in the order of the engine's Line's fields), a
    # dict display per line: fewer calls per line than dict(zip(Line._fields, line)).
    return {
        "name": breakdown.name,
        "total": breakdown.total,
        "lines": [
            {"code": code, "label": label, "count": count, "points_each": each, "points": points}
            for code, label, count, each, points in breakdown.lines
        ],
        "warnings": [{"pointer": json_pointer(p.path), "code": p.code, "detail": p.detail} for p in breakdown.warnings],
    }
