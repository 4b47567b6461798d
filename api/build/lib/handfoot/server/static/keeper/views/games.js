// The games list (#/games): newest first, ten a page, filtered by status; each game's totals and standing.

import { api, pagination } from "../api.js";
import { h, nextId, points } from "../dom.js";
import { STATUS_WORDS, listWords, plural } from "../format.js";
import { render } from "../page.js";
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

/** Show the list; `query` is the hash's URLSearchParams (`status`, `page`). */
export async function showGames(query) {
  const status = query.get("status") || "";
  const page = Math.max(1, Number(query.get("page")) || 1);
  const params = new URLSearchParams({ page: String(page), page_size: "10" });
  if (status) params.set("status", status);
  render(h("h1", "Games"), h("p.loading", "Loading games…"));
  await presetList().catch(() => null);
  const { data: games, response } = await api("GET", `/v1/games?${params}`);
  const pg = pagination(response);

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

  const items = games.map((g) =>
    h(
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
    ),
  );

  const nav = [];
  const totalPages = pg ? pg.total_pages || 1 : null;
  if (page > 1) {
    const prev = new URLSearchParams(queryText(status, page - 1));
    nav.push(h("a.button", { href: `#/games?${prev}`, rel: "prev" }, "Previous page"));
  }
  if (totalPages) nav.push(h("span.page-of", `Page ${page} of ${totalPages}`));
  const hasNext = pg ? page < (pg.total_pages || 1) : games.length === 10;
  if (hasNext) nav.push(h("a.button", { href: `#/games?${queryText(status, page + 1)}`, rel: "next" }, "Next page"));

  render(
    h("div.title-row", h("h1", "Games"), h("a.button.primary", { href: "#/new" }, "New game")),
    filters,
    games.length
      ? h("ul.game-list", items)
      : h("p.empty", status ? "No games here yet." : "No games yet. Start one with “New game”."),
    nav.length ? h("nav.pager", { "aria-label": "Pages" }, nav) : null,
  );
}

function queryText(status, page) {
  const q = new URLSearchParams();
  if (status) q.set("status", status);
  q.set("page", String(page));
  return q.toString();
}
