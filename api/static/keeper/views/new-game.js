// The new-game view (#/new): the sides' (and players') names and a preset first; every rule value
// behind "House rules" (collapsed, searchable, the values that differ from the preset marked).
// Starting the game is POST /v1/games with an Idempotency-Key.

import { ProblemError, api, newIdempotencyKey } from "../api.js";
import { clearErrors, field, h, nextId, showProblem } from "../dom.js";
import { listWords, plural, ruleWords, same } from "../format.js";
import { failure, render, setFlash } from "../page.js";
import { presetDetail, presetList, presetName, rulesSchema } from "../presets.js";
import { provenanceBadge, ruleEditor } from "./rule-editor.js";

/** The headings of the rule groups (each preset field's `group`). */
const GROUP_LABELS = {
  sides: "Sides and players",
  deal: "Deal",
  game: "Length of a game and ties",
  card_values: "Card values",
  melds: "Melds and books",
  bonuses: "Bonuses",
  red_threes: "Red threes",
  opening: "Opening meld",
  going_out: "Going out",
  discard_pile: "Drawing and the discard pile",
};

/** Side `i`'s name when none is typed: two sides are "Us" and "Them", as on a paper score sheet;
 * more are "Team 3", "Team 4" ... (all of them "Team N" when there are more than two). */
function defaultSideName(i, count) {
  if (count === 2) return i === 0 ? "Us" : "Them";
  return `Team ${i + 1}`;
}

