"""What the strict action schema costs a seat's action (issue 29): ``ActionCreateSchema.load`` (each
action type's own schema, chosen by ``type``) against the schema it replaced (``action`` a bare
object), on the same bodies, in one run, in process. Prints microseconds per load (the best of 5
repeats of 20,000) and their ratio. Not part of ``make test``; run it with
``.venv/bin/python -m bench.action_schema``."""

from __future__ import annotations

import timeit
from functools import partial
from typing import Any

from marshmallow import fields

from handfoot.server import create_app
from handfoot.server.resources.tables.schemas import ActionCreateSchema
from handfoot.server.schemas import Int, Schema

BODIES: dict[str, dict[str, Any]] = {
    "draw": {"version": 5, "action": {"type": "draw"}},
    "meld": {
        "version": 5,
        "action": {
            "type": "meld",
            "melds": [["KS", "KH", "KD"], ["9S", "9H", "2C"]],
            "add": [{"to": 0, "cards": ["KC"]}],
        },
    },
    "discard": {"version": 5, "action": {"type": "discard", "card": "7H"}},
}


class BareActionCreateSchema(Schema):
    """The schema before issue 29: any object as the action."""

    version = Int(required=True)
    action = fields.Dict(keys=fields.String(), required=True)


def main(number: int = 20_000) -> None:
    strict, bare = ActionCreateSchema(), BareActionCreateSchema()
    with create_app().app_context():
        for name, body in BODIES.items():
            t_strict = min(timeit.repeat(partial(strict.load, body), number=number, repeat=5)) / number * 1e6
            t_bare = min(timeit.repeat(partial(bare.load, body), number=number, repeat=5)) / number * 1e6
            print(f"{name:8s} strict {t_strict:6.1f} µs  bare {t_bare:6.1f} µs  ratio {t_strict / t_bare:.2f}")


if __name__ == "__main__":
    main()
