// The board of every game family drawn in SVG, with the seats' tiles under it. One picture
// serves the table and the replay: a view (what a seat may know) and, where the whole deal is
// public, every hand. The layouts are drawn as players lay them (UX.md §3): the line snakes
// round the edges of the felt, the cross grows four arms from its spinner, trains run from the
// engine in lanes, a Chicken Foot branches out from its engine; whatever the game, the picture
// scales to the width it is given, never below a half tile of UMIN px: a board that would is
// drawn larger than its area, which scrolls (a tree that does not fit even when its chains turn
// at the margins pans sideways within its area; the page never does).
import { lang, t } from "./i18n.js";
import { GAP, back, digitsWanted, el, label, parseTile, row, tile } from "./tiles.js";

const G = 0.08; // the gap between neighbouring tiles, in halves of a tile (u)
const UMIN = 18; // the smallest half tile a layout shrinks to, in px: past it the board scrolls
const UMAX = 40; // the largest, where a short line has the felt to itself
const UDEFAULT = 28; // the largest without a height to fill
const PAD = 24; // the room round the layout, in px: a socket's hit area reaches into it
const PAD_NARROW = 12; // that room on a phone, where every px of the width counts
const SMALL = 20; // the side of a half tile in a seat's row
//: the seats' colours (a lane's chip), in turn order
const COLOURS = ["#e11d48", "#2563eb", "#16a34a", "#9333ea", "#0891b2", "#db2777", "#65a30d", "#ea580c"];

// How the board shows the seats' tiles, by the capability seat_rows of the view's rules
// (docs/protocol.md): null (each holds his own hand), "open" or "blind" (rows face down).
function seatRows(view) { return view.rules.capabilities.seat_rows; }

// The tile a move lays ("6-4:R", "close 2-2:L", "cut 5-3:1", "5-5"), or null.
export function tileOf(move) {
  const m = /(?:^|\s)(\d+-\d+)(?::|$)/.exec(move);
  return m ? m[1] : null;
}

// The end a move names ("6-4:R" -> "R", "6-1:3.1" -> "3.1"), or null.
export function endOf(move) {
  const i = move.indexOf(":");
  return i < 0 ? null : move.slice(i + 1);
}

// A tile's identity whatever the notation ("6|4", "4-6", "#4|4#" -> "6-4").
function keyOf(text) {
  const p = parseTile(text);
  if (!p) return null;
  const [a, b] = p;
  return a < b ? `${b}-${a}` : `${a}-${b}`;
}

// Where a box of things reaches: grown by each thing drawn, read for the viewBox.
class Extent {
  constructor() { this.x0 = Infinity; this.y0 = Infinity; this.x1 = -Infinity; this.y1 = -Infinity; }
  add(x0, y0, x1, y1) {
    this.x0 = Math.min(this.x0, x0); this.y0 = Math.min(this.y0, y0);
    this.x1 = Math.max(this.x1, x1); this.y1 = Math.max(this.y1, y1);
  }
  get empty() { return this.x0 > this.x1; }
  get w() { return this.x1 - this.x0; }
  get h() { return this.y1 - this.y0; }
}

// ---- chains laid tile by tile, in units of u ---------------------------------------------

// A tile of a chain: its text, the half toward where the chain starts (near), the other.
function link(text, nearFirst = true) {
  const [a, b] = parseTile(text);
  return { text, near: nearFirst ? a : b, far: nearFirst ? b : a, dbl: a === b };
}

// A tile placed with its near edge at `edge` along direction dir ("E", "W", "S", "N") on the
// line `line` (a y for E/W, an x for S/N): a double lies across, the others along. Returns the
// placement (x, y, whether it stands, its upper-or-left half first) and the next edge.
function place(lk, dir, edge, line) {
  const len = lk.dbl ? 1 : 2;
  const flat = dir === "E" || dir === "W";
  const sign = dir === "E" || dir === "S" ? 1 : -1;
  const lo = sign > 0 ? edge : edge - len; // the low coordinate along the line
  const standing = flat ? lk.dbl : !lk.dbl;
  const [w, h] = standing ? [1, 2] : [2, 1];
  const x = flat ? lo : line - w / 2, y = flat ? line - h / 2 : lo;
  // the half nearer the start comes first when the chain runs east or south
  const [first, second] = sign > 0 ? [lk.near, lk.far] : [lk.far, lk.near];
  const joint = flat ? [edge - sign * G / 2, line] : [line, edge - sign * G / 2];
  return { p: { text: lk.text, x, y, w, h, standing, first, second, joint }, edge: edge + sign * (len + G) };
}

// How far a placed tile reaches across its line on either side.
function halfAcross(p, flat) { return (flat ? p.h : p.w) / 2; }

// A chain laid in rows that run east (dir 1) or west (-1) and turn at lo/hi: the corner
// stands under (vdir 1) or over (-1) the row's last tile, and the row runs back. A double
// never takes a corner, nor the tile before one: the turn comes a tile earlier. Returns the
// placements and the spot of the chain's open end.
function snake(chain, { edge, line, dir, vdir, lo, hi }) {
  const out = [];
  const states = [];
  let rowStart = 0;
  for (let i = 0; i < chain.length; i++) {
    states[i] = { edge, line, dir, rowStart };
    const len = chain[i].dbl ? 1 : 2;
    const over = dir > 0 ? edge + len > hi : edge - len < lo;
    if (over && i > rowStart) {
      // the corner: this tile, or one or two earlier, that is no double and, where it can
      // be, follows none (a corner under a double stands off the row)
      const fits = (c, strict) => c > rowStart && !chain[c].dbl && (!strict || !chain[c - 1].dbl);
      const tries = [i, i - 1, i - 2];
      const c = tries.find((k) => fits(k, true)) ?? tries.find((k) => fits(k, false)) ?? i;
      out.length = c;
      ({ edge, line, dir, rowStart } = states[c]);
      i = c;
      const prev = out[c - 1];
      const far = edge - dir * G; // the row's far edge
      const x = dir > 0 ? far - 1 : far;
      const top = vdir > 0 ? line + halfAcross(prev, true) + G : line - halfAcross(prev, true) - G - 2;
      const lk = chain[c];
      const [first, second] = vdir > 0 ? [lk.near, lk.far] : [lk.far, lk.near];
      out.push({ text: lk.text, x, y: top, w: 1, h: 2, standing: true, first, second,
        joint: [x + 0.5, vdir > 0 ? top - G / 2 : top + 2 + G / 2] });
      line = vdir > 0 ? top + 1.5 : top + 0.5;
      edge = dir > 0 ? far - 1 - G : far + 1 + G;
      dir = -dir;
      rowStart = c + 1;
      continue;
    }
    const { p, edge: next } = place(chain[i], dir > 0 ? "E" : "W", edge, line);
    out.push(p);
    edge = next;
  }
  // the open end: where the next tile would lie, in the row or at its corner
  const last = out[out.length - 1];
  const fits = dir > 0 ? edge + 2 <= hi : edge - 2 >= lo;
  const spot = fits || !last ? [edge + dir * 0.6, line]
    : [edge - dir * (G + 0.5), line + vdir * (halfAcross(last, true) + G + 0.7)];
  return { placed: out, spot };
}

