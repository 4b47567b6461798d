"""Schemas of the health check."""

from __future__ import annotations

import marshmallow as ma


class HealthSchema(ma.Schema):
    """The server is up and its database answers."""

    status = ma.fields.String(required=True, metadata={"description": 'Always "ok" in a 200.', "example": "ok"})
    database = ma.fields.String(
        required=True,
        metadata={"description": '"ok": the database answered SELECT 1.', "example": "ok"},
    )
