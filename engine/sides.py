"""The sides of a round or a game against the rules: how many sides, how many players on each and at
the table, sides the player count decides, and names compared as people read them.

One function for rounds (:func:`~handfoot.engine.scoring.score_round`), games (the API's game
creation) and tables (:func:`~handfoot.engine.play.deal.new_round`) alike.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from handfoot.engine.errors import Problem
from handfoot.engine.rules import RuleSet

__all__ = ["name_key", "sides_problems"]


def name_key(name: str) -> str:
    """The form in which two side or player names are compared: Unicode NFC, case-folded.

    ``"Zoë"`` (NFC), ``"Zoe\u0308"`` (NFD) and ``"ZOË"`` are one name; names are still stored and
    shown exactly as sent. An ASCII name is its own NFC form, so it is only case-folded.
    """
    return name.casefold() if name.isascii() else unicodedata.normalize("NFC", name).casefold()


def sides_problems(rules: RuleSet, names: Sequence[str], players: Sequence[Sequence[str] | None]) -> list[Problem]:
    """The sides of a round or a game against the rules: how many sides (``teams_min``..``teams_max``),
    how many players on each (``players_per_team_min``..``max``; ``None`` where a side names no
    players, e.g. a tally), no two sides with one name and no player on two sides or twice on one
    (both compared by :func:`name_key`). Codes ``team_count``, ``duplicate_side`` and
    ``duplicate_player``; paths ``("teams",)``, ``("teams", i, "players")``, ``("teams", i, "name")``
    and ``("teams", i, "players", j)``.
    """
    problems: list[Problem] = []
    if not rules.teams_min <= len(names) <= rules.teams_max:
        problems.append(
            Problem(
                "team_count",
                f"{len(names)} sides; these rules allow {rules.teams_min} to {rules.teams_max} (teams_min, teams_max)",
                ("teams",),
            )
        )
    seen: dict[str, int] = {}
    seen_players: set[str] = set()
    for i, (name, side_players) in enumerate(zip(names, players, strict=True)):
        first = seen.setdefault(name_key(name), i)
        if first != i:
            problems.append(
                Problem(
                    "duplicate_side",
                    f"side {name!r} has the name of side {first} "
                    f"({names[first]!r}); names that differ only by case or Unicode "
                    "composition are the same",
                    ("teams", i, "name"),
                )
            )
        if side_players is None:
            continue
        count = len(side_players)
        if not rules.players_per_team_min <= count <= rules.players_per_team_max:
            problems.append(
                Problem(
                    "team_count",
                    f"{name} has {count} players; these rules allow "
                    f"{rules.players_per_team_min} to {rules.players_per_team_max} "
                    "(players_per_team_min, players_per_team_max)",
                    ("teams", i, "players"),
                )
            )
        for j, player in enumerate(side_players):
            key = name_key(player)
            if key in seen_players:
                problems.append(
                    Problem(
                        "duplicate_player",
                        f"player {player!r} already plays on a side; a "
                        "player plays once (names that differ only by case or Unicode "
                        "composition are the same)",
                        ("teams", i, "players", j),
                    )
                )
            seen_players.add(key)
    if all(side is not None for side in players):
        problems += _player_count_problems(rules, [len(side or ()) for side in players])
    return problems


def _player_count_problems(rules: RuleSet, sizes: Sequence[int]) -> list[Problem]:
    """The players at the table against the rules, where every side names its players (``sizes``:
    players per side): the total by ``players_alone_min``..``max`` when every side is one player,
    else by ``players_in_teams_min``..``max`` (seed 003 "For 3-6 players, cut-throat or teams (4 & 6
    players)"; seed 004: 2 to 7 players alone, 4 to 12 in teams, D82); and where ``sides_by_parity`` (seed
    002, D80) an odd total plays every player alone, an even one half against half or, from six
    players, in teams of two. Code ``team_count`` at ``("teams",)``."""
    total = sum(sizes)
    if not total:
        return []
    alone = all(size == 1 for size in sizes)
    low, high = (
        (rules.players_alone_min, rules.players_alone_max)
        if alone
        else (rules.players_in_teams_min, rules.players_in_teams_max)
    )
    names = ("players_alone_min", "players_alone_max") if alone else ("players_in_teams_min", "players_in_teams_max")
    problems: list[Problem] = []
    if (low is not None and total < low) or (high is not None and total > high):
        how = "playing alone" if alone else "in teams"
        problems.append(
            Problem(
                "team_count",
                f"{total} players {how}; these rules allow "
                f"{low if low is not None else 'any number'} to "
                f"{high if high is not None else 'any number'} ({', '.join(names)})",
                ("teams",),
            )
        )
    if rules.sides_by_parity and not _parity_sides(total, sizes):
        problems.append(
            Problem(
                "team_count",
                f"{total} players as sides of {', '.join(map(str, sizes))}: "
                "these rules decide the sides by the number of players (sides_by_parity): an odd "
                "number plays every player alone, an even number half against half or, from six "
                "players, in teams of two",
                ("teams",),
            )
        )
    return problems


def _parity_sides(total: int, sizes: Sequence[int]) -> bool:
    """Sides as ``sides_by_parity`` seats them (seed 002 "Odd-count total players: Every player plays
    for oneself"; "Even-count total players: Half the total players against the other half ... In
    cases of 6+, three teams of 2 are allowed"; D80)."""
    if total % 2:
        return all(size == 1 for size in sizes)
    return list(sizes) == [total // 2, total // 2] or (total >= 6 and all(size == 2 for size in sizes))
