// Keeping the screen awake while a game is open, through the Screen Wake Lock API where the browser
// has it (elsewhere nothing happens). The browser drops the lock when the page is hidden; it is
// asked for again when the page shows. <html data-wake-lock> says the state: "held", "released",
// "refused" or "unsupported".

let wanted = false;
let lock = null;

function mark(state) {
  document.documentElement.dataset.wakeLock = state;
}

async function acquire() {
  if (!("wakeLock" in navigator)) {
    mark("unsupported");
    return;
  }
  if (lock || document.visibilityState !== "visible") return;
  try {
    lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => {
      lock = null;
      mark("released");
    });
    if (!wanted) {
      await lock.release(); // the person left the game while the request was pending
      return;
    }
    mark("held");
  } catch {
    lock = null;
    mark("refused"); // e.g. battery saver, or a browser policy: the keeper works the same
  }
}

/** Hold the screen on (`on` true) or let it sleep again. */
export function keepAwake(on) {
  wanted = on;
  if (on) acquire();
  else if (lock) lock.release().catch(() => {});
}

document.addEventListener("visibilitychange", () => {
  if (wanted && document.visibilityState === "visible") acquire();
});