/** Show the form (preset Pagat first); on success go to the new game's scoreboard. */
export async function showNewGame() {
  render(h("h1", "New game"), h("p.loading", "Loading presets…"));
  const [presets, schema] = await Promise.all([presetList(), rulesSchema()]);
  const state = {
    preset: null,
    editors: new Map(),
    teams: [
      { name: "", players: ["", ""] },
      { name: "", players: ["", ""] },
      { name: "", players: ["", ""] },
      { name: "", players: ["", ""] },
    ],
    teamCount: 2,
    idempotency: null,
  };

  const presetSelect = h(
    "select",
    { name: "preset", id: "preset" },
    presets.map((p) => h("option", { value: p.id, selected: p.id === "pagat" }, p.name)),
  );
  const presetSummary = h("p.preset-summary", { id: "preset-summary", "aria-live": "polite" });
  presetSelect.setAttribute("aria-describedby", presetSummary.id);
  const filledNote = h("p.filled-note");
  const changedNote = h("p.changed-note", { "aria-live": "polite" });
  const rulesBox = h("div.rule-groups");
  const ruleSearch = h("input", { type: "search", id: "rule-search", autocomplete: "off", spellcheck: "false", placeholder: "e.g. wild, bonus, opening" });
  const onlyChanged = h("input", { type: "checkbox", id: "only-changed" });
  const searchNote = h("p.hint.search-note", { "aria-live": "polite" });
  const resetButton = h("button.secondary", { type: "button" }, "Reset to the preset's values");
  const teamsBox = h("div.team-setup");
  const teamCountSelect = h("select", { name: "team_count", id: "team-count" });
  const nameInput = h("input", {
    type: "text",
    name: "name",
    id: "game-name",
    autocomplete: "off",
    value: new Date().toLocaleDateString("en-US", { weekday: "long", month: "short", day: "numeric" }),
  });
  const summary = h("div.error-summary", { role: "alert", tabindex: "-1", hidden: true });

  function sideRule(name) {
    const editor = state.editors.get(name);
    const value = editor ? editor.read() : state.preset.rules[name];
    return Number.isInteger(value) ? value : state.preset.rules[name];
  }

  function overrides() {
    const result = {};
    for (const f of state.preset.fields) {
      const editor = state.editors.get(f.name);
      if (!editor) continue;
      const value = editor.read();
      if (!same(value, f.value)) result[f.name] = value;
    }
    return result;
  }

  function updateChanged() {
    const changed = overrides();
    for (const row of rulesBox.querySelectorAll(".rule-row")) {
      const isChanged = row.dataset.rule in changed;
      row.classList.toggle("changed", isChanged);
      row.querySelector(".house-tag").hidden = !isChanged;
    }
    const n = Object.keys(changed).length;
    changedNote.textContent = n
      ? `House rules: ${plural(n, "value")} changed from ${state.preset.name} (${Object.keys(changed).map(ruleWords).join(", ")}).`
      : `No house rules: ${state.preset.name} as published.`;
    resetButton.disabled = n === 0;
    rulesTitle.textContent = n ? `House rules (${plural(n, "change")})` : "House rules";
    filterRules();
  }

  /** Show the rule rows the search words match (in the description or the rule's name), or only the changed ones. */
  function filterRules() {
    const words = ruleSearch.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const group of rulesBox.querySelectorAll(".rule-group")) {
      let inGroup = 0;
      for (const row of group.querySelectorAll(".rule-row")) {
        const text = `${row.dataset.label} ${row.dataset.rule}`.toLowerCase();
        const match = words.every((w) => text.includes(w)) && (!onlyChanged.checked || row.classList.contains("changed"));
        row.hidden = !match;
        if (match) inGroup += 1;
      }
      group.hidden = inGroup === 0;
      shown += inGroup;
    }
    const total = rulesBox.querySelectorAll(".rule-row").length;
    searchNote.textContent = shown === total ? `${plural(total, "rule value")}.` : `${shown} of ${plural(total, "rule value")} shown.`;
  }

  function renderRules() {
    state.editors.clear();
    const groups = new Map();
    for (const f of state.preset.fields) {
      if (!groups.has(f.group)) groups.set(f.group, []);
      groups.get(f.group).push(f);
    }
    const filled = state.preset.fields.filter((f) => f.provenance && f.provenance.kind === "filled");
    filledNote.replaceChildren(
      filled.length
        ? `${plural(filled.length, "value")} ${filled.length === 1 ? "is" : "are"} not stated by ${state.preset.name}'s source. They are filled from ${listWords([
            ...new Set(filled.map((f) => presetName(f.provenance.source))),
          ])} so the preset still works, and marked “Filled from” below.`
        : `Every value below is given by ${state.preset.name}'s source or follows from it.`,
    );
    rulesBox.replaceChildren(
      ...[...groups].map(([group, list]) =>
        h(
          "fieldset.rule-group",
          { dataset: { group } },
          h("legend", GROUP_LABELS[group] || group),
          list.map((f) => {
            const editor = ruleEditor(f, schema[f.name]);
            state.editors.set(f.name, editor);
            const control = editor.control;
            control.id = control.id || nextId("rule");
            const labelEl = control.matches("input, select, textarea")
              ? h("label", { for: control.id }, f.description)
              : h("span.label", { id: `${control.id}-label` }, f.description);
            if (!control.matches("input, select, textarea")) control.setAttribute("aria-labelledby", `${control.id}-label`);
            return h(
              "div.rule-row",
              {
                dataset: { rule: f.name, pointer: `/rules/${f.name}`, label: f.description, provenance: f.provenance ? f.provenance.kind : "" },
                class: `rule-row${f.provenance && f.provenance.kind === "filled" ? " is-filled" : ""}`,
              },
              labelEl,
              h("div.rule-value", control, provenanceBadge(f.provenance), h("span.badge.house-tag", { hidden: true }, "house rule")),
            );
          }),
        ),
      ),
    );
    updateChanged();
  }

  function syncTeamCount() {
    const lo = Math.max(2, sideRule("teams_min"));
    const hi = Math.max(lo, Math.min(4, sideRule("teams_max")));
    state.teamCount = Math.min(Math.max(state.teamCount, lo), hi);
    const options = [];
    for (let n = lo; n <= hi; n += 1) options.push(h("option", { value: String(n), selected: n === state.teamCount }, String(n)));
    teamCountSelect.replaceChildren(...options);
  }

  function renderTeams() {
    syncTeamCount();
    const minPlayers = Math.max(1, sideRule("players_per_team_min"));
    const maxPlayers = Math.max(minPlayers, sideRule("players_per_team_max"));
    const alone = maxPlayers === 1;
    const boxes = [];
    for (let i = 0; i < state.teamCount; i += 1) {
      const team = state.teams[i];
      while (team.players.length < minPlayers) team.players.push("");
      if (team.players.length > maxPlayers) team.players.length = maxPlayers;
      if (alone) {
        const input = h("input", { type: "text", name: `teams.${i}.name`, value: team.name, autocomplete: "off", placeholder: `Player ${i + 1}` });
        input.addEventListener("input", () => {
          team.name = input.value;
        });
        boxes.push(
          h(
            "fieldset.team-box",
            { dataset: { pointer: `/teams/${i}`, label: `Player ${i + 1}` } },
            h("legend", `Player ${i + 1}`),
            field("Name", input, { pointer: `/teams/${i}/name` }),
          ),
        );
        continue;
      }
      const fallback = defaultSideName(i, state.teamCount);
      const teamInput = h("input", { type: "text", name: `teams.${i}.name`, value: team.name, autocomplete: "off", placeholder: fallback });
      teamInput.addEventListener("input", () => {
        team.name = teamInput.value;
        legend.textContent = team.name || fallback;
      });
      const legend = h("legend", team.name || fallback);
      const players = team.players.map((p, j) => {
        const input = h("input", { type: "text", name: `teams.${i}.players.${j}`, value: p, autocomplete: "off", placeholder: `Player ${j + 1}` });
        input.addEventListener("input", () => {
          team.players[j] = input.value;
        });
        return field(`Player ${j + 1}`, input, { pointer: `/teams/${i}/players/${j}` });
      });
      const buttons = [];
      if (team.players.length < maxPlayers) {
        buttons.push(
          h(
            "button.secondary",
            {
              type: "button",
              onclick: () => {
                team.players.push("");
                renderTeams();
              },
            },
            `Add a player to team ${i + 1}`,
          ),
        );
      }
      if (team.players.length > minPlayers) {
        buttons.push(
          h(
            "button.secondary",
            {
              type: "button",
              onclick: () => {
                team.players.pop();
                renderTeams();
              },
            },
            `Remove the last player of team ${i + 1}`,
          ),
        );
      }
      boxes.push(
        h(
          "fieldset.team-box",
          { dataset: { pointer: `/teams/${i}`, label: `Team ${i + 1}` }, style: null },
          legend,
          field("Team name", teamInput, { pointer: `/teams/${i}/name` }),
          h("div.players", { dataset: { pointer: `/teams/${i}/players` } }, players),
          buttons.length ? h("div.button-row", buttons) : null,
        ),
      );
      boxes[boxes.length - 1].classList.add(`team-colour-${i}`);
    }
    teamsBox.replaceChildren(...boxes);
  }

  async function choosePreset(id) {
    state.preset = await presetDetail(id);
    // The source is named here, not in the menu: its options stay short on a phone (issue 31).
    const source = (presets.find((p) => p.id === id) || {}).source;
    presetSummary.textContent = source ? `${state.preset.summary} Source: ${source}.` : state.preset.summary;
    clearErrors(form);
    renderRules();
    renderTeams();
  }

  presetSelect.addEventListener("change", () => choosePreset(presetSelect.value).catch(failure));
  teamCountSelect.addEventListener("change", () => {
    state.teamCount = Number(teamCountSelect.value);
    renderTeams();
  });
  rulesBox.addEventListener("input", () => {
    updateChanged();
  });
  rulesBox.addEventListener("change", (event) => {
    updateChanged();
    if (event.target.name && /^(teams_|players_per_team_)/.test(event.target.name)) renderTeams();
  });
  resetButton.addEventListener("click", () => renderRules());
  ruleSearch.addEventListener("input", filterRules);
  onlyChanged.addEventListener("change", filterRules);
  const rulesTitle = h("span", "House rules");

  const submit = h("button.primary.big", { type: "submit" }, "Start the game");
  const form = h(
    "form.new-game",
    { novalidate: true, "aria-labelledby": "new-game-title" },
    summary,
    h(
      "section.card",
      { "aria-labelledby": "teams-title" },
      h("h2", { id: "teams-title" }, "Who is playing"),
      field("Number of sides", teamCountSelect),
      teamsBox,
    ),
    h(
      "section.card",
      { "aria-labelledby": "rules-title" },
      h("h2", { id: "rules-title" }, "Rules"),
      field("Preset", presetSelect, { pointer: "/preset" }),
      presetSummary,
      field("Name of the game", nameInput, { pointer: "/name" }),
      h(
        "details.rules-details",
        h("summary", rulesTitle),
        h("p.hint", "Change any value to play it as a house rule. Values the source does not state are marked."),
        filledNote,
        changedNote,
        h("div.rule-search", field("Find a rule", ruleSearch), h("label.choice", onlyChanged, " Only the values that differ from the preset"), searchNote),
        resetButton,
        rulesBox,
      ),
    ),
    h("div.button-row", submit),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const alone = Math.max(1, sideRule("players_per_team_max")) === 1;
    const teams = state.teams.slice(0, state.teamCount).map((t, i) => {
      const name = t.name.trim() || (alone ? `Player ${i + 1}` : defaultSideName(i, state.teamCount));
      if (alone) return { name, players: [name] };
      return { name, players: t.players.map((p, j) => p.trim() || `${name} player ${j + 1}`) };
    });
    const body = { name: nameInput.value.trim(), preset: state.preset.id, teams };
    const rules = overrides();
    if (Object.keys(rules).length) body.rules = rules;
    if (!state.idempotency || !same(state.idempotency.body, body)) state.idempotency = { body, key: newIdempotencyKey() };
    submit.disabled = true;
    try {
      const { data: game } = await api("POST", "/v1/games", { body, headers: { "Idempotency-Key": `"${state.idempotency.key}"` } });
      setFlash(`Game “${game.name}” started.`);
      location.hash = `#/games/${game.id}`;
    } catch (err) {
      if (err instanceof ProblemError && (err.status === 422 || err.status === 400 || err.status === 409)) {
        showProblem(form, err, { title: "The game was not started" });
      } else failure(err);
    } finally {
      submit.disabled = false;
    }
  });

  render(h("h1", { id: "new-game-title" }, "New game"), form);
  await choosePreset(presetSelect.value);
}
