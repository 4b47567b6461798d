"""Copies of a card in a round: no more of a card than the round's decks hold (``too_many_copies``),
for :func:`~handfoot.engine.scoring.score_round`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING

from handfoot.engine.cards import Card, Rank, key_of
from handfoot.engine.errors import Path, Problem
from handfoot.engine.rules import RuleSet
from handfoot.engine.tallies import Tally

if TYPE_CHECKING:
    from handfoot.engine.scoring import TeamRound

__all__ = ["copies_problems"]

_JOKER_KEY = Card(Rank.JOKER, None).key


def copies_problems(teams: Sequence[TeamRound], tallies: Sequence[Tally], rules: RuleSet) -> list[Problem]:
    """More copies of a card than the decks hold (cards form: ``decks`` of each card,
    ``jokers_per_deck * decks`` jokers), or more red threes than they hold (any form). The decks are
    those of the round's players, a side given as a tally counting ``players_per_team_max``."""
    players = 0
    groups: list[Sequence[Card]] = []  # every list of cards of the round (cards form)
    for team in teams:
        if team.tally is not None:
            players += rules.players_per_team_max
            continue
        players += len(team.players)
        groups += team.melds
        groups.append(team.red_threes)
        groups.append(team.burn)
        for player in team.players:
            groups.append(player.hand)
            if player.foot:
                groups.append(player.foot)
    decks = rules.decks_for(players)
    problems: list[Problem] = []
    copies = Counter(map(key_of, chain.from_iterable(groups)))
    jokers = copies.pop(_JOKER_KEY, 0)
    if jokers > rules.jokers_per_deck * decks or max(copies.values(), default=0) > decks:  # walk again, to name each
        problems.extend(_positions(teams, decks, rules.jokers_per_deck))
    red_threes = 0
    for tally in tallies:
        red_threes += tally.red_threes_on_table + tally.red_threes_caught
    if red_threes > 2 * decks:
        problems.append(
            Problem(
                "too_many_copies",
                f"{red_threes} red threes in the round, but {decks} decks hold {2 * decks}",
                ("teams",),
            )
        )
    return problems


def _positions(teams: Sequence[TeamRound], decks: int, jokers: int) -> list[Problem]:
    """``too_many_copies`` at the position of each first copy past the limit, in round order."""
    problems: list[Problem] = []
    seen: Counter[Card] = Counter()
    for i, team in enumerate(teams):
        if team.tally is not None:
            continue
        groups: list[tuple[Path, Sequence[Card]]] = [((i, "melds", j), m) for j, m in enumerate(team.melds)]
        groups += [((i, "red_threes"), team.red_threes), ((i, "burn"), team.burn)]
        for p, player in enumerate(team.players):
            groups.append(((i, "players", p, "hand"), player.hand))
            groups.append(((i, "players", p, "foot"), player.foot or ()))
        for path, cards in groups:
            for k, card in enumerate(cards):
                seen[card] += 1
                limit = decks * (jokers if card.suit is None else 1)
                if seen[card] == limit + 1:
                    problems.append(
                        Problem(
                            "too_many_copies",
                            f"{card.code} appears more than {limit} "
                            f"times, but {decks} decks hold {limit}"
                            + (f" (jokers_per_deck {jokers})" if card.suit is None else ""),
                            ("teams", *path, k),
                        )
                    )
    return problems
