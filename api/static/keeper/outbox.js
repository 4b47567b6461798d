// Rounds saved while the server cannot be reached: kept in this browser (localStorage), each with
// its Idempotency-Key, and sent in the order they were entered when the connection returns (the
// `online` event, each page load, and a timer that waits longer after each failed try). The key
// makes a round that reached the server once, its answer lost, a replay and not a second round; the
// body's `round` number makes a round sent out of turn a refusal. A round the server refuses (its
// game deleted meanwhile, the rules say no) stays here, marked refused, until the person discards
// it; the later rounds of its game wait behind it. views/waiting.js says what waits.

import { ProblemError, api } from "./api.js";

const STORAGE = "handfoot.outbox";
/** The waits between tries after a failure, in milliseconds (the last one repeats); a fifth more or less at random. */
const RETRY_MS = [5_000, 15_000, 30_000, 60_000, 120_000];

const listeners = new Set();
/** `reason`: why rounds wait: null (nothing tried yet, or all sent), "offline", "unreachable" or "key" (the server needs an API key). */
const status = { sending: false, reason: null, retryAt: null };
let failures = 0;
let timer = null;
let running = null;

/**
 * The rounds kept here, oldest first (of game `gameId` only, when given): [{key, gameId, gameName,
 * number, body, queuedAt, refused}]; `body` is the POST body ({round, teams}), `refused` null while
 * the round waits, else the server's answer {status, title, detail}.
 */
export function waitingRounds(gameId = null) {
  let entries;
  try {
    entries = JSON.parse(localStorage.getItem(STORAGE) || "[]");
  } catch {
    entries = [];
  }
  if (!Array.isArray(entries)) return [];
  return gameId === null ? entries : entries.filter((e) => e.gameId === gameId);
}

/** The number of the next round to enter in `game` (a game read): the server's next round, or the one
 * after the last of the game's rounds kept here (one the server may hold already, its answer lost);
 * null when the game is over, or when its last round is among those kept. */
export function nextRound(game) {
  if (!game.next_round) return null;
  const number = Math.max(game.next_round, ...waitingRounds(game.id).map((e) => e.number + 1));
  const last = game.rules && game.rules.rounds;
  return game.status !== "tiebreaker" && last && number > last ? null : number;
}

/** {sending, reason, retryAt (ms since the epoch, or null)}: see `status`. */
export function outboxStatus() {
  return { ...status };
}

/** Call `listener(gameIds)` on every change: `gameIds`, the games whose kept rounds changed (empty when only the status did). */
export function onOutboxChange(listener) {
  listeners.add(listener);
}

function changed(gameIds = []) {
  for (const listener of listeners) listener(new Set(gameIds));
}

/** Keep `entries`; throws when this browser keeps nothing (storage full or turned off). */
function store(entries, gameIds) {
  localStorage.setItem(STORAGE, JSON.stringify(entries));
  changed(gameIds);
}

function post(entry) {
  return api("POST", `/v1/games/${entry.gameId}/rounds`, { body: entry.body, headers: { "Idempotency-Key": `"${entry.key}"` } });
}

/** Whether a round that got `err` should wait and be sent again: no answer, the server busy or down,
 * the same key still running; with `keyNeeded`, also a missing API key (401). Any other answer is the
 * server's refusal of the round. */
function waitsFor(err, keyNeeded) {
  if ([0, 408, 429].includes(err.status) || err.status >= 500 || (keyNeeded && err.status === 401)) return true;
  return err.status === 409 && err.errors.some((e) => e.code === "idempotency_in_flight");
}

/** After a failed try: note why the rounds wait, and try again later (on the `online` event when offline). */
function tryLater(err) {
  status.reason = !navigator.onLine ? "offline" : err.status === 401 ? "key" : "unreachable";
  clearTimeout(timer);
  status.retryAt = null;
  if (status.reason === "offline") return;
  const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] * (0.8 + 0.4 * Math.random());
  failures += 1;
  status.retryAt = Date.now() + wait;
  timer = setTimeout(() => sendWaiting(), wait);
}

/**
 * Save a new round of `game` ({id, name}): POST /v1/games/{id}/rounds with `body` ({round, teams})
 * and Idempotency-Key `key`. Resolves to "saved", or "waiting" when it is kept here to be sent later
 * (no answer from the server, or earlier rounds of the game waiting). Throws the ProblemError of a
 * refusal (the entry form shows it), or an Error when this browser cannot keep the round.
 */
export async function saveRound(game, body, key) {
  if (!waitingRounds(game.id).length) {
    try {
      await post({ gameId: game.id, body, key });
      return "saved";
    } catch (err) {
      if (!(err instanceof ProblemError) || !waitsFor(err, false)) throw err;
      tryLater(err);
    }
  }
  const entries = waitingRounds();
  if (!entries.some((e) => e.key === key)) {
    entries.push({ key, gameId: game.id, gameName: game.name, number: body.round, body, queuedAt: new Date().toISOString(), refused: null });
  }
  try {
    store(entries, [game.id]);
  } catch {
    throw new Error("This browser could not keep the round to send later (its storage is full or turned off). Note it on paper and enter it again once the connection is back.");
  }
  if (!status.reason) sendWaiting();
  return "waiting";
}

/** Send the kept rounds now, oldest first (one sending at a time, across this browser's tabs where
 * it has Web Locks); resolves once every round is sent or refused, or a failure stopped the sending. */
export function sendWaiting() {
  if (!running) {
    const send = () => sendAll();
    running = (navigator.locks ? navigator.locks.request(STORAGE, send) : send())
      .catch((err) => console.error("The rounds kept on this device were not sent:", err))
      .finally(() => {
        running = null;
      });
  }
  return running;
}

async function sendAll() {
  clearTimeout(timer);
  status.retryAt = null;
  if (!navigator.onLine) {
    status.reason = "offline";
    changed();
    return;
  }
  const touched = new Set();
  status.sending = true;
  changed();
  try {
    for (;;) {
      const entries = waitingRounds();
      const held = new Set(entries.filter((e) => e.refused).map((e) => e.gameId));
      const next = entries.find((e) => !e.refused && !held.has(e.gameId));
      if (!next) {
        failures = 0;
        status.reason = null;
        return;
      }
      touched.add(next.gameId);
      try {
        await post(next);
      } catch (err) {
        if (!(err instanceof ProblemError)) throw err;
        if (waitsFor(err, true)) {
          tryLater(err);
          return;
        }
        const refused = { status: err.status, title: err.problem.title || "", detail: err.message };
        store(waitingRounds().map((e) => (e.key === next.key ? { ...e, refused } : e)), []);
        continue;
      }
      failures = 0;
      store(waitingRounds().filter((e) => e.key !== next.key), []);
    }
  } finally {
    status.sending = false;
    changed(touched);
  }
}

/** Drop the kept round with Idempotency-Key `key` (a refused one, once the person has read why), then send what waited behind it. */
export function discardRound(key) {
  const entries = waitingRounds();
  const gone = entries.find((e) => e.key === key);
  if (!gone) return;
  store(entries.filter((e) => e.key !== key), [gone.gameId]);
  sendWaiting();
}

/** Send what waits now and whenever the connection returns; say so on each change of another tab. */
export function startOutbox() {
  window.addEventListener("online", () => {
    failures = 0;
    sendWaiting();
  });
  window.addEventListener("offline", () => {
    status.reason = "offline";
    changed();
  });
  window.addEventListener("storage", (event) => {
    if (event.key === STORAGE) changed(waitingRounds().map((e) => e.gameId));
  });
  if (waitingRounds().length) sendWaiting();
}
