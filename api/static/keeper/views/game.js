// The game view (#/games/{id}), scoreboard first: every side's total and the leader or winner, the
// button to enter the next round, the score sheet with running totals, the chart; then each round's
// correction and history, the CSV export, undo of this session's last save and deleting the game.
// With no connection it shows the game as last read on this device (api.js getGame), and the rounds
// kept here to be saved later (outbox.js) as rows waiting in the score sheet.

import { ProblemError, api, getGame, getRevisions } from "../api.js";
import { runningTotalsChart } from "../chart.js";
import { h, points } from "../dom.js";
import { STATUS_WORDS, listWords, plural, ruleValueWords, ruleWords, slug } from "../format.js";
import { nextRound, waitingRounds } from "../outbox.js";
import { failure, render, say, setFlash } from "../page.js";
import { presetDetail, presetList, presetName } from "../presets.js";
import { breakdownWarnings } from "./round-entry.js";
import { forgetSave, undoFor } from "./undo.js";

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

/** A round kept on this device (outbox.js) as a row of the score sheet: waiting, or refused by the server. */
function pendingRow(game, entry) {
  return h(
    "tr",
    { class: entry.refused ? "pending refused-row" : "pending", dataset: { pendingRound: String(entry.number), pending: entry.refused ? "refused" : "waiting" } },
    h("th", { scope: "row" }, String(entry.number), h("span.badge.pending-tag", entry.refused ? "not saved" : "waiting")),
    h(
      "td",
      { colspan: String(game.teams.length + 1) },
      entry.refused ? "Not saved: the server refused it (see above)." : "Waiting to be saved: the scores come once it reaches the server.",
    ),
  );
}

/** Rounds x teams, each cell the round's score and the running total, then the rounds waiting
 * (`pending`, outbox.js entries); `actions`: {history(n)}. */
function scoresheet(game, actions, pending) {
  const rounds = game.rounds || [];
  const totals = game.totals || [];
  return h(
    "table.sheet",
    h("caption.sr-only", "Score sheet: each round's score and the running total"),
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
          h(
            "th",
            { scope: "row" },
            String(r.number),
            // Only a corrected round has a history to show: its badge opens it.
            r.revision > 1
              ? h("button.badge.corrected", { type: "button", "aria-label": `History of round ${r.number} (corrected, revision ${r.revision})`, onclick: () => actions.history(r.number) }, "corrected")
              : null,
          ),
          game.teams.map((t, i) => {
            // The game read summarises each round: its scores and running totals (the Breakdowns are the round's own read).
            const b = (r.scores || []).find((x) => x.name === t.name) || (r.scores || [])[i];
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
            h("a.button.secondary.small", { href: `#/games/${game.id}/rounds/${r.number}`, "aria-label": `Correct round ${r.number}` }, "Correct"),
          ),
        ),
      ),
      pending.map((entry) => pendingRow(game, entry)),
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

/** Every side's total as a tile, the leader (or winner) marked in words, not colour alone. */
function totalsBoard(game) {
  const leaders = game.rounds_played ? game.leaders || [] : [];
  const won = game.status === "finished";
  return h(
    "ul.totals-board",
    { "aria-label": "Totals" },
    game.teams.map((t, i) => {
      const total = (game.totals || []).find((x) => x.name === t.name) || { total: 0 };
      const leads = leaders.includes(t.name);
      const tag = leads ? (won ? (game.winner === t.name ? "Winner" : "Tied") : leaders.length > 1 ? "Level" : "Leads") : null;
      return h(
        "li.side-total",
        { class: `side-total team-colour-${i}${leads ? " leads" : ""}`, dataset: { side: t.name } },
        h("span.side-name", h("span.swatch", { "aria-hidden": "true" }), t.name),
        h("strong.side-points", points(total.total)),
        tag ? h("span.badge.lead-tag", tag) : null,
      );
    }),
  );
}

/** Fetch game `id` (GET /v1/games/{id}, or its copy on this device with no connection) and show its scoreboard. */
export async function showGame(id) {
  const { game, etag, seenAt } = await getGame(id);
  await presetList().catch(() => null);
  // The house rules are named by their descriptions (players' words at their source); without them, by their names.
  const fields = Object.keys(game.house_rules || {}).length ? await presetDetail(game.preset).then((d) => d.fields, () => []) : [];
  renderGame(game, etag, fields, seenAt);
}

const when = (iso) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "");

/** A house rule as players say it: "Bonus per clean (red, natural) book: 400". */
function houseRuleWords([name, value], fields) {
  const found = fields.find((f) => f.name === name);
  return `${(found ? found.description : ruleWords(name)).replace(/\.$/, "")}: ${ruleValueWords(value)}`;
}