// A chain that runs north (dir -1) or south (1) from the spinner and, past `limit`, turns
// once toward `turn` (1 east, -1 west) and runs on.
function column(chain, { edge, dir, limit, turn }) {
  const out = [];
  let line = 0, flat = false, d = dir > 0 ? "S" : "N";
  for (const lk of chain) {
    const len = lk.dbl ? 1 : 2;
    const over = dir > 0 ? edge + len > limit : edge - len < limit;
    if (!flat && over && out.length) {
      const prev = out[out.length - 1];
      const far = edge - dir * G;
      line = far - dir * 0.5; // through the middle of the last tile's outer half
      edge = turn * (halfAcross(prev, false) + G);
      flat = true;
      d = turn > 0 ? "E" : "W";
    }
    const { p, edge: next } = place(lk, d, edge, line);
    out.push(p);
    edge = next;
  }
  const step = flat ? turn : dir;
  const spot = flat ? [edge + step * 0.6, line] : [line, edge + step * 0.6];
  return { placed: out, spot };
}

// Of the layouts `at(L)` gives (one or a few) for row lengths L (in u) from the widest down,
// the one that
// is drawn the largest in W x H px with u between UMIN and UMAX (or nearly, with fewer
// turns), and that u. A row length kept from the last drawing stays unless another gains
// more than 10 % in scale.
function fit(at, W, H, widest, memo, least = 4) {
  const uMax = Number.isFinite(H) ? UMAX : UDEFAULT;
  const score = (r) => {
    if (!r.box) r.box = boxOf(r.placed, r.spots);
    // never wider than W; never smaller than UMIN for the height (a layout taller than its
    // area scrolls), so that a shorter row length wins where a row would need smaller tiles
    return Math.min(W / r.box.w, Math.max(UMIN, Math.min(H / r.box.h, uMax)));
  };
  // a row length at which arms run into each other (a cross's quarters too narrow for
  // their rows) is passed over, unless every one does
  let tried = [];
  for (let L = Math.max(least, Math.floor(widest)); L >= least; L -= 1) {
    [].concat(at(L)).forEach((r, k) => {
      r.u = score(r);
      r.L = L;
      r.k = k;
      tried.push(r);
    });
  }
  const clear = tried.filter((r) => !collides(r.placed));
  // where every row length that fits the width at UMIN runs arms into each other (a long
  // cross on a narrow phone), a longer one draws them apart at UMIN, and the board pans
  for (let L = Math.floor(widest) + 1; !clear.length && L <= 4 * widest + 8; L += 1) {
    [].concat(at(L)).forEach((r, k) => {
      if (!r.box) r.box = boxOf(r.placed, r.spots);
      Object.assign(r, { u: UMIN, L, k });
      if (!collides(r.placed)) clear.push(r);
    });
  }
  if (clear.length) tried = clear;
  // of the row lengths that draw within 15 % of the largest scale, the longest: fewer turns
  const top = Math.max(...tried.map((r) => r.u));
  let best = tried.find((r) => r.u >= top * 0.85);
  // (the kept one may be gone: a layout that offered two ways at that length offers one now)
  const kept = memo.L && (memo.L !== best.L || memo.k !== best.k)
    ? [].concat(at(memo.L))[memo.k || 0] : undefined;
  if (kept) {
    kept.u = collides(kept.placed) ? 0 : score(kept);
    kept.L = memo.L;
    kept.k = memo.k;
    // kept while it draws nearly as large and no taller (a row length kept from a shorter
    // line would otherwise turn a line that now fits a row)
    if (kept.u * 1.1 >= best.u && kept.box.h <= best.box.h * 1.1) best = kept;
  }
  memo.L = best.L;
  memo.k = best.k;
  return best;
}

// Whether two of the placed tiles overlap.
function collides(placed) {
  for (let i = 0; i < placed.length; i++) {
    const a = placed[i];
    for (let j = i + 1; j < placed.length; j++) {
      const b = placed[j];
      if (a.x < b.x + b.w - 0.01 && b.x < a.x + a.w - 0.01 && a.y < b.y + b.h - 0.01 && b.y < a.y + a.h - 0.01) {
        return true;
      }
    }
  }
  return false;
}

// The units' box of placements and spots (a socket's disc round each spot).
function boxOf(placed, spots) {
  const box = new Extent();
  for (const p of placed) box.add(p.x, p.y, p.x + p.w, p.y + p.h);
  for (const [x, y] of Object.values(spots)) box.add(x - 0.7, y - 0.7, x + 0.7, y + 0.7);
  if (box.empty) box.add(-1, -1, 1, 1);
  return box;
}

// How many tiles of the line lie left of its first one: the moves laid on L since.
function origin(view, n) {
  const left = (view.history || []).filter(([, move]) => tileOf(move) && endOf(move) === "L").length;
  return Math.max(0, Math.min(n - 1, left));
}

// The line from its first tile: the right arm east then down, the left arm west then up.
function lineAt(line, first, L) {
  if (!line.length) return { placed: [], spots: { L: [-1, 0], R: [1, 0] } };
  const o = place(link(line[first]), "E", 0, 0).p;
  // the first tile centred on the origin
  o.x = -o.w / 2; o.y = -o.h / 2;
  const reach = o.w / 2 + G;
  const right = snake(line.slice(first + 1).map((x) => link(x, true)),
    { edge: reach, line: 0, dir: 1, vdir: 1, lo: -L / 2, hi: L / 2 });
  const left = snake(line.slice(0, first).reverse().map((x) => link(x, false)),
    { edge: -reach, line: 0, dir: -1, vdir: -1, lo: -L / 2, hi: L / 2 });
  return { placed: [...left.placed.reverse(), o, ...right.placed], spots: { L: left.spot, R: right.spot } };
}

//: the narrowest cross, in u: each quarter beside the spinner's column holds a lying tile
const CROSS_LEAST = 8;

// The cross from its spinner, standing across the line: the line's arms as the snake's (each
// keeping to its side, below or above the line, clear of the spinner's column; the width
// shared half and half or, with `share`, as the arms' lengths are), the arms U up and D
// down, which turn east and west at the margin.
function crossAt(line, centre, up, down, L, aspect, share) {
  // the width shared between the line's two arms: half each, or as their lengths are
  const length = (tiles) => tiles.reduce((n, x) => n + (link(x).dbl ? 1 : 2) + G, 0);
  const wl = length(line.slice(0, centre)), el = length(line.slice(centre + 1));
  const west = share ? Math.min(L - 4, Math.max(4, (L * (wl + 1)) / (wl + el + 2))) : L / 2;
  const A = L / 2, B = Math.max(3, A * aspect);
  const sp = link(line[centre]);
  const spinner = { text: sp.text, x: -0.5, y: -1, w: 1, h: 2, standing: true, first: sp.near,
    second: sp.far, joint: [0, 0] };
  const clear = 1 + G;
  const east = snake(line.slice(centre + 1).map((x) => link(x, true)),
    { edge: 0.5 + G, line: 0, dir: 1, vdir: 1, lo: clear, hi: L - west });
  const westArm = snake(line.slice(0, centre).reverse().map((x) => link(x, false)),
    { edge: -0.5 - G, line: 0, dir: -1, vdir: -1, lo: -west, hi: -clear });
  const north = column(up.map((x) => link(x, true)), { edge: -1 - G, dir: -1, limit: -B, turn: 1 });
  const south = column(down.map((x) => link(x, true)), { edge: 1 + G, dir: 1, limit: B, turn: -1 });
  const spots = { L: westArm.spot, R: east.spot, U: north.spot, D: south.spot };
  spots.S = up.length ? spots.D : spots.U;
  return { placed: [...westArm.placed.reverse(), spinner, ...east.placed, ...north.placed, ...south.placed],
    spots, arms: { north: north.placed, south: south.placed } };
}

