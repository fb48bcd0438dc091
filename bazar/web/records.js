// Stored matches: the history, and a match replayed position by position.
import { N_, lang, t } from "./i18n.js";
import { drawBoard, endOf, tileOf } from "./board.js";
import { el, tile } from "./tiles.js";
import { api, go, h, main, session } from "./dom.js";
import { COLOURS, accuracyTable, analysed, gradedText, markOf, progressText, winGraph } from "./coach.js";
import { badge, boardWidth, gameName, guestMark, keepsAccounts, logText, recordPlayer,
  recordPlayers } from "./words.js";

// A moment in the page's language: "1 Dec 2026, 16:40", «1 дек. 2026 г., 16:40».
function when(seconds) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}

// The seats of each side: one side per seat, or partners opposite (0+2, 1+3) where the
// ledger keeps one score per side.
function sides(r, count) {
  const n = r.players.length;
  return [...Array(count).keys()].map((side) => [...Array(n).keys()].filter((s) => s % count === side));
}

// A side by its players' names ("Olya + Kolya").
function sideName(r, seats) { return seats.map((s) => recordPlayer(r, s)).join(" + "); }

// A player's name as the history lists it: a registered player's links to the profile, a
// guest's is marked, a bot's and a numbered player's are plain.
function playerCell(r, s) {
  const guests = r.summary.guests || [];
  const bot = r.summary.bots && r.summary.bots[s];
  if (r.uploaded || bot || guests.includes(s)) return h("span", {}, recordPlayer(r, s) + guestMark(guests.includes(s)));
  return h("a", { href: `/profile/${encodeURIComponent(r.players[s])}` }, r.players[s]);
}

// How a match ended, in words: who won (the goat or the donkey where the yards name the
// loser), or why it was interrupted.
function outcomeText(r) {
  const s = r.summary;
  const names = (seats) => seats.map((x) => recordPlayer(r, x)).join(", ");
  const ending = s.ending || {};
  if (ending.timeout !== undefined && ending.timeout !== null) {
    return t(ending.gone ? N_("gone") : N_("timeout"), { name: recordPlayer(r, ending.timeout) });
  }
  if (ending.deserted) return t("deserted");
  const titles = { goat: N_("goatIs"), donkey: N_("donkeyIs") };
  if (r.loser in titles && (s.losers || []).length) return t(titles[r.loser], { names: names(s.losers) });
  if ((s.winners || []).length) return t("wonBy", { names: names(s.winners) });
  if ((s.losers || []).length) return t("nobodyWon");
  return t("unfinished");
}

// Among one player's matches, how each went for him: a win or a loss, marked in words and in
// colour (nothing where he neither won nor lost), in the words of marks (yours or his).
function resultMark(r, marks) {
  const seats = r.seats || [];
  const { winners = [], losers = [] } = r.summary;
  // a space after the mark, so that it is read as a word of its own
  if (seats.some((s) => winners.includes(s))) return [h("span", { class: "chip won" }, t(marks.won)), " "];
  if (seats.some((s) => losers.includes(s))) return [h("span", { class: "chip lost" }, t(marks.lost)), " "];
  return "";
}

//: the marks of a match that was yours, and of one of another player's
export const YOURS = { won: N_("youWon"), lost: N_("youLost") };
export const HIS = { won: N_("aWin"), lost: N_("aLoss") };

// The final scores in words: "Olya 103 · Kolya 0", one entry per side.
function scoresText(r) {
  const scores = (r.summary.scores || {}).scores || [];
  return sides(r, scores.length).map((seats, i) => `${sideName(r, seats)} ${scores[i]}`).join(" · ");
}

