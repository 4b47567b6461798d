// The presets and the Rules schema, fetched once per page load and kept.

import { api } from "./api.js";

const cache = { presets: null, details: new Map(), rulesSchema: undefined };

/** GET /v1/presets: [{id, name, source, ...}]. */
export async function presetList() {
  if (!cache.presets) cache.presets = (await api("GET", "/v1/presets")).data;
  return cache.presets;
}

/** GET /v1/presets/{id}: the preset with its rules and fields ({name, value, group, provenance}). */
export async function presetDetail(id) {
  if (!cache.details.has(id)) cache.details.set(id, (await api("GET", `/v1/presets/${encodeURIComponent(id)}`)).data);
  return cache.details.get(id);
}

/** A preset's display name, or its id while the list is not loaded (or the id is unknown). */
export function presetName(id) {
  const found = (cache.presets || []).find((p) => p.id === id);
  return found ? found.name : id;
}

/** The Rules schema's properties from the served OpenAPI document: types and choices for the editor. */
export async function rulesSchema() {
  if (cache.rulesSchema === undefined) {
    try {
      const spec = (await api("GET", "/openapi.json")).data;
      cache.rulesSchema = spec.components.schemas.Rules.properties || {};
    } catch {
      cache.rulesSchema = {};
    }
  }
  return cache.rulesSchema;
}
