// The club's words for what the engine says: moves, ends, players, scores.
import { N_, lang, t } from "./i18n.js";
import { branchName, endOf, tileOf } from "./board.js";
import { h } from "./dom.js";
import { parseTile } from "./tiles.js";

// The width the board is laid out for: the page's, within what a tile row reads well at.
export function boardWidth(box) { return Math.max(300, Math.min(720, (box && box.clientWidth) || 640)); }

//: the numbers of a half as a screen reader says them, blank to twelve
const PIP_WORDS = [N_("pip.0"), N_("pip.1"), N_("pip.2"), N_("pip.3"), N_("pip.4"), N_("pip.5"),
  N_("pip.6"), N_("pip.7"), N_("pip.8"), N_("pip.9"), N_("pip.10"), N_("pip.11"), N_("pip.12")];

// A number of pips as it is said ("four", «четыре»).
export function pipSaid(n) { return t(PIP_WORDS[n] || String(n)); }

// How the rules of `view` name an open end (its capability end_names, docs/protocol.md): "pip",
// "joint", "train", "branch", or null where the game lays no tiles in a line.
function endNames(view) { return view.rules.capabilities.end_names; }

// Whether `end` is named by the pip it shows: a line's and a cross's ends and the sausage's open
// one, which the layout turns round the felt (an end laid "left" may lie top right once the line
// snakes); a train, a branch and a joint keep the names the board writes beside them.
export function byPip(view, end) {
  if (!view.ends || !(end in view.ends)) return false;
  const names = endNames(view);
  return names === "pip" || (names === "joint" && end === "R");
}

// Where two or more ends named by their pip show the same one, this end's number among them, in
// the ends' order (the number its socket shows); null where its pip is its own.
export function endNumber(view, end) {
  if (!byPip(view, end)) return null;
  const same = Object.keys(view.ends).filter((e) => byPip(view, e) && view.ends[e] === view.ends[end]);
  return same.length > 1 ? same.indexOf(end) + 1 : null;
}

// An end in words, `view` the position it is named in (its ends before the move on it): by its
// pip ("4", "4 (end 2)"), said in words for a screen reader (`said`: "four"); a train by its
// owner, a branch or a joint by number. An end of a record's move list, whose ends are not
// known, by the side it was laid on.
export function endName(view, end, seatName, { said = false } = {}) {
  if (byPip(view, end)) {
    const say = (n) => (said ? pipSaid(n) : String(n));
    const n = endNumber(view, end);
    return n === null ? say(view.ends[end]) : t("endTied", { pip: say(view.ends[end]), n: say(n) });
  }
  const sides = { L: N_("leftEnd"), R: N_("rightEnd"), U: N_("upEnd"), D: N_("downEnd"),
    S: N_("slotEnd"), E: N_("engine"), M: N_("mexicanTrain") };
  const names = endNames(view);
  if (names === "joint" && end !== "R") return t("joint", { n: end });
  if (end in sides) return t(sides[end]);
  if (names === "train") return t("trainOf", { name: seatName(Number(end)) });
  if (names === "branch") return branchName(view, end);
  return end;
}

// A tile laid on an end, in words: "6|4 on 4" where the end is named by its pip, "6|4 → Olga's
// train" elsewhere; `said` for a screen reader ("six–four on four").
export function laidText(view, tile, end, seatName, { said = false } = {}) {
  const tileWords = said ? tileSaid(tile) : tileText(tile);
  const where = endName(view, end, seatName, { said });
  return byPip(view, end) ? t("laidOn", { tile: tileWords, end: where }) : `${tileWords}${said ? "," : " →"} ${where}`;
}

// The ends the player may play on now, by their pips, as the status line offers them ("4 or 3").
export function endsOffered(view, moves) {
  const pips = [...new Set(moves.map(endOf).filter((e) => e !== null && view.ends && e in view.ends)
    .map((e) => view.ends[e]))];
  return pips.length ? new Intl.ListFormat(lang, { type: "disjunction" }).format(pips.map(String)) : "";
}

// The words of the moves that lay no tile, and of the variants of a play.
const MOVE_WORDS = new Set([N_("draw"), N_("pass"), N_("stop"), N_("bid"), N_("trumps"),
  N_("check"), N_("bet"), N_("call"), N_("raise"), N_("fold"), N_("cut"), N_("close"), N_("last"),
  N_("announce"), N_("challenge"), N_("skip")]);

