// The last save of this session (kept in the page's memory only), and how to take it back: a
// correction is undone by a correction (PUT the round as it was, with the ETag the save returned);
// a new round is deleted (DELETE .../rounds/{n}, the last round only, with the game's ETag), and
// the server keeps what it was.

import { api, deleteLastRound } from "../api.js";

let last = null; // {gameId, number, kind: "append" | "correction", before?, etag?}

/** Remember a save: `kind` "append" (a new round) or "correction" (`before`: the teams it replaced, `etag`: the round's new ETag). */
export function rememberSave(save) {
  last = save;
}

/** Forget the last save (after undoing it, or when its game is deleted). */
export function forgetSave() {
  last = null;
}

/** What can be taken back in `game` (shown with the game's ETag `gameEtag`): {label, number,
 * kind, run()} or null; `run` resolves to the words to say once done. A new round can be taken
 * back while it is still the game's last. */
export function undoFor(game, gameEtag) {
  if (!last || last.gameId !== game.id) return null;
  const save = last;
  if (save.kind === "append") {
    if (game.rounds_played !== save.number) return null; // a later round was saved elsewhere
    return {
      kind: "append",
      number: save.number,
      label: `Undo round ${save.number}`,
      run: async () => {
        await deleteLastRound(game.id, save.number, gameEtag);
        forgetSave();
        return `Round ${save.number} taken back: enter it again when you are ready.`;
      },
    };
  }
  return {
    kind: "correction",
    number: save.number,
    label: `Undo the correction of round ${save.number}`,
    run: async () => {
      await api("PUT", `/v1/games/${game.id}/rounds/${save.number}`, { body: { teams: save.before }, headers: { "If-Match": save.etag } });
      forgetSave();
      return `Correction undone: round ${save.number} is as it was (both versions stay in its history).`;
    },
  };
}
