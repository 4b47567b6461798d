// The keeper's HTTP client: JSON in and out, the API key as a bearer token, problem details as errors.

const KEY_STORAGE = "handfoot.apiKey";

export function getApiKey() {
  try {
    return localStorage.getItem(KEY_STORAGE) || "";
  } catch {
    return "";
  }
}

export function setApiKey(value) {
  try {
    if (value) localStorage.setItem(KEY_STORAGE, value);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    /* storage disabled: the key lasts until the page is closed */
  }
}

/** An error answer (RFC 9457 problem details), or no answer at all (status 0). */
export class ProblemError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }

  /** The `errors` items: [{pointer | parameter, code, detail}]. */
  get errors() {
    return Array.isArray(this.problem.errors) ? this.problem.errors : [];
  }
}

/** A random Idempotency-Key (works outside secure contexts, unlike crypto.randomUUID). */
export function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Send a request to this server. Returns {data, response}; throws ProblemError on a non-2xx answer.
 * `accept` other than JSON returns the body as a Blob in `data`.
 */
export async function api(method, path, { body, headers = {}, accept = "application/json" } = {}) {
  const sent = { Accept: accept, ...headers };
  const key = getApiKey();
  if (key) sent.Authorization = `Bearer ${key}`;
  const init = { method, headers: sent, cache: "no-store" };
  if (body !== undefined) {
    sent["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ProblemError(0, {
      title: "No connection",
      detail: "The server could not be reached. Check that it is running, then try again.",
    });
  }
  if (!response.ok) {
    let problem = null;
    if ((response.headers.get("Content-Type") || "").includes("json")) {
      try {
        problem = await response.json();
      } catch {
        problem = null;
      }
    }
    if (!problem || typeof problem !== "object") {
      problem = { title: response.statusText, detail: `The server answered ${response.status} ${response.statusText}.` };
    }
    throw new ProblemError(response.status, problem);
  }
  if (response.status === 204) return { data: null, response };
  if (accept !== "application/json") return { data: await response.blob(), response };
  return { data: await response.json(), response };
}

/**
 * The path and query of the `Link` header's rel="next" URL (RFC 8288), or null on the last page.
 * Followed as the server wrote it (its `cursor` is opaque); only its origin is dropped, so the keeper
 * always asks the server that serves it.
 */
export function nextLink(response) {
  for (const [, target, params] of (response.headers.get("Link") || "").matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";,]*)/i.exec(params);
    if (rel && rel[1].toLowerCase().split(/\s+/).includes("next")) {
      const url = new URL(target, location.href);
      return url.pathname + url.search;
    }
  }
  return null;
}

// ---- games and their rounds: every read of round data goes through these ----------------------

const GAME_COPY = "handfoot.game."; // + id: {game, etag, seenAt}, the game as last read on this device
const GAME_COPIES = 30; // the most recently read games kept

/**
 * GET /v1/games/{id}: {game, etag, seenAt}; `game.rounds` holds each round's scores and totals_after.
 * Each answer is kept in this browser; with no connection (status 0) the kept copy is returned
 * instead, `seenAt` (ISO 8601) saying when it was read, so that a view can say the scores are those
 * last seen. `seenAt` is null for an answer of the server. With no copy, the ProblemError is thrown.
 */
export async function getGame(id) {
  let data;
  let response;
  try {
    ({ data, response } = await api("GET", `/v1/games/${id}`));
  } catch (err) {
    if (err instanceof ProblemError && err.status === 404) forgetCopy(id);
    const copy = err instanceof ProblemError && err.status === 0 ? readCopy(id) : null;
    if (!copy) throw err;
    return copy;
  }
  const etag = response.headers.get("ETag");
  keepCopy(id, { game: data, etag, seenAt: new Date().toISOString() });
  return { game: data, etag, seenAt: null };
}

/** The games kept on this device (as getGame last read each), the most recently read first. */
export function keptGames() {
  const copies = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      const copy = name && name.startsWith(GAME_COPY) ? readCopy(Number(name.slice(GAME_COPY.length))) : null;
      if (copy) copies.push(copy);
    }
  } catch {
    return [];
  }
  return copies.sort((a, b) => (a.seenAt < b.seenAt ? 1 : -1)).map((copy) => copy.game);
}

function readCopy(id) {
  try {
    const copy = JSON.parse(localStorage.getItem(GAME_COPY + id) || "null");
    return copy && copy.game && copy.game.id === id ? copy : null;
  } catch {
    return null;
  }
}

function forgetCopy(id) {
  try {
    localStorage.removeItem(GAME_COPY + id);
  } catch {
    /* storage disabled: nothing was kept */
  }
}

/** Keep `copy` of game `id`, dropping the oldest copies past GAME_COPIES (a copy is only a convenience: a full storage keeps none). */
function keepCopy(id, copy) {
  try {
    localStorage.setItem(GAME_COPY + id, JSON.stringify(copy));
    const kept = [];
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      if (name && name.startsWith(GAME_COPY)) kept.push([JSON.parse(localStorage.getItem(name) || "{}").seenAt || "", name]);
    }
    kept.sort();
    for (const [, name] of kept.slice(0, Math.max(0, kept.length - GAME_COPIES))) localStorage.removeItem(name);
  } catch {
    /* storage full or disabled: the game is shown all the same, only not kept for offline use */
  }
}

/** GET /v1/games/{id}/rounds/{n}: {round, etag} (the round's ETag, for correcting it). */
export async function getRound(id, number) {
  const { data, response } = await api("GET", `/v1/games/${id}/rounds/${number}`);
  return { round: data, etag: response.headers.get("ETag") };
}

/** GET /v1/games/{id}/rounds/{n}/revisions: the round's versions, oldest first. */
export async function getRevisions(id, number) {
  return (await api("GET", `/v1/games/${id}/rounds/${number}/revisions`)).data;
}

/** DELETE /v1/games/{id}/rounds/{n} (the last round only), If-Match: the game's ETag `gameEtag`. */
export async function deleteLastRound(id, number, gameEtag) {
  await api("DELETE", `/v1/games/${id}/rounds/${number}`, { headers: { "If-Match": gameEtag } });
}
