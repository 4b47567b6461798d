"""The deal: a seeded shuffle of the preset's decks into hands, feet, the first discard and the stock."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from handfoot.engine.cards import deck
from handfoot.engine.errors import PlayError, Problem
from handfoot.engine.play.options import play_options
from handfoot.engine.play.state import Seat, Side, State
from handfoot.engine.play.work import Work
from handfoot.engine.presets import resolve_rules
from handfoot.engine.rules import RuleSet
from handfoot.engine.sides import sides_problems


def seat_order(sides: Sequence[tuple[str, Sequence[str]]]) -> list[tuple[str, int]]:
    """Players around the table, sides taking turns so partners never sit side by side where the
    sides are equal (seed 002 'alternating seating'): the first player of each side, then the second
    of each, ... Returns ``(player name, side index)`` in turn order."""
    order: list[tuple[str, int]] = []
    for k in range(max((len(players) for _, players in sides), default=0)):
        order += [(players[k], j) for j, (_, players) in enumerate(sides) if k < len(players)]
    return order


def practice_round_seed(table_seed: int, number: int) -> int:
    """The seed of round ``number`` of a practice deal seeded ``table_seed``: the first 63 bits of
    SHA-256("handfoot-table:<seed>:<number>"). A practice table (one whose creator chose its seed)
    deals its rounds from it, and so does the arena, so a match played in process replays at a table."""
    digest = hashlib.sha256(f"handfoot-table:{table_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_problems(rules: RuleSet, players: int, round_number: int) -> list[Problem]:
    """Why round ``round_number`` cannot be dealt to ``players`` players under ``rules``: an
    ``inconsistent_rules`` problem (path ``("rules",)``) when the decks (``RuleSet.decks_for``, each
    a :func:`~handfoot.engine.cards.deck`) hold fewer cards than the round's hands and feet
    (:meth:`RuleSet.hand_size_for`, :meth:`RuleSet.foot_size_for`) and the first discard; else
    ``[]``. :func:`new_round` refuses a deal by it; a table checks every round of its game by it."""
    held = len(deck(rules.jokers_per_deck)) * rules.decks_for(players)
    hand_size, foot_size = rules.hand_size_for(round_number), rules.foot_size_for(round_number)
    needed = players * (hand_size + foot_size) + 1  # the hands, the feet and the first discard
    if needed <= held:
        return []
    return [
        Problem(
            "inconsistent_rules",
            f"round {round_number} deals {needed} cards to {players} players "
            f"(hands, feet and the first discard) and the decks hold {held} (decks_by_players, decks_per_player, "
            "decks_extra, hand_size, foot_size, hand_size_by_round, foot_size_by_round)",
            ("rules",),
        )
    ]


def rounds_from(rules: RuleSet, first: int) -> range:
    """The rounds from ``first`` on whose deals can differ: to the game's last (``rules.rounds``),
    or, played to a target score, to the first round past ``hand_size_by_round`` and
    ``foot_size_by_round`` (every later round deals the same sizes)."""
    if rules.rounds is not None:
        return range(first, rules.rounds + 1)
    return range(first, max(first, len(rules.hand_size_by_round) + 1, len(rules.foot_size_by_round) + 1) + 1)


def new_round(
    preset: str,
    sides: Sequence[tuple[str, Sequence[str]]],
    seed: int,
    round_number: int = 1,
    overrides: Mapping[str, Any] | None = None,
    play: Mapping[str, Any] | None = None,
    scores: Sequence[int] | None = None,
) -> State:
    """Deal round ``round_number`` for ``sides`` (``(side name, [player names])``, seats as
    :func:`seat_order`) under ``preset`` with house-rule ``overrides`` and play options ``play``
    (:func:`~handfoot.engine.play.options.play_options`); ``scores``: each side's game total before
    this round (for openings by score).

    The decks (``RuleSet.decks_for`` the players, each :func:`~handfoot.engine.cards.deck` of 52 cards
    and ``jokers_per_deck`` jokers) are shuffled by ``random.Random(seed)``; each seat is dealt the
    round's hand size (:meth:`RuleSet.hand_size_for`) from the top of the stock, seat by seat, then
    the round's foot size (:meth:`RuleSet.foot_size_for`) for each foot (D38, D25). The stock's top
    card is turned to start the discard pile; a wild card, or a red three where red threes are laid out,
    is buried back in the stock at a seeded place and the next card turned (seed 000; seed 001; seed
    003; D38). Then every seat, from the first, lays out its red threes and draws replacements (seed 000
    'before your first turn'; seed 004: automatically), and where the game lays a foot's out as it is
    dealt (``red_threes_automatic_foot`` ``dealt``, D76) every foot's red threes too, replaced into the
    foot; otherwise a foot's red threes are laid out when it is picked up. The first seat is
    ``(round_number - 1) % seats`` (seed 003: each hand started by the next player clockwise).

    Raises :class:`PlayError` (``team_count``, ``duplicate_side``, ``duplicate_player``) for sides
    the rules do not allow, ``inconsistent_rules`` (path ``("rules",)``) when the decks hold fewer
    cards than the deal (:func:`deal_problems`), and ``UnknownPresetError``/``RulesError`` for the rules.
    """
    resolved = resolve_rules(preset, overrides)
    rules = resolved.rules
    options = play_options(preset, play)
    problems = sides_problems(rules, [name for name, _ in sides], [list(players) for _, players in sides])
    if problems:
        raise PlayError(problems)
    order = seat_order(sides)
    rng = random.Random(seed)
    problems = deal_problems(rules, len(order), round_number)
    if problems:
        raise PlayError(problems)
    stock = list(deck(rules.jokers_per_deck)) * rules.decks_for(len(order))
    rng.shuffle(stock)
    hand_size, foot_size = rules.hand_size_for(round_number), rules.foot_size_for(round_number)
    hands = [[stock.pop() for _ in range(hand_size)] for _ in order]
    feet = [tuple(stock.pop() for _ in range(foot_size)) for _ in order]
    top = stock.pop()
    while top.is_wild or (top.is_red_three and rules.red_threes_laid_out):
        stock.insert(rng.randrange(len(stock) + 1), top)
        top = stock.pop()
    first = (round_number - 1) % len(order)
    state = State(
        preset=preset,
        overrides=dict(overrides or {}),
        play=options,
        round=round_number,
        seed=seed,
        sides=tuple(Side(name, score=(scores[j] if scores else 0)) for j, (name, _) in enumerate(sides)),
        seats=tuple(Seat(name, side, tuple(hands[i]), feet[i]) for i, (name, side) in enumerate(order)),
        stock=tuple(stock),
        pile=(top,),
        turn=first,
        phase="draw",
        step=-1,
        _rules=rules,
    )
    work = Work(state)
    for k in range(len(order)):
        work.lay_out_red_threes((first + k) % len(order))
    if rules.red_threes_automatic and rules.red_threes_automatic_foot == "dealt":  # the feet's too (D76)
        for k in range(len(order)):
            work.lay_out_red_threes((first + k) % len(order), foot=True)
    return work.freeze()  # step 0: the deal
