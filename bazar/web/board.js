// The board of every game family drawn in SVG, with the seats' tiles under it. One picture
// serves the table and the replay: a view (what a seat may know) and, where the whole deal is
// public, every hand.
import { t } from "./i18n.js";
import { GAP, el, label, parseTile, row, tile } from "./tiles.js";

const S = 26; // the side of a half tile on the board
const SMALL = 16; // the side of a half tile in a seat's row
const MARGIN = 30;
const LABEL = 110; // the width of the labels in front of trains and branches

// The kind of a view's board (docs/api.md, "Boards"): "line", "cross", "trains", "tree",
// "kolbasa", "trick" or "poker".
export function kindOf(view) { return view.board.kind; }

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

// Where a box of tiles reaches: grown by each thing drawn, read for the viewBox.
class Extent {
  constructor() { this.x0 = Infinity; this.y0 = Infinity; this.x1 = -Infinity; this.y1 = -Infinity; }
  add(x0, y0, x1, y1) {
    this.x0 = Math.min(this.x0, x0); this.y0 = Math.min(this.y0, y0);
    this.x1 = Math.max(this.x1, x1); this.y1 = Math.max(this.y1, y1);
  }
  get empty() { return this.x0 > this.x1; }
}

// A lane (a train, a branch) that can be picked as a whole: a band under its tiles.
function band(group, y, width, bottom) {
  const rect = el("rect", { x: -4, y: y - 4, width: width + 8, height: bottom - y + 4, rx: 6,
    class: "band" });
  group.prepend(rect);
}

// ---- the families' layouts: each draws into g and returns where its open ends are ----------

// A line, wrapped in rows; a closed double stays face down. Returns each tile's box too.
function laidRow(g, tiles, width, box) {
  const { boxes, bottom } = row(g, tiles, 0, 0, { right: width, s: S });
  box.add(0, 0, width, Math.max(bottom, 2 * S));
  const first = boxes[0], last = boxes[boxes.length - 1];
  return {
    boxes,
    L: first ? [first[0] - 18, first[1] + S] : [width / 2 - 30, S],
    R: last ? [last[0] + last[2] + 18, last[1] + S] : [width / 2 + 30, S],
  };
}

function drawLine(g, view, width, box) {
  const { L, R } = laidRow(g, view.board.line, width, box);
  return { L, R };
}

// How long a tile lies along a line: a double stands across it.
function span(text) {
  const [a, b] = parseTile(text);
  return a === b ? S : 2 * S;
}

// A tile in the notation of a board's tile list ("6-4", the high half first).
function tileKey([a, b]) { return a < b ? `${b}-${a}` : `${a}-${b}`; }

// The cross: the line through the spinner, which lies across it, the arms U up and D down;
// a closed double is drawn face down (a row draws "#a|a#" so).
function drawCross(g, view, width, box) {
  const closed = new Set(view.board.closed);
  const shown = (tiles) => tiles.map((text) => (closed.has(tileKey(parseTile(text))) ? `#${text}#` : text));
  const { spinner } = view.board;
  const [line, up, down] = [view.board.line, view.board.U, view.board.D].map(shown);
  const centre = line.indexOf(`${spinner}|${spinner}`);
  if (spinner === null || centre < 0) {
    const { L, R } = laidRow(g, line, width, box);
    return { L, R };
  }
  // the spinner's left edge at x = 0, the line's middle on y = 0
  const xs = [];
  let x = 0;
  for (const text of line) { xs.push(x); x += span(text) + GAP; }
  const shift = xs[centre];
  line.forEach((text, i) => {
    const [a, b] = parseTile(text);
    const at = xs[i] - shift, across = a === b;
    tile(g, at, across ? -S : -S / 2, a, b, across, S, text.startsWith("#") ? "closed" : "")
      .dataset.tile = text;
    box.add(at, -S, at + span(text), S);
  });
  // an arm's tile "a|b" has a next to the spinner; returns where the arm's end is
  function arm(tiles, sign) {
    let edge = sign * S; // the far edge of what is laid so far
    for (const text of tiles) {
      const [a, b] = parseTile(text);
      const across = a === b, h = across ? S : 2 * S, left = across ? -S / 2 : 0;
      const top = sign < 0 ? edge - GAP - h : edge + GAP;
      const [first, second] = sign < 0 ? [b, a] : [a, b];
      tile(g, left, top, first, second, !across, S, text.startsWith("#") ? "closed" : "")
        .dataset.tile = text;
      box.add(left, top, left + (across ? 2 * S : S), top + h);
      edge = sign < 0 ? top : top + h;
    }
    return edge + sign * 18;
  }
  const top = arm(up, -1), bottom = arm(down, 1);
  const last = line.length - 1;
  return {
    L: [xs[0] - shift - 18, 0], R: [xs[last] - shift + span(line[last]) + 18, 0],
    U: [S / 2, top], D: [S / 2, bottom],
    // the spinner's free slot starts the arm up, then the arm down
    S: up.length ? [S / 2, bottom] : [S / 2, top],
  };
}

