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

/** GET /v1/games/{id}: {game, etag}; `game.rounds` holds each round's Breakdowns and totals_after. */
export async function getGame(id) {
  const { data, response } = await api("GET", `/v1/games/${id}`);
  return { game: data, etag: response.headers.get("ETag") };
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
