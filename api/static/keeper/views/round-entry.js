// The round entry (#/games/{id}/round for the next round, #/games/{id}/rounds/{n} to correct one):
// every side's counts with steppers, or its cards; a live breakdown from POST /v1/rounds/score
// (debounced) with the rules broken shown at their inputs; one "Save round" that stores what the
// breakdown shows (POST .../rounds with an Idempotency-Key, or PUT .../rounds/{n} with If-Match).
// With no connection a new round is entered all the same, with no breakdown, and kept on this device
// to be saved when the connection returns (outbox.js); the rounds kept count in the next number.

import { ProblemError, api, getGame, getRound, newIdempotencyKey } from "../api.js";
import { clearErrors, findPointerTarget, h, nextId, points, showProblem } from "../dom.js";
import { contractText, same } from "../format.js";
import { nextRound, saveRound } from "../outbox.js";
import { failure, render, say, setFlash } from "../page.js";
import { presetList } from "../presets.js";
import { rememberSave } from "./undo.js";
import { teamEntry } from "./team-entry.js";

/** How long typing may pause before the breakdown is asked for, in milliseconds. */
const PREVIEW_DELAY_MS = 300;

/** Round `number`'s {opening, contract} under a game's resolved rules: the by-round lists, else the flat values. */
function roundRules(rules, number) {
  const byRound = rules.opening_minimum_by_round || [];
  const contracts = rules.contract_by_round || [];
  return {
    opening: number <= byRound.length ? byRound[number - 1] : rules.opening_minimum,
    contract: number <= contracts.length ? contracts[number - 1] : rules.contract,
  };
}

/** A side's `warnings` ([{code, detail, pointer}]: the meld rules its table breaks that stand all the
 * same, the Hodges family rules' "what's layed is played"; and `table_below_opening_minimum`, its
 * cards on the table below the round's opening minimum) as a labelled list; null when none. */
export function breakdownWarnings(breakdown) {
  const warnings = breakdown.warnings || [];
  if (!warnings.length) return null;
  const id = nextId("warn");
  const below = warnings.filter((w) => w.code === "table_below_opening_minimum").length;
  const melds = warnings.length - below;
  let title;
  if (!melds) title = `Warning for ${breakdown.name}: its cards on the table are below the round's opening minimum`;
  else if (below) title = `Warnings for ${breakdown.name}: scored as laid, but breaking the rules`;
  else if (melds > 1) title = `Warnings for ${breakdown.name}: these melds break the meld rules, but stand and score`;
  else title = `Warning for ${breakdown.name}: this meld breaks the meld rules, but stands and scores`;
  return h(
    "div.breakdown-warnings",
    { role: "note", "aria-labelledby": id, dataset: { team: breakdown.name } },
    h("p.warnings-title", { id }, title),
    h("ul", warnings.map((w) => h("li.warning", { dataset: { code: w.code, at: w.pointer ?? "" } }, w.detail))),
  );
}

/** Whether an error at JSON pointer `pointer` concerns an input the person has changed (`touched`:
 * the data-pointer of each): the input itself, a part of it, or a group holding it below the side's
 * level (the books of a rank). Errors of a whole side or round wait for Save, as do those at inputs
 * not yet reached: opening a round shows no refusal of counts nobody has entered (issue 31). */
export function concernsTouched(pointer, touched) {
  const depth = (p) => p.split("/").length - 1;
  for (const t of touched) {
    if (pointer === t || pointer.startsWith(`${t}/`)) return true;
    if (depth(pointer) >= 3 && t.startsWith(`${pointer}/`)) return true;
  }
  return false;
}