// A name cut to n characters, so that it keeps out of the tiles beside it.
function clip(name, n) { return name.length > n ? `${name.slice(0, n - 1)}…` : name; }

// Lanes under an engine: one row per train or branch, each named by `name`, wrapped. On a
// narrow screen the names go above the rows, which then have the whole width.
function drawLanes(g, engine, engineName, lanes, width, box, marked = () => false) {
  const spots = {};
  const stacked = width < 480;
  const head = stacked ? 18 : 0; // the room a name takes above its row
  const start = stacked ? 0 : LABEL; // where the rows begin
  const [e] = parseTile(engine);
  label(g, 0, stacked ? 12 : S / 2 + 5, engineName);
  tile(g, start, head, e, e, false, S, "engine").dataset.tile = engine;
  spots.E = [start + 2 * S + 18, head + S / 2];
  let y = head + S + 16;
  for (const { id, tiles, name, depth = 0, cls = "" } of lanes) {
    const indent = start + depth * 14;
    const group = el("g", { class: `lane ${cls}`, "data-end": id }, g);
    const mark = marked(id) ? 16 : 0;
    if (mark) el("circle", { cx: depth * 14 + 6, cy: y + (stacked ? 8 : S), r: 6, class: "marker" }, group);
    label(group, depth * 14 + mark, y + (stacked ? 12 : S + 5), stacked ? name : clip(name, 14 - mark / 8));
    const { after, bottom } = row(group, tiles, indent, y + head, { right: width, indent, s: S });
    band(group, y, width, tiles.length ? bottom : y + head + 2 * S + 8);
    spots[id] = [tiles.length ? after[0] + 15 : indent + 15, after[1]];
    y = (tiles.length ? bottom : y + head + 2 * S + 8) + 4;
  }
  box.add(0, 0, width, y);
  return spots;
}

function drawTrains(g, view, width, box, names) {
  const { engine, trains } = view.board;
  const extra = view.extra || {};
  const markers = new Set(extra.markers || []);
  const unsatisfied = new Set(extra.unsatisfied || []);
  const ids = [...new Set([...Object.keys(trains), ...Object.keys(view.ends || {})])]
    .filter((id) => id !== "E")
    .sort((a, b) => (a === "M") - (b === "M") || Number(a) - Number(b));
  const lanes = ids.map((id) => ({
    id, tiles: trains[id] || [],
    name: id === "M" ? t("mexicanTrain") : names(Number(id)),
    cls: `train${markers.has(id) ? " marked" : ""}${unsatisfied.has(id) ? " unsatisfied" : ""}`,
  }));
  return drawLanes(g, engine, t("engine"), lanes, width, box, (id) => markers.has(id));
}

function drawTree(g, view, width, box) {
  const { engine, branches } = view.board;
  const path = (id) => id.split(".").map(Number);
  const ids = [...new Set([...Object.keys(branches), ...Object.keys(view.ends || {})])]
    .filter((id) => id !== "E")
    .sort((a, b) => {
      const p = path(a), q = path(b);
      for (let i = 0; i < Math.min(p.length, q.length); i++) if (p[i] !== q[i]) return p[i] - q[i];
      return p.length - q.length;
    });
  const lanes = ids.map((id) => ({ id, tiles: branches[id] || [], name: id, depth: path(id).length - 1,
    cls: "branch" }));
  return drawLanes(g, engine, t("engine"), lanes, width, box);
}

// The sausage: its start on the left, the open end R on the right; joint j (a cut) lies
// between tile j - 1 and tile j.
function drawKolbasa(g, view, width, box) {
  const { boxes, R } = laidRow(g, view.board.sausage, width, box);
  const spots = { R };
  boxes.slice(1).forEach(([x, y], i) => { spots[String(i + 1)] = [x - GAP / 2, y + S]; });
  return spots;
}

// The trick on the table: each tile over the name of who played it; the contract above.
function drawTrick(g, view, width, box, names) {
  const x = view.extra || {};
  const lines = [];
  if (x.bid) lines.push(t("contract", { bid: x.bid, name: names(x.bidder) }));
  if (x.trumps !== null && x.trumps !== undefined) lines.push(t("trumpsAre", { suit: x.trumps }));
  if (x.points) lines.push(t("sidePoints", { a: x.points[0], b: x.points[1] }));
  if (x.tricks) lines.push(t("tricksTaken", { n: x.tricks.length }));
  if (x.phase === "bidding") lines.push(t("bidding"));
  lines.forEach((text, i) => label(g, 0, 16 + i * 18, text));
  const top = 16 + lines.length * 18;
  const { trick } = view.board;
  trick.forEach(([seat, text], i) => {
    const [a, b] = parseTile(text);
    const at = i * (S + 40);
    tile(g, at, top, a, b, true, S, "played").dataset.tile = text;
    label(g, at + S / 2, top + 2 * S + 14, names(seat), { "text-anchor": "middle" });
  });
  box.add(0, 0, Math.min(width, Math.max(4 * (S + 40), 200)), trick.length ? top + 2 * S + 20 : top);
  return {};
}

