// The game view (#/games/{id}): the standing, the next round's entry, the scoresheet with corrections
// and each round's history, the CSV export and the running-totals chart.

import { api } from "../api.js";
import { runningTotalsChart } from "../chart.js";
import { h, points } from "../dom.js";
import { STATUS_WORDS, listWords, plural, slug } from "../format.js";
import { failure, render, say, view } from "../page.js";
import { presetList, presetName } from "../presets.js";
import { roundEntry } from "./round-entry.js";

/** The standing (a polite live region): the winner or tie, a tiebreaker to play, or the leader so far. */
function standingBlock(game) {
  const items = [];
  const rules = game.rules || {};
  if (game.status === "finished") {
    if (game.winner) {
      const total = game.totals.find((t) => t.name === game.winner);
      items.push(h("p.result.winner", { dataset: { testid: "result" } }, `Winner: ${game.winner} with ${points(total ? total.total : 0)} points`));
    } else if (game.tie) {
      const total = game.totals.find((t) => t.name === game.leaders[0]);
      items.push(h("p.result.tie", { dataset: { testid: "result" } }, `Tie: ${listWords(game.leaders)} with ${points(total ? total.total : 0)} points`));
    } else items.push(h("p.result", { dataset: { testid: "result" } }, "Game over"));
    if (game.end_reason) items.push(h("p.hint", `Game over: ${game.end_reason}.`));
  } else if (game.status === "tiebreaker") {
    items.push(
      h("p.result.tiebreaker", { dataset: { testid: "result" } }, `Level at the top (${listWords(game.leaders)}): play tiebreaker round ${game.next_round}.`),
    );
  } else if (!game.rounds_played) {
    items.push(h("p.result", { dataset: { testid: "result" } }, rules.rounds ? `No rounds yet: ${plural(rules.rounds, "round")} to play.` : "No rounds yet."));
  } else {
    const lead = game.leaders || [];
    const total = game.totals.find((t) => t.name === lead[0]);
    const after = `after ${plural(game.rounds_played, "round")}${rules.rounds ? ` of ${rules.rounds}` : ""}`;
    items.push(
      h(
        "p.result.leader",
        { dataset: { testid: "result" } },
        lead.length === 1
          ? `Leader: ${lead[0]} with ${points(total.total)} points, ${after}`
          : `Level: ${listWords(lead)} with ${points(total ? total.total : 0)} points, ${after}`,
      ),
    );
  }
  return h("section.standing", { "aria-live": "polite", "aria-label": "Standing" }, items);
}

/** Rounds x teams, each cell the round's score and the running total; `actions`: {correct(n), history(n)}. */
function scoresheet(game, actions) {
  const rounds = game.rounds || [];
  const totals = game.totals || [];
  return h(
    "table.sheet",
    h("caption", "Scoresheet: each round's score and the running total"),
    h(
      "thead",
      h(
        "tr",
        h("th", { scope: "col" }, "Round"),
        game.teams.map((t, i) => h("th", { scope: "col", class: `team-colour-${i}` }, h("span.swatch", { "aria-hidden": "true" }), t.name)),
        h("th", { scope: "col" }, h("span.sr-only", "Actions")),
      ),
    ),
    h(
      "tbody",
      rounds.map((r) =>
        h(
          "tr",
          { dataset: { round: String(r.number) } },
          h("th", { scope: "row" }, String(r.number), r.revision > 1 ? h("span.badge.corrected", { title: `revision ${r.revision}` }, "corrected") : null),
          game.teams.map((t, i) => {
            const b = (r.teams || []).find((x) => x.name === t.name) || r.teams[i];
            const after = (r.totals_after || []).find((x) => x.name === t.name) || r.totals_after[i];
            return h(
              "td.num",
              { dataset: { team: t.name } },
              h("span.round-score", b ? points(b.total) : ""),
              h("span.running", { dataset: { running: t.name } }, after ? points(after.total) : ""),
            );
          }),
          h(
            "td.actions",
            h("button.secondary.small", { type: "button", "aria-label": `Correct round ${r.number}`, onclick: () => actions.correct(r.number) }, "Correct"),
            h("button.secondary.small", { type: "button", "aria-label": `History of round ${r.number}`, onclick: () => actions.history(r.number) }, "History"),
          ),
        ),
      ),
    ),
    h(
      "tfoot",
      h(
        "tr",
        h("th", { scope: "row" }, "Total"),
        game.teams.map((t, i) => {
          const total = totals.find((x) => x.name === t.name) || totals[i] || { total: 0 };
          const leads = (game.leaders || []).includes(t.name) && game.rounds_played > 0;
          return h(
            "td.num",
            { dataset: { totalFor: t.name }, class: leads ? "num leads" : "num" },
            h("span.value", points(total.total)),
            leads ? h("span.sr-only", game.status === "finished" && game.winner === t.name ? " (winner)" : " (leading)") : null,
          );
        }),
        h("td"),
      ),
    ),
  );
}

