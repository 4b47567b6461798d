"""The play engine: a round dealt from a seeded shuffle, played by actions, one pure step at a time.

    from handfoot.engine.play import new_round, step, view
    state = new_round("pagat", [("North-South", ["North", "South"]), ("East-West", ["East", "West"])], seed=7)
    state = step(state, {"type": "draw", "seat": state.turn})
    print(view(state, 0)["actions"])  # each with "send": the bodies step accepts now (add "seat")

Every legality decision calls the rule functions of the checks and scoring (``melds.validate_meld``,
``table.analyse_table``, ``checks.check_opening``, ``checks.check_discard_pile``,
``checks.going_out_problems``); an ended round is scored by ``scoring.score_round``
(:func:`~handfoot.engine.play.end.score`). Standard library only.
"""

from handfoot.engine.play.deal import deal_problems, new_round, practice_round_seed, rounds_from, seat_order
from handfoot.engine.play.end import round_input, score, score_body
from handfoot.engine.play.listing import open_actions
from handfoot.engine.play.members import ACTION_MEMBERS
from handfoot.engine.play.options import PlayOptions, play_options, preset_play_options
from handfoot.engine.play.state import EVENT_TYPES, PHASES, Seat, Side, State, state_from_mapping, to_mapping
from handfoot.engine.play.step import ACTION_TYPES, refusals, step
from handfoot.engine.play.view import view

__all__ = [
    "ACTION_MEMBERS",
    "ACTION_TYPES",
    "EVENT_TYPES",
    "PHASES",
    "PlayOptions",
    "Seat",
    "Side",
    "State",
    "deal_problems",
    "new_round",
    "open_actions",
    "play_options",
    "practice_round_seed",
    "preset_play_options",
    "refusals",
    "round_input",
    "rounds_from",
    "score",
    "score_body",
    "seat_order",
    "state_from_mapping",
    "step",
    "to_mapping",
    "view",
]
