"""The consistency checks of a whole RuleSet: every way a rule set contradicts itself
(``inconsistent_rules``), asked of every house-rule resolution by
:func:`~handfoot.engine.rule_fields.apply_overrides`."""

from __future__ import annotations

from handfoot.engine.cards import deck
from handfoot.engine.errors import Problem
from handfoot.engine.melds import wild_faults
from handfoot.engine.rules import RuleSet

__all__ = ["consistency_problems"]


def consistency_problems(rules: RuleSet) -> list[Problem]:  # noqa: C901 - one independent check a rule, read whole
    """Every way ``rules`` contradicts itself (paths are field names). Empty when consistent.

    Checked: ranges that must be ordered (teams, players, meld and book sizes); a wild limit that
    leaves no legal dirty book; a bonus for books of black threes where they are never melded; wild
    books in a contract when all-wild melds do not exist; red threes laid out automatically where
    they are never laid out; a
    contract that the smallest table's decks cannot supply; a tie rule without a round count.
    """
    out: list[Problem] = []

    def bad(name: str, detail: str) -> None:
        out.append(Problem("inconsistent_rules", detail, (name,)))

    if rules.teams_min > rules.teams_max:
        bad("teams_min", f"teams_min {rules.teams_min} is above teams_max {rules.teams_max}")
    if rules.players_per_team_min > rules.players_per_team_max:
        bad("players_per_team_min", "players_per_team_min is above players_per_team_max")
    for low, high in (("players_alone_min", "players_alone_max"), ("players_in_teams_min", "players_in_teams_max")):
        lo, hi = getattr(rules, low), getattr(rules, high)
        if lo is not None and hi is not None and lo > hi:
            bad(low, f"{low} {lo} is above {high} {hi}")
    if rules.meld_min > rules.book_size:
        bad("meld_min", f"meld_min {rules.meld_min} is above book_size {rules.book_size}")
    if rules.book_max_size is not None and rules.book_max_size < rules.book_size:
        bad("book_max_size", f"book_max_size {rules.book_max_size} is below book_size {rules.book_size}")
    if not rules.decks_by_players and rules.decks_per_player == 0 and rules.decks_extra == 0:
        bad("decks_extra", "no decks: decks_per_player and decks_extra are both 0")
    if rules.red_threes_automatic and not rules.red_threes_laid_out:
        bad("red_threes_automatic", "red_threes_automatic lays red threes out, but red_threes_laid_out is false")
    if rules.rounds is None and rules.target_score is None:
        bad("rounds", "a game needs rounds or a target_score")
    if rules.tie_rule == "tiebreaker_round" and rules.tiebreaker_opening_minimum is None:
        bad("tiebreaker_opening_minimum", "tie_rule tiebreaker_round needs a tiebreaker_opening_minimum")
    scores = [t.score for t in rules.opening_thresholds]
    if scores != sorted(scores):
        bad("opening_thresholds", "opening_thresholds must be in ascending score order")
    if not _dirty_book_possible(rules):
        bad(
            "wild_ratio",
            "the wild-card limits forbid every dirty book "
            f"(book_size {rules.book_size}, wild_ratio {rules.wild_ratio}, min_naturals_with_wilds "
            f"{rules.min_naturals_with_wilds}, min_naturals_dirty_book {rules.min_naturals_dirty_book}, "
            f"max_wilds_per_book {rules.max_wilds_per_book})",
        )
    for i, bonus in enumerate(rules.rank_book_bonuses):
        if bonus.rank == "3" and not rules.black_three_books:
            out.append(
                Problem(
                    "inconsistent_rules",
                    "a bonus for books of black threes, but black threes are never melded (black_three_books is false)",
                    ("rank_book_bonuses", i, "rank"),
                )
            )
    contracts = {("contract",): rules.contract} | {
        ("contract_by_round", i): c for i, c in enumerate(rules.contract_by_round)
    }
    players = rules.teams_min * rules.players_per_team_min
    decks = rules.decks_for(players)
    wild_cards = decks * sum(1 for c in deck(rules.jokers_per_deck) if c.is_wild)
    natural_books = len(_NATURAL_RANK_COUNT) * ((decks * 4) // rules.book_size)
    for where, c in contracts.items():
        if c.wild_books and not rules.all_wild_melds:
            out.append(
                Problem(
                    "inconsistent_rules",
                    "the contract needs wild books but all_wild_melds is false",
                    (*where, "wild_books"),
                )
            )
        if c.wild_books * rules.book_size > wild_cards:
            out.append(
                Problem(
                    "inconsistent_rules",
                    f"the contract needs {c.wild_books} wild books "
                    f"({c.wild_books * rules.book_size} wild cards) but {decks} decks for the "
                    f"smallest table ({players} players) hold {wild_cards}",
                    (*where, "wild_books"),
                )
            )
        if c.clean_books + c.dirty_books > natural_books:
            out.append(
                Problem(
                    "inconsistent_rules",
                    f"the contract needs {c.clean_books + c.dirty_books} "
                    f"natural-rank books but {decks} decks for the smallest table ({players} "
                    f"players) make at most {natural_books}",
                    (*where, "clean_books"),
                )
            )
    return out


_NATURAL_RANK_COUNT = range(11)  # 4-K and A


def _dirty_book_possible(rules: RuleSet) -> bool:
    """Some book of ``book_size`` cards with wild cards in it keeps the wild-card limits."""

    size = rules.book_size
    return any(not wild_faults(size - wilds, wilds, True, rules) for wilds in range(1, size))