// Poker has no layout: the pot and the bets; the hands are the seats' rows.
function drawPot(g, view, width, box) {
  const x = view.extra || {};
  label(g, 0, 18, t("potChips", { n: x.pot ?? 0 }));
  box.add(0, 0, Math.min(width, 200), 24);
  return {};
}

// ---- the seats -----------------------------------------------------------------------------

// What each seat's row shows: its tiles face up where known, else as many face down.
function seatTiles(view, s, hands) {
  if (hands && hands[s]) return hands[s];
  const shown = view.outcome && view.outcome.remaining && view.outcome.remaining[s];
  if (shown) return shown;
  const n = view.hand_sizes[s];
  const front = kindOf(view) === "kolbasa" && view.turn === s && view.extra.front;
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

function drawSeats(g, view, seats, hands, names, y, width, box) {
  for (const s of seats) {
    const group = el("g", { class: `seat${view.turn === s ? " turn" : ""}`, "data-seat": s }, g);
    const note = seatNote(view, s);
    label(group, 0, y + 12, `${names(s)}${note ? ` · ${note}` : ""}`);
    const tiles = seatTiles(view, s, hands);
    const { bottom } = row(group, tiles, 0, y + 18, { right: width, s: SMALL, standing: true });
    y = (tiles.length ? bottom : y + 18) + 6;
  }
  box.add(0, 0, width, y);
}

// An open end the chosen tile fits, at `at` (a spot drawBoard returned): a socket showing
// the number it needs (`text`), which plays there when clicked.
export function drawSocket(svg, end, at, text, onPlay) {
  const g = el("g", { class: "end", "data-end": end }, svg);
  el("circle", { cx: at[0], cy: at[1], r: 14 }, g);
  const pip = el("text", { x: at[0], y: at[1] + 5, "text-anchor": "middle" }, g);
  pip.textContent = text;
  g.addEventListener("click", (e) => { e.stopPropagation(); onPlay(); });
  return g;
}

// ---- the picture ---------------------------------------------------------------------------

const LAYOUTS = {
  line: drawLine, cross: drawCross, trains: drawTrains, tree: drawTree, kolbasa: drawKolbasa,
  trick: drawTrick, poker: drawPot,
};

// Draws the board of `view` into svg and returns where each open end is ({end: [x, y]}).
// Options: width (where rows wrap), names(seat), hands (every hand, where the deal is public),
// playable (tiles the viewer may pick on the board) and onTile(text) when he does.
export function drawBoard(svg, view, { width = 640, names = (s) => t("seatN", { n: s + 1 }), hands = null,
  playable = new Set(), selected = null, onTile = null } = {}) {
  svg.replaceChildren();
  const kind = kindOf(view);
  svg.dataset.kind = kind;
  const layout = el("g", { class: "layout" }, svg);
  const box = new Extent();
  const spots = LAYOUTS[kind](layout, view, width - 2 * MARGIN, box, names);
  for (const at of Object.values(spots)) box.add(at[0] - 16, at[1] - 16, at[0] + 16, at[1] + 16);
  const room = width - 2 * MARGIN - (box.x1 - box.x0);
  if (kind === "cross" && room > 0) {
    // a small cross in the middle of the table, the seats' rows under it from the left
    layout.setAttribute("transform", `translate(${room / 2},0)`);
    for (const at of Object.values(spots)) at[0] += room / 2;
    box.add(box.x0, box.y0, box.x1 + room, box.y1);
  }
  // the seats' rows go under the layout; the viewer's own hand is drawn apart (unless hidden)
  const n = view.hand_sizes.length;
  const seats = [...Array(n).keys()].filter((s) => hands
    || (["kolbasa", "poker", "trick"].includes(kind) && !(s === view.seat && view.hand)));
  if (seats.length) {
    const left = box.empty ? 0 : box.x0;
    const group = el("g", { class: "seats", transform: `translate(${left},0)` }, svg);
    const seatsBox = new Extent();
    drawSeats(group, view, seats, hands, names, (box.empty ? 0 : box.y1) + 12, width - 2 * MARGIN,
      seatsBox);
    box.add(left, seatsBox.y0, left + seatsBox.x1, seatsBox.y1);
  }
  if (box.empty) box.add(0, 0, 200, 40);
  if (onTile) {
    for (const node of svg.querySelectorAll("g.tile")) {
      if (playable.has(node.dataset.tile)) {
        node.classList.add("playable");
        if (node.dataset.tile === selected) node.classList.add("selected");
        node.addEventListener("click", () => onTile(node.dataset.tile));
      }
    }
  }
  // never narrower than the page: a small layout keeps the size of a large one's tiles
  const w = Math.max(box.x1 - box.x0 + 2 * MARGIN, width), h = box.y1 - box.y0 + 2 * MARGIN;
  const x0 = box.x0 - MARGIN - Math.max(0, width - (box.x1 - box.x0 + 2 * MARGIN)) / 2;
  svg.setAttribute("viewBox", `${x0} ${box.y0 - MARGIN} ${w} ${h}`);
  // a cross wider than the screen scrolls rather than shrinking its tiles out of sight
  svg.style.minWidth = w > width * 1.05 ? `${Math.round(w * 0.7)}px` : "";
  return spots;
}
