"""A faster ``__init__`` for the engine's frozen, slotted value objects.

A frozen dataclass cannot assign its fields (its ``__setattr__`` raises), so the ``__init__`` that
``dataclass`` writes calls ``object.__setattr__(self, name, value)`` for each field: a lookup of the
name on the class and a generic call each time. Scoring one round builds dozens of these (a tally,
a table and a breakdown per side, a player per hand), so :func:`fast_init` gives such a class an
``__init__`` that sets each slot through its own descriptor instead (docs/performance.md has the
figures). Nothing else changes: same parameters, defaults, fields, ``repr``, equality, hashing and
immutability.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


def fast_init(cls: T) -> T:
    """Replace the ``__init__`` of ``cls`` (a ``@dataclass(frozen=True, slots=True)``) with one that
    sets each field through its slot descriptor. Put it above the ``@dataclass`` line.

    Only for simple classes: every field in ``__init__``, defaults but no ``default_factory``, no
    ``__post_init__``; anything else raises ``TypeError`` at import time.
    """
    if not is_dataclass(cls) or not cls.__dataclass_params__.frozen or "__slots__" not in cls.__dict__:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: fast_init is for frozen, slotted dataclasses")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init does not call __post_init__")
    namespace: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        if not f.init or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init needs plain fields")
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(source, namespace)  # as dataclasses itself writes __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
