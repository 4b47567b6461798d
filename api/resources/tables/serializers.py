"""Documents of the tables resource, built from the service's :class:`TableData`: what
``schemas.py`` documents. A seat's document holds only what the engine's ``view`` gives that seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flask

from handfoot.engine import play
from handfoot.server.idempotency import Answer
from handfoot.server.services.tables import CreatedTable, TableData


def table_location(table_id: int) -> str:
    return flask.url_for("Tables.TableItem", table_id=table_id)


def table_round_location(table_id: int, number: int) -> str:
    return flask.url_for("Tables.TableRound", table_id=table_id, number=number)


def game_round_location(game_id: int, number: int) -> str:
    return flask.url_for("Games.RoundItem", game_id=game_id, number=number)


def _head(data: TableData) -> dict[str, Any]:
    """What every answer about a table starts with (``_TableHeadSchema``)."""
    return {
        "id": data.id,
        "game": data.game_id,
        "href": table_location(data.id),
        "status": data.status,
        "round": data.round,
        "version": data.version,
        "practice": data.practice,
    }


def created_doc(created: CreatedTable) -> dict[str, Any]:
    """The 201 of a creation: the table and each seat's token (shown here only)."""
    return {
        **_head(created.table),
        "seats": [
            {"seat": i, "name": s.name, "side": s.side, "token": token}
            for i, (s, token) in enumerate(zip(created.table.state.seats, created.tokens, strict=True))
        ],
    }


def created_answer(created: CreatedTable) -> Answer:
    """The 201 of a creation as stored with its Idempotency-Key (the tokens with it: a replay gives them)."""
    return Answer(201, {"Location": table_location(created.table.id)}, created_doc(created))


def summary_doc(data: TableData) -> dict[str, Any]:
    """The public summary: counts of cards, never a card."""
    state = data.state
    return {
        **_head(data),
        "phase": state.phase,
        "turn": state.turn,
        "seats": [
            {
                "seat": i,
                "name": s.name,
                "side": s.side,
                "hand_size": len(s.hand),
                "foot_size": None if s.foot is None else len(s.foot),
            }
            for i, s in enumerate(state.seats)
        ],
        "sides": [{"name": side.name, "score": side.score} for side in state.sides],
        "created_at": data.created_at,
        "updated_at": data.updated_at,
    }


def seat_view_doc(data: TableData, seat: int) -> dict[str, Any]:
    """A SeatView: the engine's view for ``seat``, the table's version, the rules in force (the game's
    ``preset`` and house-rule overrides, ``rules``) and the last round ended."""
    state = data.state
    last = data.last_round
    return {
        "table": data.id,
        "game": data.game_id,
        "status": data.status,
        "version": data.version,
        "round": data.round,
        "rounds": state.rules.rounds,
        "preset": state.preset,
        "rules": dict(state.overrides),
        "view": play.view(state, seat),
        "last_round": None if last is None else {**last, "href": table_round_location(data.id, last["round"])},
    }


@dataclass(slots=True)
class SeatViewAnswer:
    """The 200 of an action for ``seat``: the SeatView, built and encoded once (``sent``: the table it
    shows and the response) for the response and for the copy stored with its Idempotency-Key (per
    seat: the key's scope is the seat)."""

    seat: int
    sent: tuple[TableData, flask.Response] | None = None

    def __call__(self, data: TableData) -> Answer:
        """The answer to store with the key (``Key.answering``)."""
        doc = seat_view_doc(data, self.seat)
        self.sent = data, flask.jsonify(doc)
        return Answer(200, {}, doc, encoded=self.sent[1].get_data())

    def response(self, data: TableData) -> flask.Response:
        """The response (as ``jsonify`` makes it): the one stored with the key when it shows ``data``."""
        if self.sent is None or self.sent[0] is not data:
            self(data)
        assert self.sent is not None
        return self.sent[1]


def round_doc(data: TableData, summary: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "round": summary["round"],
        "seed": summary["seed"],
        "ended": summary["ended"],
        "out_side": summary["out_side"],
        "actions": actions,
        "score": summary["score"],
        "game_round_href": game_round_location(data.game_id, summary["round"]),
    }


def sse_event(doc: dict[str, Any]) -> str:
    """One server-sent event: ``id`` the table's version, ``event: view``, the SeatView as ``data``."""
    return f"id: {doc['version']}\nevent: view\ndata: {flask.json.dumps(doc)}\n\n"
