"""The arena from the client: team ratings, the report ``handfoot arena`` prints, a table bot run in
the arena, and an arena match played through an HTTP table.

    from handfoot.client.arena import arena_report, report_table
    from handfoot.engine.play.arena import run_arena
    result = run_arena(["greedy", "planner"], "pagat", matches=20, seed=1)
    report = arena_report(result)          # JSON-able: figures, games, ratings (or why none)
    print(report_table(report))

The engine plays the matches (``handfoot.engine.play.arena``, standard library only). Ratings come
from ``openskill`` (``pip install 'handfoot[arena]'``): each policy one player, each game a match of
one-player teams ranked by their totals (Plackett-Luce, games rated in the order played). Without
``openskill`` the report has ``ratings: null`` and says so in ``ratings_note``.

A bot written for a table (a ``choose``: ``SeatView`` -> candidate actions) runs in the arena as
:func:`table_bot_policy`; an arena match runs at a table with :func:`play_match_at_table` (a
practice table seeded as the arena seeds the match, so the same deal, seats and totals).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from handfoot.engine.play.arena import POLICIES, ArenaResult, seat_seed, table_sides
from handfoot.engine.play.bots import Policy

from ._client import Client
from ._loader import freeze
from .bots import Action, BotSummary, Choose, play_seats
from .display import text_table
from .params import GameTeamInput
from .types.presets import PresetId
from .types.tables import SeatView

if TYPE_CHECKING:
    from handfoot.engine.rules import RuleSet

__all__ = [
    "RATINGS_MISSING",
    "PolicyRating",
    "TableMatch",
    "arena_report",
    "engine_choose",
    "play_match_at_table",
    "ratings",
    "report_table",
    "table_bot_policy",
]

#: What the report says when ``openskill`` is not installed.
RATINGS_MISSING = "ratings need openskill: pip install 'handfoot[arena]'"


@dataclass(frozen=True, slots=True)
class PolicyRating:
    """A policy's rating after the run: ``mu`` and ``sigma`` (openskill's Plackett-Luce, starting
    at 25 and 25/3) and ``ordinal`` (mu - 3 sigma: what it surely has)."""

    name: str
    mu: float
    sigma: float
    ordinal: float


def ratings(result: ArenaResult) -> list[PolicyRating] | None:
    """Each policy's rating over ``result``'s games in the order played (``None`` without openskill)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    rated = {name: model.rating(name=name) for name in result.policies}
    for match in result.matches:
        teams = model.rate([[rated[name]] for name in match.sides], scores=list(match.totals))
        for name, (player,) in zip(match.sides, teams, strict=True):
            rated[name] = player
    return [PolicyRating(n, r.mu, r.sigma, r.ordinal()) for n, r in rated.items()]


def arena_report(result: ArenaResult, with_games: bool = True) -> dict[str, Any]:
    """``result`` as JSON data (``ArenaResult.to_dict``) with each policy's ``rating`` (``mu``,
    ``sigma``, ``ordinal``; ``None`` without openskill, ``ratings_note`` saying why);
    ``with_games=False`` leaves out the per-game records."""
    doc = result.to_dict()
    if not with_games:
        doc.pop("games")
    rated = ratings(result)
    by_name = {r.name: r for r in rated or ()}
    for entry in doc["policies"]:
        r = by_name.get(entry["name"])
        entry["rating"] = (
            None if r is None else {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal, 3)}
        )
    doc["ratings"] = "openskill Plackett-Luce, one player a policy" if rated is not None else None
    if rated is None:
        doc["ratings_note"] = RATINGS_MISSING
    return doc


def report_table(report: Mapping[str, Any]) -> str:
    """The report as a terminal table: one line a policy (games, wins, win rate with its 95%
    interval, share of deals won, points per round, share of rounds gone out, rounds to go out,
    rating), and a header line naming the preset, the matches and the seed."""
    rows = [
        (
            "policy",
            "games",
            "won",
            "win rate",
            "95% interval",
            "deals won",
            "pts per round",
            "out",
            "rounds to out",
            "rating",
        )
    ]
    for p in report["policies"]:
        rating = p.get("rating")
        to_out = p["rounds_to_go_out"]
        rows.append(
            (
                p["name"],
                str(p["games"]),
                f"{round(p['win_rate'] * p['games'], 2):g}",  # a shared top counts its share
                f"{p['win_rate']:.1%}",
                f"{p['win_rate_low']:.1%} - {p['win_rate_high']:.1%}",
                f"{p['deal_win_rate']:.1%}",
                f"{p['points_per_round']:,.0f}",
                f"{p['went_out']:.0%}",
                "-" if to_out is None else f"{to_out:.1f}",
                "-" if rating is None else f"{rating['mu']:.1f} ± {rating['sigma']:.1f}",
            )
        )
    rules = ", ".join(f"{k}={v}" for k, v in report["rules"].items())
    how = "with the sides swapped" if len(report["policies"]) == 2 else "once a rotation of the sides"
    head = (
        f"{report['preset']}{f' ({rules})' if rules else ''}: {report['matches']} matches "
        f"({report['deals']} deals, each played {how}), seed {report['seed']}"
    )
    lines = [head, text_table(rows, (False, *[True] * 9))]
    if report.get("ratings_note"):
        lines.append(f"(no ratings: {report['ratings_note']})")
    return "\n".join(lines)


