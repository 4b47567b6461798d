"""The round the benchmarks score: four teams of two under Pagat, about 200 cards.

Each team has ten melds on the table (five books: two clean, two dirty, one wild; and five open
melds of distinct ranks), a red three laid out, and cards left in hands (one foot never picked up).
Team 1 went out with its contract (2 clean + 2 dirty + 1 wild). Pagat with 8 players plays 9 decks,
so no card appears more often than the decks hold. ``check()`` proves it scores without error, and
that the tally form of the same round gives the same totals.

Also: the same round with house rules (``score_rules_body``), and a round where one side has 8 or
16 melds (``side_body``), for the cost of scoring against the number of cards.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

PRESET = "pagat"
NATURAL = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
TEAM_NAMES = ["North-South", "East-West", "Up-Down", "Left-Right"]

#: Card points under Pagat, by card string: what the floor function sums.
PAGAT_VALUES: dict[str, int] = {"JK": 50}
for _suit in "SHDC":
    for _rank, _points in [
        ("A", 20),
        ("2", 20),
        ("3", 5),
        ("4", 5),
        ("5", 5),
        ("6", 5),
        ("7", 5),
        ("8", 10),
        ("9", 10),
        ("10", 10),
        ("J", 10),
        ("Q", 10),
        ("K", 10),
    ]:
        PAGAT_VALUES[_rank + _suit] = _points


def _team(t: int) -> dict[str, Any]:
    book_ranks = [NATURAL[(t * 3 + k) % 11] for k in range(4)]
    open_ranks = [NATURAL[(t * 3 + 4 + k) % 11] for k in range(5)]
    clean = [[r + s for s in "SHDCSHD"] for r in book_ranks[:2]]
    dirty = [[r + s for s in "SHDCS"] + w for r, w in zip(book_ranks[2:], (["2S", "2H"], ["2D", "2C"]), strict=True)]
    wild = [["JK", "2S", "2H", "JK", "2D", "2C", "JK"]]
    opens = [[r + s for s in ("SHC" if k % 2 else "DHS")] for k, r in enumerate(open_ranks)]
    went_out = t == 0
    if went_out:
        players = [{"name": f"P{t}a", "hand": []}, {"name": f"P{t}b", "hand": []}]
    else:
        players = [
            {"name": f"P{t}a", "hand": ["8S", "JK", "3C"]},
            # a foot never picked up holds the cards dealt (foot_size 13)
            {
                "name": f"P{t}b",
                "hand": ["KH"],
                "foot": ["QS", "9D", "7H", "AS", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC"],
            },
        ]
    return {
        "name": TEAM_NAMES[t],
        "went_out": went_out,
        "melds": [*clean, *dirty, *wild, *opens],
        "red_threes": ["3H" if t % 2 else "3D"],
        "burn": [],
        "players": players,
    }


def score_body() -> dict[str, Any]:
    """``POST /v1/rounds/score``, cards form: 4 teams, 10 melds each."""
    return {"preset": PRESET, "rules": {}, "round": 1, "teams": [_team(t) for t in range(4)]}


#: House rules of ``score_rules_body()``: a few overrides on Pagat that leave the round legal.
HOUSE_RULES: dict[str, int] = {"clean_book_bonus": 450, "dirty_book_bonus": 250, "going_out_bonus": 150}


def score_rules_body() -> dict[str, Any]:
    """``score_body()`` with house rules in its ``rules`` object (``HOUSE_RULES``)."""
    return {**score_body(), "rules": dict(HOUSE_RULES)}


#: The melds of one unit of ``side_body()``: 2 clean, 2 dirty and 1 wild book, 3 open melds.
UNIT_MELDS = 8


def side_melds(melds: int) -> list[list[str]]:
    """``melds`` melds (8 or 16) of one side, each unit of 8 the same (2 clean, 2 dirty and 1 wild
    book of 7 cards, and 3 open melds of 3), so twice the melds is exactly twice the cards. The open
    melds are of distinct ranks, as Pagat wants; an open meld may share a closed book's rank (Pagat
    starts a new meld after a book). With 2 teams of 2 (5 decks), 16 melds is the most a side can
    lay out this way: a third unit would need 6 twos of a suit."""
    units, rest = divmod(melds, UNIT_MELDS)
    if rest or not 1 <= units <= 2:
        raise ValueError(f"melds must be 8 or 16, not {melds}")
    out: list[list[str]] = []
    for u in range(units):
        ranks = NATURAL[4 * u % 8 : 4 * u % 8 + 4]
        out += [[r + s for s in "SHDCSHD"] for r in ranks[:2]]
        out += [[r + s for s in "SHDCS"] + w for r, w in zip(ranks[2:], (["2S", "2H"], ["2D", "2C"]), strict=True)]
        out.append(["JK", "2S", "2H", "JK", "2D", "2C", "JK"])
    out += [[r + s for s in "DHS"] for r in NATURAL[len(NATURAL) - 3 * units :]]
    return out


#: A foot never picked up: the 13 cards Pagat deals (foot_size).
_FOOT = ["QS", "9D", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]


def side_body(melds: int) -> dict[str, Any]:
    """``POST /v1/rounds/score`` where one side has ``melds`` melds on the table and went out; the
    other side, the same in every size, has one meld and a few cards left. Both are in cards: a
    side in tally form cost more than the 8 melds' side and hid how the cards side's cost grows."""
    return {
        "preset": PRESET,
        "rules": {},
        "round": 1,
        "teams": [
            {
                "name": "Side",
                "went_out": True,
                "melds": side_melds(melds),
                "red_threes": [],
                "burn": [],
                "players": [{"name": "a", "hand": []}, {"name": "b", "hand": []}],
            },
            {
                "name": "Other",
                "went_out": False,
                "melds": [["5H", "5D", "5C"]],
                "red_threes": [],
                "burn": [],
                "players": [{"name": "c", "hand": ["8S", "3C"]}, {"name": "d", "hand": ["KH"], "foot": _FOOT}],
            },
        ],
    }


def readme_body() -> dict[str, Any]:
    """The README's worked round of Pagat's rules, cards form (``examples/worked_round.json``): two
    sides of two, about 80 cards."""
    return json.loads((Path(__file__).resolve().parent.parent / "examples" / "worked_round.json").read_text())


def validate_body() -> dict[str, Any]:
    """``POST /v1/melds/validate``: a dirty meld added onto an open one."""
    return {"preset": PRESET, "cards": ["9D", "2S", "9C"], "onto": ["9S", "9H", "9C", "9H"]}


def all_cards(body: dict[str, Any]) -> list[str]:
    """Every card string of a score body (or a validate body), in order."""
    if "cards" in body:
        return [*body.get("onto", []), *body["cards"]]
    out: list[str] = []
    for team in body["teams"]:
        for meld in team.get("melds", []):
            out.extend(meld)
        out.extend(team.get("red_threes", []))
        out.extend(team.get("burn", []))
        for player in team.get("players", []):
            out.extend(player.get("hand", []))
            out.extend(player.get("foot") or [])
    return out


def tally_body() -> dict[str, Any]:
    """The same round in tally form, the counts taken from the engine's own card-form breakdown."""
    from handfoot.engine import score_round_request

    score = score_round_request(score_body())
    teams = []
    for src, team in zip(score_body()["teams"], score.teams, strict=True):
        lines = {line.code: line for line in team.lines}
        teams.append(
            {
                "name": src["name"],
                "went_out": src["went_out"],
                "tally": {
                    "clean_books": lines["clean_books"].count,
                    "dirty_books": lines["dirty_books"].count,
                    "wild_books": lines["wild_books"].count,
                    "red_threes_on_table": lines["red_threes_on_table"].count,
                    "red_threes_caught": lines["red_threes_caught"].count,
                    "table_points": lines["table_points"].points,
                    "points_left": -lines["points_left"].points,
                    "has_melded": True,
                },
            }
        )
    return {"preset": PRESET, "rules": {}, "round": 1, "teams": teams}