export function moveWord(word) { return MOVE_WORDS.has(word) ? t(word) : word; }

// A move as a person reads it: "Close 2|2 on 2", "7|4 → branch 1 (4)", "Bid 30", "Draw".
export function moveText(view, move, seatName) {
  const tile = tileOf(move);
  const [word, ...rest] = move.split(" ");
  // Kolbasa's stop where a cut is legal declines the cut: the tile goes back
  if (word === "stop" && (view.legal || []).some((m) => m.startsWith("cut "))) return t("noCut");
  if (!tile) return [moveWord(word), ...rest].join(" ");
  const kind = /^\d/.test(word) ? "" : `${moveWord(word)} `;
  const end = endOf(move);
  if (end === null) return `${kind}${tileText(tile)}`;
  // an end not named by its pip says the pip it needs after its name
  const pip = !byPip(view, end) && view.ends && view.ends[end] !== undefined ? ` (${view.ends[end]})` : "";
  return `${kind}${laidText(view, tile, end, seatName)}${pip}`;
}

// A guest's name is not his alone (a registered name is): it is marked wherever it is listed.
export function guestMark(guest) { return guest ? ` (${t("guestMark")})` : ""; }

// A player of a stored match by name: a bot by its level ("Bot 2 · Easy"), and an uploaded
// record, which names nobody, by number ("Player 1").
export function recordPlayer(r, s) {
  const level = r.summary && r.summary.bots && r.summary.bots[s];
  if (level) return t("botName", { n: s + 1, level: levelName(level) });
  return r.players[s] || t("playerN", { n: s + 1 });
}

// The players of a stored match, the guests among them marked.
export function recordPlayers(r) {
  const guests = (r.summary && r.summary.guests) || [];
  return r.players.map((_, s) => recordPlayer(r, s) + guestMark(guests.includes(s))).join(", ");
}

// Whether the game keeps Kozel's accounts (kozel.md §8.1): a round's award opens the account or
// is remembered until one does (Sea Kozel's threshold only drops a small award). Every ledger
// names opened and remembered points; only these games fill them, so it is the rules that say
// how a score reads, never the ledger's fields. The terminal table asks the same.
export function keepsAccounts(rules) {
  return "open_threshold" in rules.options && !("single_record" in rules.options);
}

// A seat's running score (its side's in a team game: partners sit opposite, 0+2 and 1+3). Where
// the game keeps accounts (online-club.md §4.1) an open one shows red, remembered points "+r"
// yellow; every other score shows as it stands: points, penalty pips, chips, wins.
export function badge(rules, scores, seat) {
  const sides = scores && Array.isArray(scores.scores) ? scores.scores.length : 0;
  const players = rules.options.players;
  if (!sides || players % sides !== 0) {
    return h("span", { class: "badge" }, scores && scores.scores ? JSON.stringify(scores.scores) : "");
  }
  const side = seat % sides;
  const total = scores.scores[side];
  if (keepsAccounts(rules)) {
    if (scores.opened[side]) return h("span", { class: "badge red" }, total);
    const r = scores.remembered[side];
    if (r > 0) return h("span", { class: "badge yellow" }, `+${r}`);
  }
  return h("span", { class: "badge" }, total);
}

async function sha256(text) {
  if (!crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}


// A game as players call it ("Mexican Train", «Мексиканский поезд»), never its id.
export function gameName(name) { return t(`title.${name}`); }

// A bot level as the lobby offers it ("Easy", «Лёгкий»).
export function levelName(level) { return t(`level.${level}`); }

// A tile as the log and the plates write it: "6|4".
export function tileText(text) { return text.replace("-", "|"); }

// A tile as it is said: "six–four".
export function tileSaid(text) {
  const [a, b] = parseTile(text);
  return `${pipSaid(a)}–${pipSaid(b)}`;
}

// A move as the log tells it, after it was made, `view` the position it was made in: "6|4 on
// 4", "6|4 → Olga's train", "draws from the bazar", "passes"; the other moves (a bid, a cut) as
// their buttons say them.
export function logText(view, move, seatName) {
  const tile = tileOf(move);
  const end = endOf(move);
  const [word] = move.split(" ");
  const words = { draw: N_("log.draw"), pass: N_("log.pass") };
  if (tile) return end === null || !view ? tileText(tile) : laidText(view, tile, end, seatName);
  return word in words ? t(words[word]) : moveText(view, move, seatName);
}
