"""A round's end state scored by the one scoring path: cards -> ``side_tally`` -> ``breakdown``.

:func:`round_input` is the end state as :func:`~handfoot.engine.scoring.score_round` takes a round;
:func:`score_body` is the same round as the body of ``POST /v1/rounds/score``, so the table and the
endpoint give the same breakdown by construction (the simulation checks it on every round).
"""

from __future__ import annotations

from typing import Any

from handfoot.engine.errors import PlayError, Problem
from handfoot.engine.play.state import State
from handfoot.engine.scoring import RoundInput, RoundScore, TeamRound, score_round


def round_input(state: State) -> RoundInput:
    """The round of ``state`` as scoring takes it: each side's melds, red threes, burn pile and
    players (hand; foot when never picked up; ``played_from_foot``), ``went_out`` for the side out."""
    teams = tuple(
        TeamRound(
            side.name,
            state.out_side == j,
            side.melds,
            side.red_threes,
            side.burn,
            tuple(state.seats[i].player_state() for i in state.seats_of(j)),
        )
        for j, side in enumerate(state.sides)
    )
    return RoundInput(state.round, teams)


def score(state: State) -> RoundScore:
    """Every side's Breakdown of an ended round (``score_round``; raises ``RoundError`` if the end
    state broke a rule, which the step rules prevent). ``wrong_phase`` before the round ends."""
    if state.phase != "ended":
        raise PlayError([Problem("wrong_phase", "the round has not ended")])
    return score_round(round_input(state), state.rules)


def score_body(state: State) -> dict[str, Any]:
    """The end state as the JSON body of ``POST /v1/rounds/score`` (preset, house rules, round, teams)."""
    return {
        "preset": state.preset,
        "rules": dict(state.overrides),
        "round": state.round,
        "teams": [
            {
                "name": side.name,
                "went_out": state.out_side == j,
                "melds": [[c.code for c in m] for m in side.melds],
                "red_threes": [c.code for c in side.red_threes],
                "burn": [c.code for c in side.burn],
                "players": [
                    {
                        "name": seat.name,
                        "hand": [c.code for c in seat.hand],
                        **({} if seat.foot is None else {"foot": [c.code for c in seat.foot]}),
                        "played_from_foot": seat.played_from_foot,
                    }
                    for seat in (state.seats[i] for i in state.seats_of(j))
                ],
            }
            for j, side in enumerate(state.sides)
        ],
    }
