// The round entry of the game view: each team's round as tallies (counted at the table) or as cards,
// previewed line by line through POST /v1/rounds/score, then stored (POST .../rounds with an
// Idempotency-Key) or, for a correction, saved (PUT .../rounds/{n} with If-Match).

import { ProblemError, api, newIdempotencyKey } from "../api.js";
import { clearErrors, field, h, nextId, numberInput, points, readNumber, showProblem } from "../dom.js";
import { contractText, same } from "../format.js";
import { failure, say, view } from "../page.js";

/** A side's tally as POST /v1/rounds/score takes it: [key, label, hint], in the order shown. */
const TALLY_FIELDS = [
  ["clean_books", "Clean books", "completed clean (natural) books"],
  ["dirty_books", "Dirty books", "completed books with wild cards"],
  ["wild_books", "Wild books", "completed books of wild cards only"],
  ["red_threes_on_table", "Red threes on the table", null],
  ["red_threes_caught", "Red threes caught", "still in a hand or foot"],
  ["table_points", "Points on the table", "card values of every melded card"],
  ["points_left", "Points left", "card values left in hands and feet"],
  ["burn_points", "Burn pile points", null],
  ["perfect_cuts", "Perfect cuts", null],
];

/** Whether a tally input applies under these rules (no wild books, red threes or burn pile where none are played). */
function tallyFieldShown(key, rules) {
  if (key === "wild_books") return rules.all_wild_melds !== false || (rules.contract && rules.contract.wild_books > 0);
  if (key === "red_threes_on_table") return rules.red_threes_laid_out !== false;
  if (key === "burn_points") return rules.after_book === "burn";
  if (key === "perfect_cuts") return Boolean(rules.perfect_cut_bonus);
  return true;
}

/** Round `number`'s {opening, contract} under a game's resolved rules: the by-round lists, else the flat values. */
function roundRules(rules, number) {
  const byRound = rules.opening_minimum_by_round || [];
  const contracts = rules.contract_by_round || [];
  return {
    opening: number <= byRound.length ? byRound[number - 1] : rules.opening_minimum,
    contract: number <= contracts.length ? contracts[number - 1] : rules.contract,
  };
}

/** "KS KH KD" / "KS, KH" / '["KS","KH"]' → ["KS", "KH", ...]. Throws a pointer-carrying error on bad JSON. */
function parseCards(text, pointer) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith("[")) {
    const value = parseJson(trimmed, pointer, "Write cards like 10H QS JK, or a JSON list.");
    return Array.isArray(value) ? value.flat(Infinity).map(String) : value;
  }
  return trimmed.split(/[\s,;]+/).filter(Boolean);
}

/** One meld per line ("KS KH KD"), or JSON ([["KS","KH","KD"], ...]). */
function parseMelds(text, pointer) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith("[")) {
    const value = parseJson(trimmed, pointer, "Write one meld per line, like KS KH KD.");
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return [value];
    return value;
  }
  return trimmed
    .split(/\n+/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => line.replace(/^\[|\]$/g, "").split(/[\s,;]+/).filter(Boolean));
}

/** Pasted JSON text → its value; throws a pointer-carrying error naming `plainForm` when it is not JSON. */
function parseJson(text, pointer, plainForm) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw localProblem(pointer, "bad_json", `This is not valid JSON (${e.message}). ${plainForm}`);
  }
}

/** An error found before sending, shaped as the API's problem details so showProblem places it. */
function localProblem(pointer, code, detail) {
  return new ProblemError(422, { title: "Cannot read this", detail, errors: [{ pointer, code, detail }] });
}

/** ["KS", "KH"] → "KS KH": stored cards back in the inputs' form. */
function cardsText(cards) {
  return (cards || []).join(" ");
}