def table_bot_policy(choose: Choose, preset: str, rules: Mapping[str, object] | None = None) -> Policy:
    """A table bot's ``choose`` as an arena policy: the engine's view is given to it as a
    ``SeatView`` (table and game 0, version the round's step) of ``preset`` with house ``rules``;
    its candidates get the seat's index (a table takes it from the token). The view is frozen
    once a decision (``SeatView.plain_view`` thaws it back without JSON); the engine's view needs
    no checking as a server's answer does, so the ``SeatView`` is built as it is."""
    frozen_rules = freeze(dict(rules or {}))
    assert isinstance(frozen_rules, Mapping)

    def policy(v: dict[str, Any], in_force: RuleSet, rng: random.Random) -> list[dict[str, Any]]:
        frozen = freeze(v)
        assert isinstance(frozen, Mapping)
        sv = SeatView(0, 0, "playing", v["step"], v["round"], frozen, None, None, preset, frozen_rules)
        return [{**action, "seat": v["seat"]} for action in choose(sv)]

    return policy


def engine_choose(policy: str | Policy, preset: str, rules: Mapping[str, object] | None, seed: int) -> Choose:
    """An arena policy (a name in ``POLICIES`` or the function) as a table bot's ``choose`` under
    ``preset`` with house ``rules``, drawing from ``random.Random(seed)``; ``seat`` left out."""
    from handfoot import engine

    chosen = POLICIES[policy] if isinstance(policy, str) else policy
    in_force = engine.rules_of({"preset": preset, "rules": dict(rules or {})}).rules
    rng = random.Random(seed)

    def choose(sv: SeatView) -> list[Action]:
        return [{k: v for k, v in a.items() if k != "seat"} for a in chosen(sv.plain_view(), in_force, rng)]

    return choose


@dataclass(frozen=True, slots=True)
class TableMatch:
    """An arena match played at a table: its ``table`` and ``game`` ids, the policy name at each
    side (``sides``), each round's side totals (``rounds``, points) and the game's ``totals``."""

    table: int
    game: int
    sides: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    bots: tuple[BotSummary, ...]


def play_match_at_table(
    client: Client,
    policies: Sequence[str | Policy],
    preset: str,
    seed: int,
    *,
    rules: Mapping[str, object] | None = None,
    play: Mapping[str, object] | None = None,
    names: Sequence[str] | None = None,
    wait: int = 5,
) -> TableMatch:
    """The arena's match ``seed`` (``handfoot.engine.play.arena.play_match``) through the API at
    ``client``: a practice table seeded ``seed`` with the arena's sides, one :class:`Bot` a seat in
    a thread of its own (its own connection and token), side ``j`` played by ``policies[j]``, seat
    ``i`` drawing from ``seat_seed(seed, i)`` as in the arena. Raises the first bot's error
    (``BotError``, the client's errors)."""
    sides = table_sides(preset, len(policies), dict(rules or {}))
    teams: list[GameTeamInput] = [{"name": name, "players": list(players)} for name, players in sides]
    table = client.create_table(
        preset=cast(PresetId, preset), teams=teams, rules=rules, seed=seed, play=play, name="Arena match"
    )  # a preset id the engine knows (table_sides above refuses any other)
    chooses = [
        engine_choose(policies[seat.side], preset, rules, seat_seed(seed, i)) for i, seat in enumerate(table.seats)
    ]
    results = play_seats(client, table.id, table.tokens, chooses, wait)
    sheet = client.scoresheet(table.game)
    labels = tuple(names) if names is not None else tuple(p if isinstance(p, str) else "policy" for p in policies)
    return TableMatch(
        table.id,
        table.game,
        labels,
        tuple(tuple(r.scores) for r in sheet.rounds),
        tuple(sheet.totals),
        tuple(results),
    )
