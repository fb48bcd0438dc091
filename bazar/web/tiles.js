// Dominoes drawn in SVG: a tile face up or down, a tile as an svg of its own, a row that wraps.
const NS = "http://www.w3.org/2000/svg";
// Where a half's pips sit, the half standing upright (UX.md §2): 0..9 on a 3x3 grid, 10..12 on
// a 3x4 one, as [x, y] in fractions of the half's side. A lying tile turns them with it.
const L = 0.22, C = 0.5, R = 0.78, T = 0.22, M = 0.5, B = 0.78;
const ROWS4 = [0.17, 0.39, 0.61, 0.83];
const SIX = [[L, T], [L, M], [L, B], [R, T], [R, M], [R, B]];
const PIPS = [
  [], [[C, M]], [[L, T], [R, B]], [[L, T], [C, M], [R, B]],
  [[L, T], [R, T], [L, B], [R, B]], [[L, T], [R, T], [C, M], [L, B], [R, B]],
  SIX, [...SIX, [C, M]], [...SIX, [C, T], [C, B]], [...SIX, [C, T], [C, M], [C, B]],
  [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, ROWS4[1]], [C, ROWS4[2]]],
  [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, 0.28], [C, 0.5], [C, 0.72]],
  ROWS4.flatMap((y) => [[L, y], [C, y], [R, y]]),
];
//: the gap between neighbouring tiles
export const GAP = 3;

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function label(parent, x, y, text, attrs = {}) {
  const node = el("text", { x, y, class: "label", ...attrs }, parent);
  node.textContent = text;
  return node;
}

// Whether the player asked for numerals on the tiles instead of pips (the table's toggle,
// kept in localStorage "bazar.digits" as "1").
export function digitsWanted() {
  try { return localStorage.getItem("bazar.digits") === "1"; } catch { return false; }
}

// One half of a tile at (x, y), side s, showing n: its pips (turned a quarter for a lying
// tile, so that a six's two columns become two rows) or, when asked, its numeral (a blank's
// too: "0", an empty half among numerals reads as a tile drawn wrong).
function half(g, x, y, s, n, lying, digits) {
  if (digits || !(n in PIPS)) {
    const text = el("text", { x: x + s / 2, y: y + s * 0.68, "text-anchor": "middle",
      "font-size": s * 0.55, class: "pip digit" }, g);
    text.textContent = n;
    return;
  }
  const r = s * (n > 9 ? 0.075 : 0.09);
  for (const [px, py] of PIPS[n]) {
    const [fx, fy] = lying ? [1 - py, px] : [px, py];
    el("circle", { cx: x + s * fx, cy: y + s * fy, r, class: "pip" }, g);
  }
}

// A tile with halves a (left or top) and b; s is the side of a half; digits draws numerals.
export function tile(parent, x, y, a, b, vertical, s = 30, cls = "", digits = false) {
  // named for a screen reader as players say it, "6–4"
  const g = el("g", { class: `tile ${cls}`, transform: `translate(${x},${y})`, role: "img",
    "aria-label": `${a}–${b}` }, parent);
  const w = vertical ? s : 2 * s, h = vertical ? 2 * s : s;
  el("rect", { x: 0, y: 0, width: w, height: h, rx: s * 0.15, class: "face" }, g);
  if (vertical) {
    el("line", { x1: 3, y1: s, x2: s - 3, y2: s }, g);
    half(g, 0, 0, s, a, false, digits); half(g, 0, s, s, b, false, digits);
  } else {
    el("line", { x1: s, y1: 3, x2: s, y2: s - 3 }, g);
    half(g, 0, 0, s, a, true, digits); half(g, s, 0, s, b, true, digits);
  }
  return g;
}

// A tile as an <svg> of its own (the hand, a list, a rules page): halves a and b, standing
// (vertical) or lying; size is the side of a half in px; digits: numerals instead of pips (the
// player's choice by default). a === null draws it face down.
export function tileSvg(a, b, { vertical = true, size = 30, cls = "", digits = digitsWanted() } = {}) {
  const w = vertical ? size : 2 * size, h = vertical ? 2 * size : size;
  const svg = el("svg", { class: `tile-svg ${cls}`, viewBox: `0 0 ${w} ${h}`, width: w, height: h,
    "aria-hidden": "true" });
  if (a === null) back(svg, 0, 0, vertical, size); else tile(svg, 0, 0, a, b, vertical, size, "", digits);
  return svg;
}

// A tile face down: nobody at the table may see it.
export function back(parent, x, y, vertical, s = 30) {
  const g = el("g", { class: "tile back", transform: `translate(${x},${y})` }, parent);
  el("rect", { x: 0, y: 0, width: vertical ? s : 2 * s, height: vertical ? 2 * s : s, rx: 4,
    class: "face" }, g);
  return g;
}

// [a, b] of "a-b", "a|b" or a double laid closed "#a|a#"; null for anything else.
export function parseTile(text) {
  const m = /^#?(\d+)[-|](\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

// Tiles laid end to end from (x, y), left to right, a double across; a row that would pass
// `right` goes on under the previous one from `indent`. An entry null is a tile face down.
// Each row is a band `band` high with its middle line `mid` below its top (by default
// room for a standing tile; a row of lying tiles only may ask for less). Returns each
// tile's box [x, y, w] (of its band), the point just after the last tile and the y under
// the last band.
export function row(parent, texts, x, y, { right, indent = x, s = 26, standing = false,
  digits = false, band = 2 * s + 8, mid = s } = {}) {
  let cx = x, cy = y;
  const boxes = [];
  for (const text of texts) {
    const pips = text === null ? null : parseTile(text);
    const across = standing || (pips !== null && pips[0] === pips[1]);
    const w = across ? s : 2 * s;
    if (cx + w > right && cx > indent) { cx = indent; cy += band; }
    const top = across ? cy + mid - s : cy + mid - s / 2;
    let g;
    if (pips === null) g = back(parent, cx, top, across, s);
    else g = tile(parent, cx, top, pips[0], pips[1], across, s, text.startsWith("#") ? "closed" : "", digits);
    if (text !== null) g.dataset.tile = text;
    boxes.push([cx, cy, w]);
    cx += w + GAP;
  }
  return { boxes, after: [cx, cy + mid], bottom: cy + band };
}
