"""Policies a bot author writes: the :class:`Policy` protocol, and :func:`load_policy`, which finds
one by name or in the author's own module (``handfoot arena --policies mybot:policy,greedy``).

    # mybot.py, in the current directory or anywhere on sys.path
    def policy(view, rules, rng):         # the seat's view, the rules in force, a random.Random
        return [body for entry in view["actions"] for body in entry["send"]]   # best first

    from handfoot.client.policies import load_policy
    mine = load_policy("mybot:policy")
    mine.for_arena("pagat")               # -> a Policy for handfoot.engine.play.arena.run_arena
    mine.for_table(seed=1)                # -> a choose for handfoot.client.bots.Bot

A policy takes the engine's view of one seat (``handfoot.engine.play.view``: plain dicts and
lists, the same members as an HTTP table's ``SeatView.view``), the rules in force (the engine's
``RuleSet``) and a ``random.Random`` to draw from (seeded by the driver, so a run repeats), and
returns candidate actions, best first, each one of the bodies the view lists (an entry's
``send``); the driver adds the seat's ``seat`` member where it is missing (the arena's engine reads
it, a table takes the seat from the token). The driver plays the first candidate the rules accept.
The engine's reference bots (``random``, ``greedy``, ``planner``) are policies.

A table bot's ``choose`` (a ``SeatView`` -> candidate actions, ``handfoot.client.bots.Choose``)
loads too: it plays in the arena through :func:`handfoot.client.arena.table_bot_policy`.
:func:`load_policy` tells the two apart by their positional parameters: three (view, rules, rng)
make a policy, one (the seat view) a ``choose``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .bots import Choose, policy_choose

if TYPE_CHECKING:
    from handfoot.engine.rules import RuleSet

__all__ = ["LoadedPolicy", "Policy", "PolicyLoadError", "builtin_policies", "load_policy"]


class Policy(Protocol):
    """A bot's mind in the arena and at a table: ``(view, rules, rng) -> candidate actions``.

    ``view``: the seat's view (``handfoot.engine.play.view``, plain dicts and lists; the policy
    may keep it, the driver gives a fresh one each decision); ``rules``: the ``RuleSet`` in force;
    ``rng``: the seat's ``random.Random``. Returns actions as the engine takes them
    (``{"type": "discard", "card": "7H"}``), best first; an empty list passes nothing the table
    could accept (the driver then fails)."""

    def __call__(self, view: dict[str, Any], rules: RuleSet, rng: random.Random, /) -> list[dict[str, Any]]: ...


class PolicyLoadError(ValueError):
    """A policy path that names nothing usable: a module that does not import, an attribute it
    lacks, or something that is neither a policy nor a ``choose``. The message says which."""


def builtin_policies() -> tuple[str, ...]:
    """The names of the engine's reference policies (``handfoot.engine.play.arena.POLICIES``)."""
    from handfoot.engine.play.arena import POLICIES

    return tuple(POLICIES)


@dataclass(frozen=True, slots=True)
class LoadedPolicy:
    """A policy found by :func:`load_policy`: its ``name`` (the text given: ``greedy`` or
    ``mybot:policy``) and either ``policy`` (the engine's form) or ``choose`` (a table bot's)."""

    name: str
    policy: Policy | None = None
    choose: Choose | None = None

    def for_arena(self, preset: str, rules: Mapping[str, object] | None = None) -> Policy:
        """The policy as the arena plays it under ``preset`` with house ``rules`` (a ``choose``
        is handed each view as a ``SeatView`` of those rules)."""
        if self.policy is not None:
            return self.policy
        from .arena import table_bot_policy

        assert self.choose is not None
        return table_bot_policy(self.choose, preset, rules)

    def for_table(self, seed: int | None = None) -> Choose:
        """The policy as a table bot's ``choose``, drawing from ``random.Random(seed)`` under
        the rules its views name."""
        if self.choose is not None:
            return self.choose
        assert self.policy is not None
        return policy_choose(self.policy, seed=seed)


def _positional(fn: object) -> int | None:
    """How many positional arguments ``fn`` takes (a ``*args`` counts as any: 3), ``None`` when
    Python cannot tell."""
    try:
        params = inspect.signature(fn).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    kinds = [p.kind for p in params]
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        return 3
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(kind in positional for kind in kinds)


def _import(module: str, spec: str) -> Any:
    # as `python -m` and gunicorn do: the author's module may sit in the current directory
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise PolicyLoadError(f"{spec}: cannot import {module} ({exc}); is it on sys.path?") from exc
    except Exception as exc:  # the author's module failed while it ran: say how, not a traceback
        raise PolicyLoadError(f"{spec}: importing {module} raised {type(exc).__name__}: {exc}") from exc


def _with_seat(policy: Policy) -> Policy:
    """``policy`` with each candidate given the seat's ``seat`` where it has none (the engine's
    step reads it; the bodies a view lists leave it out)."""

    def seated(view: dict[str, Any], rules: RuleSet, rng: random.Random) -> list[dict[str, Any]]:
        return [action if "seat" in action else {**action, "seat": view["seat"]} for action in policy(view, rules, rng)]

    return seated


def load_policy(spec: str) -> LoadedPolicy:
    """The policy ``spec`` names: a reference policy's name (:func:`builtin_policies`), or
    ``module:attribute`` (``mybot:policy``, ``pkg.bots:Mine.choose``), imported from sys.path and
    the current directory; a class is made once without arguments and its instance called. Raises
    :class:`PolicyLoadError` for a name it does not know, a module that does not import, an
    attribute missing, a class that needs arguments, or a value that is neither a policy (three
    positional parameters) nor a ``choose`` (one)."""
    from handfoot.engine.play.arena import POLICIES

    spec = spec.strip()
    if spec in POLICIES:
        return LoadedPolicy(spec, policy=POLICIES[spec])
    module, sep, attribute = spec.partition(":")
    if not sep or not module or not attribute:
        raise PolicyLoadError(
            f"{spec or '(empty)'}: not a reference policy ({', '.join(POLICIES)}) "
            "nor a path module:attribute (e.g. mybot:policy)"
        )
    value = _import(module, spec)
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise PolicyLoadError(f"{spec}: {module} has no attribute {attribute}")
        value = getattr(value, part)
    if not callable(value):
        raise PolicyLoadError(f"{spec}: {attribute} is a {type(value).__name__}, not a function")
    if inspect.isclass(value):  # a class of policies (a model loaded once): one instance plays
        try:
            value = value()
        except TypeError as exc:
            raise PolicyLoadError(f"{spec}: the class {attribute} cannot be made without arguments ({exc})") from exc
        if not callable(value):
            raise PolicyLoadError(f"{spec}: an instance of {attribute} is not callable (no __call__)")
    count = _positional(value)
    if count is not None and count >= 3:
        return LoadedPolicy(spec, policy=_with_seat(value))
    if count == 1:
        return LoadedPolicy(spec, choose=value)
    raise PolicyLoadError(
        f"{spec}: {attribute} takes {count if count is not None else 'unknown'} positional arguments; "
        "a policy takes (view, rules, rng), a table bot's choose takes (seat_view)"
    )
