// What waits to be saved (outbox.js), said above every view in players' words: "2 rounds waiting to
// be saved: you are offline", which games they belong to; and each round the server refused, with
// its answer, what was entered, and a button to discard it once read (nothing is dropped unseen).

import { h } from "../dom.js";
import { listWords, plural } from "../format.js";
import { discardRound, outboxStatus, sendWaiting, waitingRounds } from "../outbox.js";

const waitingBox = document.getElementById("waiting");
const refusedBox = document.getElementById("refused");
const shown = { waiting: "", refused: "" }; // what each box says now: redrawn (and read out) only when that changes

/** [2, 3] → "rounds 2 and 3"; [2] → "round 2". */
function roundNumbers(entries) {
  return `${entries.length === 1 ? "round" : "rounds"} ${listWords(entries.map((e) => String(e.number)))}`;
}

/** The entries grouped by game, in the order of their first entry: [[{gameId, gameName}, entries]]. */
function byGame(entries) {
  const games = new Map();
  for (const e of entries) {
    if (!games.has(e.gameId)) games.set(e.gameId, [e, []]);
    games.get(e.gameId)[1].push(e);
  }
  return [...games.values()];
}

/** Why the rounds wait, after "2 rounds waiting to be saved: ". */
function why({ sending, reason }) {
  if (!navigator.onLine || reason === "offline") return "you are offline";
  if (reason === "key") return "this server needs an API key (enter it under “API key”)";
  if (reason === "unreachable") return "the server cannot be reached";
  return sending ? "saving them now" : "they will be sent in a moment";
}

/** A side of a kept round in words: "Us went out, clean books 2, card points 300" (or its melds counted). */
function sideWords(side) {
  const parts = [side.went_out ? `${side.name} went out` : side.name];
  for (const [code, value] of Object.entries(side.tally || {})) if (value) parts.push(`${code.replace(/_/g, " ")} ${value}`);
  if (side.melds) parts.push(plural(side.melds.length, "meld"));
  return parts.join(", ");
}

function waitingLines(waiting, status) {
  const after = status.reason === "unreachable" || status.reason === "key";
  return [
    h("p.waiting-title", { dataset: { testid: "waiting" } }, `${plural(waiting.length, "round")} waiting to be saved: ${why(status)}.`),
    h(
      "p.waiting-games",
      byGame(waiting).map(([first, entries], i) => [i ? "; " : "", h("a", { href: `#/games/${first.gameId}` }, first.gameName), `: ${roundNumbers(entries)}`]),
      ". Kept on this device, and saved in order when the connection returns.",
    ),
    after ? h("button.secondary.small", { type: "button", onclick: () => sendWaiting() }, "Try again now") : null,
  ];
}

function refusedItem(entry, behind) {
  const gone = entry.refused.status === 404;
  return h(
    "div.refused-round",
    { dataset: { key: entry.key, round: String(entry.number) } },
    h(
      "p.refused-title",
      `Round ${entry.number} of “${entry.gameName}” was not saved: the server refused it. `,
      h("span.refused-why", entry.refused.detail),
    ),
    behind.length ? h("p", `${roundNumbers(behind)[0].toUpperCase()}${roundNumbers(behind).slice(1)} of this game ${behind.length === 1 ? "waits" : "wait"} behind it.`) : null,
    h("p.hint", `Entered: ${(entry.body.teams || []).map(sideWords).join("; ")}.`),
    h(
      "div.button-row",
      gone ? null : h("a.button.secondary.small", { href: `#/games/${entry.gameId}` }, `Open “${entry.gameName}”`),
      h("button.danger.small", { type: "button", onclick: () => discardRound(entry.key) }, `Discard round ${entry.number}`),
    ),
  );
}

/** Say what waits now (called on each change of the outbox and of the connection). */
export function showWaiting() {
  const entries = waitingRounds();
  const waiting = entries.filter((e) => !e.refused);
  const refused = entries.filter((e) => e.refused);
  const status = outboxStatus();
  const lines = waiting.length ? waitingLines(waiting, status) : [];
  const says = lines.map((el) => (el ? el.textContent : "")).join("|");
  if (says !== shown.waiting) {
    waitingBox.replaceChildren(...lines.filter(Boolean));
    shown.waiting = says;
  }
  const items = refused.map((e) => refusedItem(e, waiting.filter((w) => w.gameId === e.gameId)));
  const refusedSays = items.map((el) => el.textContent).join("|");
  if (refusedSays !== shown.refused) {
    const focused = refusedBox.contains(document.activeElement);
    refusedBox.replaceChildren(...items);
    shown.refused = refusedSays;
    // A discard removed the button in focus: keep the person near, not at the top of the page.
    if (focused) (refusedBox.querySelector("button") || document.getElementById("view")).focus();
  }
}
