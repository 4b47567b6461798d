"""A meld action's candidate parts, in cards: :func:`card_parts`, the one generator of them that
the seat view's listing (:mod:`~handfoot.engine.play.listing`), the RL mask and the reference bots
read; :func:`combine` joins parts into one action, :func:`body_of` writes a part as a meld body.
Unchecked: the step's predicates (:mod:`~handfoot.engine.play.legal`) judge each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handfoot.engine.cards import Card, codes, parse_cards
from handfoot.engine.play.facts import sorted_hand
from handfoot.engine.rules import RuleSet

Body = dict[str, Any]


#: A meld candidate in cards: new melds, additions ``(meld index, cards)``, burnt cards.
Part = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[int, tuple[Card, ...]], ...], tuple[Card, ...]]
#: A part's empty member: no melds, no additions, no cards.
NONE: tuple[()] = ()


def card_parts(
    naturals: Mapping[str, Sequence[Card]],
    wilds: Sequence[Card],
    extend: Sequence[Mapping[str, Any]],
    burn: Sequence[str],
    rules: RuleSet,
) -> list[Part]:
    """Candidate meld parts (unchecked), in cards, from a hand's natural cards by rank text (in hand
    order; threes are left to the player) and its wild cards (:func:`~handfoot.engine.play.legal.sorted_hand`),
    and what the view's ``meld`` entry says of the side's table (``extend``: ``to``, ``rank``,
    ``size``; ``burn``: ranks): the naturals of a rank with a meld added to it (else one wild card),
    wild cards added to a wild meld, a burnable rank's naturals burnt, ranks of ``meld_min``
    naturals (or one fewer and a wild card) started, and, where the rules have them, a wild meld.
    The one generator of meld candidates: the listing judges each with the step's predicate, the rl
    mask reads it too, and :func:`meld_parts` writes it as bodies."""
    by_rank = dict(naturals)  # copied in C, threes left out
    by_rank.pop("3", None)
    take = by_rank.pop
    wilds = tuple(wilds)
    cap = rules.book_max_size or 99
    parts: list[Part] = []
    for ext in extend:
        rank, room = ext["rank"], cap - ext["size"]
        if rank is None:
            if wilds and room > 0:
                parts.append((NONE, ((ext["to"], wilds[:room]),), NONE))
            continue
        cards = tuple(take(rank, ())[:room])
        if cards:
            parts.append((NONE, ((ext["to"], cards),), NONE))
        elif wilds and room > 0:
            parts.append((NONE, ((ext["to"], wilds[:1]),), NONE))
    for rank in burn:
        cards = tuple(take(rank, ()))
        if cards:
            parts.append((NONE, NONE, cards))
    least = rules.meld_min
    for held in by_rank.values():
        if len(held) >= least:
            parts.append(((tuple(held[:cap]),), NONE, NONE))
        elif wilds and len(held) == least - 1:
            parts.append((((*held, wilds[0]),), NONE, NONE))
    if rules.all_wild_melds and len(wilds) >= least:
        parts.append(((wilds[:cap],), NONE, NONE))
    return parts


def meld_parts(
    hand: Sequence[str], extend: Sequence[Mapping[str, Any]], burn: Sequence[str], rules: RuleSet
) -> list[Body]:
    """:func:`card_parts` of a hand given as card strings, each part as a meld body of one part
    (unchecked): how a bot reads a view's hand and ``meld`` entry
    (:func:`handfoot.engine.play.bots.meld_parts`)."""
    naturals, wilds = sorted_hand(parse_cards(hand))
    return [body_of(part) for part in card_parts(naturals, wilds, extend, burn, rules)]


def body_of(part: tuple[Sequence[Sequence[Card]], Sequence[tuple[int, Sequence[Card]]], Sequence[Card]]) -> Body:
    """The meld body of ``part``: ``melds``, ``add`` and ``burn`` in that order, each where not empty."""
    new, adds, burn = part
    body: Body = {"type": "meld"}
    if len(new) == 1:  # one new meld or one addition (most bodies): no loop over parts
        body["melds"] = [codes(new[0])]
    elif new:
        body["melds"] = [codes(m) for m in new]
    if len(adds) == 1:
        ((to, cards),) = adds
        body["add"] = [{"to": to, "cards": codes(cards)}]
    elif adds:
        body["add"] = [{"to": to, "cards": codes(m)} for to, m in adds]
    if burn:
        body["burn"] = codes(burn)
    return body


def combine(parts: Sequence[Part]) -> Part | None:
    """The ``parts`` as one, a part left out when it shares a card with one before it (a wild card
    two parts both offer: the first keeps it; a part holding two copies of one card, too);
    ``None`` when empty."""
    return joined([parts[i] for i in kept_parts(parts)])


def kept_parts(parts: Sequence[Part]) -> list[int]:
    """The indexes of the ``parts`` :func:`combine` keeps, in order: of ``parts[:n]`` it keeps
    those below ``n``."""
    used: set[int] = set()
    kept: list[int] = []
    for i, part in enumerate(parts):
        new, adds, burn = part
        if not adds and not burn and len(new) == 1:  # one new meld: most parts (no call)
            cards: Sequence[Card] = new[0]
        elif not new and not burn and len(adds) == 1:  # one addition
            cards = adds[0][1]
        else:
            cards = _cards_of(part)
        keys: set[int] = set()
        for card in cards:  # a loop: the attribute read specialised, no set built in C
            key = card.key
            if key in keys or key in used:
                break
            keys.add(key)
        else:
            used |= keys
            kept.append(i)
    return kept


def joined(parts: Sequence[Part]) -> Part | None:
    """``parts`` (sharing no card) as one part, ``None`` when none."""
    if not parts:
        return None
    new: list[tuple[Card, ...]] = []
    adds: list[tuple[int, tuple[Card, ...]]] = []
    burn: list[Card] = []
    for part in parts:
        new += part[0]
        adds += part[1]
        burn += part[2]
    return (tuple(new), tuple(adds), tuple(burn))


def _cards_of(part: Part) -> Sequence[Card]:
    new, adds, burn = part
    if not adds and not burn and len(new) == 1:
        return new[0]  # one new meld (or, below, one addition): a part of card_parts
    if not new and not burn and len(adds) == 1:
        return adds[0][1]
    return [*(c for m in new for c in m), *(c for _, m in adds for c in m), *burn]


def rest_melds(hand: Sequence[Card], taken: Sequence[Card], rules: RuleSet) -> tuple[tuple[Card, ...], ...]:
    """The new melds the rest of ``hand`` (``taken`` left out) starts, combined (:func:`card_parts`
    with no table, :func:`combine`): what a take before the side has opened melds with it toward
    the opening minimum."""
    rest = list(hand)
    for card in taken:  # list.remove by key: list.remove compares by Card.__eq__, a Python method
        key = card.key
        for i, held in enumerate(rest):
            if held.key == key:
                del rest[i]
                break
        else:
            raise ValueError("list.remove(x): x not in list")
    merged = combine(card_parts(*sorted_hand(rest), (), (), rules))
    return () if merged is None else merged[0]