/** The entry of one team for a round: tallies or cards, and whether it went out. */
function teamEntry(game, index, prior) {
  const team = game.teams[index];
  const rules = game.rules;
  const base = `/teams/${index}`;
  const mode = prior && !prior.tally ? "cards" : "tally";
  const modeName = nextId("mode");

  const wentOut = h("input", { type: "checkbox", name: `${base}/went_out`, checked: Boolean(prior && prior.went_out) });
  const wentOutField = h(
    "div.field.check",
    { dataset: { pointer: `${base}/went_out`, label: `${team.name}, went out` } },
    h("label.choice.big-check", wentOut, ` ${team.name} went out`),
  );

  const tallyInputs = new Map();
  const tallyPanel = h(
    "div.tally-grid",
    TALLY_FIELDS.filter(([key]) => tallyFieldShown(key, rules)).map(([key, label, hint]) => {
      const value = prior && prior.tally ? prior.tally[key] : "";
      const input = numberInput(key, value, { placeholder: "0" });
      input.dataset.tally = key;
      tallyInputs.set(key, input);
      const f = field(label, input, { hint, pointer: `${base}/tally/${key}` });
      f.dataset.label = `${team.name}, ${label.toLowerCase()}`;
      return f;
    }),
  );
  tallyPanel.dataset.pointer = `${base}/tally`;
  tallyPanel.dataset.label = `${team.name}, tallies`;

  const meldsInput = h("textarea", {
    name: `${base}/melds`,
    rows: "4",
    spellcheck: "false",
    autocapitalize: "characters",
    placeholder: "KS KH KD KC KS KH KD\n4S 4H 2C",
  });
  const redThreesInput = h("input", { type: "text", name: `${base}/red_threes`, spellcheck: "false", autocapitalize: "characters", placeholder: "3H 3D" });
  const burnInput = h("input", { type: "text", name: `${base}/burn`, spellcheck: "false", autocapitalize: "characters" });
  const priorPlayers = prior && prior.players ? prior.players : [];
  const playerRows = team.players.map((playerName, j) => {
    const was = priorPlayers.find((p) => p.name === playerName) || priorPlayers[j] || {};
    const hand = h("textarea", { name: `${base}/players/${j}/hand`, rows: "2", spellcheck: "false", autocapitalize: "characters", placeholder: "8S QD" });
    hand.value = cardsText(was.hand);
    const footNever = h("input", { type: "checkbox", checked: Array.isArray(was.foot) });
    const foot = h("textarea", { name: `${base}/players/${j}/foot`, rows: "2", spellcheck: "false", autocapitalize: "characters" });
    foot.value = cardsText(was.foot);
    const footField = field(`${playerName}'s foot (counts whole)`, foot, { pointer: `${base}/players/${j}/foot` });
    footField.hidden = !footNever.checked;
    footNever.addEventListener("change", () => {
      footField.hidden = !footNever.checked;
    });
    return {
      name: playerName,
      element: h(
        "fieldset.player-cards",
        { dataset: { pointer: `${base}/players/${j}`, label: `${team.name}, ${playerName}` } },
        h("legend", playerName),
        field(`Cards left in ${playerName}'s hand`, hand, { pointer: `${base}/players/${j}/hand` }),
        h("label.choice", footNever, ` ${playerName} never picked up the foot`),
        footField,
      ),
      read: () => {
        const p = { name: playerName, hand: parseCards(hand.value, `${base}/players/${j}/hand`) };
        if (footNever.checked) p.foot = parseCards(foot.value, `${base}/players/${j}/foot`);
        return p;
      },
    };
  });
  if (prior && !prior.tally) {
    meldsInput.value = (prior.melds || []).map(cardsText).join("\n");
    redThreesInput.value = cardsText(prior.red_threes);
    burnInput.value = cardsText(prior.burn);
  }
  const cardsPanel = h(
    "div.cards-panel",
    field("Melds on the table, one per line", meldsInput, {
      pointer: `${base}/melds`,
      hint: "Cards like KS 10H 2C JK, separated by spaces; or paste JSON: [[\"KS\",\"KH\",\"KD\"], ...]",
    }),
    tallyFieldShown("red_threes_on_table", rules) ? field("Red threes laid out", redThreesInput, { pointer: `${base}/red_threes` }) : null,
    rules.after_book === "burn" ? field("Burn pile", burnInput, { pointer: `${base}/burn` }) : null,
    playerRows.map((p) => p.element),
  );

  const modeInputs = ["tally", "cards"].map((value) =>
    h("input", { type: "radio", name: modeName, value, checked: value === mode, id: nextId("mode") }),
  );
  const modeSwitch = h(
    "div.mode-switch",
    { role: "radiogroup", "aria-label": `How to enter ${team.name}'s round` },
    modeInputs.map((input) => h("label.choice.segment", { for: input.id }, input, input.value === "tally" ? "Tallies" : "Cards")),
  );
  function showMode() {
    const cards = modeInputs[1].checked;
    tallyPanel.hidden = cards;
    cardsPanel.hidden = !cards;
  }
  for (const input of modeInputs) input.addEventListener("change", showMode);
  showMode();

  const element = h(
    "fieldset.team-entry",
    { dataset: { pointer: base, label: team.name, team: team.name }, class: `team-entry team-colour-${index}` },
    h("legend", team.name, h("span.players", ` (${team.players.join(", ")})`)),
    modeSwitch,
    wentOutField,
    tallyPanel,
    cardsPanel,
  );

  function read() {
    const out = { name: team.name, went_out: wentOut.checked };
    if (!modeInputs[1].checked) {
      out.tally = {};
      for (const [key] of TALLY_FIELDS) {
        const input = tallyInputs.get(key);
        if (input) out.tally[key] = readNumber(input.value, 0);
        else if (!["burn_points", "perfect_cuts"].includes(key)) out.tally[key] = 0;
      }
      return out;
    }
    out.melds = parseMelds(meldsInput.value, `${base}/melds`);
    out.red_threes = parseCards(redThreesInput.value, `${base}/red_threes`);
    if (rules.after_book === "burn") out.burn = parseCards(burnInput.value, `${base}/burn`);
    out.players = playerRows.map((p) => p.read());
    return out;
  }

  return { element, read };
}

