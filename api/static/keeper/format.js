// Words for the page: counts, lists, a round's contract, a game's status, file names.
// (Points are written by dom.js's `points`.)

/** The status of a game as the page says it. */
export const STATUS_WORDS = { in_progress: "In progress", tiebreaker: "Tiebreaker", finished: "Finished" };

/** plural(1, "round") → "1 round"; plural(3, "round") → "3 rounds". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** ["Us", "Them", "You"] → "Us, Them and You". */
export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A contract ({clean_books, dirty_books, wild_books}) → "1 clean and 2 dirty books"; null → "none". */
export function contractText(contract) {
  if (!contract) return "none";
  const parts = [];
  if (contract.clean_books) parts.push(`${contract.clean_books} clean`);
  if (contract.dirty_books) parts.push(`${contract.dirty_books} dirty`);
  if (contract.wild_books) parts.push(`${contract.wild_books} wild`);
  if (!parts.length) return "no books needed";
  const total = (contract.clean_books || 0) + (contract.dirty_books || 0) + (contract.wild_books || 0);
  return `${listWords(parts)} ${total === 1 ? "book" : "books"}`;
}

/** A rule's name or a choice value as words: "hand_size" → "hand size", "tiebreaker_round" →
 * "tiebreaker round". (A rule's description, GET /v1/presets/{id}'s `fields[].description`, is in
 * players' words as the server sends it.) */
export function ruleWords(name) {
  return String(name || "").replace(/_/g, " ");
}

/** A rule value as players say it: null → "none", true → "yes", a contract → "2 clean and 1 wild books". */
export function ruleValueWords(value) {
  if (value === null || value === undefined) return "none";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (typeof value === "number") return value.toLocaleString("en-US");
  if (Array.isArray(value)) return value.length ? value.map(ruleValueWords).join(", ") : "none";
  if (typeof value === "object" && "clean_books" in value) return contractText(value);
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${ruleWords(k)} ${ruleValueWords(v)}`).join(", ");
  return ruleWords(value);
}

/** "Friday, Nov 27" → "friday-nov-27": a file name; "game" when nothing is left. */
export function slug(text) {
  return (
    String(text)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "game"
  );
}

/** Whether two values are the same JSON (a rule value against the preset's, a body against the last sent). */
export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
