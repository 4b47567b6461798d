// The score keeper page: routes the location's hash to a view and keeps the API key box. The views:
// views/games.js (#/games), views/new-game.js (#/new), views/game.js (#/games/{id}, the scoreboard)
// views/round-entry.js (#/games/{id}/round, and #/games/{id}/rounds/{n} to correct a round) and
// views/stats.js (#/stats, player statistics). Above every view, views/waiting.js says which rounds
// wait to be saved (outbox.js keeps the rounds saved with no connection and sends them later).
// Everything goes through this server's API (see docs/games-api.md); the page itself opens with no
// network once /sw.js (the service worker, api/keeper.py) has kept it.

import { getApiKey, setApiKey } from "./api.js";
import { TEAM_COLOURS } from "./chart.js";
import { h } from "./dom.js";
import { onOutboxChange, startOutbox } from "./outbox.js";
import { failure, render, say, takeFlash } from "./page.js";
import { showGame } from "./views/game.js";
import { showGames } from "./views/games.js";
import { showNewGame } from "./views/new-game.js";
import { showRoundEntry } from "./views/round-entry.js";
import { showStats } from "./views/stats.js";
import { showWaiting } from "./views/waiting.js";
import { keepAwake } from "./wake.js";

// ---- routing ---------------------------------------------------------------------------------------

/** Show the view the location's hash names: #/games[?status=], #/new, #/games/{id},
 * #/games/{id}/round[?out=<side index>] or #/games/{id}/rounds/{n}. */
async function route() {
  const hash = location.hash || "#/games";
  const [path, queryText = ""] = hash.slice(1).split("?");
  const query = new URLSearchParams(queryText);
  say(takeFlash());
  for (const link of document.querySelectorAll("[data-nav]")) {
    const current = (link.dataset.nav === "new" && path === "/new") || (link.dataset.nav === "games" && path === "/games") || (link.dataset.nav === "stats" && path === "/stats");
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const game = /^\/games\/(\d+)(?:\/round|\/rounds\/(\d+))?$/.exec(path);
  // The screen stays on while a game is open (players glance at it between hands).
  keepAwake(Boolean(game));
  try {
    if (game && path.endsWith("/round")) await showRoundEntry(Number(game[1]), null, { out: query.get("out") });
    else if (game && game[2]) await showRoundEntry(Number(game[1]), Number(game[2]));
    else if (game) await showGame(Number(game[1]));
    else if (path === "/new") await showNewGame();
    else if (path === "/stats") await showStats(query);
    else await showGames(query);
  } catch (err) {
    render(h("h1", "Something went wrong"), h("p.error-text", err.message), h("p", h("a", { href: "#/games" }, "Back to the games")));
    failure(err);
  }
}

// ---- API key -------------------------------------------------------------------------------------

function setupApiKey() {
  const form = document.getElementById("api-key-form");
  const input = document.getElementById("api-key");
  const stateText = document.getElementById("api-key-state");
  const show = () => {
    stateText.textContent = getApiKey() ? "A key is saved in this browser." : "No key saved.";
  };
  input.value = getApiKey();
  show();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setApiKey(input.value.trim());
    show();
    say(input.value.trim() ? "API key saved." : "API key removed.");
    route();
  });
}

// ---- offline use -----------------------------------------------------------------------------------

/** Keep the page for use with no network (the service worker, /sw.js) and send the rounds that wait. */
function setupOffline() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn("The page is not kept for offline use:", err));
    // A worker taking over from another is a new version of the page: this page still runs the
    // files it loaded, so it says so (the first worker to keep the page is no new version).
    let kept = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (kept) showNewVersion();
      kept = true;
    });
  }
  onOutboxChange((gameIds) => {
    showWaiting();
    // A scoreboard of a game whose kept rounds were just saved (or refused) is shown again from the server.
    const shown = /^#\/games\/(\d+)$/.exec(location.hash);
    if (shown && gameIds.has(Number(shown[1]))) route();
  });
  window.addEventListener("online", showWaiting);
  window.addEventListener("offline", showWaiting);
  showWaiting();
  startOutbox();
}

/** Say that a new version of the keeper is ready, with a button that loads it. */
function showNewVersion() {
  const reload = h("button.secondary", { type: "button", onclick: () => location.reload() }, "Reload");
  document.getElementById("update").replaceChildren(
    h("span", null, "A new version of the score keeper is ready: reload the page to use it. "),
    reload,
  );
}

setupApiKey();
window.addEventListener("hashchange", route);
setupOffline();
route();

// Exposed for tests and the console: the colours match the chart's.
window.handfootKeeper = { TEAM_COLOURS };