/** Fetch game `id` (GET /v1/games/{id}) and show it. */
export async function showGame(id, { editing = null } = {}) {
  const { data: game } = await api("GET", `/v1/games/${id}`);
  await presetList().catch(() => null);
  renderGame(game, editing);
}

/** Show a fetched game; `editing` ({number, etag, round}) puts that round's correction in the entry. */
function renderGame(game, editing) {
  const actions = {
    correct: (n) => startCorrection(game, n).catch(failure),
    history: (n) => showHistory(game, n).catch(failure),
  };
  const houseRules = Object.entries(game.house_rules || {});
  const header = h(
    "header.game-head",
    h("h1", game.name),
    h(
      "p.meta",
      `${presetName(game.preset)} rules`,
      houseRules.length ? ` with house rules: ${houseRules.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join("; ")}` : "",
      " · ",
      h(`span.badge.status-${game.status}`, STATUS_WORDS[game.status] || game.status),
    ),
    h(
      "ul.teams-line",
      game.teams.map((t, i) => h("li", { class: `team-colour-${i}` }, h("span.swatch", { "aria-hidden": "true" }), h("strong", t.name), ` ${t.players.join(", ")}`)),
    ),
  );
  const entry =
    game.next_round || editing
      ? roundEntry(game, editing, {
          reload: () => showGame(game.id),
          correct: (number, options) => startCorrection(game, number, options),
        })
      : null;
  const exportButton = h("button.secondary", { type: "button", onclick: () => exportCsv(game).catch(failure) }, "Export CSV");
  const sheet = h(
    "section.card.sheet-card",
    { "aria-labelledby": "sheet-title" },
    h("div.title-row", h("h2", { id: "sheet-title" }, "Scoresheet"), exportButton),
    game.rounds && game.rounds.length ? scoresheet(game, actions) : h("p.empty", "No rounds stored yet."),
  );
  const rows = (game.rounds || []).map((r) => ({
    round: r.number,
    totals: game.teams.map((t, i) => ((r.totals_after || []).find((x) => x.name === t.name) || r.totals_after[i] || { total: 0 }).total),
  }));
  const legend = h(
    "ul.legend",
    game.teams.map((t, i) => h("li", { class: `team-colour-${i}` }, h("span.swatch.line", { "aria-hidden": "true" }), t.name)),
  );
  const chart = h(
    "section.card.chart-card",
    { "aria-labelledby": "chart-heading" },
    h("h2", { id: "chart-heading" }, "Running totals"),
    legend,
    rows.length
      ? runningTotalsChart(
          game.teams.map((t) => t.name),
          rows,
        )
      : h("p.empty", "The chart starts with the first stored round."),
  );
  render(header, standingBlock(game), entry, sheet, chart, h("p", h("a", { href: "#/games" }, "← All games")));
  if (editing) {
    const first = view.querySelector(".entry input, .entry textarea");
    if (first) first.focus();
  }
}

/** Load round `number` with its ETag and show the game with the round in the entry to correct. */
async function startCorrection(game, number, { keepNotice = false } = {}) {
  const { data: round, response } = await api("GET", `/v1/games/${game.id}/rounds/${number}`);
  const etag = response.headers.get("ETag");
  const { data: fresh } = await api("GET", `/v1/games/${game.id}`);
  if (!keepNotice) say(`Correcting round ${number}: change the entries, preview, then save.`);
  renderGame(fresh, { number, etag, round });
}

/** Round `number`'s revisions, oldest first, in the history dialog. */
async function showHistory(game, number) {
  const { data: revisions } = await api("GET", `/v1/games/${game.id}/rounds/${number}/revisions`);
  const dialog = document.getElementById("history");
  document.getElementById("history-title").textContent = `History of round ${number}`;
  const when = (iso) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "");
  document.getElementById("history-content").replaceChildren(
    h(
      "ol.revisions",
      revisions.map((rev) =>
        h(
          "li.revision",
          { dataset: { revision: String(rev.revision), current: String(Boolean(rev.current)) } },
          h(
            "h3",
            `Revision ${rev.revision}`,
            rev.current ? h("span.badge.current", "current") : h("span.badge.replaced", "replaced"),
          ),
          h(
            "p.hint",
            `Entered ${when(rev.created_at)}`,
            rev.replaced_at ? ` · replaced ${when(rev.replaced_at)}` : "",
            rev.author ? ` · by ${rev.author}` : "",
          ),
          h(
            "ul.revision-teams",
            (rev.teams || []).map((b) =>
              h(
                "li",
                { dataset: { team: b.name } },
                h("strong", `${b.name}: ${points(b.total)}`),
                h("span.hint", ` ${b.lines.filter((l) => l.points !== 0).map((l) => `${l.label} ${points(l.points)}`).join(" · ")}`),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  dialog.showModal();
}

/** Download the scoresheet as CSV (GET .../scoresheet with Accept: text/csv). */
async function exportCsv(game) {
  const { data: blob } = await api("GET", `/v1/games/${game.id}/scoresheet`, { accept: "text/csv" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: `${slug(game.name)}-scoresheet.csv`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  say(`Scoresheet of “${game.name}” downloaded as CSV.`);
}