// The placements drawn at u px a unit, each tile with its data-tile (closed doubles face
// down); the spots turned into px.
function drawPlaced(g, r, u, dx, dy, closed, digits) {
  for (const p of r.placed) {
    // a closed double keeps the notation of a row's face-down tile, "#a|a#"
    const shut = closed.has(keyOf(p.text));
    tile(g, dx + p.x * u, dy + p.y * u, p.first, p.second, p.standing, u, shut ? "closed" : "", digits)
      .dataset.tile = shut ? `#${p.text}#` : p.text;
  }
  const spots = {};
  for (const [end, [x, y]] of Object.entries(r.spots)) spots[end] = [dx + x * u, dy + y * u];
  return spots;
}

// A layout in units, fitted and drawn into g from (0, 0): returns its spots and px box.
function drawFitted(g, r, u, closed, digits, box) {
  const b = boxOf(r.placed, r.spots);
  const spots = drawPlaced(g, r, u, -b.x0 * u, -b.y0 * u, closed, digits);
  box.add(0, 0, b.w * u, b.h * u);
  return spots;
}

// ---- the families' layouts: each draws into g within `area` and returns its open ends -----

function drawLine(g, view, area, box) {
  const { line } = view.board;
  const first = origin(view, line.length);
  const total = line.reduce((n, x) => n + (link(x).dbl ? 1 : 2) + G, 0);
  const r = fit((L) => lineAt(line, first, L), area.w, area.h, Math.min(2 * total + 4, area.w / UMIN),
    area.memo);
  return drawFitted(g, r, r.u, new Set(view.board.closed || []), area.digits, box);
}

// The sum of the open ends as the fives family counts it (fives.md §5.1): each covered arm's
// end, a double there counting both halves; a spinner with at most one covered arm counts
// both its halves. Returns the parts and the total.
function endsCount(view) {
  const { line, spinner, U, D } = view.board;
  if (!line.length) return null;
  const value = (text, outer) => {
    const lk = link(text, outer !== "first");
    return lk.dbl ? 2 * lk.far : lk.far;
  };
  const centre = spinner === null ? -1 : line.indexOf(`${spinner}|${spinner}`);
  if (centre < 0) {
    if (line.length === 1) return [link(line[0]).near, link(line[0]).far];
    return [value(line[0], "first"), value(line[line.length - 1], "second")];
  }
  const parts = [];
  if (centre > 0) parts.push(value(line[0], "first"));
  if (centre < line.length - 1) parts.push(value(line[line.length - 1], "second"));
  for (const arm of [U, D]) if (arm.length) parts.push(value(arm[arm.length - 1], "second"));
  if (parts.length <= 1) parts.unshift(2 * spinner);
  else if (view.rules.options.spinner_count === "open_arms") parts.push(spinner * (4 - parts.length));
  return parts;
}

function drawCross(g, view, area, box) {
  const { spinner } = view.board;
  const closed = new Set(view.board.closed);
  const line = view.board.line;
  const centre = spinner === null ? -1 : line.indexOf(`${spinner}|${spinner}`);
  let spots;
  if (centre < 0) spots = drawLine(g, view, area, box);
  else {
    const aspect = Number.isFinite(area.h) ? area.h / area.w : 1;
    const all = [...line, ...view.board.U, ...view.board.D];
    const total = all.reduce((n, x) => n + (link(x).dbl ? 1 : 2) + G, 0);
    const r = fit((L) => [false, true].map((share) => {
      const c = crossAt(line, centre, view.board.U, view.board.D, L, aspect, share);
      c.box = boxOf(c.placed, c.spots);
      return c;
    }), area.w, area.h, Math.min(2 * total + 4, area.w / UMIN), area.memo, CROSS_LEAST);
    spots = drawFitted(g, r, r.u, closed, area.digits, box);
  }
  // the count under the board where the game scores multiples of its ends
  if ("spinner_count" in (view.rules.options || {})) {
    const parts = endsCount(view);
    if (parts && parts.length) {
      const sum = parts.reduce((a, b) => a + b, 0);
      const base = view.rules.options.base || 5;
      const y = box.y1 + 20;
      const text = label(g, box.x0 + box.w / 2, y, `${parts.join("+")} = ${sum}`,
        { "text-anchor": "middle", class: `label count${sum && sum % base === 0 ? " scores" : ""}` });
      text.setAttribute("id", "ends-count");
      box.add(box.x0, y - 14, box.x1, y + 6);
    }
  }
  return spots;
}

// The sausage: a one-arm snake from its dead start, the open end R; joint j (a cut) lies
// between tile j - 1 and tile j, numbered while a cut is legal.
function drawKolbasa(g, view, area, box) {
  const sausage = view.board.sausage;
  const total = sausage.reduce((n, x) => n + (link(x).dbl ? 1 : 2) + G, 0);
  const r = fit((L) => {
    const { placed, spot } = snake(sausage.map((x) => link(x, true)),
      { edge: 0, line: 0, dir: 1, vdir: 1, lo: 0, hi: L });
    const spots = { R: spot };
    placed.slice(1).forEach((p, i) => { spots[String(i + 1)] = p.joint; });
    const c = { placed, spots };
    c.box = boxOf(placed, spots);
    return c;
  }, area.w, area.h, Math.min(total + 4, area.w / UMIN), area.memo);
  const spots = drawFitted(g, r, r.u, new Set(), area.digits, box);
  const cutting = (view.legal || []).some((m) => m.startsWith("cut "));
  if (cutting) {
    for (const [end, [x, y]] of Object.entries(spots)) {
      if (end === "R") continue;
      label(g, x, y - r.u * 0.75, end, { "text-anchor": "middle", class: "label joint" });
    }
  }
  return spots;
}

// ---- lanes: trains and Chicken Foot's branches ----------------------------------------------

// How many rows a lane's tiles take at side u in `avail` px (they wrap like text, as
// tiles.row lays them).
function rowsOf(tiles, u, avail) {
  let x = 0, rows = 1;
  for (const text of tiles) {
    const w = (link(text).dbl ? 1 : 2) * u;
    if (x + w > avail && x > 0) { rows += 1; x = 0; }
    x += w + GAP;
  }
  return rows;
}

// A small locomotive: an open train's marker (UX.md §3).
function trainIcon(parent, x, y, cls = "train-icon") {
  const g = el("g", { class: cls, transform: `translate(${x},${y})` }, parent);
  el("rect", { x: 0, y: 2, width: 13, height: 7, rx: 1.5 }, g);
  el("rect", { x: 8, y: -2, width: 5, height: 5, rx: 1 }, g);
  el("rect", { x: 1, y: -1, width: 3, height: 4 }, g);
  el("circle", { cx: 3, cy: 10.5, r: 2 }, g);
  el("circle", { cx: 10, cy: 10.5, r: 2 }, g);
  return g;
}

