"""The arena: policies measured against each other in whole games, luck cancelled by pairing.

    from handfoot.engine.play.arena import run_arena
    result = run_arena(["greedy", "planner"], "pagat", matches=200, seed=1)
    for entry in result.entries:
        print(entry.name, entry.win_rate, entry.interval)

A *match* is one game of the preset (every round to its end: ``games.game_state`` says when), its
sides each played by one policy at every seat. Matches come in sets of one *deal* each: a deal (the
game's seed, so every round's shuffle) is played once per rotation of the policies over the sides,
so with two policies each deal is played twice with the teams swapped, and the cards each side was
given are played by the other next. Each seat draws its random choices from its own
``random.Random``, seeded from the deal and the seat, so a run is the same for the same ``seed``.

A policy is the function the reference bots are (:data:`~handfoot.engine.play.bots.Policy`): a
seat's view (:func:`~handfoot.engine.play.view.view`), the rules in force and a ``random.Random``
-> candidate actions, best first; the first the rules accept is played, as an HTTP ``Bot`` does
(``handfoot.client.bots``). Every round's seed is the one a practice table seeded the same derives
(:func:`~handfoot.engine.play.deal.practice_round_seed`), so a match replays at an HTTP table.

Figures per policy: win rate (a game won scores 1, a game whose top total is shared by ``m`` sides
scores ``1/m`` to each) with its 95% Wilson score interval, the share of deals won (the games of a
deal added up; its interval is over deals, the independent trials), points per round (the side's
round totals, points), the share of rounds its side went out, and rounds to go out (table rounds,
every seat one turn, from the deal to the side going out: the mean over the rounds it went out). Ratings
are the client's (``handfoot.client.arena``, with ``openskill``): the engine is standard library only.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from handfoot.engine.games import game_state
from handfoot.engine.play.bots import POLICIES as REFERENCE_POLICIES
from handfoot.engine.play.bots import Policy, actor, choose
from handfoot.engine.play.deal import new_round, practice_round_seed
from handfoot.engine.play.end import score
from handfoot.engine.play.planner import planner_policy
from handfoot.engine.presets import resolve_rules

#: The policies the arena (and ``handfoot arena``/``handfoot play``) knows by name.
POLICIES: Mapping[str, Policy] = {**REFERENCE_POLICIES, "planner": planner_policy}

#: z for a two-sided 95% interval (1.959...).
Z95 = NormalDist().inv_cdf(0.975)
#: A round that has not ended after this many actions is a bug of a policy (the table has no such
#: limit; a stuck arena run should fail, not spin).
MAX_ACTIONS_PER_ROUND = 20_000

Progress = Callable[[int, int], None]


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0.0, 1.0)`` when ``n`` is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # at p = 0 or 1 the bound is exactly 0 or 1: the formula gives it only up to rounding
    return (0.0 if p <= 0 else max(0.0, centre - half)), (1.0 if p >= 1 else min(1.0, centre + half))


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (SHA-256 of their text joined by ``:``): stable across runs and
    Python versions, unlike ``hash``."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round of a match: each side's ``totals`` (points, in side order), how it ``ended``
    (``went_out`` or ``stock_out``), the side out (``out_side``), ``turns`` taken (draws and pile
    takes) and ``actions`` accepted."""

    number: int
    totals: tuple[int, ...]
    ended: str | None
    out_side: int | None
    turns: int
    actions: int


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One game: its ``deal`` index and ``seed``, the policy name at each side (``sides``), the
    ``seats`` at the table, its ``rounds`` and the final ``totals``; ``scores`` gives each side's
    share of the win (1, 0 or ``1/m`` for a top shared by ``m`` sides)."""

    deal: int
    seed: int
    sides: tuple[str, ...]
    seats: int
    rounds: tuple[RoundRecord, ...]
    totals: tuple[int, ...]
    scores: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "seed": self.seed,
            "sides": list(self.sides),
            "seats": self.seats,
            "totals": list(self.totals),
            "scores": list(self.scores),
            "rounds": [
                {
                    "round": r.number,
                    "totals": list(r.totals),
                    "ended": r.ended,
                    "out_side": r.out_side,
                    "turns": r.turns,
                    "actions": r.actions,
                }
                for r in self.rounds
            ],
        }


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s ``random.Random`` in the game seeded ``game_seed`` (an HTTP bot
    seated there draws from the same, so a match replays at a table)."""
    return derive_seed("handfoot-arena-seat", game_seed, seat)


