"""Names (games, sides, players): any Unicode text of 1 to ``MAX_NAME_LENGTH`` characters, stored
and returned exactly as sent (no normalisation, no trimming), except characters that no name needs
and that break storage or display: control characters (Unicode category Cc: NUL, tabs, newlines,
escape, DEL, C1 controls) and lone UTF-16 surrogates (Cs, which JSON's ``\\ud800`` escapes can
produce but UTF-8 cannot store). Those are a 422 ``invalid_value`` naming the position. A name must
also show something: one made only of spaces and invisible format characters is refused.

(``handfoot.server.schemas.Name`` has only the length; the resources use :func:`Name` from here.
A round body's names are checked by the engine's reader, by the same rule.)
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from handfoot.engine.bodies import MAX_NAME_LENGTH, name_characters_problem

#: The same rule as a JSON Schema pattern (documented in the OpenAPI document). Surrogates cannot
#: be written in a pattern; the validator refuses them too.
_NAME_CHAR = "[^\\u0000-\\u001f\\u007f-\\u009f]"
_BLANK = "\\s\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u180e\\u200b-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\ufeff"
NAME_PATTERN = f"^{_NAME_CHAR}*[^{_BLANK}]{_NAME_CHAR}*$"


def check_name_characters(value: str) -> None:
    """Raise ``ValidationError`` on a control character or a lone surrogate in ``value``, or when
    ``value`` shows nothing (the engine's rule: ``handfoot.engine.bodies.name_characters_problem``)."""
    problem = name_characters_problem(value)
    if problem:
        raise ValidationError(problem)


def Name(description: str, **kw: Any) -> fields.String:  # noqa: N802 - a field factory
    return fields.String(
        validate=[validate.Length(min=1, max=MAX_NAME_LENGTH), check_name_characters],
        metadata={
            "description": f"{description} Any Unicode text with at least one visible character and no "
            "control characters, stored as sent.",
            "pattern": NAME_PATTERN,
        },
        **kw,
    )
