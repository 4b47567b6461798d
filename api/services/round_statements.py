"""The statements a round's write runs (``services.rounds``), built once (docs/performance.md); one
of each for games without an owner and with one."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import ColumnElement, Insert, Select, Table, Text, Update, bindparam, cast, insert, select, update

from handfoot.server.models import Game, Round
from handfoot.server.models import Table as TableRow

GAMES: Table = Game.__table__  # type: ignore[assignment]
ROUNDS: Table = Round.__table__  # type: ignore[assignment]
TABLES: Table = TableRow.__table__  # type: ignore[assignment]


def owner_is(anonymous: bool) -> ColumnElement[bool]:
    return GAMES.c.owner_id.is_(None) if anonymous else GAMES.c.owner_id == bindparam("owner")


@functools.cache
def game_row_stmt(anonymous: bool, lock: bool = False) -> Select[Any]:
    """What a round's write reads of the game row (``lock``: ``FOR UPDATE``): not its name, house
    rules or timestamps, and the rules snapshot as its JSON text (the key of ``rounds._rules_from_json``)."""
    stmt = select(
        GAMES.c.id,
        GAMES.c.teams,
        cast(GAMES.c.rules_snapshot, Text).label("rules_json"),
        GAMES.c.state,
        GAMES.c.rounds_played,
        GAMES.c.version,
    ).where(GAMES.c.id == bindparam("game_id"), owner_is(anonymous))
    return stmt.with_for_update() if lock else stmt


#: The table playing a game, if one is (every round write asks).
PLAYING_TABLE = select(TABLES.c.id).where(TABLES.c.game_id == bindparam("game_id"), TABLES.c.status == "playing")


@functools.cache
def state_update_stmt(anonymous: bool, refuse_table: bool) -> Update:
    """The game's new state, if the row is still at the version the write was computed from (the
    game's ``version_id_col``, moved on by one) and, with ``refuse_table``, no table plays it (D51,
    asked in the same statement)."""
    stmt = (
        update(GAMES)
        .where(GAMES.c.id == bindparam("game_id"), GAMES.c.version == bindparam("old_version"), owner_is(anonymous))
        .values(
            state=bindparam("new_state"),
            status=bindparam("new_status"),
            rounds_played=bindparam("new_rounds_played"),
            updated_at=bindparam("new_updated_at"),
            version=bindparam("new_version"),
        )
    )
    if refuse_table:
        playing = select(TABLES.c.id).where(TABLES.c.game_id == GAMES.c.id, TABLES.c.status == "playing")
        stmt = stmt.where(~playing.exists())
    return stmt


ROUND_TOTALS = select(ROUNDS.c.teams).where(ROUNDS.c.game_id == bindparam("game_id")).order_by(ROUNDS.c.number)
INSERT_ROUND: Insert = insert(ROUNDS)
