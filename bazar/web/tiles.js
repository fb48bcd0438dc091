// Dominoes drawn in SVG: tiles, a line layout wrapped in rows, a hand.
const NS = "http://www.w3.org/2000/svg";
const PIPS = {
  0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]], 5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
};

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function half(g, x, y, s, n) {
  if (n in PIPS) {
    for (const [r, c] of PIPS[n]) {
      el("circle", { cx: x + s * (0.22 + 0.28 * c), cy: y + s * (0.22 + 0.28 * r), r: s * 0.09,
        class: "pip" }, g);
    }
  } else {
    const text = el("text", { x: x + s / 2, y: y + s * 0.68, "text-anchor": "middle",
      "font-size": s * 0.5, class: "pip" }, g);
    text.textContent = n;
  }
}

// A tile with halves a (left or top) and b; s is the side of a half.
export function tile(parent, x, y, a, b, vertical, s = 30, cls = "") {
  const g = el("g", { class: `tile ${cls}`, transform: `translate(${x},${y})` }, parent);
  const w = vertical ? s : 2 * s, h = vertical ? 2 * s : s;
  el("rect", { x: 0, y: 0, width: w, height: h, rx: 4, class: "face" }, g);
  if (vertical) {
    el("line", { x1: 3, y1: s, x2: s - 3, y2: s }, g);
    half(g, 0, 0, s, a); half(g, 0, s, s, b);
  } else {
    el("line", { x1: s, y1: 3, x2: s, y2: s - 3 }, g);
    half(g, 0, 0, s, a); half(g, s, 0, s, b);
  }
  return g;
}

export function parseTile(text) {
  const m = /^(\d+)[-|](\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

// A line layout ("a|b" left to right) in rows; returns the svg and where the ends L and R are.
export function drawLine(svg, board, width = 640, s = 26) {
  svg.replaceChildren();
  let x = 40, y = 10, rowH = 2 * s + 10;
  const places = [];
  for (const text of board) {
    const [a, b] = parseTile(text) || [0, 0];
    const double = a === b;
    const w = double ? s : 2 * s;
    if (x + w > width - 40) { x = 40; y += rowH; }
    places.push([x, y, a, b, double]);
    x += w + 3;
  }
  for (const [px, py, a, b, double] of places) {
    if (double) tile(svg, px, py, a, b, true, s);
    else tile(svg, px, py + s / 2, a, b, false, s);
  }
  const height = y + rowH + 10;
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.max(height, 80)}`);
  const first = places[0], last = places[places.length - 1];
  return {
    L: first ? [first[0] - 18, first[1] + s] : [width / 2 - 30, 40],
    R: last ? [last[0] + (last[4] ? s : 2 * s) + 18, last[1] + s] : [width / 2 + 30, 40],
  };
}

export function drawHand(svg, hand, playable, selected, onClick, s = 30) {
  svg.replaceChildren();
  const gap = 6;
  hand.forEach((text, i) => {
    const [a, b] = parseTile(text) || [0, 0];
    const cls = (playable.has(text) ? "playable" : "") + (selected === text ? " selected" : "");
    const g = tile(svg, 4 + i * (s + gap), 4, a, b, true, s, cls);
    g.dataset.tile = text;
    if (playable.has(text)) g.addEventListener("click", () => onClick(text));
  });
  svg.setAttribute("viewBox", `0 0 ${Math.max(8 + hand.length * (s + gap), 200)} ${2 * s + 8}`);
}