// One page of records as rows of the history's table, each cell labelled for a phone,
// where a row reads as a card.
function recordRows(records, marks) {
  const cell = (label, ...content) => h("td", { "data-label": t(label) }, ...content);
  return records.map((r) => h("tr", { "data-id": r.id },
    cell(N_("date"), h("time", { datetime: new Date(r.created * 1000).toISOString() }, when(r.created))),
    cell(N_("game"), gameName(r.game), r.uploaded ? h("span", { class: "small" }, ` · ${t("uploaded")}`) : ""),
    cell(N_("playersCol"), r.players.flatMap((_, s) => (s ? [", ", playerCell(r, s)] : [playerCell(r, s)]))),
    cell(N_("result"), marks ? resultMark(r, marks) : "", outcomeText(r)),
    cell(N_("points"), scoresText(r)),
    h("td", { class: "links" }, h("a", { href: `/replay/${r.id}` }, t("replay")),
      h("a", { href: `/api/records/${r.id}?download=1`, download: `bazar-${r.id}.json` }, t("download")))));
}

// A list of records, a page at a time: "more" asks for the next page. One player's
// matches (the query names him) carry marks: how each went for him.
export function recordList(title, query, id, marks = null) {
  const body = h("tbody");
  const empty = h("p", { class: "hint" });
  const more = h("button", { class: "secondary more", onclick: () => page() }, t("more"));
  const head = h("thead", {}, h("tr", {}, [N_("date"), N_("game"), N_("playersCol"), N_("result"), N_("points")]
    .map((k) => h("th", { scope: "col" }, t(k))), h("th", {}, "")));
  let offset = 0;
  async function page() {
    more.disabled = true;
    const { records, more: left } = await api(`/api/records?${query}offset=${offset}`);
    offset += records.length;
    body.append(...recordRows(records, marks));
    empty.textContent = offset ? "" : t("noRecords");
    more.hidden = !left;
    more.disabled = false;
  }
  const section = h("section", { id }, h("h2", {}, title),
    h("table", { class: "list records" }, head, body), empty, more);
  return { section, ready: page() };
}

// The height a replay's board fills: about half the window, within what reads well, so that
// the layout and the hands are drawn at the size of the table's, not squeezed into a strip.
function boardHeight() { return Math.round(Math.min(480, Math.max(260, innerHeight * 0.55))); }

export async function historyPage() {
  // the browser's own file button speaks the browser's language, not the page's: it is
  // hidden behind a label of the page's, and the chosen file's name is said beside it
  const file = h("input", { type: "file", accept: ".json,application/json", id: "record-file",
    class: "sr-only" });
  const chosen = h("span", { class: "hint", id: "record-chosen" }, t("noFileChosen"));
  const error = h("div", { class: "error" });
  file.addEventListener("change", () => {
    chosen.textContent = file.files[0] ? file.files[0].name : t("noFileChosen");
  });
  const upload = h("form", { class: "grid", onsubmit: async (e) => {
    e.preventDefault();
    if (!file.files[0]) { error.textContent = t("noFileChosen"); return; }
    try { const r = await api("/api/records", await file.files[0].text(), true); go(`/replay/${r.id}`); }
    catch (err) { error.textContent = err.message; }
  } }, h("label", { for: "record-file", class: "button secondary", tabindex: "0",
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); file.click(); } } },
  t("chooseRecord")), file, chosen, h("button", {}, t("upload")));
  // your own matches first, the last ten
  const lists = session.me ? [recordList(t("yourMatches"), "mine=1&limit=10&", "mine", YOURS)] : [];
  lists.push(recordList(t("allMatches"), "", "all"));
  await Promise.all(lists.map((l) => l.ready));
  main.replaceChildren(h("h2", { class: "page" }, t("history")), ...lists.map((l) => l.section),
    h("section", {}, upload, error));
}

// How a round ended, in words: who went out, or a fish.
function roundEnd(result, names) {
  if (result.reason === "out" && result.out !== null) return t("wentOut", { name: names(result.out) });
  if (result.reason === "fish") return t("fish");
  return "";
}