// Lanes from the engine, which stands in a hub on the left: each lane a band with a colour
// chip and its name over its row of tiles; a lane wraps to two rows, then the tiles shrink.
// `foot(id, at, u)` may add the toes of a double that ends a lane.
function drawLanes(g, view, area, box, lanes, { banner = null, foot = null } = {}) {
  const hub = (u) => u + 24;
  const reserve = (u) => 1.8 * u; // room after a row for its socket (or a double's toes)
  const labelH = 18;
  // a row with a double stands it across; a row of lying tiles needs half the height
  const rowH = (lane, u) => (lane.tiles.some((x) => link(x).dbl) ? 2 * u + 4 : u + 8);
  const heightAt = (u) => {
    let y = banner ? 28 : 0;
    for (const lane of lanes) {
      y += labelH + rowsOf(lane.tiles, u, area.w - hub(u) - reserve(u) - lane.indent * u) * rowH(lane, u) + 6;
    }
    return y;
  };
  let u = Number.isFinite(area.h) ? UMAX : UDEFAULT;
  for (; u > UMIN; u -= 1) {
    const rows = Math.max(1, ...lanes.map((l) => rowsOf(l.tiles, u, area.w - hub(u) - reserve(u) - l.indent * u)));
    if (rows <= 2 && (!Number.isFinite(area.h) || heightAt(u) <= area.h)) break;
  }
  const spots = {};
  let y = 0;
  if (banner) {
    const b = el("g", { class: "banner", id: "banner" }, g);
    el("rect", { x: 0, y: 0, width: area.w, height: 24, rx: 6 }, b);
    label(b, area.w / 2, 17, banner, { "text-anchor": "middle", class: "label banner-text" });
    y = 28;
  }
  const top = y;
  const x0 = hub(u);
  for (const lane of lanes) {
    const group = el("g", { class: `lane ${lane.cls}`, "data-end": lane.id }, g);
    const indent = x0 + lane.indent * u;
    const rows = rowsOf(lane.tiles, u, area.w - indent - reserve(u));
    const band = rowH(lane, u);
    const bottom = y + labelH + rows * band;
    el("rect", { x: indent - 4, y: y - 2, width: area.w - indent + 4, height: bottom - y + 4, rx: 6, class: "band" }, group);
    let lx = indent;
    if (lane.colour) { el("circle", { cx: lx + 5, cy: y + 9, r: 5, class: "chip", fill: lane.colour }, group); lx += 14; }
    if (lane.open) { trainIcon(group, lx, y + 2); lx += 18; }
    label(group, lx, y + 13, lane.name, { class: "label lane-name" });
    const drawn = row(group, lane.tiles, indent, y + labelH,
      { right: area.w - reserve(u), indent, s: u, digits: area.digits, band, mid: band / 2 });
    const last = drawn.boxes[drawn.boxes.length - 1];
    spots[lane.id] = lane.tiles.length ? [drawn.after[0] + 0.6 * u, drawn.after[1]]
      : [indent + 0.6 * u, y + labelH + band / 2];
    if (foot && last) foot(group, lane, last, u, spots);
    y = bottom + 6;
  }
  // the engine in its hub, standing in the middle of the lanes
  const [e] = parseTile(view.board.engine);
  const ey = Math.max(top + 14, top + (y - top) / 2 - u);
  label(g, 0, 0, t("engine"), { class: "label hub-name", "text-anchor": "middle",
    transform: `translate(13,${ey + u}) rotate(-90)` });
  tile(g, 18, ey, e, e, true, u, "engine", area.digits).dataset.tile = view.board.engine;
  spots.E = [18 + u / 2, ey + 2 * u + 0.8 * u];
  box.add(0, 0, area.w, Math.max(y, ey + 3 * u));
  return spots;
}

// The lanes' order: the others' trains, the Mexican train, and the viewer's own at the
// bottom, next to his hand.
function trainOrder(view, ids) {
  const n = view.hand_sizes.length;
  const me = view.seat;
  const rank = (id) => {
    if (id === "M") return n;
    const s = Number(id);
    if (me === null || me === undefined) return s;
    return s === me ? n + 1 : (s - me - 1 + n) % n;
  };
  return [...ids].sort((a, b) => rank(a) - rank(b));
}

function drawTrains(g, view, area, box, names) {
  const { trains } = view.board;
  const extra = view.extra || {};
  const markers = new Set(extra.markers || []);
  const unsatisfied = extra.unsatisfied || [];
  const ids = trainOrder(view, new Set([...Object.keys(trains), ...Object.keys(view.ends || {})]
    .filter((id) => id !== "E")));
  const lanes = ids.map((id) => ({
    id, tiles: trains[id] || [], indent: 0,
    name: id === "M" ? t("mexicanTrain") : names(Number(id)),
    colour: id === "M" ? "#f59e0b" : COLOURS[Number(id) % COLOURS.length],
    open: id === "M" || markers.has(id),
    cls: `train${markers.has(id) ? " marked" : ""}${unsatisfied.includes(id) ? " unsatisfied" : ""}`,
  }));
  let banner = null;
  const waiting = unsatisfied.find((id) => (trains[id] || []).length);
  if (waiting) {
    const double = trains[waiting][trains[waiting].length - 1];
    banner = t("coverFirst", { tile: double });
  }
  const spots = drawLanes(g, view, area, box, lanes, { banner });
  for (const id of unsatisfied) {
    const tiles = g.querySelectorAll(`g.lane[data-end="${id}"] g.tile`);
    if (tiles.length) tiles[tiles.length - 1].classList.add("unsatisfied");
  }
  return spots;
}

// A branch's path ("1.2" -> [1, 2]).
function pathOf(id) { return id.split(".").map(Number); }

// A Chicken Foot branch in words: a branch of the engine by its number, a toe by the double
// it grows from ("4|4 · toe 2"), never its path ("1.2").
export function branchName(view, id) {
  const path = pathOf(id);
  if (path.length === 1) return t("branch", { id });
  // (a replay's move list names the moves of a view that holds no branches)
  const parent = (view.board.branches || {})[path.slice(0, -1).join(".")] || [];
  const toe = t("toe", { n: path[path.length - 1] });
  return parent.length ? `${parent[parent.length - 1]} · ${toe}` : toe;
}

// ---- Chicken Foot: a tree from its engine --------------------------------------------------

//: the directions the engine's arms take, in degrees (screen y down: 90 is south), the first
//: four along the engine's sides and ends, four more from its corners
const ARMS = [0, 180, 270, 90, 315, 135, 225, 45];
//: a double's three toes: the turn each takes from its branch (toe 1 straight on, toes 2 and
//: 3 at 45° either side) and how far across the double it starts, in u
const TOES = [[0, 0], [-45, -0.95], [45, 0.95]];

// Where the k-th arm (from 0) of an engine standing in the middle (1 x 2 u) starts, and its
// direction.
function armStart(angle) {
  const d = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
  if (angle % 90 === 0) return [d[0] * (0.5 + G), d[1] * (1 + G)].map((v) => Math.round(v * 1e6) / 1e6);
  // a diagonal arm starts off a corner, clear of the arms along the sides and the ends
  return [Math.sign(d[0]) * 0.5 + d[0] * 0.8, Math.sign(d[1]) + d[1] * 0.8];
}