/** One side's breakdown ({name, total, lines, warnings}) as a table, line by line (the lines worth 0 folded away). */
function breakdownTable(breakdown, index) {
  const shown = breakdown.lines.filter((line) => line.points !== 0);
  return h(
    "section.breakdown",
    { dataset: { team: breakdown.name }, class: `breakdown team-colour-${index}` },
    h("h3", h("span.team", breakdown.name), " ", h("span.total", points(breakdown.total))),
    breakdownWarnings(breakdown),
    h(
      "table.lines",
      h("caption.sr-only", `${breakdown.name}: ${points(breakdown.total)} this round, line by line`),
      h("thead.sr-only", h("tr", h("th", { scope: "col" }, "Line"), h("th", { scope: "col" }, "Count"), h("th.num", { scope: "col" }, "Points"))),
      h(
        "tbody",
        breakdown.lines.map((line) =>
          h(
            "tr",
            { dataset: { code: line.code }, class: line.points === 0 ? "zero" : "" },
            h("th", { scope: "row" }, line.label),
            h("td.count", line.count !== null && line.count !== undefined && line.points_each !== null && line.points_each !== undefined ? `${line.count} × ${points(line.points_each)}` : ""),
            h("td.num", points(line.points)),
          ),
        ),
      ),
      h("tfoot", h("tr", h("th", { scope: "row" }, "Round total"), h("td"), h("td.num", { dataset: { total: breakdown.name } }, points(breakdown.total)))),
    ),
    shown.length ? null : h("p.hint", "Nothing counted yet."),
  );
}

/** Fetch game `id` (and round `number` with its ETag, when correcting) and show the entry;
 * `out`: the index (as text) of the side that went out, marked already in a new round. */
export async function showRoundEntry(id, number = null, { out = null } = {}) {
  const { game } = await getGame(id);
  await presetList().catch(() => null);
  let editing = null;
  if (number !== null) {
    const { round, etag } = await getRound(id, number);
    editing = { number, etag, round };
  } else if (!nextRound(game)) {
    setFlash("This game is over: no round to enter.");
    location.replace(`#/games/${id}`);
    return;
  }
  render(roundEntry(game, editing, number === null && out !== null ? Number(out) : null));
  // The first number to type: the first side's card points (the counts have steppers).
  const first = document.querySelector("form.entry input[data-tally='table_points']") || document.querySelector("form.entry input");
  if (first) first.focus({ preventScroll: true });
}

/** The entry form of round `editing.number` (a correction) or of the game's next round (`out`: the
 * index of the side marked as having gone out, or null). */
