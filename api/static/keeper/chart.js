// The running totals of a game as an SVG line chart, drawn here (no library, nothing fetched).

import { points, svg } from "./dom.js";

/** Team colours (distinct for common colour blindness) and dash patterns, so lines differ without colour too. */
export const TEAM_COLOURS = ["#1d4e89", "#c2410c", "#15803d", "#7e22ce"];
const DASHES = ["", "8 4", "2 4", "12 4 2 4"];

const WIDTH = 640;
const HEIGHT = 300;
// Room for the labels at the phone size of views/game.css (24 units, drawn at about half scale).
const PAD = { left: 96, right: 16, top: 16, bottom: 60 };

function niceStep(range) {
  const rough = range / 5;
  const power = 10 ** Math.floor(Math.log10(rough || 1));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

/**
 * teams: ["Us", "Them"]; rows: [{round, totals: [..]}] in round order. The chart starts at 0 before
 * round 1. Returns an <svg> with a title and description for screen readers.
 */
export function runningTotalsChart(teams, rows) {
  const series = teams.map((_, i) => [0, ...rows.map((r) => r.totals[i])]);
  const all = series.flat();
  let lo = Math.min(0, ...all);
  let hi = Math.max(0, ...all);
  if (hi === lo) hi = lo + 1000;
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const n = Math.max(rows.length, 1);
  const x = (i) => PAD.left + ((WIDTH - PAD.left - PAD.right) * i) / n;
  const y = (v) => PAD.top + ((HEIGHT - PAD.top - PAD.bottom) * (hi - v)) / (hi - lo);

  const description = teams
    .map((name, i) => `${name}: ${series[i].slice(1).map(points).join(", ") || "no rounds yet"}`)
    .join("; ");
  const grid = [];
  for (let v = lo; v <= hi + step / 2; v += step) {
    grid.push(
      svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }),
      svg("text", { x: PAD.left - 8, y: y(v) + 4, "text-anchor": "end", class: "tick" }, points(v)),
    );
  }
  const xTicks = [];
  for (let i = 0; i <= n; i += 1) {
    xTicks.push(svg("text", { x: x(i), y: HEIGHT - PAD.bottom + 26, "text-anchor": "middle", class: "tick" }, i === 0 ? "start" : String(i)));
  }
  const lines = series.map((values, t) =>
    svg(
      "g",
      { class: `series series-${t % TEAM_COLOURS.length}`, "data-team": teams[t] },
      svg("polyline", {
        points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "),
        fill: "none",
        stroke: TEAM_COLOURS[t % TEAM_COLOURS.length],
        "stroke-width": 3,
        "stroke-dasharray": DASHES[t % DASHES.length] || null,
        "stroke-linejoin": "round",
      }),
      values.map((v, i) =>
        svg(
          "circle",
          { cx: x(i), cy: y(v), r: 4, fill: TEAM_COLOURS[t % TEAM_COLOURS.length] },
          svg("title", {}, `${teams[t]}, ${i === 0 ? "start" : `after round ${i}`}: ${points(v)}`),
        ),
      ),
    ),
  );
  return svg(
    "svg",
    {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: "img",
      "aria-labelledby": "chart-title chart-desc",
      class: "chart",
      preserveAspectRatio: "xMidYMid meet",
    },
    svg("title", { id: "chart-title" }, "Running totals by round"),
    svg("desc", { id: "chart-desc" }, description),
    grid,
    xTicks,
    svg("text", { x: (PAD.left + WIDTH - PAD.right) / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "axis-label" }, "round"),
    lines,
  );
}