// The tree laid in units with the arms in directions `dirs` (one for each arm, by number):
// each branch a straight chain from where it starts, a double across it, and a double's toes
// fanning from its far side. Returns the placements (centre, angle, length along), the free
// toes' slots and the open ends' spots.
function treeAt(view, dirs, bounds = null) {
  const { branches } = view.board;
  const ends = view.ends || {};
  const engine = { cx: 0, cy: 0, angle: 90, len: 2, lk: { dbl: false } };
  const placed = [], slots = [], spots = {};
  let clashes = 0, out = 0;
  const dirOf = (a) => [Math.cos((a * Math.PI) / 180), Math.sin((a * Math.PI) / 180)];
  const clear = (p) => !overlaps(p, engine) && placed.every((q) => !overlaps(p, q));
  // within the area (the engine in its middle), with room for a socket past it
  const inside = (p) => !bounds || cornersOf(p).every(([x, y]) =>
    Math.abs(x) <= bounds.x && Math.abs(y) <= bounds.y);
  function grow(id, [x0, y0], start) {
    let angle = start, [dx, dy] = dirOf(angle);
    let x = x0, y = y0;
    const tiles = branches[id] || [];
    for (const text of tiles) {
      const lk = link(text);
      const len = lk.dbl ? 1 : 2;
      const at = (a, s, back = 0) => {
        const [ex, ey] = dirOf(a);
        const bx = x + ex * s - dx * back, by = y + ey * s - dy * back;
        return { id, text, cx: bx + (ex * len) / 2, cy: by + (ey * len) / 2, angle: a, len, lk };
      };
      // a tile that would lie over another turns aside, as a player's chain bends round the
      // others; it goes on that way
      let p = at(angle, 0);
      if (!clear(p)) {
        const turns = [[45, 0.5], [-45, 0.5], [90, 1], [-90, 1], [45, 1.2], [-45, 1.2], [0, 1],
          [90, 2], [-90, 2], [45, 2.5], [-45, 2.5], [0, 2.5], [135, 1.5], [-135, 1.5]];
        const ways = turns.map(([tn, sh]) => at(angle + tn, sh)).filter(clear);
        const found = ways.find(inside) || ways[0];
        if (found) p = found; else clashes += 1;
      } else if (!inside(p)) {
        // at the margin of its area a chain turns, as the line's snake does: the corner
        // beside the last tile's outer half, toward the middle where it can
        const corners = [90, -90].map((tn) => at(angle + tn, 0.5 + G, 0.5))
          .concat([45, -45].map((tn) => at(angle + tn, 0.5)))
          .filter((q) => clear(q) && inside(q))
          .sort((a, b) => Math.hypot(a.cx, a.cy) - Math.hypot(b.cx, b.cy));
        if (corners.length) p = corners[0]; else out += 1;
      }
      placed.push(p);
      angle = p.angle;
      [dx, dy] = dirOf(angle);
      x = p.cx + (dx * len) / 2 + dx * G; y = p.cy + (dy * len) / 2 + dy * G;
    }
    const last = tiles.length ? link(tiles[tiles.length - 1]) : null;
    if (!last || !last.dbl) {
      if (id in ends) spots[id] = [x + dx * 0.6, y + dy * 0.6];
      return;
    }
    // the double's toes: from its far side, straight on and at 45° to either side
    const px = -dy, py = dx;
    let free = false;
    TOES.forEach(([turn, off], i) => {
      const toe = `${id}.${i + 1}`;
      const start = [x + px * off, y + py * off];
      if (toe in branches) { grow(toe, start, angle + turn); return; }
      const [tx, ty] = dirOf(angle + turn);
      const at = [start[0] + tx, start[1] + ty];
      slots.push({ id, toe, turn, from: [x - dx * G, y - dy * G], at });
      if (!free && id in ends) { spots[id] = at; free = true; }
    });
  }
  const arms = Object.keys(branches).filter((id) => !id.includes(".")).map(Number).sort((a, b) => a - b);
  for (const k of arms) grow(String(k), armStart(dirs[k - 1]), dirs[k - 1]);
  if ("E" in ends) {
    const angle = dirs[arms.length] ?? ARMS[arms.length % ARMS.length];
    const [sx, sy] = armStart(angle), [dx, dy] = dirOf(angle);
    spots.E = [sx + dx * 0.6, sy + dy * 0.6];
  }
  return { placed, slots, spots, clashes, out };
}

// Whether two placed tiles overlap (more than a sliver): no edge's normal separates them.
function overlaps(p, q) {
  // (tiles further apart than their half diagonals cannot meet)
  const ddx = p.cx - q.cx, ddy = p.cy - q.cy;
  if (ddx * ddx + ddy * ddy > 5.76) return false;
  const a = cornersOf(p), b = cornersOf(q);
  for (const poly of [a, b]) {
    for (let k = 0; k < 4; k++) {
      const [x0, y0] = poly[k], [x1, y1] = poly[(k + 1) % 4];
      const nx = y0 - y1, ny = x1 - x0;
      let amin = Infinity, amax = -Infinity, bmin = Infinity, bmax = -Infinity;
      for (const [x, y] of a) { const v = x * nx + y * ny; amin = Math.min(amin, v); amax = Math.max(amax, v); }
      for (const [x, y] of b) { const v = x * nx + y * ny; bmin = Math.min(bmin, v); bmax = Math.max(bmax, v); }
      if (Math.min(amax, bmax) - Math.max(amin, bmin) < 0.001 * Math.hypot(nx, ny)) return false;
    }
  }
  return true;
}

// The four corners of a placed tile, in units.
function cornersOf(p) {
  if (p.corners) return p.corners;
  const a = (p.angle * Math.PI) / 180;
  const [dx, dy] = [Math.cos(a), Math.sin(a)];
  const along = p.len / 2, across = p.lk.dbl ? 1 : 0.5;
  p.corners = [[1, 1], [1, -1], [-1, -1], [-1, 1]].map(([s, t]) =>
    [p.cx + s * along * dx - t * across * dy, p.cy + s * along * dy + t * across * dx]);
  return p.corners;
}

// The units' box of a tree: its tiles, its slots and its spots, round the engine.
function treeBox(r) {
  const box = new Extent();
  box.add(-0.5, -1, 0.5, 1);
  for (const p of r.placed) for (const [x, y] of cornersOf(p)) box.add(x, y, x, y);
  for (const s of r.slots) box.add(s.at[0] - 0.5, s.at[1] - 0.5, s.at[0] + 0.5, s.at[1] + 0.5);
  for (const [x, y] of Object.values(r.spots)) box.add(x - 0.7, y - 0.7, x + 0.7, y + 0.7);
  return box;
}

// The ways to give four arms the engine's sides and ends: which two lie east and west (the
// lower numbered east), the others north and south; arm 1 east, 2 west, 3 north, 4 south first.
// (Swapping the two of a pair only mirrors the tree: no gain in size.)
const ORDERS = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]].map(([i, j]) => {
  const dirs = [];
  const rest = [0, 1, 2, 3].filter((k) => k !== i && k !== j);
  dirs[i] = 0; dirs[j] = 180; dirs[rest[0]] = 270; dirs[rest[1]] = 90;
  return dirs;
});

