"""The result types: frozen dataclasses read by one loader (``handfoot.client._loader``), by resource.

Each result pickles, deep-copies, works with ``dataclasses.asdict``, and gives back the JSON the
server sent with ``to_dict()``. How they print is ``handfoot.client.display``.
"""

from .checks import BookKind, Books, DiscardPileCheck, GoingOutCheck, MeldCheck, OpeningCheck
from .games import (
    GAME_STATUSES,
    Game,
    GameStatus,
    GameSummary,
    GameTeam,
    Revision,
    Round,
    RoundSummary,
    Scoresheet,
    ScoresheetRound,
    TeamTotal,
)
from .health import Health, Liveness
from .history import PlayerStatistics, SideStatistics, Statistics
from .presets import (
    PRESET_IDS,
    PROVENANCE_KINDS,
    Preset,
    PresetId,
    PresetSummary,
    Provenance,
    ProvenanceKind,
    RuleField,
)
from .problems import ProblemDetails, ProblemItem
from .rounds import Breakdown, Comparison, Line, RoundComparison, RoundScore
from .tables import (
    TABLE_PHASES,
    TABLE_STATUSES,
    LastRound,
    SeatSummary,
    SeatToken,
    SeatView,
    SideScore,
    SideSummary,
    Table,
    TableCreated,
    TablePhase,
    TableRound,
    TableStatus,
)

__all__ = [
    "GAME_STATUSES",
    "PRESET_IDS",
    "PROVENANCE_KINDS",
    "TABLE_PHASES",
    "TABLE_STATUSES",
    "BookKind",
    "Books",
    "Breakdown",
    "Comparison",
    "DiscardPileCheck",
    "Game",
    "GameStatus",
    "GameSummary",
    "GameTeam",
    "GoingOutCheck",
    "Health",
    "LastRound",
    "Line",
    "Liveness",
    "MeldCheck",
    "OpeningCheck",
    "PlayerStatistics",
    "Preset",
    "PresetId",
    "PresetSummary",
    "ProblemDetails",
    "ProblemItem",
    "Provenance",
    "ProvenanceKind",
    "Revision",
    "Round",
    "RoundComparison",
    "RoundScore",
    "RoundSummary",
    "RuleField",
    "Scoresheet",
    "ScoresheetRound",
    "SeatSummary",
    "SeatToken",
    "SeatView",
    "SideScore",
    "SideStatistics",
    "SideSummary",
    "Statistics",
    "Table",
    "TableCreated",
    "TablePhase",
    "TableRound",
    "TableStatus",
    "TeamTotal",
]
