// The last save of this session (kept in the page's memory only), and how to take it back: a
// correction is undone by a correction (PUT the round as it was, with the ETag the save returned);
// a new round cannot be removed (the API deletes games, not rounds), so its "undo" reopens it to
// correct.

import { api } from "../api.js";

let last = null; // {gameId, number, kind: "append" | "correction", before?, etag?}

/** Remember a save: `kind` "append" (a new round) or "correction" (`before`: the teams it replaced, `etag`: the round's new ETag). */
export function rememberSave(save) {
  last = save;
}

/** Forget the last save (after undoing it, or when its game is deleted). */
export function forgetSave() {
  last = null;
}

/** What can be taken back in game `gameId`: {label, number, kind, run()} or null. `run` resolves to
 * the words to say once done; for an append it returns the hash of the round's correction instead. */
export function undoFor(gameId) {
  if (!last || last.gameId !== gameId) return null;
  const save = last;
  if (save.kind === "append") {
    return { kind: "append", number: save.number, label: `Correct round ${save.number}`, hash: `#/games/${gameId}/rounds/${save.number}` };
  }
  return {
    kind: "correction",
    number: save.number,
    label: `Undo the correction of round ${save.number}`,
    run: async () => {
      await api("PUT", `/v1/games/${gameId}/rounds/${save.number}`, { body: { teams: save.before }, headers: { "If-Match": save.etag } });
      forgetSave();
      return `Correction undone: round ${save.number} is as it was (both versions stay in its history).`;
    },
  };
}
