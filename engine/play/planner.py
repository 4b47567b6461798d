"""The planner: a reference policy that plays toward the contract instead of melding all it can.

Where the greedy policy (:func:`~handfoot.engine.play.bots.greedy_policy`) lays down every meld it
sees and spreads its wild cards over open melds one at a time, the planner:

- keeps its wild cards for a wild book (the largest bonus where the rules have one: Pagat's 1,500)
  and adds them to natural melds only to close a book the contract still needs, to open, to reach
  its foot or to go out, or when the stock is nearly out (a wild card on the table counts for the
  side, in the hand against it);
- keeps natural pairs in the hand for the discard pile (a pile take needs them) rather than making
  them melds with a wild card, and takes the pile when it holds enough cards to pay;
- goes to its foot when the hand can be emptied this turn, by melds and one discard;
- asks its partner "May I go out?" once only the yes is missing, and answers yes when its side
  leads on the table or its own hand holds few points;
- discards what helps the opponents least: a black three (it blocks the pile where the rules say
  so), then single cards of the ranks with the fewest copies left unseen, wild cards never.

It is a policy like the others (a seat's view, the rules in force, a ``random.Random`` -> candidate
actions, best first, the last always one the rules accept) and reads the view only through the small
helpers below, so a renamed view member is a one-line change (``_going_out`` already reads either
form of "would emptying the hand go out"). Standard library only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from handfoot.engine.cards import is_wild_code as _is_wild
from handfoot.engine.cards import parse_card
from handfoot.engine.cards import rank_of as _rank
from handfoot.engine.melds import card_points
from handfoot.engine.rules import RuleSet

Action = dict[str, Any]
View = dict[str, Any]

#: Cards left in the stock at or below which the planner plays out its wild cards (a few turns).
ENDGAME_STOCK = 12
#: The fewest cards a discard pile must hold for the planner to take it (its pair goes into a meld
#: either way; fewer cards than a draw's do not pay for the stock card it leaves).
PILE_WORTH_TAKING = 3


# -- the view, read in one place ----------------------------------------------------------------
def _hand(v: View) -> list[str]:
    return list(v["hand"])


def _action(v: View, kind: str) -> dict[str, Any] | None:
    return next((a for a in v["actions"] if a["type"] == kind), None)


def _going_out(v: View) -> dict[str, Any] | None:
    """Whether emptying the hand now would go out (``allowed``, ``problems``): the view's
    ``going_out`` where it has one, else its listed ``go_out``."""
    going_out = v.get("going_out")
    return dict(going_out) if isinstance(going_out, dict) else _action(v, "go_out")


def _foot_down(v: View) -> bool:
    return v["foot_size"] is not None


def _my_melds(v: View) -> list[list[str]]:
    return [list(m) for m in v["sides"][v["side"]]["melds"]]


def _books(v: View, side: int) -> dict[str, int]:
    return dict(v["sides"][side]["books"])


def _contract(v: View) -> dict[str, int]:
    return dict(v["contract"])


def _players(v: View) -> int:
    return len(v["seats"])


# -- cards ------------------------------------------------------------------------------------
def _points(codes: Sequence[str], rules: RuleSet) -> int:
    return sum(card_points(parse_card(c), rules) for c in codes)


def _table_value(v: View, side: int, rules: RuleSet) -> int:
    """A side's table as it stands (points): its books' bonuses and its melded cards' points."""
    books = _books(v, side)
    bonus = (
        books.get("clean_books", 0) * rules.clean_book_bonus
        + books.get("dirty_books", 0) * rules.dirty_book_bonus
        + books.get("wild_books", 0) * rules.wild_book_bonus
    )
    return bonus + sum(_points(m, rules) for m in v["sides"][side]["melds"])


def _wants_wild_book(v: View, rules: RuleSet) -> bool:
    """Whether wild cards are kept for a wild book: the rules have all-wild melds that pay."""
    return rules.all_wild_melds and rules.wild_book_bonus > max(rules.clean_book_bonus, rules.dirty_book_bonus)


def _missing(v: View) -> dict[str, int]:
    """Books of each kind the side still needs for the contract."""
    books, contract = _books(v, v["side"]), _contract(v)
    return {k: max(0, n - books.get(k, 0)) for k, n in contract.items()}


# -- melds ------------------------------------------------------------------------------------
def _wild_ok(naturals: int, wilds: int, rules: RuleSet) -> bool:
    """The rules' wild-card ratio for a meld of ``naturals`` and ``wilds`` (the step's
    ``validate_meld`` decides; this only keeps the planner from offering what it would refuse)."""
    if wilds == 0:
        return True
    if rules.max_wilds_per_book is not None and wilds > rules.max_wilds_per_book:
        return False
    if naturals < max(rules.min_naturals_with_wilds, 1):
        return False
    ratio = rules.wild_ratio
    if ratio == "twice":
        return naturals >= 2 * wilds
    if ratio == "more":
        return naturals > wilds
    return naturals >= wilds


