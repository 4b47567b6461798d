"""How results look: every ``str()`` (small text tables) and ``_repr_html_()`` (Jupyter) in one place.

Each renderer is registered for its result type (``@text_of(RoundScore)``), and the types'
common base (``handfoot.client._loader.Shown``) calls it, so a result prints the same wherever it is
shown. One module per resource, as ``handfoot.client.types``. Numbers are points unless said otherwise;
text groups thousands (``3,740``), and HTML escapes every string from a user or the server.
"""

from . import checks, games, history, presets, scoring
from ._blocks import html_table, text_table
from .scoring import score_plain

__all__ = ["checks", "games", "history", "html_table", "presets", "score_plain", "scoring", "text_table"]
