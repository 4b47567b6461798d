"""Schemas of the presets resource."""

from __future__ import annotations

from marshmallow import fields

from handfoot.server.schemas import Required, Schema


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
    summary = Required(fields.String, "One line on what makes it different.")


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
    source = Required(
        fields.String,
        "The published rule set that states it, a preset id for filled values, or the decision's reference.",
    )
    note = Required(fields.String, "The source's words, or why.")


class RuleFieldSchema(Schema):
    name = Required(fields.String, "The rule's name, as used in `rules` overrides.")
    group = Required(
        fields.String, "sides, deal, game, card_values, melds, bonuses, red_threes, opening, going_out or discard_pile."
    )
    description = Required(fields.String, "What the value means, with its unit.")
    value = Required(fields.Raw, "The preset's value (points unless the description says otherwise).")
    provenance = Required(fields.Nested, "Where the value comes from.", ProvenanceSchema)


class PresetSchema(PresetSummarySchema):
    rules = Required(
        fields.Dict,
        "The full RuleSet: every value by rule name (the shape `rules` overrides take).",
        keys=fields.String(),
        values=fields.Raw(),
    )
    provenance = Required(
        fields.Dict,
        "Where each value comes from, by rule name.",
        keys=fields.String(),
        values=fields.Nested(ProvenanceSchema),
    )
    fields_ = Required(
        fields.List,
        "Every rule in order, with its group, description, value and provenance (for display).",
        fields.Nested(RuleFieldSchema),
        data_key="fields",
        attribute="fields",
    )
