"""The one loader: result dataclasses read from, and written back to, the API's JSON.

Every result type is a frozen dataclass whose fields *are* its schema: ``load(cls, data)`` walks
``dataclasses.fields(cls)`` and their type hints, and ``dump(result)`` (``result.to_dict()``) gives
back the JSON shape the server sent. There is no hand-written ``from_json`` per type.

Reading (``load``), by the field's type hint:

- ``str``, ``int`` (not ``bool``), ``float``, ``bool``: the JSON value, checked.
- ``Literal[...]``: a string among the listed values (the spec's ``enum``).
- ``X | None``: ``null`` is ``None``; anything else is read as ``X``.
- ``tuple[X, ...]``: a JSON array, each item read as ``X``.
- ``Mapping[str, X]``: a JSON object, each value read as ``X``, kept in a ``FrozenDict``.
- ``object``: any JSON value, made read-only (objects become ``FrozenDict``, arrays tuples).
- ``datetime``: an ISO 8601 string (``2026-11-29T12:00:00+00:00``, or ``...Z``).
- a result dataclass: a JSON object, read field by field.

A member missing from the JSON takes the field's default (only a member that the spec does not
require has one); without a default it is ``None`` for an optional field (``X | None``, or
``object``: any JSON value, ``null`` too) and an error otherwise. A ``null`` sent for a field that
is not optional also takes the default when there is one. Members the SDK does not know are
ignored: a newer server may add some. Anything else raises ``APIResponseValidationError``
naming the path (``RoundScore.teams[0].lines``), what was expected and what came.

Field metadata (``wire(...)``) covers the few places where a field is not its JSON member as is:
another member name, a value that comes from a response header (``etag``), a member the server
leaves out rather than sending ``null``, and an array of ``{name, value}`` objects read as a mapping.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Literal, NoReturn, Self, TypeVar, Union

from ._errors import APIResponseValidationError

__all__ = ["HTML", "TEXT", "FrozenDict", "Result", "Shown", "dump", "freeze", "load", "load_list", "thaw", "wire"]

_K = TypeVar("_K")
_V = TypeVar("_V")
_R = TypeVar("_R", bound="Result")

# Metadata keys of ``wire``.
_MEMBER = "handfoot.client.member"
_IN_BODY = "handfoot.client.in_body"
_OMIT_NONE = "handfoot.client.omit_none"
_KEYED = "handfoot.client.keyed"


class FrozenDict(dict[_K, _V]):
    """A read-only ``dict``: what a result holds for a JSON object of free shape (``rules``).

    It compares, iterates and encodes to JSON as a dict, and ``dict(value)`` gives a copy to
    change. Unlike ``types.MappingProxyType`` it pickles, deep-copies and survives
    ``dataclasses.asdict``.
    """

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("this mapping is read-only; change a copy: dict(value)")

    __setitem__ = __delitem__ = _read_only
    clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __reduce__(self) -> tuple[type[FrozenDict[_K, _V]], tuple[dict[_K, _V]]]:
        # dict's own pickling refills the copy item by item, through the blocked __setitem__.
        return (type(self), (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


def wire(
    *,
    member: str | None = None,
    in_body: bool = True,
    omit_none: bool = False,
    keyed: tuple[str, str] | None = None,
) -> dict[str, object]:
    """Field metadata for ``dataclasses.field(metadata=wire(...))``.

    ``member``: the JSON member's name when it is not the field's. ``in_body=False``: the value
    is not in the body (an ``etag`` from the response header), so ``load`` takes it as a keyword
    and ``dump`` leaves it out. ``omit_none``: ``dump`` leaves the member out when it is ``None``
    (the server sends it only when it applies). ``keyed=("name", "minimum")``: a JSON array of
    ``{"name": ..., "minimum": ...}`` objects read as the mapping name → minimum.
    """
    return {_MEMBER: member, _IN_BODY: in_body, _OMIT_NONE: omit_none, _KEYED: keyed}


# --------------------------------------------------------------------------- reading

#: Where a value sits, for error messages: the root's name, or (parent, member name or index).
#: Built as tuples while reading and spelled out (``RoundScore.teams[0].lines``) only on error.
Where = str | tuple["Where", str | int]
Reader = Callable[[object, Where], Any]


def _path(where: Where) -> str:
    parts = []
    while isinstance(where, tuple):
        where, key = where
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return where + "".join(reversed(parts))


def _kind(value: object) -> str:
    """The JSON kind of a decoded value, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, int | float):
        return "number"
    return "string" if isinstance(value, str) else type(value).__name__


def _fail(where: Where, expected: str, value: object) -> NoReturn:
    raise APIResponseValidationError(f"{_path(where)}: expected {expected}, got {_kind(value)}")


def _scalar(kind: type | tuple[type, ...], expected: str) -> Reader:
    def read(value: object, where: Where) -> Any:
        # bool is an int in Python, never in JSON.
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            _fail(where, expected, value)
        return value

    return read