def table_sides(preset: str, count: int, overrides: Mapping[str, Any] | None = None) -> list[tuple[str, list[str]]]:
    """``count`` sides for ``preset``: two players a side where the rules allow partners, else
    players alone (names ``Side 1`` with ``P1.1``, ``P1.2``, ...). Raises ``ValueError`` when the
    rules do not allow ``count`` sides."""
    rules = resolve_rules(preset, overrides).rules
    if not rules.teams_min <= count <= rules.teams_max:
        raise ValueError(f"{preset} plays {rules.teams_min} to {rules.teams_max} sides, not {count}")
    per = min(max(2, rules.players_per_team_min), rules.players_per_team_max)
    return [(f"Side {j + 1}", [f"P{j + 1}.{k + 1}" for k in range(per)]) for j in range(count)]


def play_match(
    policies: Sequence[Policy],
    preset: str,
    seed: int,
    overrides: Mapping[str, Any] | None = None,
    play: Mapping[str, Any] | None = None,
    names: Sequence[str] | None = None,
    deal: int = 0,
) -> MatchRecord:
    """One game under ``preset`` (with house-rule ``overrides`` and play options ``play``), side
    ``j`` played by ``policies[j]`` at every seat (``names[j]`` in the record), round ``n`` dealt
    from ``practice_round_seed(seed, n)``. Raises ``RuntimeError`` if a round does not end within
    :data:`MAX_ACTIONS_PER_ROUND` actions, and the deal's errors for rules that cannot be played."""
    sides = table_sides(preset, len(policies), overrides)
    rules = resolve_rules(preset, overrides).rules
    side_names = [name for name, _ in sides]
    labels = tuple(names) if names is not None else tuple(f"policy {j + 1}" for j in range(len(policies)))
    rngs: list[random.Random] | None = None
    rounds: list[RoundRecord] = []
    state_of_game = game_state(rules, side_names, [])
    while state_of_game.status != "finished":
        number = len(rounds) + 1
        totals_before = [t.total for t in state_of_game.totals]
        state = new_round(preset, sides, practice_round_seed(seed, number), number, overrides, play, totals_before)
        if rngs is None:
            rngs = [random.Random(seat_seed(seed, i)) for i in range(len(state.seats))]
        actions = turns = 0
        while state.phase != "ended":
            if actions >= MAX_ACTIONS_PER_ROUND:
                raise RuntimeError(f"round {number} of game {seed} did not end in {actions} actions")
            seat = actor(state)
            action, state = choose(state, policies[state.seats[seat].side], rngs[seat])
            actions += 1
            turns += action["type"] in ("draw", "take_pile")
        totals = tuple(b.total for b in score(state).teams)
        rounds.append(RoundRecord(number, totals, state.ended, state.out_side, turns, actions))
        state_of_game = game_state(rules, side_names, [r.totals for r in rounds])
    final = tuple(t.total for t in state_of_game.totals)
    top = max(final)
    shared = final.count(top)
    seats = sum(len(players) for _, players in sides)
    return MatchRecord(
        deal, seed, labels, seats, tuple(rounds), final, tuple(1 / shared if t == top else 0.0 for t in final)
    )


@dataclass(frozen=True, slots=True)
class Entry:
    """One policy's figures: ``games``, ``wins``, ``ties`` (a top shared), ``losses``,
    ``win_rate`` (a shared top counting its share) with its 95% Wilson ``interval``,
    ``points_per_round`` (points), ``rounds`` played, ``went_out`` (share of rounds its side went
    out), ``rounds_to_go_out`` (table rounds, mean over the rounds it went out; ``None`` if never),
    and by deal: ``deal_win_rate``, the share of deals it won (its games' shares of a deal added up,
    the top sum winning the deal, a shared top splitting it) with its 95% Wilson ``deal_interval``.
    The games of a deal share their cards, so the deals, not the games, are the independent trials."""

    name: str
    games: int
    wins: int
    ties: int
    losses: int
    win_rate: float
    interval: tuple[float, float]
    points_per_round: float
    rounds: int
    went_out: float
    rounds_to_go_out: float | None
    deal_win_rate: float = 0.0
    deal_interval: tuple[float, float] = (0.0, 1.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 4),
            "win_rate_low": round(self.interval[0], 4),
            "win_rate_high": round(self.interval[1], 4),
            "points_per_round": round(self.points_per_round, 1),
            "rounds": self.rounds,
            "went_out": round(self.went_out, 4),
            "rounds_to_go_out": None if self.rounds_to_go_out is None else round(self.rounds_to_go_out, 2),
            "deal_win_rate": round(self.deal_win_rate, 4),
            "deal_win_rate_low": round(self.deal_interval[0], 4),
            "deal_win_rate_high": round(self.deal_interval[1], 4),
        }


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """A run: what was asked (``preset``, ``rules``, ``play``, ``seed``, ``policies``), the
    ``deals`` played (each once per rotation: ``matches`` games in all), every match in the order
    played and each policy's :class:`Entry`."""

    preset: str
    rules: Mapping[str, Any]
    play: Mapping[str, Any]
    seed: int
    policies: tuple[str, ...]
    deals: int
    matches: tuple[MatchRecord, ...]
    entries: tuple[Entry, ...] = field(default=())

    def entry(self, name: str) -> Entry:
        """The figures of policy ``name`` (``KeyError`` if it did not play)."""
        for e in self.entries:
            if e.name == name:
                return e
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the run's settings, ``policies`` (each :meth:`Entry.to_dict`) and ``matches``."""
        return {
            "preset": self.preset,
            "rules": dict(self.rules),
            "play": dict(self.play),
            "seed": self.seed,
            "deals": self.deals,
            "matches": len(self.matches),
            "policies": [e.to_dict() for e in self.entries],
            "games": [m.to_dict() for m in self.matches],
        }


