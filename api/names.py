"""Names (games, sides, players): any Unicode text of 1 to ``MAX_NAME_LENGTH`` characters, stored
and returned exactly as sent (no normalisation, no trimming), except characters that no name needs
and that break storage or display: control characters (Unicode category Cc: NUL, tabs, newlines,
escape, DEL, C1 controls) and lone UTF-16 surrogates (Cs, which JSON's ``\\ud800`` escapes can
produce but UTF-8 cannot store). Those are a 422 ``invalid_value`` naming the position. A name must
also show something: one made only of spaces and invisible format characters is refused.

(``handfoot.server.schemas.Name`` has only the length; the resources use :func:`Name` from here.)
"""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, fields, validate

from handfoot.server.schemas import MAX_NAME_LENGTH

#: The same rule as a JSON Schema pattern (documented in the OpenAPI document). Surrogates cannot
#: be written in a pattern; the validator refuses them too.
_NAME_CHAR = "[^\\u0000-\\u001f\\u007f-\\u009f]"
_BLANK = "\\s\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u180e\\u200b-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\ufeff"
NAME_PATTERN = f"^{_NAME_CHAR}*[^{_BLANK}]{_NAME_CHAR}*$"


_BLANK_NAME = "a name needs at least one visible character (not only spaces or invisible ones)"


def _invisible(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp")


def check_name_characters(value: str) -> None:
    """Raise ``ValidationError`` on a control character or a lone surrogate in ``value``, or when
    ``value`` shows nothing (only spaces and invisible format characters such as U+200B)."""
    if value.isascii() and value.isprintable():
        # U+0020..U+007E only: no control character, no surrogate; the one invisible one is the space.
        if value and not value.strip(" "):
            raise ValidationError(_BLANK_NAME)
        return
    if value and all(_invisible(ch) for ch in value):
        raise ValidationError(_BLANK_NAME)
    for i, ch in enumerate(value):
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs"):
            what = "a lone surrogate" if category == "Cs" else "a control character"
            raise ValidationError(f"character {i} is {what} (U+{ord(ch):04X}); names may hold any other Unicode text")


def name_ok(value: object) -> bool:
    """Whether :func:`Name` loads ``value`` as it is: a string of 1 to ``MAX_NAME_LENGTH`` characters
    that :func:`check_name_characters` accepts (the one-pass side lists use this; see
    ``handfoot.server.resources.rounds.schemas``)."""
    if type(value) is not str or not 1 <= len(value) <= MAX_NAME_LENGTH:
        return False
    try:
        check_name_characters(value)
    except ValidationError:
        return False
    return True


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
