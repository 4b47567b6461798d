// The score keeper page: games list, new game (preset + house rules + teams), and a game played
// round by round. Everything goes through this server's API (see docs/games-api.md).

import { ProblemError, api, getApiKey, newIdempotencyKey, pagination, setApiKey } from "./api.js";
import { TEAM_COLOURS, runningTotalsChart } from "./chart.js";
import { clearErrors, field, h, nextId, numberInput, points, readNumber, showProblem } from "./dom.js";

const view = document.getElementById("view");
const notice = document.getElementById("notice");
const cache = { presets: null, details: new Map(), rulesSchema: undefined };
let flash = null; // a message to say once the next view is shown

// ---- small things --------------------------------------------------------------------------------

function say(message, kind = "info") {
  notice.textContent = message;
  notice.dataset.kind = kind;
  notice.hidden = !message;
}

function render(...children) {
  view.replaceChildren(...children.flat().filter(Boolean));
  const heading = view.querySelector("h1");
  if (heading) {
    heading.tabIndex = -1;
    if (document.activeElement === document.body || !view.contains(document.activeElement)) heading.focus();
  }
}

/** A failure outside a form: said at the top; a 401 opens the API key box. */
function failure(err) {
  if (err instanceof ProblemError && err.status === 401) {
    const box = document.getElementById("api-key-box");
    box.open = true;
    document.getElementById("api-key").focus();
    say(`This server needs an API key: enter it under "API key". (${err.message})`, "error");
    return;
  }
  say(err instanceof ProblemError ? err.message : `Something went wrong: ${err.message}`, "error");
  if (!(err instanceof ProblemError)) console.error(err);
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function contractText(contract) {
  if (!contract) return "none";
  const parts = [];
  if (contract.clean_books) parts.push(`${contract.clean_books} clean`);
  if (contract.dirty_books) parts.push(`${contract.dirty_books} dirty`);
  if (contract.wild_books) parts.push(`${contract.wild_books} wild`);
  if (!parts.length) return "no books needed";
  const total = (contract.clean_books || 0) + (contract.dirty_books || 0) + (contract.wild_books || 0);
  return `${listWords(parts)} ${total === 1 ? "book" : "books"}`;
}

function slug(text) {
  return (
    String(text)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "game"
  );
}

async function presetList() {
  if (!cache.presets) cache.presets = (await api("GET", "/v1/presets")).data;
  return cache.presets;
}

async function presetDetail(id) {
  if (!cache.details.has(id)) cache.details.set(id, (await api("GET", `/v1/presets/${encodeURIComponent(id)}`)).data);
  return cache.details.get(id);
}

function presetName(id) {
  const found = (cache.presets || []).find((p) => p.id === id);
  return found ? found.name : id;
}

/** The Rules schema's properties from the served OpenAPI document: types and choices for the editor. */
async function rulesSchema() {
  if (cache.rulesSchema === undefined) {
    try {
      const spec = (await api("GET", "/openapi.json")).data;
      cache.rulesSchema = spec.components.schemas.Rules.properties || {};
    } catch {
      cache.rulesSchema = {};
    }
  }
  return cache.rulesSchema;
}

// ---- routing ---------------------------------------------------------------------------------------

async function route() {
  const hash = location.hash || "#/games";
  const [path, queryText = ""] = hash.slice(1).split("?");
  const query = new URLSearchParams(queryText);
  say(flash || "");
  flash = null;
  for (const link of document.querySelectorAll("[data-nav]")) {
    const current = (link.dataset.nav === "new" && path === "/new") || (link.dataset.nav === "games" && path === "/games");
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  try {
    const game = /^\/games\/(\d+)$/.exec(path);
    if (game) await showGame(Number(game[1]));
    else if (path === "/new") await showNewGame();
    else await showGames(query);
  } catch (err) {
    render(h("h1", "Something went wrong"), h("p.error-text", err.message), h("p", h("a", { href: "#/games" }, "Back to the games")));
    failure(err);
  }
}

// ---- games list ----------------------------------------------------------------------------------

const STATUS_WORDS = { in_progress: "In progress", tiebreaker: "Tiebreaker", finished: "Finished" };

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

async function showGames(query) {
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

// ---- new game: preset, house rules, teams ------------------------------------------------------------

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
  discard_pile: "Discard pile",
};

const KIND_WORDS = {
  seed: "stated by",
  option: "default option of",
  reported: "reported by",
  derived: "follows from the stated values",
  decision: "our reading",
  default: "not used by this source",
};

function provenanceBadge(prov) {
  if (!prov) return null;
  if (prov.kind === "filled") {
    return h("span.badge.filled", { title: prov.note || "" }, `Filled from ${presetName(prov.source)}`);
  }
  const words = KIND_WORDS[prov.kind] || prov.kind;
  const source = prov.kind === "derived" || prov.kind === "default" ? "" : ` ${prov.source}`;
  return h(`span.prov.prov-${prov.kind}`, { title: prov.note || "" }, `${words}${source}`);
}

/** An input for one rule value; returns {control, read}. Types and choices come from the OpenAPI schema. */
function ruleEditor(ruleField, prop = {}) {
  const value = ruleField.value;
  const types = [].concat(prop.type || []);
  const name = ruleField.name;
  if (prop.enum || (typeof value === "string" && !types.length)) {
    const choices = prop.enum || [value];
    const control = h("select", { name }, choices.map((c) => h("option", { value: c, selected: c === value }, c)));
    return { control, read: () => control.value };
  }
  if (typeof value === "boolean" || types.includes("boolean")) {
    const control = h("input", { type: "checkbox", name, checked: Boolean(value) });
    return { control, read: () => control.checked };
  }
  if (typeof value === "number" || types.includes("integer")) {
    const nullable = types.includes("null");
    const signed = typeof prop.minimum !== "number" || prop.minimum < 0 || value < 0;
    const control = numberInput(name, value, { signed, placeholder: nullable ? "none" : undefined });
    return {
      control,
      read: () => {
        const text = control.value.trim();
        if (text === "") return nullable ? null : "";
        return readNumber(text);
      },
    };
  }
  const intList =
    Array.isArray(value) && (prop.items ? prop.items.type === "integer" : value.length > 0 && value.every(Number.isInteger));
  if (intList) {
    const control = h("input", { type: "text", name, value: value.join(", "), inputmode: "text", autocomplete: "off", placeholder: "none" });
    return {
      control,
      read: () =>
        control.value
          .split(/[\s,;]+/)
          .filter(Boolean)
          .map((t) => readNumber(t)),
    };
  }
  if (value && typeof value === "object" && !Array.isArray(value) && "clean_books" in value) {
    const inputs = ["clean_books", "dirty_books", "wild_books"].map((k) => [k, numberInput(`${name}.${k}`, value[k])]);
    const control = h(
      "div.contract-editor",
      { role: "group" },
      inputs.map(([k, input]) => {
        input.setAttribute("aria-label", `${k.split("_")[0]} books`);
        return h("label.mini", input, ` ${k.split("_")[0]}`);
      }),
    );
    return {
      control,
      read: () => Object.fromEntries(inputs.map(([k, input]) => [k, readNumber(input.value)])),
    };
  }
  const control = h("input", { type: "text", name, value: JSON.stringify(value), autocomplete: "off", spellcheck: "false" });
  return {
    control,
    read: () => {
      try {
        return JSON.parse(control.value);
      } catch {
        return control.value;
      }
    },
  };
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function showNewGame() {
  render(h("h1", "New game"), h("p.loading", "Loading presets…"));
  const [presets, schema] = await Promise.all([presetList(), rulesSchema()]);
  const state = {
    preset: null,
    editors: new Map(),
    teams: [
      { name: "Team 1", players: ["", ""] },
      { name: "Team 2", players: ["", ""] },
      { name: "Team 3", players: ["", ""] },
      { name: "Team 4", players: ["", ""] },
    ],
    teamCount: 2,
    idempotency: null,
  };

  const presetSelect = h(
    "select",
    { name: "preset", id: "preset" },
    presets.map((p) => h("option", { value: p.id, selected: p.id === "pagat" }, `${p.name} (${p.source})`)),
  );
  const presetSummary = h("p.preset-summary", { id: "preset-summary", "aria-live": "polite" });
  presetSelect.setAttribute("aria-describedby", presetSummary.id);
  const filledNote = h("p.filled-note");
  const changedNote = h("p.changed-note", { "aria-live": "polite" });
  const rulesBox = h("div.rule-groups");
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
      ? `House rules: ${plural(n, "value")} changed from ${state.preset.name} (${Object.keys(changed).join(", ")}).`
      : `No house rules: ${state.preset.name} as published.`;
    resetButton.disabled = n === 0;
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
              ? h("label", { for: control.id }, f.description, " ", h("code", f.name))
              : h("span.label", { id: `${control.id}-label` }, f.description, " ", h("code", f.name));
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
        const input = h("input", { type: "text", name: `teams.${i}.name`, value: team.name, autocomplete: "off" });
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
      const teamInput = h("input", { type: "text", name: `teams.${i}.name`, value: team.name, autocomplete: "off" });
      teamInput.addEventListener("input", () => {
        team.name = teamInput.value;
        legend.textContent = team.name || `Team ${i + 1}`;
      });
      const legend = h("legend", team.name || `Team ${i + 1}`);
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
    presetSummary.textContent = state.preset.summary;
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

  const submit = h("button.primary.big", { type: "submit" }, "Start the game");
  const form = h(
    "form.new-game",
    { novalidate: true, "aria-labelledby": "new-game-title" },
    summary,
    h(
      "section.card",
      { "aria-labelledby": "rules-title" },
      h("h2", { id: "rules-title" }, "1. Rules"),
      field("Preset", presetSelect, { pointer: "/preset" }),
      presetSummary,
      h(
        "details.rules-details",
        { open: true },
        h("summary", "Every value of this preset, and your house rules"),
        h("p.hint", "Change any value to play it as a house rule. Values not stated by the source are marked."),
        filledNote,
        changedNote,
        resetButton,
        rulesBox,
      ),
    ),
    h(
      "section.card",
      { "aria-labelledby": "teams-title" },
      h("h2", { id: "teams-title" }, "2. Teams and players"),
      field("Name of the game", nameInput, { pointer: "/name" }),
      field("Number of teams", teamCountSelect),
      teamsBox,
    ),
    h("div.button-row", submit),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const alone = Math.max(1, sideRule("players_per_team_max")) === 1;
    const teams = state.teams.slice(0, state.teamCount).map((t, i) => {
      const name = t.name.trim() || `Team ${i + 1}`;
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
      flash = `Game “${game.name}” started.`;
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

// ---- one game ----------------------------------------------------------------------------------------

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

function tallyFieldShown(key, rules) {
  if (key === "wild_books") return rules.all_wild_melds !== false || (rules.contract && rules.contract.wild_books > 0);
  if (key === "red_threes_on_table") return rules.red_threes_laid_out !== false;
  if (key === "burn_points") return rules.after_book === "burn";
  if (key === "perfect_cuts") return Boolean(rules.perfect_cut_bonus);
  return true;
}

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
    let value;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      throw localProblem(pointer, "bad_json", `This is not valid JSON (${e.message}). Write cards like 10H QS JK, or a JSON list.`);
    }
    return Array.isArray(value) ? value.flat(Infinity).map(String) : value;
  }
  return trimmed.split(/[\s,;]+/).filter(Boolean);
}

/** One meld per line ("KS KH KD"), or JSON ([["KS","KH","KD"], ...]). */
function parseMelds(text, pointer) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith("[")) {
    let value;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      throw localProblem(pointer, "bad_json", `This is not valid JSON (${e.message}). Write one meld per line, like KS KH KD.`);
    }
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return [value];
    return value;
  }
  return trimmed
    .split(/\n+/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => line.replace(/^\[|\]$/g, "").split(/[\s,;]+/).filter(Boolean));
}

function localProblem(pointer, code, detail) {
  return new ProblemError(422, { title: "Cannot read this", detail, errors: [{ pointer, code, detail }] });
}

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

async function showGame(id, { editing = null } = {}) {
  const { data: game } = await api("GET", `/v1/games/${id}`);
  await presetList().catch(() => null);
  renderGame(game, editing);
}

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
  const entry = game.next_round || editing ? roundEntry(game, editing) : null;
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

function roundEntry(game, editing) {
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
    ? h("button.secondary.big", { type: "button", onclick: () => showGame(game.id).catch(failure) }, "Cancel the correction")
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
      await showGame(game.id);
      const standing = view.querySelector(".standing");
      if (standing) standing.scrollIntoView({ block: "nearest" });
    } catch (err) {
      storeButton.disabled = false;
      if (err instanceof ProblemError && err.status === 412) {
        say("This round was changed elsewhere since you opened it: it has been reloaded; make your correction again.", "error");
        await startCorrection(game, number, { keepNotice: true });
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

async function startCorrection(game, number, { keepNotice = false } = {}) {
  const { data: round, response } = await api("GET", `/v1/games/${game.id}/rounds/${number}`);
  const etag = response.headers.get("ETag");
  const { data: fresh } = await api("GET", `/v1/games/${game.id}`);
  if (!keepNotice) say(`Correcting round ${number}: change the entries, preview, then save.`);
  renderGame(fresh, { number, etag, round });
}

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

setupApiKey();
window.addEventListener("hashchange", route);
route();

// Exposed for tests and the console: the colours match the chart's.
window.handfootKeeper = { TEAM_COLOURS };