_SCALARS: Mapping[object, Reader] = {
    str: _scalar(str, "a string"),
    int: _scalar(int, "an integer"),
    float: _scalar((int, float), "a number"),
    bool: _scalar(bool, "a boolean"),
}


#: The JSON values that are already plain (and immutable).
_PLAIN = (str, int, float, bool, type(None))


def _freeze(value: object) -> object:
    """A read-only copy of decoded JSON: objects become ``FrozenDict``, arrays tuples."""
    kind = type(value)  # the exact types first: decoded JSON (and an engine view) is made of them
    if kind is dict or kind is FrozenDict:
        return FrozenDict({k if type(k) is str else str(k): _freeze(v) for k, v in value.items()})  # type: ignore[attr-defined]
    if kind is list or kind is tuple:
        return tuple([_freeze(v) for v in value])  # type: ignore[attr-defined]
    if kind in _PLAIN or isinstance(value, _PLAIN):
        return value
    if isinstance(value, Mapping):
        return FrozenDict({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


#: ``_freeze`` by its public name: what a result holds for a JSON value of free shape.
freeze = _freeze


def thaw(value: object) -> Any:
    """A mutable copy of a frozen JSON value: mappings become ``dict``, tuples and lists ``list``
    (the inverse of :func:`freeze`, without encoding to JSON and back)."""
    kind = type(value)
    if kind is FrozenDict or kind is dict:
        return {k: thaw(v) for k, v in value.items()}  # type: ignore[attr-defined]
    if kind is tuple or kind is list:
        return [thaw(v) for v in value]  # type: ignore[attr-defined]
    if kind in _PLAIN:
        return value
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


def _read_datetime(value: object, where: Where) -> datetime:
    if not isinstance(value, str):
        _fail(where, "an ISO 8601 timestamp", value)
    try:
        return datetime.fromisoformat(value)
    except ValueError as exc:
        raise APIResponseValidationError(f"{_path(where)}: not an ISO 8601 timestamp: {value!r}") from exc


def _object(value: object, where: Where) -> Mapping[str, object]:
    if type(value) is not dict and not isinstance(value, Mapping):  # decoded JSON: a dict
        _fail(where, "a JSON object", value)
    return value


def _array(value: object, where: Where) -> list[object] | tuple[object, ...]:
    if not isinstance(value, list | tuple):
        _fail(where, "an array", value)
    return value


def _reader(hint: Any, keyed: tuple[str, str] | None = None) -> Reader:
    """The function that reads a JSON value as ``hint``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in _SCALARS:
        return _SCALARS[hint]
    if hint is object or hint is Any:
        return lambda value, where: _freeze(value)
    if hint is datetime:
        return _read_datetime
    if origin in (Union, types.UnionType) and type(None) in args:
        (inner,) = (a for a in args if a is not type(None))
        read_inner = _reader(inner, keyed)
        return lambda value, where: None if value is None else read_inner(value, where)
    if origin is Literal:
        allowed = ", ".join(repr(a) for a in args)

        def read_literal(value: object, where: Where) -> Any:
            if value not in args:
                raise APIResponseValidationError(f"{_path(where)}: expected one of {allowed}, got {value!r}")
            return value

        return read_literal
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        read_item = _reader(args[0])
        return lambda value, where: tuple(read_item(v, (where, i)) for i, v in enumerate(_array(value, where)))
    if origin is Mapping and keyed is not None:
        return _keyed_reader(keyed, _reader(args[1]))
    if origin is Mapping:
        read_value = _reader(args[1])
        return lambda value, where: FrozenDict(
            {str(k): read_value(v, (where, str(k))) for k, v in _object(value, where).items()}
        )
    if isinstance(hint, type) and issubclass(hint, Result):
        result_type: type[Result] = hint
        return lambda value, where: load(result_type, value, where)
    raise TypeError(f"the loader cannot read a field of type {hint!r}")


def _keyed_reader(keyed: tuple[str, str], read_value: Reader) -> Reader:
    key, item = keyed
    read_key = _SCALARS[str]

    def read(value: object, where: Where) -> Any:
        out = {}
        for i, entry in enumerate(_array(value, where)):
            obj = _object(entry, (where, i))
            out[read_key(obj.get(key), ((where, i), key))] = read_value(obj.get(item), ((where, i), item))
        return FrozenDict(out)

    return read


class _Field(typing.NamedTuple):
    """How one field is read: from JSON member ``member`` by ``read``."""

    name: str
    member: str
    read: Reader
    optional: bool
    default: Callable[[], object] | None


#: Per class: the fields read from the body, and the names of those given by the caller (``etag``).
_PLANS: dict[type, tuple[tuple[_Field, ...], frozenset[str]]] = {}


def _constant(value: object) -> Callable[[], object]:
    return lambda: value


def _plan(cls: type) -> tuple[tuple[_Field, ...], frozenset[str]]:
    """How to read ``cls`` (worked out once per class, on its first load)."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _make_plan(cls)
    return plan


def _make_plan(cls: type) -> tuple[tuple[_Field, ...], frozenset[str]]:
    hints = typing.get_type_hints(cls)
    body, given = [], []
    for f in dataclasses.fields(cls):
        if not f.metadata.get(_IN_BODY, True):
            given.append(f.name)
            continue
        default: Callable[[], object] | None = None
        if f.default is not dataclasses.MISSING:
            default = _constant(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory
        hint = hints[f.name]
        member = f.metadata.get(_MEMBER) or f.name
        read = _reader(hint, f.metadata.get(_KEYED))
        may_be_null = hint is object or hint is Any or type(None) in typing.get_args(hint)
        body.append(_Field(f.name, member, read, may_be_null, default))
    return tuple(body), frozenset(given)


def load(cls: type[_R], data: object, where: Where | None = None, **given: object) -> _R:
    """Read the decoded JSON ``data`` as the result dataclass ``cls``.

    ``where`` names the value in error messages (default: the class name). ``given`` supplies
    the fields that are not in the body (``etag=...``). Raises ``APIResponseValidationError``.
    """
    where = cls.__name__ if where is None else where
    obj = _object(data, where)
    fields, from_caller = _plan(cls)
    values = {name: value for name, value in given.items() if name in from_caller}
    missing: list[str] = []
    for name, member, read, optional, default in fields:
        value = obj.get(member)
        if value is not None:
            values[name] = read(value, (where, member))
        elif optional and member in obj:  # an explicit null
            values[name] = None
        elif default is not None:
            values[name] = default()
        elif optional:
            values[name] = None
        elif member in obj:
            read(value, (where, member))  # null for a value that may not be null: raises, saying so
        else:
            missing.append(member)
    if missing:
        raise APIResponseValidationError("; ".join(f"{_path(where)}: missing member {m!r}" for m in missing))
    return cls(**values)


# --------------------------------------------------------------------------- writing


_DUMP_PLANS: dict[type, tuple[tuple[str, str, bool, tuple[str, str] | None], ...]] = {}


def _dump_plan(cls: type) -> tuple[tuple[str, str, bool, tuple[str, str] | None], ...]:
    """``(field, member, omit_none, keyed)`` for each field of ``cls`` that is in the body."""
    plan = _DUMP_PLANS.get(cls)
    if plan is None:
        plan = _DUMP_PLANS[cls] = tuple(
            (f.name, f.metadata.get(_MEMBER) or f.name, bool(f.metadata.get(_OMIT_NONE)), f.metadata.get(_KEYED))
            for f in dataclasses.fields(cls)
            if f.metadata.get(_IN_BODY, True)
        )
    return plan


def dump(value: object) -> Any:
    """The JSON form of a result (``to_dict()``): member names and shapes as the server sends
    them; timestamps as ISO 8601 strings; header values (``etag``) left out."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Result):
        out: dict[str, object] = {}
        for name, member, omit_none, keyed in _dump_plan(type(value)):
            item = getattr(value, name)
            if item is None and omit_none:
                continue
            if keyed is not None and item is not None:
                out[member] = [{keyed[0]: k, keyed[1]: dump(v)} for k, v in item.items()]
            else:
                out[member] = dump(item)
        return out
    if isinstance(value, Mapping):
        return {str(k): dump(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [dump(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


#: How each type prints (``str``) and renders in Jupyter (``_repr_html_``): filled by
#: ``handfoot.client.display``, which ``import handfoot`` loads. A type missing here prints as its repr.
TEXT: dict[type, Callable[[Any], str]] = {}
HTML: dict[type, Callable[[Any], str]] = {}


class Shown:
    """``str()`` and ``_repr_html_()`` by the renderers ``handfoot.client.display`` registers."""

    __slots__ = ()

    def __str__(self) -> str:
        render = TEXT.get(type(self))
        return repr(self) if render is None else render(self)

    def _repr_html_(self) -> str | None:
        """An HTML table for Jupyter, or ``None`` (Jupyter then shows the text)."""
        render = HTML.get(type(self))
        return None if render is None else render(self)


class Result(Shown):
    """Base of the result dataclasses: ``from_json`` (the one loader), ``to_dict``, and their
    display (``handfoot.client.display``)."""

    __slots__ = ()

    @classmethod
    def from_json(cls, data: object, where: str | None = None, **given: object) -> Self:
        """Read decoded JSON (see ``handfoot.client._loader``); raises ``APIResponseValidationError``."""
        return load(cls, data, where, **given)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape the server sent for this result, as plain dicts and lists."""
        out: dict[str, Any] = dump(self)
        return out


def load_list(cls: type[_R], data: object, where: str) -> list[_R]:
    """A JSON array of ``cls`` results (``GET /v1/presets``, revisions)."""
    return [load(cls, item, (where, i)) for i, item in enumerate(_array(data, where))]