function renderGame(game, etag, fields = [], seenAt = null) {
  const actions = { history: (n) => showHistory(game, n).catch(failure) };
  const pending = waitingRounds(game.id);
  const nextNumber = nextRound(game);
  const houseRules = Object.entries(game.house_rules || {});
  const rules = game.rules || {};
  const header = h(
    "header.game-head",
    h("h1", game.name),
    h(
      "p.meta",
      `${presetName(game.preset)} · ${plural(game.rounds_played, "round")}${rules.rounds ? ` of ${rules.rounds}` : ""} · `,
      h(`span.badge.status-${game.status}`, STATUS_WORDS[game.status] || game.status),
    ),
    seenAt ? h("p.stored-note", { dataset: { testid: "stored" } }, `No connection: the scores as last seen on this device (${when(seenAt)}).`) : null,
  );
  const next = nextNumber
    ? h("a.button.primary.big.enter-round", { href: `#/games/${game.id}/round` }, game.status === "tiebreaker" ? `Enter tiebreaker round ${nextNumber}` : `Enter round ${nextNumber}`)
    : null;
  // A round ends when a side goes out: one tap says who and opens the entry with it marked.
  const wentOut = nextNumber
    ? h(
        "div.went-out-row",
        { role: "group", "aria-label": `Round ${nextNumber}: who went out` },
        game.teams.map((t, i) =>
          h("a.button.secondary.went-out", { href: `#/games/${game.id}/round?out=${i}`, class: `button secondary went-out team-colour-${i}` }, `${t.name} went out`),
        ),
      )
    : null;
  const undo = undoFor(game, etag);
  let undoButton = null;
  if (undo) {
    undoButton = h("button.secondary.undo", { type: "button" }, undo.label);
    undoButton.addEventListener("click", async () => {
      undoButton.disabled = true;
      try {
        const words = await undo.run();
        await showGame(game.id);
        say(words);
      } catch (err) {
        if (err instanceof ProblemError && (err.status === 412 || err.status === 409)) {
          forgetSave(); // the game moved on elsewhere: what this page saved is no longer the last change
          await showGame(game.id);
          say("Not undone: the game was changed elsewhere since it was shown; it has been reloaded.", "error");
          return;
        }
        undoButton.disabled = false;
        failure(err);
      }
    });
  }
  const board = h(
    "section.scoreboard",
    { "aria-labelledby": "board-title" },
    h("h2.sr-only", { id: "board-title" }, "Scores"),
    totalsBoard(game),
    standingBlock(game),
    pending.length ? h("p.hint.pending-note", `${plural(pending.length, "round")} not saved yet: not in these totals.`) : null,
    next || undoButton ? h("div.button-row.board-actions", next, undoButton) : null,
    wentOut,
  );
  const sheet = h(
    "section.card.sheet-card",
    { "aria-labelledby": "sheet-title" },
    h("h2", { id: "sheet-title" }, "Score sheet"),
    (game.rounds && game.rounds.length) || pending.length ? scoresheet(game, actions, pending) : h("p.empty", "No rounds saved yet."),
  );
  const rows = (game.rounds || []).map((r) => ({
    round: r.number,
    totals: game.teams.map((t, i) => ((r.totals_after || []).find((x) => x.name === t.name) || r.totals_after[i] || { total: 0 }).total),
  }));
  const chart = h(
    "section.card.chart-card",
    { "aria-labelledby": "chart-heading" },
    h("h2", { id: "chart-heading" }, "Running totals"),
    h("ul.legend", game.teams.map((t, i) => h("li", { class: `team-colour-${i}` }, h("span.swatch.line", { "aria-hidden": "true" }), t.name))),
    rows.length ? runningTotalsChart(game.teams.map((t) => t.name), rows) : h("p.empty", "The chart starts with the first saved round."),
  );
  const about = h(
    "section.card.about-card",
    { "aria-labelledby": "about-title" },
    h("h2", { id: "about-title" }, "This game"),
    h("ul.teams-line", game.teams.map((t, i) => h("li", { class: `team-colour-${i}` }, h("span.swatch", { "aria-hidden": "true" }), h("strong", t.name), ` ${t.players.join(", ")}`))),
    h("p.hint", `${presetName(game.preset)} rules`, houseRules.length ? " with house rules:" : ", no house rules"),
    houseRules.length ? h("ul.house-rules", houseRules.map((rule) => h("li", houseRuleWords(rule, fields)))) : null,
    h(
      "div.button-row",
      h("button.secondary", { type: "button", onclick: () => exportCsv(game).catch(failure) }, "Export CSV"),
      h("button.danger", { type: "button", onclick: () => deleteGame(game, etag).catch(failure) }, "Delete game"),
    ),
  );
  render(header, board, sheet, chart, about, h("p", h("a.back-link", { href: "#/games" }, "\u2190 All games")));
}

/** Ask in the confirmation dialog; resolves true when the person confirms. */
function confirmDialog(title, text, confirmLabel) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-title").textContent = title;
  document.getElementById("confirm-text").textContent = text;
  const yes = document.getElementById("confirm-yes");
  yes.textContent = confirmLabel;
  dialog.returnValue = "";
  dialog.showModal();
  document.getElementById("confirm-no").focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

/** Delete the game (DELETE /v1/games/{id}, If-Match: the ETag it was shown with) once confirmed. */
async function deleteGame(game, etag) {
  const rounds = plural(game.rounds_played, "round");
  const ok = await confirmDialog(`Delete “${game.name}”?`, `The game, its ${rounds} and every correction are deleted for good.`, "Delete the game");
  if (!ok) return;
  await api("DELETE", `/v1/games/${game.id}`, { headers: etag ? { "If-Match": etag } : {} });
  forgetSave();
  setFlash(`Game “${game.name}” deleted.`);
  location.hash = "#/games";
}

/** Round `number`'s revisions, oldest first, in the history dialog. */
async function showHistory(game, number) {
  const revisions = await getRevisions(game.id, number);
  const dialog = document.getElementById("history");
  document.getElementById("history-title").textContent = `History of round ${number}`;
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
                breakdownWarnings(b),
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
