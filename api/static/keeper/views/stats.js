// Player statistics (#/stats[?preset=]): per player and per side across the games this key owns, from
// GET /v1/games/stats (games, wins, rounds, average and best round, times gone out, books by kind),
// with a preset filter and the export (CSV, NDJSON) to download for a spreadsheet or a notebook.
// Players are matched by name ignoring case; a side is the same players together (docs/games-api.md).

import { api } from "../api.js";
import { h, nextId, points } from "../dom.js";
import { plural } from "../format.js";
import { failure, render, say } from "../page.js";
import { presetList, presetName } from "../presets.js";

const BOOK_KINDS = ["clean", "dirty", "wild"];

/** An average round (points, one decimal) as the page writes points; "–" before any round. */
function average(value) {
  if (value === null || value === undefined) return "–";
  if (Number.isInteger(value)) return points(value);
  const text = Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return value < 0 ? `\u2212${text}` : text;
}

/** One table of figures: `label` names the first column, `rows` are [name, figures]. */
function figuresTable(caption, label, rows) {
  const books = BOOK_KINDS.map((k) => `${k[0].toUpperCase()}${k.slice(1)} books`);
  const head = [label, "Games", "Wins", "Rounds", "Average round", "Best round", "Went out", ...books];
  // On a phone each row is a card of its figures, each named (views/stats.css): nothing is cut off.
  // Between phone and desktop widths the table may scroll sideways: focusable, so a keyboard can too.
  return h(
    "div.stats-card",
    { tabindex: "0", role: "region", "aria-label": caption },
    h(
      "table.stats",
      h("caption", caption),
      h("thead", h("tr", head.map((text, i) => h(i ? "th.num" : "th", { scope: "col" }, text)))),
      h(
        "tbody",
        rows.map(([name, f]) =>
          h(
            "tr",
            h("th", { scope: "row" }, name),
            [
              ...[f.games, f.wins, f.rounds].map(String),
              average(f.average_round),
              f.best_round === null ? "–" : points(f.best_round),
              String(f.went_out),
              ...BOOK_KINDS.map((k) => String((f.books || {})[k] || 0)),
            ].map((text, i) => h("td.num", { dataset: { label: head[i + 1] } }, text)),
          ),
        ),
      ),
    ),
  );
}

/** A button that downloads the export (with the saved API key, so not a plain link). */
function exportButton(label, format, accept, query) {
  const button = h("button.button", { type: "button", dataset: { export: format } }, `Download ${label}`);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const { data: blob } = await api("GET", `/v1/games/export${query}`, { accept });
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: `handfoot-export.${format}`, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      say(`Export downloaded as ${label}.`);
    } catch (err) {
      failure(err);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** Show the statistics; `query` is the hash's URLSearchParams (`preset`). */
export async function showStats(query) {
  const preset = query.get("preset") || "";
  const filter = preset ? `?${new URLSearchParams({ preset })}` : "";
  render(h("h1", "Player statistics"), h("p.loading", "Counting the games…"));
  const presets = await presetList().catch(() => []);
  const { data: stats } = await api("GET", `/v1/games/stats${filter}`);

  const select = h(
    "select",
    { id: nextId("stats-preset"), name: "preset" },
    h("option", { value: "", selected: !preset }, "Every preset"),
    presets.map((p) => h("option", { value: p.id, selected: p.id === preset }, p.name)),
  );
  select.addEventListener("change", () => {
    location.hash = select.value ? `#/stats?preset=${encodeURIComponent(select.value)}` : "#/stats";
  });
  const counted = `${plural(stats.games, "game")} and ${plural(stats.rounds, "round")}`;

  render(
    h("h1", "Player statistics"),
    h("div.filters", h("label", { for: select.id }, "Preset "), select),
    h(
      "p.meta",
      `${counted}${preset ? ` under ${presetName(preset)}` : ""}. Players are matched by name, ignoring case; ` +
        "a side is the same players together.",
    ),
    stats.players.length
      ? [
          figuresTable("Per player", "Player", stats.players.map((p) => [p.name, p])),
          figuresTable("Per side", "Side", stats.sides.map((s) => [s.players.join(" & "), s])),
        ]
      : h("p.empty", "No games to count yet."),
    h(
      "p.export-links",
      "Every round of these games: ",
      exportButton("CSV", "csv", "text/csv", filter),
      " ",
      exportButton("NDJSON", "ndjson", "application/x-ndjson", filter),
    ),
  );
}
