"""Errors raised by the engine.

Every error carries one or more :class:`Problem` items: a stable machine-readable ``code`` (one of
:data:`PROBLEM_CODES`), a ``detail`` in words naming the rule and its source, and a ``path`` into the
input that broke it (a tuple of keys and indexes, e.g. ``("teams", 0, "melds", 1, 2)``). The engine
knows nothing of HTTP: the API turns a path into a JSON Pointer and an error into a problem document.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Problem:
    """One rule broken: ``code`` (stable, in :data:`PROBLEM_CODES`), ``detail`` (words), ``path``."""

    code: str
    detail: str
    path: Path = ()

    def at(self, *prefix: str | int) -> Problem:
        """The same problem with ``prefix`` put before its path."""
        return Problem(self.code, self.detail, tuple(prefix) + self.path)


class HandFootError(ValueError):
    """Base of every engine error; ``problems`` lists every rule broken (at least one)."""

    title = "Invalid input"
    #: The kind of problem, by name (the last segment of the API's problem type: docs/problems.md).
    slug = "rules-broken"

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("an engine error needs at least one problem")
        super().__init__("; ".join(p.detail for p in self.problems))

    @property
    def code(self) -> str:
        """The code of the first problem."""
        return self.problems[0].code

    def at(self, *prefix: str | int) -> HandFootError:
        """The same error, every problem's path prefixed (e.g. by ``"teams", 0``)."""
        return type(self)(p.at(*prefix) for p in self.problems)


class CardError(HandFootError):
    """A card string is not a card (DESIGN §2), or more copies of a card than the decks hold."""

    title = "Invalid card"
    slug = "invalid-card"


class UnknownPresetError(HandFootError, LookupError):
    """No preset has this id."""

    title = "Unknown preset"
    slug = "unknown-preset"


class RulesError(HandFootError):
    """House-rule overrides are unknown, out of range, or inconsistent with each other."""

    title = "Invalid house rules"
    slug = "invalid-rules"


class InvalidMeldError(HandFootError):
    """A meld breaks the rule set (raised where a valid meld is required, e.g. scoring)."""

    title = "Invalid meld"
    slug = "invalid-meld"


class RoundError(HandFootError):
    """A round sent to be scored breaks the rules (going out, contract, card counts, ...)."""

    title = "Round breaks the rules"
    slug = "invalid-round"


class BodyError(HandFootError):
    """A request body of the wrong shape: a member missing or unknown, a value of the wrong JSON
    type, out of its range or too long (``handfoot.engine.bodies``; the API's schema codes)."""

    title = "Request does not match the schema"
    slug = "validation-error"


class PlayError(HandFootError):
    """An action refused by the play engine (``handfoot.engine.play``): not the seat's turn or phase,
    a card not held, or a rule of play broken (the same codes as the checks: ``pile_needs_match``,
    ``opening_below_minimum``, ``contract_not_met``, ...)."""

    title = "Action refused"