class _Plan:
    """A meld action being built from a hand: ``adds`` onto the side's melds, ``new`` melds,
    ``burn``, and what is left to place (naturals ``by_rank``, ``wilds``)."""

    def __init__(self, v: View, rules: RuleSet, meld: dict[str, Any]) -> None:
        self.rules, self.cap = rules, rules.book_max_size or 99
        self.by_rank: dict[str, list[str]] = {}
        for code in _hand(v):
            if not _is_wild(code) and _rank(code) != "3":
                self.by_rank.setdefault(_rank(code), []).append(code)
        # jokers first: more points on the table
        self.wilds = sorted((c for c in _hand(v) if _is_wild(c)), key=lambda c: c != "JK")
        self.adds: list[dict[str, Any]] = []
        self.new: list[list[str]] = []
        self.burn: list[str] = []
        self.open_natural: list[tuple[int, int, int, int]] = []  # (to, size, naturals, wilds) after the plan
        self.wild_meld: tuple[int, int] | None = None  # (to, size) of the side's open wild meld
        melds = _my_melds(v)
        for ext in meld["extend"]:
            to, rank, size = ext["to"], ext["rank"], ext["size"]
            if rank is None:
                self.wild_meld = (to, size) if size < self.cap else self.wild_meld
                continue
            cards = self.by_rank.pop(rank, [])[: self.cap - size]
            self.add(to, cards)
            n_wild = sum(_is_wild(c) for c in (melds[to] if to < len(melds) else []))
            self.open_natural.append((to, size + len(cards), size + len(cards) - n_wild, n_wild))
        for rank in meld["burn"]:
            self.burn += self.by_rank.pop(rank, [])
        self.new += [cards[: self.cap] for _, cards in sorted(self.by_rank.items()) if len(cards) >= rules.meld_min]

    def add(self, to: int, cards: list[str]) -> None:
        if not cards:
            return
        existing = next((a for a in self.adds if a["to"] == to), None)
        if existing is not None:
            existing["cards"] = [*existing["cards"], *cards]
        else:
            self.adds.append({"to": to, "cards": cards})

    def wild_book(self, start: bool) -> None:
        """Wild cards onto the open wild meld, or (``start``) into a new one of ``meld_min`` or more."""
        if self.wild_meld is not None and self.wilds:
            take = self.wilds[: self.cap - self.wild_meld[1]]
            self.add(self.wild_meld[0], take)
            self.wilds = self.wilds[len(take) :]
        elif start and len(self.wilds) >= self.rules.meld_min and self.rules.all_wild_melds:
            self.new.append(self.wilds[: self.cap])
            self.wilds = self.wilds[self.cap :]

    def fill(self) -> None:
        """Wild cards into open natural melds, the largest first (closing books), while the ratio allows."""
        for to, size, naturals, n_wild in sorted(self.open_natural, key=lambda t: -t[1]):
            extra: list[str] = []
            while (
                self.wilds and size + len(extra) < self.cap and _wild_ok(naturals, n_wild + len(extra) + 1, self.rules)
            ):
                extra.append(self.wilds.pop(0))
            self.add(to, extra)

    def pairs(self) -> None:
        """Pairs (``meld_min - 1`` naturals) made melds with a wild card."""
        for cards in [c for c in self.by_rank.values() if len(c) == self.rules.meld_min - 1]:
            if self.wilds and _wild_ok(len(cards), 1, self.rules):
                self.new.append([*cards, self.wilds.pop(0)])

    def action(self) -> Action | None:
        if not (self.adds or self.new or self.burn):
            return None
        out: Action = {"type": "meld"}
        for key, value in (("melds", self.new), ("add", self.adds), ("burn", self.burn)):
            if value:
                out[key] = value
        return out


def plan_melds(v: View, rules: RuleSet, *, spend_wilds: bool, keep_pairs: bool, empty: bool = False) -> Action | None:
    """One meld action from the seat's hand (``None`` if nothing to meld): naturals onto the side's
    open melds of their rank, new melds of ``meld_min`` naturals or more, wild cards onto the side's
    open wild meld or into a new one; with ``spend_wilds`` (or rules without a wild book worth
    keeping them for) also wild cards to fill natural melds (closing books first) and pairs made
    melds with a wild; without ``keep_pairs`` a pair is made a meld with a wild even when wilds are
    kept. ``empty``: the hand is to be emptied, so pairs take the wild cards before open melds do
    (two cards leave the hand with each wild card, not one)."""
    meld = _action(v, "meld")
    if meld is None:
        return None
    plan = _Plan(v, rules, meld)
    keep_for_wild_book = _wants_wild_book(v, rules)
    plan.wild_book(start=keep_for_wild_book)
    if empty:
        plan.pairs()
    if spend_wilds or not keep_for_wild_book:
        plan.fill()
    if spend_wilds or not keep_pairs:
        plan.pairs()
    if not keep_for_wild_book:
        plan.wild_book(start=True)
    return plan.action()


def _cards_of(action: Action) -> list[str]:
    return [
        *(c for m in action.get("melds", []) for c in m),
        *(c for a in action.get("add", []) for c in a["cards"]),
        *action.get("burn", []),
    ]


