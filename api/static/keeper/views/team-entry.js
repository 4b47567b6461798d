// One side's part of a round entry: its counts with steppers (+/-), its card points typed, whether
// it went out, or its cards pasted (melds, red threes, what is left in each hand and foot). It reads
// back as the side's member of POST /v1/rounds/score's `teams`; the API does every sum.

import { ProblemError } from "../api.js";
import { field, h, nextId, numberInput, readNumber } from "../dom.js";

/** A side's tally as POST /v1/rounds/score takes it: [key, label, hint, kind], in the order shown. A
 * "count" gets steppers; "points" are card values, typed. */
export const TALLY_FIELDS = [
  ["clean_books", "Clean books", null, "count"],
  ["dirty_books", "Dirty books", null, "count"],
  ["wild_books", "Wild books", null, "count"],
  ["red_threes_on_table", "Red threes on the table", null, "count"],
  ["red_threes_caught", "Red threes caught", "in a hand or foot", "count"],
  ["perfect_cuts", "Perfect cuts", null, "count"],
  ["cuts_within_1", "Cuts one card off", null, "count"],
  ["cuts_within_3", "Cuts two or three off", null, "count"],
  ["table_points", "Points on the table", "cards melded", "points"],
  ["points_left", "Points left", "in hands and feet", "points"],
  ["burn_points", "Burn pile points", null, "points"],
];

/** A rank as players name its books ("sevens"); rank 3 is black threes (rule rank_book_bonuses, D30). */
const RANK_NAMES = {
  3: "black threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights", 9: "nines", 10: "tens",
  J: "jacks", Q: "queens", K: "kings", A: "aces",
};

/** "7" → "sevens"; a rank not in the table as it is written. */
export function rankName(rank) {
  return RANK_NAMES[rank] || String(rank);
}