# The closed list of problem codes. Adding a code is an API change: document it in docs/problems.md too.
PROBLEM_CODES: dict[str, str] = {
    # cards
    "unknown_card": "A string that is not a card (ranks A 2-10 J Q K or T, suits S H D C or symbols, JK).",
    "too_many_copies": "More copies of one card than the decks in play hold.",
    # presets and house rules
    "unknown_preset": "No preset has this id.",
    "unknown_rule": "A house-rule key that the rule model does not have.",
    "invalid_rule_value": "A house-rule value of the wrong type or out of range.",
    "inconsistent_rules": "House rules that contradict each other or that the decks cannot supply.",
    # melds
    "meld_too_small": "A meld has fewer cards than the minimum meld size.",
    "meld_too_large": "A meld has more cards than a book may hold.",
    "mixed_ranks": "A meld holds natural cards of more than one rank.",
    "rank_not_meldable": "Cards of this rank may not be melded (threes, unless the rules allow).",
    "all_wild_not_allowed": "The rule set has no all-wild melds.",
    "too_many_wilds": "The meld breaks the rule set's ratio of natural to wild cards.",
    "too_few_naturals": "The meld holds wild cards but fewer natural cards than the rule set requires.",
    "wild_limit_in_book": "The meld holds more wild cards than the rule set allows in a book.",
    "book_closed": "Cards were added to a completed book that the rule set closes.",
    "duplicate_open_meld": "Two unfinished melds of the same rank on one side's table.",
    "second_book_of_rank": "A second meld of a rank whose book is closed, where the rule set burns instead.",
    # opening
    "opening_below_minimum": "The opening melds' card points are below the round's minimum.",
    "table_below_opening_minimum": "A side's card points on the table are below the round's opening minimum, "
    "which its first melds had to reach.",
    "opening_needs_book": "The rule set opens with a completed book, and the opening melds hold none.",
    # going out
    "contract_not_met": "The side does not have the books its contract needs to go out.",
    "foot_not_picked_up": "A player of the side has not picked up the foot, which going out requires.",
    "foot_not_played": "A player of the side has not played from the foot, which going out requires.",
    "foot_count": "A foot never picked up does not hold exactly the cards dealt to it (foot_size).",
    "out_of_cards_not_out": "A player holds no cards although the side did not go out, where the rules "
    "let the last card be played only by going out (last_card_needs_contract).",
    "cards_left_when_out": "The side that went out still holds more cards than going out allows.",
    "two_sides_out": "More than one side is marked as having gone out.",
    "duplicate_side": "Two sides of a round (or of a game) have the same name (compared ignoring case and Unicode "
    "composition).",
    "duplicate_player": "A player name appears twice in a round or a game (compared ignoring case and Unicode "
    "composition).",
    # discard pile
    "pile_empty": "The discard pile is empty.",
    "pile_not_taken": "The rule set never takes the discard pile: every turn draws from the stock.",
    "pile_blocked": "The top card of the discard pile blocks taking it (a black three, a wild, ...).",
    "pile_frozen": "The discard pile is frozen.",
    "pile_needs_match": "The hand does not hold the cards the rule set needs to take the pile.",
    "pile_rank_closed": "The top card's rank is a completed book, which the rule set forbids taking.",
    # rounds
    "red_three_not_laid_out": "The rule set never lays red threes out on the table.",
    "input_needed": "An input the rule needs was not given, so the answer is unknown (not yes).",
    "red_three_held": "The rule set plays red threes automatically: none ends a round in a hand or foot.",
    "not_a_red_three": "A card listed among the red threes on the table is not a red three.",
    "pile_card_not_in_melds": "A card said to come from the discard pile is not in the melds.",
    "missing_score": "The rules take the opening minimum from the side's score, and no score was given.",
    "not_in_rules": "An input or line that the rule set does not score or have (e.g. perfect cuts without a "
    "perfect-cut bonus); refused rather than ignored.",
    "invalid_input": "A value of the wrong shape (the API's schema catches these before the engine).",
    "burn_not_allowed": "The rule set has no burn pile.",
    "burn_needs_closed_book": "A burned card's rank has no completed book on the side's table.",
    "wild_burned": "Wild cards cannot be burned.",
    "negative_tally": "A tally count or points value is negative.",
    "invalid_tally": "A tally that no legal table can produce.",
    "team_count": "The number of sides, of players on a side or of players at the table is outside what the "
    "rule set allows.",
    "round_out_of_range": "The round number is not a positive integer.",
    # play (handfoot.engine.play): the flow of turns; rules of play broken use the codes above
    "not_your_turn": "The action comes from a seat whose turn (or answer) it is not.",
    "wrong_phase": "The action is not open in this phase of the turn (draw, play, answer) or the round has ended.",
    "unknown_action": "An action of a type the play engine does not have, with a member its type does not "
    "have, or of the wrong shape.",
    "card_not_held": "The action uses a card that the seat does not hold (or more copies than it holds).",
    "unknown_meld": "The action adds to a meld that the side's table does not have.",
    "going_out_needs_discard": "The rules require the last card to be discarded when going out; it may not be melded.",
    "partner_not_asked": 'Going out needs the partner\'s yes to "May I go out?" this turn.',
    "already_asked": "The partner was already asked this turn.",
}
