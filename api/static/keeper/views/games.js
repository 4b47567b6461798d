// The games list (#/games): newest first, filtered by status; each game's totals and standing. Ten
// games come at a time; "More games" follows the answer's `Link: <...>; rel="next"` (a keyset
// `cursor`, docs/games-api.md "Paging the games list") and adds the next ten below. With no
// connection, the games last opened on this device (api.js keptGames), as they were then.

import { ProblemError, api, keptGames, nextLink } from "../api.js";
import { h, nextId, points } from "../dom.js";
import { STATUS_WORDS, listWords, plural } from "../format.js";
import { failure, render } from "../page.js";
import { presetList, presetName } from "../presets.js";

/** One game's standing in a line: its winner, a tie, or who leads. */
function standingLine(game) {
  if (game.status === "finished") {
    if (game.winner) return `Winner: ${game.winner}`;
    if (game.tie) return `Tie: ${listWords(game.leaders || [])}`;
    return "Finished";
  }
  if (game.status === "tiebreaker") return `Level at the top: tiebreaker round`;
  if (!game.rounds_played) return "No rounds yet";
  if ((game.leaders || []).length === 1) return `Leader: ${game.leaders[0]}`;
  return `Level: ${listWords(game.leaders || [])}`;
}

const PAGE_SIZE = 10;

/** One game's card: name, preset, rounds, status, totals, standing, and a link to resume or view it. */
function gameCard(g) {
  return h(
    "li.game-card",
    { dataset: { gameId: String(g.id), status: g.status } },
    h("h2", h("a", { href: `#/games/${g.id}` }, g.name)),
    h(
      "p.meta",
      `${presetName(g.preset)} · ${plural(g.rounds_played, "round")} played · `,
      h(`span.badge.status-${g.status}`, STATUS_WORDS[g.status] || g.status),
    ),
    h(
      "ul.totals-inline",
      g.totals.map((t) =>
        h("li", { class: (g.leaders || []).includes(t.name) ? "leader" : "" }, h("span.team", t.name), " ", h("strong", points(t.total))),
      ),
    ),
    h("p.standing", standingLine(g)),
    h("a.button", { href: `#/games/${g.id}`, "aria-label": `${g.status === "finished" ? "View" : "Resume"} ${g.name}` }, g.status === "finished" ? "View" : "Resume"),
  );
}

/** Show the list; `query` is the hash's URLSearchParams (`status`). */
export async function showGames(query) {
  const status = query.get("status") || "";
  const params = new URLSearchParams({ page_size: String(PAGE_SIZE) });
  if (status) params.set("status", status);
  render(h("h1", "Games"), h("p.loading", "Loading games…"));
  await presetList().catch(() => null);
  let games;
  let response;
  try {
    ({ data: games, response } = await api("GET", `/v1/games?${params}`));
  } catch (err) {
    if (!(err instanceof ProblemError) || err.status !== 0) throw err;
    showKeptGames(status);
    return;
  }
  let next = nextLink(response);

  const filters = h(
    "fieldset.filters",
    h("legend", "Show"),
    [
      ["", "All games"],
      ["in_progress", "In progress"],
      ["tiebreaker", "Tiebreaker"],
      ["finished", "Finished"],
    ].map(([value, label]) => {
      const input = h("input", { type: "radio", name: "status", value, checked: value === status, id: nextId("status") });
      input.addEventListener("change", () => {
        location.hash = value ? `#/games?status=${value}` : "#/games";
      });
      return h("label.choice", { for: input.id }, input, label);
    }),
  );

  const list = h("ul.game-list", games.map(gameCard));
  const more = h("button.button", { type: "button" }, "More games");
  const pager = h("nav.pager", { "aria-label": "More games" }, more);
  pager.hidden = !next;
  more.addEventListener("click", async () => {
    more.disabled = true;
    more.textContent = "Loading games…";
    try {
      const { data, response: answer } = await api("GET", next);
      next = nextLink(answer);
      const cards = data.map(gameCard);
      list.append(...cards);
      // The button may go (the last page): keyboard focus moves to the first game just added.
      if (cards.length) cards[0].querySelector("h2 a").focus();
    } catch (err) {
      failure(err);
    } finally {
      more.disabled = false;
      more.textContent = "More games";
      pager.hidden = !next;
    }
  });

  render(
    h("div.title-row", h("h1", "Games"), h("a.button.primary", { href: "#/new" }, "New game")),
    filters,
    games.length ? list : h("p.empty", status ? "No games here yet." : "No games yet. Start one with “New game”."),
    pager,
  );
}

/** With no connection: the games kept on this device (of `status`, when given), most recently opened first. */
function showKeptGames(status) {
  const kept = keptGames().filter((g) => !status || g.status === status);
  render(
    h("div.title-row", h("h1", "Games"), h("a.button.primary", { href: "#/new" }, "New game")),
    h("p.stored-note", { dataset: { testid: "stored" } }, "No connection: the games last opened on this device, as they were then."),
    kept.length ? h("ul.game-list", kept.map(gameCard)) : h("p.empty", "No game has been opened on this device yet."),
  );
}