def _parts(action: Action) -> list[Action]:
    """An action's parts one by one (fallbacks when the whole is refused: a keep rule, an opening)."""
    parts: list[Action] = [{"type": "meld", "add": [a]} for a in action.get("add", [])]
    parts += [{"type": "meld", "melds": [m]} for m in action.get("melds", [])]
    if action.get("burn"):
        parts.append({"type": "meld", "burn": action["burn"]})
    return parts


# -- discards ---------------------------------------------------------------------------------
def discard_order(v: View, rules: RuleSet) -> list[str]:
    """The hand's distinct cards, least harmful to let go first: a three, then cards of ranks the
    seat holds fewest of and its side has no open meld of, those with the fewest copies left unseen
    first (an opponent is less likely to hold the pair a pile take needs), wild cards last."""
    hand = _hand(v)
    counts = Counter(_rank(c) for c in hand)
    seen: Counter[str] = Counter(_rank(c) for c in hand)
    for side in v["sides"]:
        for m in side["melds"]:
            seen.update(_rank(c) for c in m)
    copies = 4 * rules.decks_for(_players(v))
    open_ranks = {_rank(next(c for c in m if not _is_wild(c))) for m in _my_melds(v) if any(not _is_wild(c) for c in m)}

    def harm(code: str) -> tuple[int, int, int, str]:
        rank = _rank(code)
        if rank == "3":
            return (-1, 0, 0, code)
        if _is_wild(code):
            return (1000, 0, 0, code)
        keep = min(counts[rank], 3) * 100 + (500 if rank in open_ranks else 0)
        return (keep, copies - seen[rank], -card_points(parse_card(code), rules), code)

    return sorted(set(hand), key=harm)


# -- the policy -------------------------------------------------------------------------------
def _answer(v: View, rules: RuleSet) -> bool:
    """Yes to "May I go out?" when the side leads on the table, or the answerer's hand (which
    going out counts against the side) holds few points, or the stock is nearly out."""
    mine = _table_value(v, v["side"], rules)
    best_other = max(_table_value(v, j, rules) for j in range(len(v["sides"])) if j != v["side"])
    return mine >= best_other or _points(_hand(v), rules) <= 100 or v["stock_size"] <= ENDGAME_STOCK


def _draw_phase(v: View, rules: RuleSet) -> list[Action]:
    out: list[Action] = []
    take = _action(v, "take_pile")
    opening = take is not None and take["opening_minimum"] is not None
    if take and take["allowed"] and (take["cards"] >= PILE_WORTH_TAKING or opening):
        options = sorted(take["with"], key=lambda cards: sum(_is_wild(c) for c in cards))
        for cards in options:
            if take["opening_minimum"] is not None:
                rest = _hand(v)
                for c in cards:
                    rest.remove(c)
                extra = plan_melds(
                    {**v, "hand": rest, "actions": [{"type": "meld", "extend": [], "burn": []}]},
                    rules,
                    spend_wilds=True,
                    keep_pairs=False,
                )
                out.append({"type": "take_pile", "cards": cards, "melds": (extra or {}).get("melds", [])})
            else:
                out.append({"type": "take_pile", "cards": cards, "onto": take["onto"]})
    return [*out, {"type": "draw"}]


def _play_phase(v: View, rules: RuleSet) -> list[Action]:
    out: list[Action] = []
    meld = _action(v, "meld")
    go_out = _going_out(v)
    if _action(v, "ask") and go_out and go_out["problems"] == ["partner_not_asked"]:
        out.append({"type": "ask"})  # before the last melds: a yes lets it meld everything
    endgame = v["stock_size"] <= ENDGAME_STOCK or v.get("permission") is True
    opening = meld is not None and meld["opening_minimum"] is not None
    hand = _hand(v)
    plans: list[Action] = []
    careful = plan_melds(v, rules, spend_wilds=endgame, keep_pairs=not endgame)
    eager = plan_melds(v, rules, spend_wilds=True, keep_pairs=False, empty=True)
    missing = _missing(v)
    if eager is not None and (
        opening
        or (_foot_down(v) and len(hand) - len(_cards_of(eager)) <= 1)  # to the foot this turn
        or (not _foot_down(v) and go_out is not None and go_out["allowed"])
    ):
        plans.append(eager)
    if careful is not None:
        plans.append(careful)
        if missing.get("dirty_books", 0) and not missing.get("wild_books", 0):
            # the wild book is made: spare wild cards close the dirty books the contract needs
            plans.insert(0, plan_melds(v, rules, spend_wilds=True, keep_pairs=True) or careful)
    for plan in plans:
        out.append(plan)
        out += _parts(plan)
    out += [{"type": "discard", "card": c} for c in discard_order(v, rules)]
    return out


def planner_policy(v: View, rules: RuleSet, rng: random.Random) -> list[Action]:
    """The planner's candidates for the seat of view ``v`` (see the module's docstring); ``rng`` is
    not used: the planner is deterministic."""
    seat = v["seat"]
    if _action(v, "answer"):
        return [{"type": "answer", "yes": _answer(v, rules), "seat": seat}]
    chosen = _draw_phase(v, rules) if v["phase"] == "draw" else _play_phase(v, rules)
    return [{**a, "seat": seat} for a in chosen]