// Chicken Foot as players lay it: the engine in the middle, its arms out from it in every
// direction, each double's three toes fanning from it. Which arm takes which direction is
// chosen to draw the tree the largest in its area (kept from the last drawing unless another
// gains more than 10 %); where even the smallest tiles do not fit, the board pans. Each
// branch is a group named in words for a screen reader ("branch 2", "4|4 · toe 1").
function drawTree(g, view, area, box) {
  // the same tree in the same area (a tile picked, a clock's tick) is laid as it was
  const key = JSON.stringify([view.board.branches, Object.keys(view.ends || {}), area.w, area.h]);
  const best = area.memo.treeKey === key ? area.memo.treeLaid : layTree(view, area);
  area.memo.treeKey = key;
  area.memo.treeLaid = best;
  area.middle = true;
  return drawLaidTree(g, view, area, box, best);
}

// The tree laid in units for `area`: its placements, slots and spots, and the u it is drawn at.
function layTree(view, area) {
  const uMax = Number.isFinite(area.h) ? UMAX : UDEFAULT;
  // with the seats' rows under it (a replay, whose page scrolls) the tree may take as much
  // height as it has width, rather than the strip the rows leave it
  area = { ...area, h: area.seats ? Math.max(area.h, area.w) : area.h };
  const scale = (r) => Math.max(UMIN, Math.min(uMax, area.w / r.box.w, area.h / r.box.h));
  const arms = Object.keys(view.board.branches).filter((id) => !id.includes(".")).length;
  const choices = arms <= 4 ? ORDERS : [ARMS];
  const tried = choices.map((dirs, k) => {
    const r = treeAt(view, dirs);
    r.box = treeBox(r);
    r.u = scale(r);
    r.k = k;
    return r;
  });
  // the directions as the arms were first given them, unless another order gains more than
  // 10 % (the first order wins a tie: arm 1 east, 2 west, 3 north, 4 south)
  // (and before all, the fewest tiles that found no room to turn into)
  let best = tried.reduce((a, b) => (b.clashes < a.clashes || (b.clashes === a.clashes && b.u > a.u * 1.0001) ? b : a));
  const kept = area.memo.tree !== undefined && tried[area.memo.tree];
  if (kept && kept.clashes <= best.clashes && kept.u * 1.1 >= best.u) best = kept;
  area.memo.tree = best.k;
  // where the tree at its largest does not fill its area, or overflows it, its chains turn at
  // the margins of the area: the largest tiles at which they fit it so
  if (Number.isFinite(area.h) && (best.u < uMax)) {
    // (the tiles cover at most about half the area they are laid in, whatever their turns)
    const cover = best.placed.reduce((n, p) => n + p.len * (p.lk.dbl ? 2 : 1), 2);
    const top = Math.min(uMax, Math.sqrt((area.w * area.h) / (2 * cover)));
    for (let u = Math.floor(top); u >= Math.max(UMIN, Math.ceil(best.u)); u -= 1) {
      // (a socket past a chain's end, or a toe's slot, reaches 1.3 u past its last tile)
      const r = treeAt(view, choices[best.k], { x: area.w / u / 2 - 1.3, y: area.h / u / 2 - 1.3 });
      r.box = treeBox(r);
      const fits = r.box.w * u <= area.w + 0.5 && r.box.h * u <= area.h + 0.5;
      // at the smallest tiles, a tree turned at the margins where it could is kept though
      // it still overflows, where it is the more compact: less of it is off the area
      const compact = u === UMIN && r.clashes <= best.clashes && r.box.w * r.box.h < best.box.w * best.box.h;
      if ((!r.out && r.clashes <= best.clashes && fits) || compact) {
        best = Object.assign(r, { u, k: best.k });
        break;
      }
    }
  }
  return best;
}

// Chicken Foot's tree drawn into g as layTree laid it.
function drawLaidTree(g, view, area, box, best) {
  const { u } = best;
  const ox = -best.box.x0 * u, oy = -best.box.y0 * u;
  const [e] = parseTile(view.board.engine);
  tile(g, ox - u / 2, oy - u, e, e, true, u, "engine", area.digits).dataset.tile = view.board.engine;
  const groups = {};
  const groupOf = (id) => {
    if (!groups[id]) {
      groups[id] = el("g", { class: "branch", "data-end": id, role: "group",
        "aria-label": branchName(view, id) }, g);
    }
    return groups[id];
  };
  for (const p of best.placed) {
    const at = el("g", { class: "turn", transform: `translate(${ox + p.cx * u},${oy + p.cy * u}) rotate(${p.angle % 360})` },
      groupOf(p.id));
    const { near, far, dbl } = p.lk;
    tile(at, (-p.len * u) / 2, dbl ? -u : -u / 2, near, far, dbl, u, "", area.digits).dataset.tile = p.text;
  }
  // a double's toes not yet started: a dashed slot each, the next one the end to play on
  for (const s of best.slots) {
    const toe = el("g", { class: "toe", "data-angle": s.turn, "data-toe": s.toe }, groupOf(s.id));
    el("line", { x1: ox + s.from[0] * u, y1: oy + s.from[1] * u, x2: ox + s.at[0] * u, y2: oy + s.at[1] * u }, toe);
    el("circle", { cx: ox + s.at[0] * u, cy: oy + s.at[1] * u, r: 0.38 * u }, toe);
  }
  const spots = {};
  for (const [end, [x, y]] of Object.entries(best.spots)) spots[end] = [ox + x * u, oy + y * u];
  box.add(0, 0, best.box.w * u, best.box.h * u);
  return spots;
}

// ---- tricks and poker ----------------------------------------------------------------------

// Where seat s sits round the table as the viewer sees it: he at the bottom, the next seat on
// his left (UX.md §1), as a unit vector.
function around(view, s) {
  const n = view.hand_sizes.length;
  const me = view.seat ?? 0;
  const theta = Math.PI / 2 + (((s - me + n) % n) * 2 * Math.PI) / n;
  return [Math.cos(theta), Math.sin(theta)];
}

// The trick on the table: each tile in front of the seat that played it, its name beside;
// the contract, the trumps and each side's tricks and points above.
function drawTrick(g, view, area, box, names) {
  const x = view.extra || {};
  const lines = [];
  if (x.bid) lines.push(t("contract", { bid: x.bid, name: names(x.bidder) }));
  if (x.trumps !== null && x.trumps !== undefined) lines.push(t("trumpsAre", { suit: x.trumps }));
  if (x.tricks && x.tricks.length) {
    const won = [0, 0];
    for (const [, winner] of x.tricks) won[winner % 2] += 1;
    lines.push(t("sideTricks", { a: won[0], b: won[1] }));
  }
  if (x.points) lines.push(t("sidePoints", { a: x.points[0], b: x.points[1] }));
  if (x.phase === "bidding") lines.push(t("bidding"));
  lines.forEach((text, i) => label(g, area.w / 2, 16 + i * 18, text, { "text-anchor": "middle" }));
  const top = 16 + lines.length * 18 + 8;
  // no trick is played while the hand is bid for: no room kept for one
  if (x.phase === "bidding" && !view.board.trick.length) {
    box.add(0, 0, area.w, top);
    return {};
  }
  const u = Math.max(UMIN, Math.min(30, area.w / 12));
  const rx = Math.min(area.w / 2 - 2 * u, 4 * u), ry = 2.6 * u;
  const cx = area.w / 2, cy = top + ry + u + 8;
  for (const [seat, text] of view.board.trick) {
    const [a, b] = parseTile(text);
    const [dx, dy] = around(view, seat);
    const tx = cx + dx * rx - u / 2, ty = cy + dy * ry - u;
    tile(g, tx, ty, a, b, true, u, "played", area.digits).dataset.tile = text;
    const side = dx < -0.5 ? "end" : dx > 0.5 ? "start" : "middle";
    const lx = side === "end" ? tx - 6 : side === "start" ? tx + u + 6 : tx + u / 2;
    const ly = Math.abs(dx) > 0.5 ? ty + u + 5 : dy > 0 ? ty + 2 * u + 14 : ty - 6;
    label(g, lx, ly, names(seat), { "text-anchor": side, class: "label trick-name" });
  }
  box.add(0, 0, area.w, cy + ry + u + 22);
  return {};
}