function roundEntry(game, editing, out) {
  const number = editing ? editing.number : nextRound(game);
  // The server says the next round's; a later one (after rounds kept on this device) reads the rules.
  const { opening, contract } = editing || number !== game.next_round
    ? roundRules(game.rules, number)
    : { opening: game.next_opening_minimum, contract: game.next_contract };
  const priorTeams = editing ? editing.round.request.teams || [] : [];
  const entries = game.teams.map((t, i) => teamEntry(game, i, priorTeams.find((p) => p.name === t.name) || (i === out ? { went_out: true, tally: {} } : null)));
  const summary = h("div.error-summary", { tabindex: "-1", hidden: true, "aria-live": "polite" });
  const previewBox = h("div.preview", { "aria-live": "polite", "aria-busy": "false" });
  const saveButton = h("button.primary.big.save", { type: "submit" }, editing ? `Save the correction of round ${number}` : `Save round ${number}`);
  // On a phone the breakdown is folded under the Save bar, one tap away, and the bar shows the totals (round-entry.css).
  const runningTotal = h("p.running-total", { dataset: { testid: "running-total" } });
  const previewId = nextId("preview");
  const breakdownToggle = h("button.secondary.breakdown-toggle", { type: "button", "aria-expanded": "false", "aria-controls": previewId }, "Breakdown");
  const back = `#/games/${game.id}`;
  const state = { seq: 0, timer: null, shown: null, idempotency: null, touched: new Set() };
  const title = editing
    ? `Correct round ${number} (revision ${editing.round.revision})`
    : game.status === "tiebreaker"
      ? `Round ${number}: tiebreaker`
      : `Round ${number}${game.rules.rounds ? ` of ${game.rules.rounds}` : ""}`;

  const form = h(
    "form.entry",
    { novalidate: true, "aria-labelledby": "entry-title", dataset: { round: String(number) } },
    h("div.title-row", h("h1", { id: "entry-title" }, title), h("a.back-link", { href: back }, "Back to the scores")),
    h("p.game-name", game.name),
    h(
      "p.round-rules",
      { dataset: { testid: "round-rules" } },
      h("span.opening", "Opening minimum: ", h("strong", { dataset: { testid: "opening-minimum" } }, opening === null || opening === undefined ? "by score" : points(opening))),
      h("span.contract", "To go out: ", h("strong", { dataset: { testid: "contract" } }, contractText(contract))),
    ),
    summary,
    h("div.team-entries", { class: `team-entries sides-${entries.length}` }, entries.map((e) => e.element)),
    h("section.preview-card", { id: previewId, "aria-labelledby": "preview-title" }, h("h2", { id: "preview-title" }, `Round ${number} as it will be saved`), previewBox),
    h("div.button-row.save-row", runningTotal, breakdownToggle, saveButton),
  );
  breakdownToggle.addEventListener("click", () => {
    const open = breakdownToggle.getAttribute("aria-expanded") !== "true";
    breakdownToggle.setAttribute("aria-expanded", String(open));
    form.querySelector(".preview-card").classList.toggle("open", open);
    if (open) form.querySelector(".preview-card").scrollIntoView({ block: "start" });
  });

  /** Show `err`'s errors; while typing (`all` false) only those at inputs the person has changed. */
  function showErrors(err, title, all) {
    if (all) return showProblem(form, err, { title, focus: false });
    const errors = err.errors.filter((e) => {
      const pointer = e.pointer ?? "";
      const target = pointer ? findPointerTarget(form, pointer) : null;
      return concernsTouched(target ? target.dataset.pointer : pointer, state.touched) || concernsTouched(pointer, state.touched);
    });
    if (!errors.length) return null;
    return showProblem(form, new ProblemError(err.status, { ...err.problem, errors }), { title, focus: false });
  }

  /** The sides' JSON, or null after showing (at its input) what cannot be read. */
  function readTeams(all) {
    try {
      return entries.map((e) => e.read());
    } catch (err) {
      showErrors(err, "Check these entries", all);
      return null;
    }
  }

  /** Ask for the breakdown of what the inputs say now; returns the teams it shows, or null. `all`:
   * show every rule broken (on Save), not only those at the inputs changed so far. */
  async function refresh(all = false) {
    clearTimeout(state.timer);
    const seq = ++state.seq;
    clearErrors(form);
    const teams = readTeams(all);
    if (!teams) {
      state.shown = null;
      previewBox.classList.add("stale");
      previewBox.replaceChildren(h("p.hint.no-breakdown", "No breakdown until the entries marked above can be read."));
      return null;
    }
    if (state.shown && same(state.shown, teams)) return teams;
    if (all && state.refused && same(state.refused.teams, teams)) {
      showErrors(state.refused.err, "The rules say no", true);
      return null;
    }
    previewBox.setAttribute("aria-busy", "true");
    try {
      const body = { preset: game.preset, rules: game.house_rules || {}, round: number, teams };
      const { data } = await api("POST", "/v1/rounds/score", { body });
      if (seq !== state.seq) return null; // a later change is being scored
      state.shown = teams;
      state.refused = null;
      runningTotal.textContent = data.teams.map((b) => `${b.name} ${points(b.total)}`).join(" · ");
      runningTotal.classList.remove("stale");
      previewBox.classList.remove("stale");
      previewBox.replaceChildren(h("div.breakdowns", data.teams.map((b, i) => breakdownTable(b, i))));
      return teams;
    } catch (err) {
      if (seq !== state.seq) return null;
      state.shown = null;
      previewBox.classList.add("stale");
      if (err instanceof ProblemError && err.status === 0 && !editing) {
        // No connection: the round can still be saved (kept here); the server scores it once it arrives.
        runningTotal.textContent = "No connection: no breakdown";
        runningTotal.classList.remove("stale");
        previewBox.replaceChildren(h("p.hint.no-breakdown", "No breakdown: no connection. Save keeps the round on this device; it is scored when it reaches the server."));
        return teams;
      }
      if (err instanceof ProblemError && (err.status === 422 || err.status === 400)) {
        state.refused = { teams, err };
        const shown = showErrors(err, "The rules say no", all);
        previewBox.replaceChildren(
          h("p.hint.no-breakdown", shown ? "No breakdown: the rules say no to what is marked above." : "No breakdown yet: the round is not complete. Save names what is missing."),
        );
      } else {
        previewBox.replaceChildren(h("p.hint.no-breakdown", "No breakdown: the rules say no to what is marked above."));
        failure(err);
      }
      return null;
    } finally {
      if (seq === state.seq) previewBox.setAttribute("aria-busy", "false");
    }
  }

  function schedule(event) {
    // The totals stay put (greyed) until the next breakdown: the Save bar does not jump under a finger.
    runningTotal.classList.add("stale");
    // What the person changed: its input's data-pointer (a side's own switches, like tally or cards, count for nothing).
    const at = event && event.target && event.target.closest ? event.target.closest("[data-pointer]") : null;
    if (at && at.dataset.pointer.split("/").length > 3) state.touched.add(at.dataset.pointer);
    state.shown = null;
    previewBox.classList.add("stale");
    clearTimeout(state.timer);
    state.timer = setTimeout(() => refresh().catch(failure), PREVIEW_DELAY_MS);
  }
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  // Enter (a phone keyboard's "next") moves on to the next card points to type (the counts have
  // steppers); after the last side's it saves, as a form's Enter does.
  form.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || !input.matches("input[data-tally]")) return;
    const inputs = [...form.querySelectorAll("input[data-tally]")].filter((el) => el.offsetParent !== null);
    const next = inputs.slice(inputs.indexOf(input) + 1).find((el) => el.closest(".tally-points"));
    if (!next) return;
    event.preventDefault();
    next.focus();
    next.select();
  });

  async function save() {
    const teams = await refresh(true);
    if (!teams) {
      const shown = form.querySelector(".error-summary:not([hidden]) h3");
      if (shown) shown.focus();
      return;
    }
    saveButton.disabled = true;
    try {
      if (editing) {
        const { data: round, response } = await api("PUT", `/v1/games/${game.id}/rounds/${number}`, {
          body: { teams },
          headers: { "If-Match": editing.etag },
        });
        rememberSave({ gameId: game.id, number, kind: "correction", before: editing.round.request.teams, etag: response.headers.get("ETag") });
        setFlash(`Round ${number} corrected (revision ${round.revision}). The earlier version stays in its history.`);
      } else {
        const body = { round: number, teams };
        if (!state.idempotency || !same(state.idempotency.body, body)) state.idempotency = { body, key: newIdempotencyKey() };
        if ((await saveRound(game, body, state.idempotency.key)) === "saved") {
          rememberSave({ gameId: game.id, number, kind: "append" });
          setFlash(`Round ${number} saved.`);
        } else setFlash(`Round ${number} is kept on this device: it is saved when the connection returns.`);
      }
      location.hash = back;
    } catch (err) {
      saveButton.disabled = false;
      if (err instanceof ProblemError && err.status === 412) {
        say("This round was changed elsewhere since you opened it: it has been reloaded; make your correction again.", "error");
        await showRoundEntry(game.id, number);
      } else if (err instanceof ProblemError && [400, 409, 422, 428].includes(err.status)) {
        showProblem(form, err, { title: err.status === 409 ? "Not saved" : "Not saved: the rules say no" });
      } else failure(err);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    save().catch(failure);
  });
  refresh().catch(failure);
  return h("section.card.entry-card", { class: editing ? "card entry-card correcting" : "card entry-card" }, form);
}