/** Whether a tally input applies under these rules (no wild books, red threes or burn pile where none are played). */
function tallyFieldShown(key, rules) {
  if (key === "wild_books") return rules.all_wild_melds !== false || (rules.contract && rules.contract.wild_books > 0);
  if (key === "red_threes_on_table") return rules.red_threes_laid_out !== false;
  if (key === "burn_points") return rules.after_book === "burn";
  if (key === "perfect_cuts") return Boolean(rules.perfect_cut_bonus);
  if (key === "cuts_within_1") return Boolean(rules.perfect_cut_within_1_bonus);
  if (key === "cuts_within_3") return Boolean(rules.perfect_cut_within_3_bonus);
  return true;
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

/** A count's input between a "−" and a "+" button; a tap changes it by one (never below 0) and
 * fires `input`, so the live breakdown follows. */
function stepper(input, what) {
  const step = (by) => {
    const n = Number(input.value) || 0;
    input.value = String(Math.max(0, (Number.isInteger(n) ? n : 0) + by));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const minus = h("button.step", { type: "button", "aria-label": `One fewer: ${what}`, onclick: () => step(-1) }, "\u2212");
  const plus = h("button.step", { type: "button", "aria-label": `One more: ${what}`, onclick: () => step(1) }, "+");
  return h("div.stepper", minus, input, plus);
}

/** The steppers of the books of each rank with a bonus of its own (rule rank_book_bonuses, D30): a
 * clean and a dirty count per rank, counted among the side's clean and dirty books too. `prior`: the
 * stored tally's rank_books. Returns null where the rules give no rank a bonus, else {element, read};
 * `read()` gives tally.rank_books, [{rank, clean_books, dirty_books}], only ranks with a count. */
function rankBookInputs(rules, prior, teamName, base) {
  const ranks = (rules.rank_book_bonuses || []).map((b) => String(b.rank));
  if (!ranks.length) return null;
  const pointer = `${base}/tally/rank_books`;
  const rows = ranks.map((rank) => {
    const was = (prior || []).find((r) => String(r.rank) === rank) || {};
    const name = rankName(rank);
    const inputs = ["clean_books", "dirty_books"].map((kind) => {
      const label = `${kind === "clean_books" ? "Clean" : "Dirty"} books of ${name}`;
      const input = numberInput(`${pointer}/${rank}/${kind}`, was[kind] ?? "", { placeholder: "0" });
      input.dataset.rankBook = rank;
      input.dataset.kind = kind;
      const f = field(label, input, { className: "tally-count" }); // errors go to the group: the API numbers only the ranks sent
      const slot = document.createComment("stepper");
      input.replaceWith(slot); // as for the other counts: the stepper takes the input's place
      slot.replaceWith(stepper(input, `${label.toLowerCase()}, ${teamName}`));
      f.dataset.label = `${teamName}, ${label.toLowerCase()}`;
      return { kind, input, field: f };
    });
    const legend = `Books of ${name}`;
    return {
      rank,
      inputs,
      element: h("fieldset.rank-books", { dataset: { rank } }, h("legend", legend), inputs.map((i) => i.field)),
    };
  });
  const element = h(
    "div.rank-books-group",
    { dataset: { pointer, label: `${teamName}, books of a rank with its own bonus` } },
    h("p.hint", "Of those clean and dirty books, the ones of these ranks:"),
    rows.map((r) => r.element),
  );
  const read = () =>
    rows
      .map((r) => {
        const item = { rank: r.rank };
        for (const { kind, input } of r.inputs) item[kind] = readNumber(input.value, 0);
        return item;
      })
      .filter((item) => item.clean_books !== 0 || item.dirty_books !== 0);
  return { element, read };
}

/** The entry of side `index` for a round (`prior`: the stored round's member, when correcting):
 * returns {element, read}; `read()` gives the side's JSON or throws a ProblemError naming the input. */
export function teamEntry(game, index, prior) {
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
    TALLY_FIELDS.filter(([key]) => tallyFieldShown(key, rules)).map(([key, label, hint, kind]) => {
      const value = prior && prior.tally ? prior.tally[key] : "";
      const input = numberInput(key, value, { placeholder: "0" });
      input.dataset.tally = key;
      tallyInputs.set(key, input);
      const what = `${label.toLowerCase()}, ${team.name}`;
      const f = field(label, input, { hint, pointer: `${base}/tally/${key}`, className: `tally-${kind}` });
      if (kind === "count") {
        const slot = document.createComment("stepper");
        input.replaceWith(slot); // the stepper takes the input in, then takes its place
        slot.replaceWith(stepper(input, what));
      }
      else input.setAttribute("enterkeyhint", "next");
      f.dataset.label = `${team.name}, ${label.toLowerCase()}`;
      return f;
    }),
  );
  const rankBooks = rankBookInputs(rules, prior && prior.tally ? prior.tally.rank_books : null, team.name, base);
  // Beside the clean and dirty books they are counted in.
  if (rankBooks) tallyInputs.get("dirty_books").closest(".field").after(rankBooks.element);
  tallyPanel.dataset.pointer = `${base}/tally`;
  tallyPanel.dataset.label = `${team.name}, tallies`;

  const cardArea = (name, rows, placeholder) =>
    h("textarea", { name, rows: String(rows), spellcheck: "false", autocapitalize: "characters", placeholder });
  const meldsInput = cardArea(`${base}/melds`, 4, "KS KH KD KC KS KH KD\n4S 4H 2C");
  const redThreesInput = h("input", { type: "text", name: `${base}/red_threes`, spellcheck: "false", autocapitalize: "characters", placeholder: "3H 3D" });
  const burnInput = h("input", { type: "text", name: `${base}/burn`, spellcheck: "false", autocapitalize: "characters" });
  const priorPlayers = prior && prior.players ? prior.players : [];
  const playerRows = team.players.map((playerName, j) => {
    const was = priorPlayers.find((p) => p.name === playerName) || priorPlayers[j] || {};
    const hand = cardArea(`${base}/players/${j}/hand`, 2, "8S QD");
    hand.value = cardsText(was.hand);
    const footNever = h("input", { type: "checkbox", checked: Array.isArray(was.foot) });
    const foot = cardArea(`${base}/players/${j}/foot`, 2, "");
    foot.value = cardsText(was.foot);
    const footField = field(`${playerName}'s foot (counts whole)`, foot, { pointer: `${base}/players/${j}/foot` });
    footField.hidden = !footNever.checked;
    // Pagat's going-out rule asks whether each player played from the foot: yes, no, or not asked.
    const playedFromFoot = rules.going_out_needs_foot_play
      ? h(
          "select",
          { name: `${base}/players/${j}/played_from_foot` },
          [["", "Not asked"], ["true", "Yes"], ["false", "No"]].map(([value, text]) =>
            h("option", { value, selected: String(was.played_from_foot ?? "") === value }, text),
          ),
        )
      : null;
    const playedField = playedFromFoot
      ? field(`${playerName} played from the foot`, playedFromFoot, { pointer: `${base}/players/${j}/played_from_foot` })
      : null;
    if (playedField) playedField.hidden = footNever.checked;
    footNever.addEventListener("change", () => {
      footField.hidden = !footNever.checked;
      if (playedField) playedField.hidden = footNever.checked;
    });
    return {
      element: h(
        "fieldset.player-cards",
        { dataset: { pointer: `${base}/players/${j}`, label: `${team.name}, ${playerName}` } },
        h("legend", playerName),
        field(`Cards left in ${playerName}'s hand`, hand, { pointer: `${base}/players/${j}/hand` }),
        h("label.choice", footNever, ` ${playerName} never picked up the foot`),
        footField,
        playedField,
      ),
      read: () => {
        const p = { name: playerName, hand: parseCards(hand.value, `${base}/players/${j}/hand`) };
        if (footNever.checked) p.foot = parseCards(foot.value, `${base}/players/${j}/foot`);
        else if (playedFromFoot && playedFromFoot.value) p.played_from_foot = playedFromFoot.value === "true";
        return p;
      },
    };
  });
  // Perfect cuts in the cards form too, where the rules score them (refused elsewhere: not_in_rules).
  const cutsInput = rules.perfect_cut_bonus
    ? numberInput(`${base}/perfect_cuts`, prior && !prior.tally ? prior.perfect_cuts : "", { placeholder: "0" })
    : null;
  const cutsField = cutsInput ? field("Perfect cuts", cutsInput, { pointer: `${base}/perfect_cuts` }) : null;
  if (cutsInput) {
    const slot = document.createComment("stepper");
    cutsInput.replaceWith(slot); // as in the tally panel: the stepper takes the input's place
    slot.replaceWith(stepper(cutsInput, `perfect cuts, ${team.name}`));
  }
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
    cutsField,
    playerRows.map((p) => p.element),
  );

  const modeInputs = ["tally", "cards"].map((value) =>
    h("input", { type: "radio", name: modeName, value, checked: value === mode, id: nextId("mode") }),
  );
  const modeSwitch = h(
    "div.mode-switch",
    { role: "radiogroup", "aria-label": `How to enter ${team.name}'s round` },
    modeInputs.map((input) => h("label.choice.segment", { for: input.id }, input, input.value === "tally" ? "Counts" : "Cards")),
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
    h("legend", team.name, team.players.length > 1 || team.players[0] !== team.name ? h("span.players", ` (${team.players.join(", ")})`) : null),
    wentOutField,
    modeSwitch,
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
        else if (!["burn_points", "perfect_cuts", "cuts_within_1", "cuts_within_3"].includes(key)) out.tally[key] = 0;
      }
      if (rankBooks) out.tally.rank_books = rankBooks.read();
      return out;
    }
    out.melds = parseMelds(meldsInput.value, `${base}/melds`);
    out.red_threes = parseCards(redThreesInput.value, `${base}/red_threes`);
    if (rules.after_book === "burn") out.burn = parseCards(burnInput.value, `${base}/burn`);
    if (cutsInput) out.perfect_cuts = readNumber(cutsInput.value, 0);
    out.players = playerRows.map((p) => p.read());
    return out;
  }

  return { element, read };
}
