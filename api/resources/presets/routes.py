"""``/v1/presets``: every rule source as a preset, each value with its provenance."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from handfoot.engine import PRESETS, RULE_FIELDS, Preset, find_preset
from handfoot.server.blueprint import Blueprint
from handfoot.server.problems import abort_problem

from .schemas import PresetSchema, PresetSummarySchema

blp = Blueprint(
    "Presets",
    __name__,
    url_prefix="/v1/presets",
    description="The published rule sets and family sheets, value by value, with where each value comes from.",
)


def summary(preset: Preset) -> dict[str, Any]:
    return {"id": preset.id, "name": preset.name, "source": preset.source, "summary": preset.summary}


def detail(preset: Preset) -> dict[str, Any]:
    rules = preset.rules.to_mapping()
    provenance = {k: {"kind": p.kind, "source": p.source, "note": p.note} for k, p in preset.provenance.items()}
    return summary(preset) | {
        "rules": rules,
        "provenance": provenance,
        "fields": [
            {
                "name": name,
                "group": spec.group,
                "description": spec.description,
                "value": rules[name],
                "provenance": provenance[name],
            }
            for name, spec in RULE_FIELDS.items()
        ],
    }


def _detail_example() -> dict[str, Any]:
    example = detail(PRESETS["saskatchewan"])
    keep = ("hand_size", "wild_ratio", "clean_book_bonus")
    example["rules"] = {k: example["rules"][k] for k in keep}
    example["provenance"] = {k: example["provenance"][k] for k in keep}
    example["fields"] = [f for f in example["fields"] if f["name"] in keep]
    return example


@blp.route("")
class PresetCollection(MethodView):
    @blp.response(200, PresetSummarySchema(many=True), example=[summary(p) for p in list(PRESETS.values())[:2]])
    def get(self) -> list[dict[str, Any]]:
        """List the presets

        Every preset's id, name, source and a one-line summary. Pass an `id` as `preset` to any check
        or scoring operation.
        """
        return [summary(p) for p in PRESETS.values()]


@blp.route("/<string:preset_id>")
class PresetItem(MethodView):
    @blp.response(200, PresetSchema, example=_detail_example())
    def get(self, preset_id: str) -> dict[str, Any]:
        """Get one preset

        The full RuleSet with the provenance of every value: the published rule set that states it, `filled` from
        another preset where the source is silent, `reported` by secondary sources, or a recorded
        `decision`. Unknown id: 404.
        """
        if preset_id not in PRESETS:
            abort_problem(
                404,
                "Preset not found",
                f"No preset {preset_id!r}; see GET /v1/presets.",
                errors=[
                    {"parameter": "preset_id", "code": "unknown_preset", "detail": f"presets: {', '.join(PRESETS)}"}
                ],
            )
        return detail(find_preset(preset_id))