def game_teams() -> list[dict[str, Any]]:
    """The sides of ``score_body()`` as ``POST /v1/games`` wants them."""
    return [{"name": t["name"], "players": [p["name"] for p in t["players"]]} for t in score_body()["teams"]]


def append_body() -> dict[str, Any]:
    """``POST /v1/games/{id}/rounds``: the card-form round, with no round number (the next one)."""
    body = copy.deepcopy(score_body())
    return {"teams": body["teams"]}


def check() -> dict[str, Any]:
    """Score both forms through the engine; raise unless they are legal and agree. A summary."""
    from handfoot.engine import score_round_request, validate_meld_request

    cards = score_round_request(score_body())
    tallies = score_round_request(tally_body())
    totals = [t.total for t in cards.teams]
    if totals != [t.total for t in tallies.teams]:
        raise AssertionError(f"card and tally forms disagree: {totals} vs {[t.total for t in tallies.teams]}")
    meld = validate_meld_request(validate_body())
    if not meld.valid:
        raise AssertionError(f"the benchmark meld is not valid: {meld.problems}")
    with_rules = [t.total for t in score_round_request(score_rules_body()).teams]
    if with_rules == totals:
        raise AssertionError(f"the house rules {HOUSE_RULES} change no total: {totals}")
    sides = {n: [t.total for t in score_round_request(side_body(n)).teams] for n in (8, 16)}
    body = score_body()
    return {
        "teams": len(body["teams"]),
        "totals_with_house_rules": with_rules,
        "side_cards": {n: len(all_cards(side_body(n))) for n in sides},
        "side_totals": sides,
        "cards": len(all_cards(body)),
        "melds_per_team": [len(t["melds"]) for t in body["teams"]],
        "totals": totals,
        "body_bytes": len(json.dumps(body)),
    }


if __name__ == "__main__":
    print(json.dumps(check()))
