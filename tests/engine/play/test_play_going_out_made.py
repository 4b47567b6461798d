"""The going-out reasons play asks (``play.going_out``) are made once per rule set and what they
read: an answer kept from another state is the one made afresh, and a caller's list is its own."""

from __future__ import annotations

import random

import pytest

from handfoot.engine.play import going_out as going_out_module
from handfoot.engine.play import new_round
from handfoot.engine.play.bots import choose, greedy_policy, random_policy
from handfoot.engine.play.going_out import going_out_reasons
from tests.engine.play.helpers import table_of


@pytest.mark.parametrize("preset", ["pagat", "bicycle", "house", "wages"])
def test_a_kept_answer_is_the_answer_made_afresh(preset: str) -> None:
    state = new_round(preset, table_of(preset), 11)
    rng = random.Random(11)
    asked = 0
    while state.phase != "ended" and state.step < 300:
        for seat in range(len(state.seats)):
            books = state.table(state.seats[seat].side).books
            for played, remaining, by_meld in ((True, 0, False), (False, 0, True), (True, 1, True)):
                kept = going_out_reasons(state, seat, books, played, remaining, by_meld)
                kept.append("a careless caller's change")  # type: ignore[arg-type]
                going_out_module._reasons_made(state.rules).clear()
                fresh = going_out_reasons(state, seat, books, played, remaining, by_meld)
                again = going_out_reasons(state, seat, books, played, remaining, by_meld)
                assert kept[:-1] == fresh == again
                asked += 1
        _, state = choose(state, random_policy if state.step % 2 else greedy_policy, rng)
    assert asked > 100