// A stored match, position by position: the board and every hand (a finished record is public),
// its moves in words by round, the scores after each round, and its deals' proofs.
export async function replayPage(id) {
  const meta = await api(`/api/records/${id}`);
  const names = (s) => recordPlayer(meta, s);
  const rules = meta.record.rules;
  const boardSvg = el("svg", { class: "board", id: "board" });
  const felt = h("div", { class: "felt" });
  const info = h("div", { class: "status", id: "replay-status", role: "status" });
  const moveList = h("div", { class: "movelist", id: "replay-moves" });
  // every position in order, as (ply, end): a round that is over is seen at its end, with its
  // last move, before the next deal, which the same ply starts
  const rounds = meta.record.rounds.map((r, i) => ({ ...r, ...(meta.results[i] || {}) }));
  const positions = [];
  let first = 0;
  for (const [i, r] of rounds.entries()) {
    r.first = first;
    r.index = positions.length;
    for (let k = 0; k < r.moves.length; k++) positions.push({ ply: first + k, end: false });
    first += r.moves.length;
    const next = i + 1 < rounds.length;
    positions.push({ ply: first, end: next });
  }
  const slider = h("input", { type: "range", min: 0, max: positions.length - 1, value: 0,
    style: "width:100%", "aria-label": t("move") });
  let at = 0, asked = 0;
  // where the shown position's open ends are on the board (the coach's best move goes there)
  let spots = {};
  async function show(index) {
    if (index < 0 || index >= positions.length) return;
    const ask = ++asked;
    const { ply, end } = positions[index];
    const pos = await api(`/api/records/${id}/position?ply=${ply}${end ? "&end=1" : ""}`);
    if (ask !== asked) return; // a later step was asked for meanwhile
    at = index; slider.value = index;
    const last = pos.last ? tileOf(pos.last) : null;
    spots = drawBoard(boardSvg, pos.view, { width: boardWidth(boardSvg.parentElement || felt), height: boardHeight(), names, hands: pos.hands,
      last });
    const parts = [t("round", { n: pos.round }), `${t("move")} ${pos.ply}/${pos.plies}`];
    // (its view is the position after the move: its ends are not those the move was laid on)
    if (pos.last) parts.push(`${t("lastMove")}: ${logText({ board: pos.view.board, rules: pos.view.rules }, pos.last, names)}`);
    const result = rounds.find((r) => r.number === pos.round);
    if (pos.over && result) parts.push(roundEnd(result, names));
    if (index === positions.length - 1 && meta.summary.rounds) parts.push(outcomeText(meta));
    else if (pos.view.turn !== null) parts.push(t("turnOf", { name: names(pos.view.turn) }));
    info.replaceChildren(...parts.filter(Boolean).map((p) => h("span", {}, p)));
    felt.dataset.ply = pos.ply;
    // the address names the position, to be sent to someone or opened again
    history.replaceState(history.state, "", `${location.pathname}?ply=${pos.ply}${end ? "&end=1" : ""}`);
    jump.value = String(pos.round);
    main.querySelectorAll("#replay-scores tr[data-round]").forEach((tr) => {
      tr.classList.toggle("current", tr.dataset.round === String(pos.round));
    });
    mark(pos.ply, end);
    coached(pos.ply);
  }
  // the move just made is marked in the list, and scrolled to within it
  function mark(ply, end) {
    moveList.querySelectorAll("[aria-current]").forEach((b) => b.removeAttribute("aria-current"));
    const move = ply > 0 && moveList.querySelector(`[data-ply='${ply}']`);
    const start = !end && moveList.querySelector(`[data-start='${ply}']`);
    const here = start || move;
    if (here) {
      here.setAttribute("aria-current", "step");
      const top = here.offsetTop - moveList.offsetTop;
      if (top < moveList.scrollTop || top > moveList.scrollTop + moveList.clientHeight - here.offsetHeight) {
        moveList.scrollTop = top - moveList.clientHeight / 2;
      }
    }
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  // the arrow keys step, Home and End jump (one handler: a later page replaces it)
  document.onkeydown = (e) => {
    if (!felt.isConnected || e.target.closest("input, textarea, select")) return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: positions.length - 1 }[e.key];
    if (to !== undefined && to >= 0 && to < positions.length) { e.preventDefault(); show(to); }
  };
  // the moves in words, by round: a move shows the position after it, a round's title its
  // deal; each is said in the board's words (its ends by name), without the pips of an end,
  // which change as the round goes on
  const { view: dealt } = await api(`/api/records/${id}/position?ply=0`);
  const words = { board: { kind: dealt.board.kind }, rules: dealt.rules };
  for (const r of rounds) {
    const items = r.moves.map((m, k) => h("li", {}, h("button", { type: "button", class: "move",
      "data-ply": r.first + k + 1, onclick: () => show(r.index + k + 1) },
    r.seats ? `${names(r.seats[k])}: ${logText(words, m, names)}` : logText(words, m, names))));
    const ended = r.reason ? roundEnd(r, names) : "";
    moveList.append(h("h3", {}, h("button", { type: "button", class: "round-start", "data-start": r.first,
      onclick: () => show(r.index) }, t("round", { n: r.number }))),
    h("ol", {}, items), ended ? h("p", { class: "hint" }, ended) : "");
  }
  const jump = h("select", { id: "replay-round", onchange: () => {
    const r = rounds.find((x) => String(x.number) === jump.value);
    if (r) show(r.index);
  } }, rounds.map((r) => h("option", { value: r.number }, r.number)));
  felt.append(info, h("div", { class: "board-wrap" }, boardSvg));
  // the coach: asked for with a button (an analysis takes a while), then its graph, its
  // accuracy table, the marks of the move list and, at each position, what the last move
  // gave up and the best move here
  const said = (m) => logText(words, m, names);
  const coachHere = h("div", { class: "coach-here", id: "coach-here", "aria-live": "polite" });
  const coachStatus = h("p", { class: "hint", id: "coach-status", role: "status" });
  const coachOut = h("div", { id: "coach-result" });
  const analyse = h("button", { id: "coach-analyse", onclick: () => coach() }, t("analyseMatch"));
  let graded = null, graph = null;
  const byAt = new Map();
  function coached(ply) {
    if (!graded) return;
    if (graph) graph.place(ply > 0 ? ply - 1 : null);
    const last = byAt.get(ply - 1), next = byAt.get(ply);
    const parts = [];
    if (last) parts.push(h("p", {}, h("b", {}, `${names(last.seat)}: `), gradedText(last, said, names)));
    if (next && next.grade !== "forced") {
      const best = h("p", { class: "coach-best", id: "coach-best", hidden: true }, t("bestHere", { name: names(next.seat), best: said(next.best) }));
      parts.push(h("button", { type: "button", class: "secondary", id: "coach-show-best", onclick: (e) => {
        best.hidden = false; e.target.remove();
        ghost(next.best);
      } }, t("showBest")), best);
    }
    coachHere.replaceChildren(...parts);
  }
  // The best move as a ghost of its tile on the end it goes to (none on an empty board,
  // where the lead has no end yet): gone with the next position drawn.
  function ghost(move) {
    const text = tileOf(move), end = endOf(move);
    const spot = end !== null && spots && spots[end];
    if (!text || !spot) return;
    const [a, b] = text.split("-").map(Number);
    const u = Number(boardSvg.dataset.u) || 26;
    const g = tile(boardSvg, spot[0] - u / 2, spot[1] - u, a, b, true, u, "ghost");
    g.id = "coach-ghost";
    g.dataset.ghost = text;
    g.setAttribute("aria-label", t("ghostLabel", { best: said(move) }));
  }
  async function coach() {
    analyse.disabled = true;
    coachStatus.textContent = t("coachStarting");
    try {
      const done = await analysed(`/api/records/${id}/analysis`, {}, (p) => { coachStatus.textContent = progressText(p); });
      graded = { ...done.analysis, seats: done.seats };
      for (const m of graded.moves) byAt.set(m.at, m);
      const plies = rounds.reduce((n, r) => n + r.moves.length, 0);
      graph = winGraph(graded, plies, coachOut.clientWidth || 640, (at) => {
        const r = rounds.find((x) => at >= x.first && at < x.first + x.moves.length);
        if (r) show(r.index + at - r.first + 1);
      });
      const legend = h("div", { class: "legend" }, graded.seats.map((s) => h("span", { style: `--swatch: ${COLOURS[s % COLOURS.length]}` }, names(s))));
      coachStatus.textContent = done.seats.length < meta.players.length ? t("coachYours") : t("coachAll");
      coachOut.replaceChildren(graph.svg, legend, accuracyTable(graded, names));
      for (const m of graded.moves) {
        const button = moveList.querySelector(`[data-ply='${m.at + 1}']`);
        if (button && m.symbol) button.append(" ", markOf(m));
      }
      analyse.hidden = true;
      coached(Number(felt.dataset.ply || 0));
    } catch (err) {
      coachStatus.textContent = err.message;
      analyse.disabled = false;
    }
  }
  const verify = h("details", { class: "verify", id: "replay-verify" }, h("summary", {}, t("verifyDeals")),
    h("p", { class: "hint" }, t("verifyHint")),
    meta.deals.map((d) => h("div", { class: "small" }, `${t("round", { n: d.number })}: ${d.seed_hash || "—"}`,
      d.confirmed ? ` ✓ ${t("verified")}` : "")));
  main.replaceChildren(h("section", { class: "replay" },
    h("h2", {}, `${t("replay")}: ${gameName(meta.game)} · ${recordPlayers(meta)}`),
    h("div", { class: "replay-grid" },
      h("div", { class: "replay-main" }, felt,
        h("div", { class: "actions" },
          h("button", { id: "replay-start", onclick: () => show(0) }, t("start")),
          h("button", { id: "replay-prev", onclick: () => show(at - 1) }, t("prev")),
          h("button", { id: "replay-next", onclick: () => show(at + 1) }, t("next")),
          h("button", { id: "replay-end", onclick: () => show(positions.length - 1) }, t("end")),
          h("label", { class: "inline" }, t("roundCol"), jump),
          h("a", { class: "button-link", href: `/api/records/${id}?download=1`, download: `bazar-${id}.json` }, t("download"))),
        slider, coachHere),
      h("aside", { class: "replay-side" }, h("h3", {}, t("moves")), moveList))),
  h("section", { class: "coach", id: "coach" }, h("h2", {}, t("coach")), h("p", { class: "hint" }, t("coachIntro")),
    analyse, coachStatus, coachOut),
  scoreTable(meta, rounds, rules, names, show), h("section", {}, verify));
  // ?ply=N: the position after N moves (a round's start where it starts one; with &end=1 the
  // end of the round it finishes)
  const query = new URLSearchParams(location.search);
  const asked0 = Number(query.get("ply")) || 0, atEnd = query.get("end") === "1";
  const index = positions.findIndex((p) => p.ply === asked0 && p.end === atEnd);
  await show(index < 0 ? positions.length - 1 : index);
}

