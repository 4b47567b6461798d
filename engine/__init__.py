"""handfoot's rules engine: pure Python, standard library only.

Cards and rule sets, meld validation, opening and going-out checks, the discard pile, and round
scoring with a line-by-line breakdown. Use it offline::

    from handfoot.engine import score_round_request
    score = score_round_request({"preset": "pagat", "round": 1, "teams": [...]})
    for team in score.teams:
        print(team.name, team.total, [(line.code, line.points) for line in team.lines])
"""

from handfoot.engine.cards import DECK, Card, Rank, Suit, parse_card, parse_cards
from handfoot.engine.checks import (
    DiscardPileCheck,
    GoingOutCheck,
    OpeningCheck,
    PlayerState,
    check_discard_pile,
    check_going_out,
    check_opening,
)
from handfoot.engine.errors import (
    PROBLEM_CODES,
    CardError,
    HandFootError,
    InvalidMeldError,
    Problem,
    RoundError,
    RulesError,
    UnknownPresetError,
)
from handfoot.engine.games import GAME_STATUSES, GameState, GameStatus, SideTotal, game_state
from handfoot.engine.melds import BookKind, MeldCheck, card_points, cards_points, validate_meld
from handfoot.engine.operations import (
    Comparison,
    check_discard_pile_request,
    check_going_out_request,
    check_opening_request,
    compare_round_request,
    round_from_mapping,
    rules_of,
    score_round_body,
    score_round_request,
    validate_meld_request,
)
from handfoot.engine.presets import PRESETS, Preset, Provenance, ResolvedRules, find_preset, resolve_rules
from handfoot.engine.rule_fields import RULE_FIELDS, RuleField, apply_overrides, rules_from_mapping
from handfoot.engine.rules import Contract, RuleSet, Threshold
from handfoot.engine.scoring import (
    LINE_LABELS,
    Breakdown,
    Line,
    RoundInput,
    RoundScore,
    Tally,
    TeamRound,
    breakdown,
    score_round,
    side_tally,
)
from handfoot.engine.sides import name_key, sides_problems

__all__ = [
    "DECK",
    "GAME_STATUSES",
    "LINE_LABELS",
    "PRESETS",
    "PROBLEM_CODES",
    "RULE_FIELDS",
    "BookKind",
    "Breakdown",
    "Card",
    "CardError",
    "Comparison",
    "Contract",
    "DiscardPileCheck",
    "GameState",
    "GameStatus",
    "GoingOutCheck",
    "HandFootError",
    "InvalidMeldError",
    "Line",
    "MeldCheck",
    "OpeningCheck",
    "PlayerState",
    "Preset",
    "Problem",
    "Provenance",
    "Rank",
    "ResolvedRules",
    "RoundError",
    "RoundInput",
    "RoundScore",
    "RuleField",
    "RuleSet",
    "RulesError",
    "SideTotal",
    "Suit",
    "Tally",
    "TeamRound",
    "Threshold",
    "UnknownPresetError",
    "apply_overrides",
    "breakdown",
    "card_points",
    "cards_points",
    "check_discard_pile",
    "check_discard_pile_request",
    "check_going_out",
    "check_going_out_request",
    "check_opening",
    "check_opening_request",
    "compare_round_request",
    "find_preset",
    "game_state",
    "name_key",
    "parse_card",
    "parse_cards",
    "resolve_rules",
    "round_from_mapping",
    "rules_from_mapping",
    "rules_of",
    "score_round",
    "score_round_body",
    "score_round_request",
    "side_tally",
    "sides_problems",
    "validate_meld",
    "validate_meld_request",
]
