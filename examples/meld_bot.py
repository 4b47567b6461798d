"""A bot that asks the server before it plays: every meld goes through ``validate_meld`` first.

    HANDFOOT_URL=http://127.0.0.1:8000 python examples/meld_bot.py [--preset pagat] [--turns 8]

Each turn the bot draws a card (from a seeded shuffle, so runs repeat), then proposes melds from
its hand: cards added onto its melds already on the table, and new melds of one rank (naturals,
plus a wild card when it is short). A proposal is played only if the server says it is ``valid``;
the first melds must also pass ``check_opening`` for the round's minimum. The loop is bounded by
``--turns`` and by an empty hand.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Iterator

from handfoot.client import PRESET_IDS, Client, HandFootError, MeldCheck, PresetId

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
WILD_RANKS = {"2", "JK"}


def rank(card: str) -> str:
    return "JK" if card == "JK" else card[:-1]


def is_wild(card: str) -> bool:
    return rank(card) in WILD_RANKS


def deck(seed: int) -> list[str]:
    cards = [r + s for r in RANKS for s in SUITS] * 2 + ["JK"] * 4
    random.Random(seed).shuffle(cards)
    return cards


class Bot:
    def __init__(self, client: Client, preset: PresetId, hand: list[str]) -> None:
        self.client = client
        self.preset = preset
        self.hand = hand
        self.table: dict[str, list[str]] = {}  # rank -> the meld of that rank on the table
        self.opened = False
        self.checks = 0

    def validate(self, cards: list[str], onto: list[str] | None = None) -> MeldCheck:
        self.checks += 1
        return self.client.validate_meld(preset=self.preset, cards=cards, onto=onto)

    def proposals(self) -> Iterator[tuple[str, list[str], int]]:
        """(rank, naturals, wild cards wanted): additions onto table melds first, then new melds.

        The bot is greedy: with two naturals it first asks for two wild cards, and lets the
        server say whether the preset allows that many.
        """
        by_rank: dict[str, list[str]] = defaultdict(list)
        for card in self.hand:
            if not is_wild(card) and rank(card) != "3":
                by_rank[rank(card)].append(card)
        for r, naturals in sorted(by_rank.items(), key=lambda kv: (kv[0] not in self.table, -len(kv[1]))):
            if r in self.table or len(naturals) >= 3:
                yield r, naturals, 0
            elif len(naturals) == 2:
                yield r, naturals, 2
                yield r, naturals, 1

    def play(self, r: str, cards: list[str]) -> None:
        for card in cards:
            self.hand.remove(card)
        self.table.setdefault(r, []).extend(cards)

    def turn(self, number: int) -> None:
        planned: list[tuple[str, list[str]]] = []
        remaining = list(self.hand)  # cards not yet promised to a planned meld this turn
        for r, naturals, wanted in self.proposals():
            if any(remaining.count(c) < naturals.count(c) for c in naturals):
                continue
            wilds = [c for c in remaining if is_wild(c)][:wanted]
            if len(wilds) < wanted or any(r == done for done, _ in planned):
                continue
            cards = [*naturals, *wilds]
            check = self.validate(cards, onto=self.table.get(r))
            where = f" onto the {r}s" if r in self.table else ""
            if check.valid:
                print(f"  turn {number}: {cards}{where} is legal ({check.kind}, {check.points} points)")
                planned.append((r, cards))
                for card in cards:
                    remaining.remove(card)
            else:
                codes = ", ".join(p.code for p in check.problems)
                print(f"  turn {number}: {cards}{where} would break the rules ({codes}); keeping them")
        if not planned:
            return
        if not self.opened:
            opening = self.client.check_opening(preset=self.preset, melds=[cards for _, cards in planned])
            if not opening.met:
                print(f"  turn {number}: opening not met ({opening.points} of {opening.minimum}); waiting")
                return
            self.opened = True
            print(f"  turn {number}: opening met with {opening.points} points")
        for r, cards in planned:
            self.play(r, cards)
            print(f"  turn {number}: played {cards}; the {r}s on the table: {len(self.table[r])} cards")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--preset", default="pagat", choices=PRESET_IDS)
    parser.add_argument("--turns", type=int, default=8, help="at most this many turns (default 8)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    cards = deck(args.seed)
    number = 0
    with Client() as client:
        bot = Bot(client, args.preset, [cards.pop() for _ in range(11)])
        print(f"hand: {' '.join(bot.hand)}")
        try:
            for number in range(1, args.turns + 1):
                if not bot.hand or not cards:
                    break
                drawn = cards.pop()
                bot.hand.append(drawn)
                print(f"turn {number}: drew {drawn}")
                bot.turn(number)
        except HandFootError as exc:
            print(f"the server refused a question: {exc}", file=sys.stderr)
            return 1
    print(
        f"after {number} turns: {sum(len(m) for m in bot.table.values())} cards on the table, "
        f"{len(bot.hand)} in hand, {bot.checks} melds checked"
    )
    for r, meld in bot.table.items():
        print(f"  {r}s: {' '.join(meld)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