// Poker lays no tile: the pot in the middle; the hands are the seats' rows.
function drawPot(g, view, area, box) {
  const x = view.extra || {};
  const pot = el("g", { class: "pot" }, g);
  el("rect", { x: area.w / 2 - 70, y: 0, width: 140, height: 30, rx: 15 }, pot);
  label(pot, area.w / 2, 20, t("potChips", { n: x.pot ?? 0 }), { "text-anchor": "middle" });
  box.add(0, 0, area.w, 34);
  return {};
}

// ---- the seats -----------------------------------------------------------------------------

// What each seat's row shows: its tiles face up where known, else as many face down.
function seatTiles(view, s, hands) {
  if (hands && hands[s]) return hands[s];
  const shown = view.outcome && view.outcome.remaining && view.outcome.remaining[s];
  if (shown) return shown;
  const n = view.hand_sizes[s];
  const front = seatRows(view) === "blind" && view.turn === s && view.extra.front;
  // the mover's front tile in Kolbasa is turned over for everybody to see
  if (front) return [front, ...Array(Math.max(0, n - 1)).fill(null)];
  return Array(n).fill(null);
}

function seatNote(view, s) {
  const x = view.extra || {};
  const parts = [];
  if (x.put) parts.push(t("putChips", { n: x.put[s] }));
  if (x.folded && x.folded.includes(s)) parts.push(t("folded"));
  const ranks = view.outcome && view.outcome.extra && view.outcome.extra.ranks;
  if (ranks && ranks[s]) parts.push(t(`poker.rank.${ranks[s]}`));
  return parts.join(" · ");
}

// A row of face-down tiles as a stack: a few backs fanned and their count (Kolbasa's rows).
function stack(parent, x, y, n, s) {
  const g = el("g", { class: "stack", "data-count": n }, parent);
  const shown = Math.min(n, 3);
  for (let i = shown - 1; i >= 0; i--) back(g, x + i * 4, y + i * 3, true, s);
  label(g, x + s + shown * 4 + 6, y + s + 5, `×${n}`, { class: "label count" });
  return x + s + shown * 4 + 40;
}

function drawSeats(g, view, seats, hands, names, y, width, box, digits) {
  const big = Math.max(SMALL, Math.min(32, width / 10));
  for (const s of seats) {
    const group = el("g", { class: `seat${view.turn === s ? " turn" : ""}`, "data-seat": s }, g);
    const note = seatNote(view, s);
    label(group, 0, y + 12, `${names(s)}${note ? ` · ${note}` : ""}`);
    const tiles = seatTiles(view, s, hands);
    const known = tiles.filter((x) => x !== null);
    const hidden = tiles.length - known.length;
    let x = 0, bottom = y + 18;
    // a face-down Kolbasa row is a stack; its front tile, the one that may be played, full size
    if (seatRows(view) === "blind" && hidden) {
      for (const text of known) {
        const [a, b] = parseTile(text);
        tile(group, x, y + 18, a, b, true, big, "front", digits).dataset.tile = text;
        x += big + 8;
      }
      stack(group, x, y + 18 + Math.max(0, big - SMALL), hidden, SMALL);
      bottom = y + 18 + 2 * big + 8;
    } else if (tiles.length) {
      ({ bottom } = row(group, tiles, 0, y + 18, { right: width, s: SMALL, standing: true, digits }));
    }
    y = bottom + 6;
  }
  box.add(0, 0, width, y);
}

// An open end the chosen tile fits, at `at` (a spot drawBoard returned): a dashed socket
// showing the number it needs (`text`), which plays there when clicked; its hit area is a
// disc 44 px across (WCAG 2.5.5), whatever the size of the tiles. Where other ends need the
// same number, `tie` (1, 2 ...) tells them apart in a badge at the socket's corner, the number
// the moves' words give the end ("4 (end 2)").
export function drawSocket(svg, end, at, text, onPlay, tie = null) {
  const u = Number(svg.dataset.u) || 26;
  const g = el("g", { class: "end", "data-end": end, role: "button", tabindex: "0",
    "aria-label": t("playThere", { n: text }) }, svg);
  el("circle", { cx: at[0], cy: at[1], r: 22, class: "hit" }, g);
  el("rect", { x: at[0] - u * 0.45, y: at[1] - u * 0.45, width: u * 0.9, height: u * 0.9, rx: u * 0.15,
    class: "socket" }, g);
  const size = Math.min(14, Math.max(12, u * 0.5));
  const pip = el("text", { x: at[0], y: at[1] + size * 0.36, "text-anchor": "middle", "font-size": size }, g);
  pip.textContent = text;
  if (tie !== null) {
    const r = Math.max(7, u * 0.24);
    const [cx, cy] = [at[0] + u * 0.45, at[1] - u * 0.45];
    const badge = el("g", { class: "tie", "aria-hidden": "true" }, g);
    el("circle", { cx, cy, r }, badge);
    const n = el("text", { x: cx, y: cy + r * 0.42, "text-anchor": "middle", "font-size": r * 1.2 }, badge);
    n.textContent = tie;
  }
  g.addEventListener("click", (e) => { e.stopPropagation(); onPlay(); });
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPlay(); }
  });
  return g;
}

// ---- the picture ---------------------------------------------------------------------------

const LAYOUTS = {
  line: drawLine, cross: drawCross, trains: drawTrains, tree: drawTree, kolbasa: drawKolbasa,
  trick: drawTrick, poker: drawPot,
};

// Where each laid tile is drawn, in the svg's units, by its identity.
function where(svg) {
  const at = new Map();
  const page = svg.getScreenCTM();
  if (!page) return at; // not on the page
  const back = page.inverse();
  for (const node of svg.querySelectorAll("g.layout g.tile")) {
    const m = node.getScreenCTM();
    if (!m) continue;
    const local = back.multiply(m);
    at.set(keyOf(node.dataset.tile || ""), [local.e, local.f]);
  }
  return at;
}

// A tile re-laid elsewhere (the snake found a better row length, the board grew) glides from
// where it was (FLIP), unless the player asked for less motion.
function slide(svg, before) {
  if (!before.size || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  for (const [key, [x, y]] of where(svg)) {
    const old = before.get(key);
    if (!old) continue;
    const dx = old[0] - x, dy = old[1] - y;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const node = [...svg.querySelectorAll("g.layout g.tile")].find((n) => keyOf(n.dataset.tile || "") === key);
    // a tile turned with its branch (Chicken Foot) moves in its branch's frame: it is not slid
    if (node.parentNode.classList.contains("turn")) continue;
    // the attribute's "translate(x,y)" in CSS's words, which want units
    const to = node.getAttribute("transform").replace(/translate\(([^,]+),([^)]+)\)/, "translate($1px, $2px)");
    node.animate([{ transform: `translate(${dx}px, ${dy}px) ${to}` }, { transform: to }],
      { duration: 200, easing: "ease-out" });
  }
}