/** One team's previewed breakdown ({name, total, lines}) as a table, line by line. */
function breakdownTable(breakdown, index) {
  return h(
    "section.breakdown",
    { dataset: { team: breakdown.name }, class: `breakdown team-colour-${index}` },
    h("h3", h("span.team", breakdown.name), " ", h("span.total", points(breakdown.total))),
    h(
      "table.lines",
      h("caption.sr-only", `${breakdown.name}: ${points(breakdown.total)} this round, line by line`),
      h("thead", h("tr", h("th", { scope: "col" }, "Line"), h("th", { scope: "col" }, "Count"), h("th.num", { scope: "col" }, "Points"))),
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
  );
}

/**
 * The form for the game's next round, or (`editing`: {number, etag, round}) for correcting a stored one.
 * `reload()` shows the game again (after storing, or on cancel); `correct(number, {keepNotice})` starts
 * the correction again from the stored round (when it changed elsewhere: 412). Returns a <section>.
 */
export function roundEntry(game, editing, { reload, correct }) {
  const number = editing ? editing.number : game.next_round;
  const { opening, contract } = editing
    ? roundRules(game.rules, number)
    : { opening: game.next_opening_minimum, contract: game.next_contract };
  const priorTeams = editing ? editing.round.request.teams || [] : [];
  const entries = game.teams.map((t, i) => teamEntry(game, i, priorTeams.find((p) => p.name === t.name) || null));
  const summary = h("div.error-summary", { role: "alert", tabindex: "-1", hidden: true });
  const previewBox = h("div.preview", { "aria-live": "polite" });
  const previewButton = h("button.primary.big", { type: "submit" }, "Preview the scores");
  const storeButton = h(
    "button.primary.big.store",
    { type: "button", disabled: true },
    editing ? `Save the correction of round ${number}` : `Store round ${number}`,
  );
  const cancelButton = editing
    ? h("button.secondary.big", { type: "button", onclick: () => reload().catch(failure) }, "Cancel the correction")
    : null;
  const state = { previewed: null, idempotency: null };
  const title = editing
    ? `Correct round ${number} (revision ${editing.round.revision})`
    : game.status === "tiebreaker"
      ? `Round ${number}: tiebreaker`
      : `Round ${number}${game.rules.rounds ? ` of ${game.rules.rounds}` : ""}`;

  const form = h(
    "form.entry",
    { novalidate: true, "aria-labelledby": "entry-title", dataset: { round: String(number) } },
    h("h2", { id: "entry-title" }, title),
    h(
      "p.round-rules",
      { dataset: { testid: "round-rules" } },
      h("span.opening", "Opening minimum: ", h("strong", { dataset: { testid: "opening-minimum" } }, opening === null || opening === undefined ? "by score" : points(opening))),
      h("span.contract", "To go out: ", h("strong", { dataset: { testid: "contract" } }, contractText(contract))),
    ),
    summary,
    h("div.team-entries", entries.map((e) => e.element)),
    h("div.button-row", previewButton, storeButton, cancelButton),
    previewBox,
  );

  function readTeams() {
    return entries.map((e) => e.read());
  }

  function invalidate() {
    if (!state.previewed) return;
    state.previewed = null;
    storeButton.disabled = true;
    previewBox.classList.add("stale");
    const note = previewBox.querySelector(".stale-note");
    if (note) note.hidden = false;
  }
  form.addEventListener("input", invalidate);
  form.addEventListener("change", invalidate);

  async function preview() {
    clearErrors(form);
    let teams;
    try {
      teams = readTeams();
    } catch (err) {
      showProblem(form, err, { title: "Check these entries" });
      return null;
    }
    const body = { preset: game.preset, rules: game.house_rules || {}, round: number, teams };
    previewButton.disabled = true;
    try {
      const { data } = await api("POST", "/v1/rounds/score", { body });
      state.previewed = JSON.stringify(teams);
      previewBox.classList.remove("stale");
      previewBox.replaceChildren(
        h("h3.preview-title", `Round ${number} as it will be stored`),
        h("p.stale-note", { hidden: true }, "Changed since this preview: preview again before storing."),
        h("div.breakdowns", data.teams.map((b, i) => breakdownTable(b, i))),
      );
      storeButton.disabled = false;
      return teams;
    } catch (err) {
      previewBox.replaceChildren();
      storeButton.disabled = true;
      if (err instanceof ProblemError && (err.status === 422 || err.status === 400)) showProblem(form, err);
      else failure(err);
      return null;
    } finally {
      previewButton.disabled = false;
    }
  }

  async function store() {
    let teams;
    try {
      teams = readTeams();
    } catch (err) {
      showProblem(form, err, { title: "Check these entries" });
      return;
    }
    if (state.previewed !== JSON.stringify(teams)) {
      teams = await preview();
      if (!teams) return;
    }
    storeButton.disabled = true;
    try {
      if (editing) {
        const { data: round } = await api("PUT", `/v1/games/${game.id}/rounds/${number}`, {
          body: { teams },
          headers: { "If-Match": editing.etag },
        });
        say(`Round ${number} corrected (revision ${round.revision}). The earlier version stays in its history.`);
      } else {
        const body = { round: number, teams };
        if (!state.idempotency || !same(state.idempotency.body, body)) state.idempotency = { body, key: newIdempotencyKey() };
        await api("POST", `/v1/games/${game.id}/rounds`, { body, headers: { "Idempotency-Key": `"${state.idempotency.key}"` } });
        say(`Round ${number} stored.`);
      }
      await reload();
      const standing = view.querySelector(".standing");
      if (standing) standing.scrollIntoView({ block: "nearest" });
    } catch (err) {
      storeButton.disabled = false;
      if (err instanceof ProblemError && err.status === 412) {
        say("This round was changed elsewhere since you opened it: it has been reloaded; make your correction again.", "error");
        await correct(number, { keepNotice: true });
      } else if (err instanceof ProblemError && [400, 409, 422, 428].includes(err.status)) {
        showProblem(form, err, { title: err.status === 409 ? "Not stored" : "Not stored: the rules say no" });
      } else failure(err);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    preview().catch(failure);
  });
  storeButton.addEventListener("click", () => store().catch(failure));
  return h("section.card.entry-card", { class: editing ? "card entry-card correcting" : "card entry-card" }, form);
}
