// The house-rules editor of the new-game view: one input per rule value, typed from the OpenAPI
// Rules schema, and a badge saying where the preset's value comes from.

import { h, numberInput, readNumber } from "../dom.js";
import { presetName } from "../presets.js";

/** How the page words a provenance kind (the spec's list; "filled" has its own badge). */
const KIND_WORDS = {
  stated: "stated by",
  option: "default option of",
  reported: "reported by",
  derived: "follows from the stated values",
  decision: "our reading",
  default: "not used by this source",
};

/** A rule value's provenance ({kind, source, note}) as a badge; null when it has none. */
export function provenanceBadge(prov) {
  if (!prov) return null;
  if (prov.kind === "filled") {
    return h("span.badge.filled", { title: prov.note || "" }, `Filled from ${presetName(prov.source)}`);
  }
  const words = KIND_WORDS[prov.kind] || prov.kind;
  const source = prov.kind === "derived" || prov.kind === "default" ? "" : ` ${prov.source}`;
  return h(`span.prov.prov-${prov.kind}`, { title: prov.note || "" }, `${words}${source}`);
}

/** An input for one rule value; returns {control, read}. Types and choices come from the OpenAPI schema. */
export function ruleEditor(ruleField, prop = {}) {
  const value = ruleField.value;
  const types = [].concat(prop.type || []);
  const name = ruleField.name;
  if (prop.enum || (typeof value === "string" && !types.length)) {
    const choices = prop.enum || [value];
    const control = h("select", { name }, choices.map((c) => h("option", { value: c, selected: c === value }, c)));
    return { control, read: () => control.value };
  }
  if (typeof value === "boolean" || types.includes("boolean")) {
    const control = h("input", { type: "checkbox", name, checked: Boolean(value) });
    return { control, read: () => control.checked };
  }
  if (typeof value === "number" || types.includes("integer")) {
    const nullable = types.includes("null");
    const signed = typeof prop.minimum !== "number" || prop.minimum < 0 || value < 0;
    const control = numberInput(name, value, { signed, placeholder: nullable ? "none" : undefined });
    return {
      control,
      read: () => {
        const text = control.value.trim();
        if (text === "") return nullable ? null : "";
        return readNumber(text);
      },
    };
  }
  const intList =
    Array.isArray(value) && (prop.items ? prop.items.type === "integer" : value.length > 0 && value.every(Number.isInteger));
  if (intList) {
    const control = h("input", { type: "text", name, value: value.join(", "), inputmode: "text", autocomplete: "off", placeholder: "none" });
    return {
      control,
      read: () =>
        control.value
          .split(/[\s,;]+/)
          .filter(Boolean)
          .map((t) => readNumber(t)),
    };
  }
  if (value && typeof value === "object" && !Array.isArray(value) && "clean_books" in value) {
    const inputs = ["clean_books", "dirty_books", "wild_books"].map((k) => [k, numberInput(`${name}.${k}`, value[k])]);
    const control = h(
      "div.contract-editor",
      { role: "group" },
      inputs.map(([k, input]) => {
        input.setAttribute("aria-label", `${k.split("_")[0]} books`);
        return h("label.mini", input, ` ${k.split("_")[0]}`);
      }),
    );
    return {
      control,
      read: () => Object.fromEntries(inputs.map(([k, input]) => [k, readNumber(input.value)])),
    };
  }
  const control = h("input", { type: "text", name, value: JSON.stringify(value), autocomplete: "off", spellcheck: "false" });
  return {
    control,
    read: () => {
      try {
        return JSON.parse(control.value);
      } catch {
        return control.value;
      }
    },
  };
}
