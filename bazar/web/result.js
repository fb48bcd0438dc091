// The end of a round and of a match, seen: a sheet over the final board (which the table draws
// from the round_end event's `final`), every hand face up with its pips, how the points were
// counted, the totals in a labelled table, "Next round" with the pause's countdown; after the
// last round the match's result first ("You won"), its final table and what to do now (the
// rematch counted down). And the fair deal's check, folded away.
//
// The table page keeps the round_end event in state.roundEnd (onResultEvent does) and, while
// it is there, draws event.final.view on its board with event.final.hands; renderRoundEnd
// fills the sheet. The sheet goes when the player says next, when the pause is over, or when
// the next round's first move comes.
import { N_, lang, t, tn } from "./i18n.js";
import { h } from "./dom.js";
import { badge, keepsAccounts, tileText } from "./words.js";
import { parseTile, tileSvg } from "./tiles.js";

async function sha256(text) {
  if (!crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// What the table's events mean for its end-of-round state: the round's end is kept and its
// deal's seed checked against the commitment; the next round's first move, or the end of the
// pause, takes the sheet away. Whether the fair-deal panel changed.
export async function onResultEvent(state, event) {
  if (event.t === "round_start") { state.commitments[event.number] = event.seed_hash; return true; }
  if (event.t === "round_end") {
    state.roundEnd = event;
    state.sheetHidden = false;
    // a page without a secure context has no SHA-256 to check with: unchecked, not wrong
    const hash = await sha256(String(event.seed));
    const ok = hash === null ? null : hash === state.commitments[event.number];
    state.reveals.push({ number: event.number, seed: event.seed, ok });
    return true;
  }
  // the match's last round stays on the table under its result
  if ((event.t === "move" || event.t === "pause_end") && !state.end) state.roundEnd = null;
  // who has seen it: the others are still looking
  if (event.t === "seen" && state.roundEnd) state.roundEnd = { ...state.roundEnd, waiting: event.waiting };
  return false;
}

// The seconds the table still waits between rounds (its clock says when the next round's
// clock starts): nobody moves meanwhile.
export function pauseLeft(state) {
  const c = state.clock;
  if (!c || !(c.starts_in_s > 0)) return 0;
  return Math.max(0, c.starts_in_s - (performance.now() - state.clockAt) / 1000);
}

// The player is done looking: the table need not wait for him any longer.
export function seenRoundEnd(state, send) {
  const e = state.roundEnd;
  if (!e || state.end) return;
  if (e.waiting.includes(state.view && state.view.seat)) send({ type: "next" });
  state.roundEnd = null;
}

function sideNames(n, sides, names) {
  return [...Array(sides).keys()].map((side) =>
    [...Array(n).keys()].filter((s) => s % sides === side).map(names).join(" · "));
}

function pips(hand) {
  return hand.reduce((sum, text) => { const p = parseTile(text); return sum + (p ? p[0] + p[1] : 0); }, 0);
}

// Why a hand counts other than its pips, in the rules' words: "0|0 alone counts 10" (Kozel),
// "0|0 counts 50" (Chicken Foot).
function worth(hand, value, rules) {
  const blank = rules.options.double_blank_value;
  if (blank && hand.some((text) => { const p = parseTile(text); return p && p[0] === 0 && p[1] === 0; })) {
    return t("end.blankCounts", { n: blank });
  }
  if (hand.length === 1) return t("end.loneCounts", { tile: tileText(hand[0]), n: value });
  return t("end.handCounts", { pips: pips(hand), n: value });
}

// "Round 3 · Olga went out", "Round 3 · Fish (blocked)": what ended the round, in words.
function headline(e, rules, names, sides) {
  const o = e.outcome;
  const n = rules.options.players;
  const who = (seat) => (sides < n ? sideNames(n, sides, names)[seat % sides] : names(seat));
  const x = o.extra || {};
  let what;
  if (o.reason === "out" && o.out_seat !== null) what = t("end.out", { name: who(o.out_seat) });
  else if (o.reason === "fish") what = t("end.fish");
  else if (o.reason === "target" && o.out_seat !== null) what = t("end.target", { name: who(o.out_seat) });
  else if (o.reason === "showdown" || o.reason === "fold") {
    const winners = (x.winners || []).map(names).join(", ");
    what = t(o.reason === "fold" ? N_("end.fold") : N_("end.showdown"), { names: winners });
  } else if (o.reason === "tricks" && x.bidder !== null && x.bidder !== undefined) {
    // the bidder's side made its bid when its tricks took as many points
    const took = o.points.filter((_, s) => s % 2 === x.bidder % 2).reduce((a, b) => a + b, 0);
    const made = took >= x.bid ? N_("end.made") : N_("end.set");
    what = `${t("end.tricks", { bid: x.bid, name: names(x.bidder) })} · ${t(made)}`;
  } else if (o.reason === "redeal") what = t("end.redeal");
  else if (o.reason === "deadlock") what = t("end.deadlock");
  else what = t("end.over");
  return `${t("end.round", { n: e.number })} · ${what}`;
}

// Each seat's hand as the round left it, face up (the rules keep a folded poker hand hidden).
function handsBlock(e, names) {
  const o = e.outcome;
  const counts = e.final.view.rules.capabilities.hand_counts;
  const hands = e.final.hands;
  const list = h("ul", { class: "end-hands", "aria-label": t("end.hands") });
  hands.forEach((hand, s) => {
    const marks = [];
    if (o.reason === "out" && o.out_seat === s) marks.push(h("span", { class: "chip out" }, t("end.domino")));
    if (o.reason === "fish" && o.fisher === s) marks.push(h("span", { class: "chip" }, t("end.lastTile")));
    let tiles;
    if (hand === null) tiles = h("span", { class: "small" }, t("end.hidden"));
    else if (!hand.length) tiles = h("span", { class: "small" }, t("end.noTiles"));
    else {
      tiles = h("span", { class: "end-tiles", "aria-label": hand.join(", ") },
        hand.map((text) => { const [a, b] = parseTile(text) || [0, 0]; return tileSvg(a, b, { vertical: false, size: 18 }); }));
    }
    // a poker hand is its combination, any other its pips
    const rank = o.extra && o.extra.ranks && o.extra.ranks[s];
    let sum = "", why = "";
    if (rank) sum = h("span", { class: "end-sum" }, t(`poker.rank.${rank}`));
    // Kolbasa's rows count their tiles, not their pips
    else if (hand && hand.length && counts === "tiles") sum = h("span", { class: "end-sum" }, tn("nTiles", hand.length));
    else if (hand && hand.length) {
      // what the hand counts: its pips, a special tile at its worth, and why
      const values = e.final.values;
      const value = values && typeof values[s] === "number" ? values[s] : pips(hand);
      sum = h("span", { class: "end-sum", title: t("end.pips", { n: pips(hand) }) }, `Σ ${value}`);
      if (value !== pips(hand)) why = h("span", { class: "end-why small" }, worth(hand, value, e.final.view.rules));
    }
    list.append(h("li", { "data-seat": s }, h("span", { class: "end-name" }, names(s)), ...marks, tiles, sum, why));
  });
  return list;
}

// A score of the totals table: the side's badge (Kozel's open account red, remembered "+r").
function scoreCell(rules, scores, side) { return h("td", {}, badge(rules, scores, side)); }

// What one round gave each side, in the words of its game: the award of Kozel's accounts (and
// whether it opened the account, was remembered or wiped), or the change of the score.
function roundCell(rules, e, side, inPlay) {
  const b = e.before, a = e.after;
  if (keepsAccounts(rules)) {
    const award = a.scores[side] + a.remembered[side] - b.scores[side] - b.remembered[side];
    let note = "";
    if (a.opened[side] && !b.opened[side]) note = t("end.opened");
    else if (!a.opened[side] && award > 0) note = t("end.remembered");
    else if (award < 0) note = t("end.wiped");
    return h("td", {}, `${Math.max(0, award) > 0 ? "+" : ""}${Math.max(0, award)}`,
      note ? [" ", h("div", { class: "small" }, note)] : "");
  }
  const change = a.scores[side] - b.scores[side] - (inPlay ? inPlay[side] : 0);
  return h("td", {}, `${change > 0 ? "+" : ""}${change}`);
}

//: the label of the row that says what the round gave, by what the rules say it is (their
//: capability round_score): a game's own word where it has one
const ROUND_ROWS = { award: N_("end.award"), bonus: N_("end.bonus"), chips: N_("end.chips"),
  penalty: N_("end.penalty"), points: N_("end.thisRound") };

// The totals with labelled columns (the players, or the sides) and rows (before, this round,
// total); the points scored during play apart where the game scores during play (All Fives).
export function scoreTable(rules, e, names, { final = false, caption = null } = {}) {
  const n = rules.options.players;
  const sides = e.after.scores.length;
  const heads = sides < n ? sideNames(n, sides, names) : [...Array(n).keys()].map(names);
  const cols = [...Array(sides).keys()];
  const caps = rules.capabilities;
  const scoring = e.outcome.scoring || [];
  const inPlay = caps.scored_in_play && scoring.length ? cols.map(() => 0) : null;
  if (inPlay) for (const [s, p] of scoring) inPlay[s % sides] += p;
  const row = (label, cells, cls = "") => h("tr", { class: cls }, h("th", { scope: "row" }, label), cells);
  const rows = [];
  if (!final) {
    rows.push(row(t("end.before"), cols.map((s) => scoreCell(rules, e.before, s))));
    if (inPlay) rows.push(row(t("end.inPlay"), cols.map((s) => h("td", {}, `${inPlay[s] > 0 ? "+" : ""}${inPlay[s]}`))));
    rows.push(row(t(ROUND_ROWS[caps.round_score]), cols.map((s) => roundCell(rules, e, s, inPlay))));
  }
  rows.push(row(t("end.total"), cols.map((s) => scoreCell(rules, e.after, s)), "rule total"));
  return h("div", { class: "table-scroll" }, h("table", { class: "scoretable", id: "scoretable" },
    h("caption", {}, caption || (final ? t("end.finalScores") : t("end.scores"))),
    h("thead", {}, h("tr", {}, h("td", {}), heads.map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {}, rows)));
}

// What the marks of the totals mean, where a game has marks: Kozel's accounts and its pot.
function legend(rules, e) {
  const lines = [];
  if (keepsAccounts(rules)) {
    lines.push(t("end.legendOpen", { limit: rules.options.limit ?? rules.options.target }));
    if (rules.options.open_threshold) lines.push(t("end.legendRemembered", { n: rules.options.open_threshold }));
  }
  if (e.after.pot > 0) lines.push(t("end.potKept", { pot: e.after.pot }));
  else if (e.before.pot > 0) lines.push(t("end.potGone", { pot: e.before.pot }));
  return lines.length ? h("div", { class: "end-legend small" }, lines.map((l) => h("p", {}, l))) : "";
}

// The region that reads a round's result out at once.
function announce(text) {
  let live = document.getElementById("result-live");
  if (!live) {
    live = h("div", { id: "result-live", class: "sr-only", role: "alert", "aria-live": "assertive" });
    document.body.append(live);
  }
  // a repeated text is read again once it changed (lila's trailing space)
  live.textContent = live.textContent === text ? `${text} ` : text;
}

// The result box: the round's sheet while a round's end is in view (the match's result in it
// after the last round), else the result of a match that ended between rounds or was
// interrupted.
export function renderResult(box, ctx) {
  if (ctx.state.roundEnd) { delete box.dataset.end; renderRoundEnd(box, ctx); return; }
  delete box.dataset.v;
  box.classList.remove("folded");
  // a match's result lies over the table as a round's does
  box.classList.toggle("sheet", Boolean(ctx.state.end));
  box.hidden = !ctx.state.end;
  renderMatchEnd(box, ctx);
}

// The sheet over the final board. ctx: { state, rules (of the final view), names(seat), seat
// (the page's, null for a spectator), onNext, onShowBoard, onShowResult }. Built once per
// round's end (the heading keeps the focus), its countdown and waiting list kept up to date.
export function renderRoundEnd(box, ctx) {
  const { state } = ctx;
  const e = state.roundEnd;
  const key = `${e.v}:${state.end ? state.end.v : ""}:${state.sheetHidden}:${state.rematch}`;
  // shown before it is built: a hidden heading takes no focus
  box.hidden = false;
  if (box.dataset.v !== key) build(box, ctx, key);
  const next = box.querySelector("#next-round");
  const left = Math.ceil(pauseLeft(state));
  if (next) next.textContent = left > 0 ? t("end.nextIn", { s: left }) : t("end.next");
  const waiting = box.querySelector("#end-waiting");
  if (waiting) {
    const others = left > 0 ? e.waiting.filter((s) => s !== ctx.seat).map(ctx.names) : [];
    waiting.textContent = others.length ? t("end.waiting", { names: others.join(", ") }) : "";
  }
  tickRematch(box, state);
}

function build(box, ctx, key) {
  const { state, rules, names } = ctx;
  const e = state.roundEnd;
  const [was, wasEnd] = (box.dataset.v || "").split(":");
  const first = was !== String(e.v);
  // the match's end comes after its last round's: said and focused once more
  const firstEnd = Boolean(state.end) && (first || !wasEnd);
  box.dataset.v = key;
  box.classList.add("sheet");
  const next = () => h("button", { id: "next-round", onclick: ctx.onNext }, t("end.next"));
  if (state.sheetHidden) {
    // folded away under the board: back to the result, or on to the next round
    box.classList.add("folded");
    box.replaceChildren(h("div", { class: "end-actions" }, state.end ? "" : next(),
      h("button", { class: "secondary", id: "show-result", onclick: ctx.onShowResult }, t("end.showResult"))));
    return;
  }
  box.classList.remove("folded");
  const sides = e.after.scores.length;
  const round = headline(e, rules, names, sides);
  const showBoard = h("button", { class: "secondary", id: "show-board", onclick: ctx.onShowBoard }, t("end.showBoard"));
  const parts = [];
  let title = round, heading;
  if (state.end) {
    // the match first, in words, with its final table and what to do now; the round after
    title = verdict(state.end, rules, ctx.yourSeat);
    heading = h("h2", { id: "result-heading", tabindex: "-1" }, title);
    const links = matchLinks(ctx);
    links.append(showBoard, reviewButton(ctx, e));
    const lines = matchLines(state.end, rules, names).slice(title === t("matchOver") ? 1 : 0);
    parts.push(h("div", { class: "end-head" }, heading), ...lines,
      scoreTable(rules, e, names, { caption: t("end.finalScores") }), legend(rules, e), links,
      h("h3", { class: "end-round" }, round));
  } else {
    heading = h("h2", { id: "result-heading", tabindex: "-1" }, title);
    const actions = h("div", { class: "end-actions" }, next(), h("span", { id: "end-waiting", class: "small" }), showBoard,
      reviewButton(ctx, e));
    parts.push(h("div", { class: "end-head" }, heading, actions));
  }
  if (e.outcome.reason === "fish" && e.outcome.fisher !== null) {
    parts.push(h("p", { class: "small" }, t("end.fishBy", { name: names(e.outcome.fisher) })));
  }
  // a trick game plays every tile out: no hand is left to show
  if (e.final.hands.some((hand) => hand && hand.length)) parts.push(handsBlock(e, names));
  if (!state.end) parts.push(scoreTable(rules, e, names), legend(rules, e));
  box.onkeydown = (event) => { if (event.key === "Escape") ctx.onShowBoard(); };
  box.setAttribute("role", "region");
  box.setAttribute("aria-labelledby", "result-heading");
  box.replaceChildren(...parts);
  if (first || firstEnd) {
    heading.focus({ preventScroll: true });
    announce(state.end ? `${title}. ${round}` : title);
  }
}

// "How did I play?": the coach grades the player's own moves of the round (ctx.onReview);
// nothing for a spectator, nor where the page has no coach to ask.
function reviewButton(ctx, e) {
  if (ctx.seat === null || ctx.seat === undefined || !ctx.onReview) return "";
  return h("button", { class: "secondary", id: "how-played", onclick: () => ctx.onReview(e.number) }, t("howDidIPlay"));
}

// The match's result for the page's player, first and in words: "You won", "You are the goat",
// "2nd of 4"; who won, for a spectator or a match interrupted without a result.
export function verdict(e, rules, seat) {
  if (seat === null || seat === undefined || !e.places) return t("matchOver");
  const players = rules.options.players;
  const sides = e.scores && e.scores.scores ? e.scores.scores.length : players;
  const team = sides < players;
  if (e.winners.includes(seat)) return t(team ? N_("end.youWonSide") : N_("end.youWon"));
  if (e.losers.includes(seat)) {
    const titles = { goat: N_("end.youGoat"), donkey: N_("end.youDonkey") };
    return t(titles[rules.loser] || (team ? N_("end.youLostSide") : N_("end.youLost")));
  }
  // "2nd of 4": the ordinal's form is the language's (English one/two/few/other)
  const form = new Intl.PluralRules(lang, { type: "ordinal" }).select(e.places[seat]);
  const forms = { one: N_("end.place.one"), two: N_("end.place.two"), few: N_("end.place.few") };
  return t(forms[form] || N_("end.place.other"), { n: e.places[seat], of: sides });
}

// What else the match's end says: why it ended (a player away or out of time), the winners,
// the goat or the donkey, the ratings' changes.
function matchLines(e, rules, names) {
  // that it is over, under the verdict (a spectator's heading says it alone)
  const lines = [h("p", { class: "small match-over" }, t("matchOver"))];
  if (e.ending && e.ending.timeout !== undefined) {
    // away past the grace, or present but silent past the move time
    const why = e.ending.gone ? N_("gone") : N_("timeout");
    lines.push(h("p", {}, t(why, { name: names(e.ending.timeout) })));
  }
  if (e.ending && e.ending.deserted) lines.push(h("p", {}, t("deserted")));
  // an interrupted match has no result; a match every side lost (all goats) no winner
  if (e.winners.length) lines.push(h("p", { class: "winners" }, `${t("winners")}: ${e.winners.map(names).join(", ")}`));
  else if (e.losers && e.losers.length) lines.push(h("p", {}, t("nobodyWon")));
  if (e.losers && e.losers.length) {
    // the loser has a name in the yards' games: the goat of Kozel, the donkey of Osyol
    const titles = { goat: N_("goat"), donkey: N_("donkey") };
    const title = titles[rules && rules.loser] || N_("losers");
    lines.push(h("p", { class: "losers" }, `${t(title)}: ${e.losers.map(names).join(", ")}`));
  }
  if (e.ratings && e.ratings.kozel) {
    lines.push(h("p", {}, `${t("ratings")}: ` + Object.entries(e.ratings.kozel)
      .map(([s, d]) => `${names(Number(s))} ${d >= 0 ? "+" : ""}${d}`).join(", ")));
  }
  return lines;
}

// What a player does once the match is over: a rematch while its window lasts (the seconds
// counted down, then closed), the replay, the record.
function matchLinks(ctx) {
  const { state } = ctx;
  const links = h("div", { class: "end-actions match-actions" });
  // a player asks for a rematch, or accepts the one another asked for: the same call seats him
  // at the new table (online-club.md §2); a spectator may go and watch it
  if (ctx.yourSeat != null) {
    links.append(h("span", { class: "rematch" },
      h("button", { id: "rematch", "aria-describedby": "rematch-left", onclick: () => ctx.onRematch(links) },
        state.rematch ? t("acceptRematch") : t("rematch")),
      h("span", { id: "rematch-left", class: "small" })));
  } else if (state.rematch) links.append(h("a", { class: "button", href: `/table/${state.rematch}` }, t("rematch")));
  links.append(
    h("a", { class: "button secondary", id: "replay", href: `/replay/${ctx.tableId}` }, t("replay")),
    h("a", { class: "button secondary", id: "download", href: `/api/records/${ctx.tableId}?download=1` }, t("download")));
  return links;
}

// How long the rematch may still be asked for ("1:54 left"), counted down beside its button,
// which is disabled once it may not.
export function tickRematch(box, state) {
  const button = box.querySelector("#rematch");
  const note = box.querySelector("#rematch-left");
  if (!button || !note || state.rematchUntil === null || state.rematchUntil === undefined) return;
  const left = Math.max(0, Math.ceil((state.rematchUntil - performance.now()) / 1000));
  const text = left > 0
    ? t("end.rematchLeft", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` })
    : t("end.rematchOver");
  if (note.textContent !== text) note.textContent = text;
  button.disabled = left <= 0;
}

// The match's result where no round's sheet shows it (it ended between rounds, or was
// interrupted): the verdict, the totals, the links. ctx: { state, rules, names, tableId,
// yourSeat, onRematch }. Built once per end (a rematch asked rebuilds it), its countdown kept.
export function renderMatchEnd(box, ctx) {
  const { state, rules, names } = ctx;
  const e = state.end;
  if (!e) { box.replaceChildren(); delete box.dataset.end; return; }
  const key = `${e.v}:${state.rematch}`;
  if (box.dataset.end !== key) {
    const first = !box.dataset.end;
    box.dataset.end = key;
    const title = verdict(e, rules, ctx.yourSeat);
    const heading = h("h2", { class: "match-over", id: "match-heading", tabindex: "-1" }, title);
    const parts = [heading, ...matchLines(e, rules, names).slice(title === t("matchOver") ? 1 : 0)];
    if (e.scores && e.scores.scores) {
      parts.push(scoreTable(rules, { after: e.scores, before: e.scores, outcome: {} }, names, { final: true }));
    }
    parts.push(matchLinks(ctx));
    box.replaceChildren(...parts);
    if (first && !box.hidden) {
      heading.focus({ preventScroll: true });
      announce(title);
    }
  }
  tickRematch(box, state);
}

// Each round's deal commitment and, once it ended, its seed checked against it: folded away.
export function renderFair(box, state) {
  const open = box.querySelector("details") && box.querySelector("details").open;
  const rounds = Object.entries(state.commitments).map(([number, hash]) => {
    const reveal = state.reveals.find((x) => x.number === Number(number));
    return h("li", {}, `${t("end.round", { n: number })}: `, h("code", {}, hash),
      reveal ? h("div", {}, t(reveal.ok === null ? N_("end.unchecked") : reveal.ok ? N_("revealed") : N_("mismatch"),
        { seed: reveal.seed })) : "");
  });
  const bad = state.reveals.some((x) => x.ok === false);
  const summary = h("summary", {}, t("end.verify"), bad ? ` · ${t("end.mismatchShort")}` : "");
  box.replaceChildren(h("details", { open: open || bad }, summary, h("p", {}, t("commitment")), h("ul", {}, rounds)));
}