// The scores after each round, a column per side, labelled: the running totals as the table
// shows them (an open account red, remembered points "+r" where the game keeps accounts).
// A round's number goes to its deal.
function scoreTable(meta, rounds, rules, names, show) {
  const done = rounds.filter((r) => r.scores);
  if (!done.length) return "";
  const count = done[0].scores.scores.length;
  const columns = sides(meta, count);
  const head = h("tr", {}, h("th", { scope: "col" }, t("roundCol")),
    columns.map((seats) => h("th", { scope: "col" }, sideName(meta, seats))),
    h("th", { scope: "col", class: "why" }, t("result")));
  const rows = done.map((r) => h("tr", { "data-round": r.number },
    h("th", { scope: "row" }, h("button", { type: "button", class: "link", onclick: () => show(r.index),
      "aria-label": t("round", { n: r.number }) }, r.number)),
    columns.map((seats) => h("td", {}, badge(rules, r.scores, seats[0]))), h("td", { class: "why" }, roundEnd(r, names))));
  return h("section", {}, h("h2", {}, t("scoresAfter")),
    h("div", { class: "table-wrap" }, h("table", { class: "scoretable records-scores", id: "replay-scores" },
      h("thead", {}, head), h("tbody", {}, rows))),
    keepsAccounts(rules) ? h("p", { class: "hint" }, t("accountsHint")) : "");
}
