"""Schemas of the health check."""

from __future__ import annotations

import marshmallow as ma


class HealthSchema(ma.Schema):
    """The server is up and its database ready: it answers, is migrated and takes writes."""

    status = ma.fields.String(required=True, metadata={"description": 'Always "ok" in a 200.', "example": "ok"})
    database = ma.fields.String(
        required=True,
        metadata={
            "description": '"ok": the database answered, is at the schema this server needs and committed a write.',
            "example": "ok",
        },
    )


class LiveSchema(ma.Schema):
    """The server process answers."""

    status = ma.fields.String(required=True, metadata={"description": 'Always "ok" in a 200.', "example": "ok"})
