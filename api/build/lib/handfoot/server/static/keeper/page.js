// The page around the views: the <main> they render into, the notice line, failures outside a form,
// and the message one view leaves for the next.

import { ProblemError } from "./api.js";

/** The <main> element every view renders into. */
export const view = document.getElementById("view");
const notice = document.getElementById("notice");
let flash = null; // a message to say once the next view is shown

/** Say `message` in the notice line (a polite live region); kind "info" or "error". */
export function say(message, kind = "info") {
  notice.textContent = message;
  notice.dataset.kind = kind;
  notice.hidden = !message;
}

/** Keep `message` to be said when the next view is shown (after a change of location). */
export function setFlash(message) {
  flash = message;
}

/** The kept message (or ""), once: the next call returns "" again. */
export function takeFlash() {
  const message = flash || "";
  flash = null;
  return message;
}

/** Show `children` as the view; focus its h1 unless focus is already inside the view. */
export function render(...children) {
  view.replaceChildren(...children.flat().filter(Boolean));
  const heading = view.querySelector("h1");
  if (heading) {
    heading.tabIndex = -1;
    if (document.activeElement === document.body || !view.contains(document.activeElement)) heading.focus();
  }
}

/** A failure outside a form: said at the top; a 401 opens the API key box. */
export function failure(err) {
  if (err instanceof ProblemError && err.status === 401) {
    const box = document.getElementById("api-key-box");
    box.open = true;
    document.getElementById("api-key").focus();
    say(`This server needs an API key: enter it under "API key". (${err.message})`, "error");
    return;
  }
  say(err instanceof ProblemError ? err.message : `Something went wrong: ${err.message}`, "error");
  if (!(err instanceof ProblemError)) console.error(err);
}