// The tile the last move laid, from the view's history (a table or a replay may say).
function lastLaid(view) {
  const history = view.history || [];
  for (let i = history.length - 1; i >= 0; i--) {
    const text = tileOf(history[i][1]);
    if (text) return text;
  }
  return null;
}

// Draws the board of `view` into svg and returns where each open end is ({end: [x, y]}, in
// the svg's user units, which are px at the given width). Options: width (never exceeded) and
// height (filled; without it the board is as tall as it needs), names(seat), hands (every
// hand, where the deal is public), playable (tiles the viewer may pick on the board),
// selected, onTile(text) when he picks one, last (the tile of the last move, "6-4": outlined;
// by default the view's last move; null for none) and digits (numerals instead of pips; by
// default the player's choice, digitsWanted()).
export function drawBoard(svg, view, { width = 640, height = null, names = (s) => t("seatN", { n: s + 1 }),
  hands = null, playable = new Set(), selected = null, onTile = null, last, digits = digitsWanted() } = {}) {
  const before = where(svg);
  svg.replaceChildren();
  // the board's kind, the type tag of its JSON (docs/api.md, "Boards"), chooses its layout
  const kind = view.board.kind;
  svg.dataset.kind = kind;
  svg.style.minWidth = "";
  svg.style.height = "";
  const pad = width < 480 ? PAD_NARROW : PAD;
  // what the last drawing chose (a snake's row length), kept while the board is the same kind
  if (!svg.memo || svg.memo.kind !== kind) svg.memo = { kind };
  const inner = width - 2 * pad;
  // the seats' rows (every hand in a replay, the others' rows in Kolbasa, poker and 42) under
  // the layout: drawn first, to know what height the layout has left
  const n = view.hand_sizes.length;
  const seats = [...Array(n).keys()].filter((s) => hands
    || (seatRows(view) !== null && !(s === view.seat && view.hand)));
  const seatsGroup = el("g", { class: "seats" });
  const seatsBox = new Extent();
  if (seats.length) drawSeats(seatsGroup, view, seats, hands, names, 0, inner, seatsBox, digits);
  const seatsH = seats.length ? seatsBox.h + 12 : 0;
  // (a layout that grows every way from its middle says so: area.middle)
  const area = { w: inner, h: height ? Math.max(80, height - 2 * pad - seatsH) : Infinity, memo: svg.memo, digits,
    seats: seats.length > 0, middle: false };
  const layout = el("g", { class: "layout" }, svg);
  const box = new Extent();
  const spots = LAYOUTS[kind](layout, view, area, box, names);
  if (box.empty) box.add(0, 0, inner, 40);
  // the layout in the middle of the width (and of the height it was given); one wider than
  // the width (a tree whose tiles would be too small to read) makes the board wider: its
  // area pans, the page does not
  const wide = Math.max(inner, box.w);
  const dx = pad + (wide - box.w) / 2 - box.x0;
  const room = Number.isFinite(area.h) ? Math.max(0, area.h - box.h) / 2 : 0;
  const dy = pad + room - box.y0;
  layout.setAttribute("transform", `translate(${dx},${dy})`);
  for (const at of Object.values(spots)) { at[0] += dx; at[1] += dy; }
  let bottom = pad + room * 2 + box.h;
  if (seats.length) {
    // (under the middle of a board that pans, where it is first shown)
    seatsGroup.setAttribute("transform", `translate(${pad + (wide - inner) / 2},${bottom + 12})`);
    svg.append(seatsGroup);
    bottom += seatsH;
  }
  // the size of the tiles, for the sockets drawn over them
  const u = layout.querySelector("g.tile rect.face");
  svg.dataset.u = u ? Math.min(Number(u.getAttribute("width")), Number(u.getAttribute("height"))) : 26;
  // the last move's tile, outlined; it slides into place when it is new
  const lastText = last === undefined ? lastLaid(view) : last;
  const lastKey = lastText ? keyOf(lastText) : null;
  if (lastKey) {
    for (const node of svg.querySelectorAll("g.layout g.tile")) {
      if (keyOf(node.dataset.tile || "") !== lastKey) continue;
      node.classList.add("last");
      const face = node.querySelector("rect.face");
      el("rect", { x: -2.5, y: -2.5, width: Number(face.getAttribute("width")) + 5,
        height: Number(face.getAttribute("height")) + 5, rx: 5, class: "outline" }, node);
      if (svg.dataset.last !== lastKey) {
        const wrap = el("g", { class: "arrive" });
        node.replaceWith(wrap);
        wrap.append(node);
      }
    }
  }
  svg.dataset.last = lastKey || "";
  // points scored by the move just made (the fives family's count) rise from its tile
  const scoring = (view.extra && view.extra.scoring) || [];
  const mark = lastKey && svg.querySelector("g.layout g.tile.last rect.face");
  if (mark && svg.memo.scored !== undefined && scoring.length === svg.memo.scored + 1) {
    const at = mark.closest("g.tile").getAttribute("transform").match(/-?[\d.]+(?:e[-+]?\d+)?/g).map(Number);
    const w = Number(mark.getAttribute("width"));
    const gain = label(layout, at[0] + w / 2, at[1] - 6, `+${scoring[scoring.length - 1][1]}`,
      { "text-anchor": "middle", class: "label gain" });
    gain.setAttribute("id", "gain");
  }
  svg.memo.scored = scoring.length;
  // Kolbasa's front tile, newly turned over, flips (180 ms)
  const front = svg.querySelector("g.seats g.tile.front");
  if (front && svg.memo.front !== front.dataset.tile) {
    const wrap = el("g", { class: "flip" });
    front.replaceWith(wrap);
    wrap.append(front);
  }
  svg.memo.front = front ? front.dataset.tile : null;
  if (svg.memo.drawn) slide(svg, before);
  svg.memo.drawn = true;
  if (onTile) {
    for (const node of svg.querySelectorAll("g.tile")) {
      if (playable.has(node.dataset.tile)) {
        node.classList.add("playable");
        if (node.dataset.tile === selected) node.classList.add("selected");
        node.addEventListener("click", () => onTile(node.dataset.tile));
        // and from the keyboard: Tab to it, Enter or Space to pick it
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTile(node.dataset.tile); }
        });
      }
    }
  }
  const h = height ? Math.max(height, bottom + pad) : bottom + pad;
  const w = wide + 2 * pad;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  // drawn at its own size where it is larger than it was given (the tiles never shrink below
  // UMIN): it scrolls within its area, first shown at its middle
  if (w > width) svg.style.minWidth = `${w}px`;
  if (height && h > height) svg.style.height = `${h}px`;
  const wrap = svg.parentElement;
  if (wrap && w > width && !svg.memo.panned) {
    // a tree pans from its engine, in the middle
    wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
    if (area.middle) wrap.scrollTop = (wrap.scrollHeight - wrap.clientHeight) / 2;
    svg.memo.panned = true;
  }
  svg.setAttribute("lang", lang);
  return spots;
}
