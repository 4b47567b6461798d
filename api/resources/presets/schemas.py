"""Schemas of the presets resource."""

from __future__ import annotations

from marshmallow import fields

from handfoot.server.schemas import Schema


class PresetSummarySchema(Schema):
    id = fields.String(
        required=True,
        metadata={"description": "Stable preset id, used as `preset` in every request.", "example": "pagat"},
    )
    name = fields.String(required=True, metadata={"description": "Display name.", "example": "Pagat"})
    source = fields.String(
        required=True,
        metadata={
            "description": "The published rule set it comes from, as players name it.",
            "example": "Pagat (partnership rules by Bill Whitnack)",
        },
    )
    summary = fields.String(required=True, metadata={"description": "One line on what makes it different."})


class ProvenanceSchema(Schema):
    kind = fields.String(
        required=True,
        metadata={
            "description": "stated (the rule set states it), option (the source's default for a configurable value), "
            "filled (the source is silent; copied from the preset named in `source`), reported (secondary public "
            "summaries, not the rule set's own text), derived (follows from stated values), decision (our reading, "
            "recorded in docs/rules-decisions.md), default (a rule dimension beyond the sources, off unless set).",
            "enum": ["stated", "option", "filled", "reported", "derived", "decision", "default"],
        },
    )
    source = fields.String(
        required=True,
        metadata={
            "description": "The published rule set that states it, a preset id for filled values, or the "
            "decision's reference."
        },
    )
    note = fields.String(required=True, metadata={"description": "The source's words, or why."})


class RuleFieldSchema(Schema):
    name = fields.String(required=True, metadata={"description": "The rule's name, as used in `rules` overrides."})
    group = fields.String(
        required=True,
        metadata={
            "description": "sides, deal, game, card_values, melds, bonuses, red_threes, "
            "opening, going_out or discard_pile."
        },
    )
    description = fields.String(required=True, metadata={"description": "What the value means, with its unit."})
    value = fields.Raw(
        required=True, metadata={"description": "The preset's value (points unless the description says otherwise)."}
    )
    provenance = fields.Nested(ProvenanceSchema, required=True, metadata={"description": "Where the value comes from."})


class PresetSchema(PresetSummarySchema):
    rules = fields.Dict(
        required=True,
        keys=fields.String(),
        values=fields.Raw(),
        metadata={"description": "The full RuleSet: every value by rule name (the shape `rules` overrides take)."},
    )
    provenance = fields.Dict(
        required=True,
        keys=fields.String(),
        values=fields.Nested(ProvenanceSchema),
        metadata={"description": "Where each value comes from, by rule name."},
    )
    fields_ = fields.List(
        fields.Nested(RuleFieldSchema),
        required=True,
        data_key="fields",
        attribute="fields",
        metadata={
            "description": "Every rule in order, with its group, description, value and provenance (for display)."
        },
    )