def deal_shares(names: Sequence[str], matches: Sequence[MatchRecord]) -> dict[int, dict[str, float]]:
    """Deal index -> each policy's share of the deal: 1 to the policy whose games' shares add up
    highest over the deal's games, ``1/m`` each to ``m`` level at the top."""
    sums: dict[int, dict[str, float]] = {}
    for m in matches:
        deal = sums.setdefault(m.deal, dict.fromkeys(names, 0.0))
        for name, share in zip(m.sides, m.scores, strict=True):
            deal[name] += share
    out = {}
    for d, by_name in sums.items():
        top = max(by_name.values())
        level = [n for n, v in by_name.items() if math.isclose(v, top)]
        out[d] = {n: (1 / len(level) if n in level else 0.0) for n in by_name}
    return out


def entries_of(names: Sequence[str], matches: Sequence[MatchRecord]) -> tuple[Entry, ...]:
    """Each policy's :class:`Entry` from ``matches``."""
    out = []
    by_deal = deal_shares(names, matches)
    for name in names:
        deals_won = sum(shares[name] for shares in by_deal.values())
        games = wins = ties = rounds = outs = 0
        won = points = 0.0
        out_turns: list[float] = []
        for m in matches:
            for j, side_name in enumerate(m.sides):
                if side_name != name:
                    continue
                games += 1
                won += m.scores[j]
                wins += m.scores[j] == 1.0
                ties += 0.0 < m.scores[j] < 1.0
                for r in m.rounds:
                    rounds += 1
                    points += r.totals[j]
                    if r.out_side == j:
                        outs += 1
                        out_turns.append(r.turns / m.seats)
        out.append(
            Entry(
                name,
                games,
                wins,
                ties,
                games - wins - ties,
                won / games if games else 0.0,
                wilson_interval(won, games),
                points / rounds if rounds else 0.0,
                rounds,
                outs / rounds if rounds else 0.0,
                sum(out_turns) / len(out_turns) if out_turns else None,
                deals_won / len(by_deal) if by_deal else 0.0,
                wilson_interval(deals_won, len(by_deal)),
            )
        )
    return tuple(out)


def run_arena(
    policies: Sequence[str] | Mapping[str, Policy],
    preset: str,
    matches: int,
    seed: int = 0,
    overrides: Mapping[str, Any] | None = None,
    play: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> ArenaResult:
    """Play ``matches`` games (rounded up to whole deals: one game per rotation of the policies
    over the sides) between ``policies`` (names in :data:`POLICIES`, or ``{name: policy}``), one
    side each, under ``preset`` with house-rule ``overrides`` and play options ``play``. Deal ``d``
    is seeded ``derive_seed("handfoot-arena", seed, d)``. ``progress(done, total)`` is called after
    each game. Raises ``KeyError`` for an unknown policy name, ``ValueError`` for fewer than two
    policies, a name twice, or more sides than the rules allow."""
    chosen = dict(policies) if isinstance(policies, Mapping) else {name: POLICIES[name] for name in policies}
    if len(policies) != len(chosen):
        raise ValueError("each policy plays one side: a name given twice")
    if len(chosen) < 2:
        raise ValueError("the arena needs two policies or more")
    names = list(chosen)
    k = len(names)
    table_sides(preset, k, overrides)  # the side count checked before any game
    deals = max(1, -(-matches // k))
    played: list[MatchRecord] = []
    for d in range(deals):
        game_seed = derive_seed("handfoot-arena", seed, d)
        for r in range(k):
            order = [names[(j + r) % k] for j in range(k)]
            record = play_match([chosen[n] for n in order], preset, game_seed, overrides, play, order, d)
            played.append(record)
            if progress is not None:
                progress(len(played), deals * k)
    entries = entries_of(names, played)
    return ArenaResult(
        preset, dict(overrides or {}), dict(play or {}), seed, tuple(names), deals, tuple(played), entries
    )
