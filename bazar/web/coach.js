// The coach on the page: an analysis asked for and followed until it is made, the graph of
// each side's chance to win move by move, the marks of the move list, and the advice in words.
import { N_, t } from "./i18n.js";
import { tileText } from "./words.js";
import { el } from "./tiles.js";
import { api, h } from "./dom.js";

//: a side's line on the graph, a seat each (the rating chart's colours)
export const COLOURS = ["#15803d", "#2563eb", "#dc2626", "#ca8a04"];

//: the marks' words, by grade
const GRADE_CLASS = { inaccuracy: "mark-inaccuracy", mistake: "mark-mistake", blunder: "mark-blunder" };

// Asks for an analysis at `url` until it is made, telling `progress` each answer on the way
// (queued: how many ahead; running: positions valued of all); the analysis, with its seats.
export async function analysed(url, body, progress) {
  for (;;) {
    const said = await api(url, body || {});
    if (said.state === "done") return said;
    progress(said);
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
}

// Where an analysis stands, in words.
export function progressText(said) {
  if (said.state === "queued") return t("coachQueued", { ahead: said.ahead });
  if (said.total) return t("coachRunning", { done: said.done, total: said.total, percent: Math.round((100 * said.done) / said.total) });
  return t("coachStarting");
}

// Why the better move is better, in the yard's words ("" where no principle applies): its
// moves said by `said`, its seats by `names`. A hint says it of the move it offers
// (`hint`): "keeps your suits", not "the better move kept them".
const WHY = { fish: N_("why.fish"), void: N_("why.void"), score: N_("why.score"),
  double: N_("why.double"), heavy: N_("why.heavy"), variety: N_("why.variety") };
const HINT_WHY = { fish: N_("hintWhy.fish"), void: N_("hintWhy.void"), score: N_("hintWhy.score"),
  double: N_("hintWhy.double"), heavy: N_("hintWhy.heavy"), variety: N_("hintWhy.variety") };

export function adviceText(advice, said = (m) => m, names = (s) => String(s + 1), hint = null) {
  const key = advice && (hint ? HINT_WHY : WHY)[advice.code];
  if (!key) return "";
  const { code, ...params } = advice;
  // a hint's advice weighs its move against the next best
  const shown = hint ? { played: hint.against, ...params } : { ...params };
  for (const k of ["best", "played"]) if (k in shown) shown[k] = said(shown[k]);
  if ("tile" in shown) shown.tile = tileText(shown.tile);
  // the seat of the player who lacks a pip, counted from 1, by his name
  if ("seat" in shown) shown.name = names(Number(shown.seat) - 1);
  return t(key, shown);
}

// A grade's word ("blunder", «зевок»), and its mark as the move list shows it.
export function gradeWord(grade) { return t(`grade.${grade}`); }

export function markOf(move) {
  if (!move.symbol) return "";
  return h("span", { class: `mark ${GRADE_CLASS[move.grade]}`, title: gradeWord(move.grade),
    "aria-label": gradeWord(move.grade) }, move.symbol);
}

// The accuracy table: a player a row, his accuracy and how many of each mark.
export function accuracyTable(analysis, names) {
  const head = h("tr", {}, h("th", { scope: "col" }, t("playersCol")), h("th", { scope: "col", class: "num" }, t("accuracy")),
    ["inaccuracy", "mistake", "blunder"].map((g) => h("th", { scope: "col", class: "num" }, `${gradeWord(g)} ${{ inaccuracy: "?!", mistake: "?", blunder: "??" }[g]}`)));
  const rows = analysis.players.map((p) => h("tr", { "data-seat": p.seat },
    h("th", { scope: "row" }, h("span", { class: "swatch", style: `--swatch: ${COLOURS[p.seat % COLOURS.length]}` }), names(p.seat)),
    h("td", { class: "num" }, p.accuracy === null ? "—" : `${p.accuracy}%`),
    ["inaccuracy", "mistake", "blunder"].map((g) => h("td", { class: "num" }, p.grades[g] || 0))));
  return h("div", { class: "table-wrap" }, h("table", { class: "list accuracy", id: "coach-accuracy" },
    h("thead", {}, head), h("tbody", {}, rows)));
}

// Each graded side's chance to win the match after each of its moves, over the whole match:
// a line a seat, each marked move a dot of its mark's colour. A click on the graph goes to the
// move nearest it (`go(at)`); the keyboard reaches the same through the move list.
export function winGraph(analysis, plies, width, go) {
  const W = Math.max(280, Math.min(720, width)), H = 150, left = 34, right = 8, top = 8, bottom = 20;
  const x = (at) => left + ((at + 1) / Math.max(1, plies)) * (W - left - right);
  const y = (p) => top + (1 - p) * (H - top - bottom);
  const svg = el("svg", { class: "chart coach-graph", id: "coach-graph", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": t("winGraph") });
  for (const p of [0, 0.5, 1]) {
    el("line", { class: "grid", x1: left, x2: W - right, y1: y(p), y2: y(p) }, svg);
    el("text", { x: left - 4, y: y(p) + 4, "text-anchor": "end" }, svg).textContent = `${Math.round(p * 100)}%`;
  }
  const cursor = el("line", { class: "cursor", x1: left, x2: left, y1: top, y2: H - bottom }, svg);
  for (const seat of analysis.seats) {
    const moves = analysis.moves.filter((m) => m.seat === seat);
    if (!moves.length) continue;
    const colour = COLOURS[seat % COLOURS.length];
    const line = el("polyline", { stroke: colour, points: moves.map((m) => `${x(m.at)},${y(m.win_after)}`).join(" ") }, svg);
    line.dataset.seat = seat;
    for (const m of moves.filter((mv) => mv.symbol)) {
      const dot = el("circle", { cx: x(m.at), cy: y(m.win_after), r: 4, class: GRADE_CLASS[m.grade] }, svg);
      el("title", {}, dot).textContent = `${m.played} ${m.symbol}`;
    }
  }
  svg.addEventListener("click", (e) => {
    const box = svg.getBoundingClientRect();
    const at = Math.round(((e.clientX - box.left) * (W / box.width) - left) / ((W - left - right) / Math.max(1, plies))) - 1;
    go(Math.max(0, Math.min(plies - 1, at)));
  });
  // the move on the board, as a line across the graph
  function place(at) {
    const shown = at === null ? null : x(at);
    cursor.setAttribute("x1", shown ?? left);
    cursor.setAttribute("x2", shown ?? left);
    cursor.style.display = shown === null ? "none" : "";
  }
  return { svg, place };
}

// One graded move in words: "6|6 ?? — best 6|4: …why…" (the best move alone where it was played).
export function gradedText(move, said, names) {
  if (move.grade === "forced") return t("coachForced", { played: said(move.played) });
  if (move.is_best) return t("coachBest", { played: said(move.played) });
  const why = adviceText(move.advice, said, names);
  const lost = Math.round(move.loss * 50);
  if (!move.symbol && lost < 1) {
    const almost = t("coachAlmost", { played: said(move.played), best: said(move.best) });
    return why ? `${almost} ${why}` : almost;
  }
  const line = t("coachBetter", { played: said(move.played), best: said(move.best), grade: move.symbol ? gradeWord(move.grade) : t("coachFine"), lost });
  return why ? `${line} ${why}` : line;
}
