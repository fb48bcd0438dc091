// The club's pages: lobby, table, history and replay, leaderboard, profile. No build step.
import { N_, errorText, lang, loadTexts, setLang, t } from "./i18n.js";
import { drawBoard, endOf, kindOf, tileOf } from "./board.js";
import { drawHand, el } from "./tiles.js";

const main = document.getElementById("main");
let me = null;
let leaveTable = null;

async function api(path, body, raw = false) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" },
    body: raw ? body : JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(errorText({ message: data.error || response.statusText, code: data.code, params: data.params }));
  }
  return data;
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    // a style attribute is inline style, which the page's Content-Security-Policy refuses
    else if (k === "style") node.style.cssText = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : String(c ?? ""));
  return node;
}

// The width the board is laid out for: the page's, within what a tile row reads well at.
function boardWidth(box) { return Math.max(300, Math.min(720, (box && box.clientWidth) || 640)); }

// An end in words: sides and arms by name, a train by its owner, a branch or a joint by number.
function endName(view, end, seatName) {
  const sides = { L: N_("leftEnd"), R: N_("rightEnd"), U: N_("upEnd"), D: N_("downEnd"),
    S: N_("slotEnd"), E: N_("engine"), M: N_("mexicanTrain") };
  const kind = kindOf(view);
  if (kind === "kolbasa" && end !== "R") return t("joint", { n: end });
  if (end in sides) return t(sides[end]);
  if (kind === "trains") return t("trainOf", { name: seatName(Number(end)) });
  if (kind === "tree") return t("branch", { id: end });
  return end;
}

// The words of the moves that lay no tile, and of the variants of a play.
const MOVE_WORDS = new Set([N_("draw"), N_("pass"), N_("stop"), N_("bid"), N_("trumps"),
  N_("check"), N_("bet"), N_("call"), N_("raise"), N_("fold"), N_("cut"), N_("close"), N_("last"),
  N_("announce"), N_("challenge"), N_("skip")]);

function moveWord(word) { return MOVE_WORDS.has(word) ? t(word) : word; }

// A move as a person reads it: "close 2-2 → right (2)", "Bid 30", "Draw".
function moveText(view, move, seatName) {
  const tileText = tileOf(move);
  const [word, ...rest] = move.split(" ");
  if (!tileText) return [moveWord(word), ...rest].join(" ");
  const kind = /^\d/.test(word) ? "" : `${moveWord(word)} `;
  const end = endOf(move);
  if (end === null) return `${kind}${tileText}`;
  const pip = view.ends && view.ends[end] !== undefined ? ` (${view.ends[end]})` : "";
  return `${kind}${tileText} → ${endName(view, end, seatName)}${pip}`;
}

// A guest's name is not his alone (a registered name is): it is marked wherever it is listed.
function guestMark(guest) { return guest ? ` (${t("guestMark")})` : ""; }

// The players of a stored match, the guests among them marked.
function recordPlayers(r) {
  const guests = (r.summary && r.summary.guests) || [];
  return r.players.map((name, s) => name + guestMark(guests.includes(s))).join(", ");
}

function translateChrome() {
  document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = t(n.dataset.t); });
  document.getElementById("lang").textContent = lang === "ru" ? "EN" : "RU";
  document.documentElement.lang = lang;
  const box = document.getElementById("me");
  box.replaceChildren();
  if (me) {
    box.append(me.guest ? me.name + guestMark(true) : h("a", { href: `/profile/${encodeURIComponent(me.name)}` }, me.name),
      " ", h("button", { class: "secondary", onclick: async () => {
        await api("/api/logout", {}); me = null; route();
      } }, t("logout")));
  }
}

document.getElementById("lang").addEventListener("click", async () => {
  await setLang(lang === "ru" ? "en" : "ru"); route();
});

// ---- lobby ---------------------------------------------------------------------------------

function loginForms() {
  const error = h("div", { class: "error" });
  const name = h("input", { name: "name", required: true, maxlength: 24 });
  const guest = h("form", { class: "grid", onsubmit: async (e) => {
    e.preventDefault();
    try { me = (await api("/api/guest", { name: name.value })).user; route(); }
    catch (err) { error.textContent = err.message; }
  } }, h("label", {}, t("name"), name), h("button", { id: "guest" }, t("guest")));
  const rname = h("input", { maxlength: 24 }), rpass = h("input", { type: "password" });
  const account = h("form", { class: "grid", onsubmit: (e) => e.preventDefault() },
    h("label", {}, t("name"), rname), h("label", {}, t("password"), rpass),
    h("button", { type: "button", onclick: () => auth("/api/login") }, t("login")),
    h("button", { type: "button", class: "secondary", onclick: () => auth("/api/register") }, t("register")));
  async function auth(path) {
    try { me = (await api(path, { name: rname.value, password: rpass.value })).user; route(); }
    catch (err) { error.textContent = err.message; }
  }
  return h("section", {}, h("h2", {}, t("guest")), guest, h("h2", {}, `${t("login")} / ${t("register")}`),
    account, error);
}

async function lobby() {
  const parts = [];
  if (!me) parts.push(loginForms());
  const { games, move_times: times, levels } = await api("/api/games");
  const error = h("div", { class: "error" });
  const game = h("select", { name: "game" }, games.map((g) => h("option", { value: g.name }, g.name)));
  const players = h("select", { name: "players" });
  const fish = h("select", { name: "fish_mode" },
    [N_("for_everyone"), N_("for_one")].map((m) => h("option", { value: m }, t(m))));
  const fishLabel = h("label", {}, t("fishMode"), fish);
  const time = h("select", { name: "move_time_s" }, times.map((s) => h("option", { value: s }, s)));
  time.value = 30;
  const rated = h("input", { type: "checkbox", name: "rated" });
  const access = h("select", { name: "access" },
    [N_("open"), N_("invitation_link")].map((a) => h("option", { value: a }, t(a))));
  const bots = h("input", { type: "checkbox", name: "bots", checked: true });
  const level = h("select", { name: "level" }, levels.map((l) => h("option", { value: l }, l)));
  level.value = levels.includes("greedy") ? "greedy" : levels[0];
  // a rated match is between registered people: with bots, or for a guest, the box is off
  // and says why, rather than a rated request the server would refuse
  const ratedWhy = h("p", { class: "hint", id: "rated-why" });
  function ratable() {
    const why = me && me.guest ? N_("ratedNoGuests") : bots.checked ? N_("ratedNoBots") : "";
    rated.disabled = Boolean(why);
    if (why) rated.checked = false;
    ratedWhy.textContent = why ? t(why) : "";
  }
  bots.addEventListener("change", ratable);
  ratable();
  function refresh() {
    const g = games.find((x) => x.name === game.value);
    players.replaceChildren(...[2, 3, 4, 5, 6].map((n) => h("option", { value: n }, n)));
    players.value = g.players;
    fishLabel.style.display = "fish_mode" in g.options ? "" : "none";
  }
  game.addEventListener("change", refresh);
  game.value = "kozel"; refresh();
  const form = h("form", { class: "grid", id: "create", onsubmit: async (e) => {
    e.preventDefault();
    const request = { game: game.value, players: Number(players.value), move_time_s: Number(time.value),
      rated: rated.checked, access: access.value, options: {} };
    if (fishLabel.style.display !== "none") request.options.fish_mode = fish.value;
    if (bots.checked) request.bots = level.value;
    try {
      const made = await api("/api/tables", request);
      go(`/table/${made.table.id}` + (made.table.access === "invitation_link" ? `?invite=${made.invite}` : ""));
    } catch (err) { error.textContent = err.message; }
  } },
  h("label", {}, t("game"), game), h("label", {}, t("players"), players), fishLabel,
  h("label", {}, t("moveTime"), time), h("label", {}, t("access"), access),
  h("label", { class: "check" }, rated, t("rated")), ratedWhy,
  h("label", { class: "check" }, bots, t("bots")), h("label", {}, t("level"), level),
  h("button", { disabled: !me }, t("create")));
  parts.push(h("section", {}, h("h2", {}, t("newTable")), form, error));
  const { tables } = await api("/api/tables");
  const rows = tables.map((x) => h("tr", {},
    h("td", {}, x.game, x.listing ? ` (${x.listing})` : ""),
    h("td", {}, x.seats.map((s) => (s ? s.name + guestMark(s.guest) : `· ${t("empty")}`)).join(", ")),
    h("td", {}, `${x.move_time_s}s`, x.rated ? ` · ${t("rated")}` : ""),
    h("td", {}, h("a", { href: `/table/${x.id}` }, x.status === "open" ? t("join") : t("watch")))));
  parts.push(h("section", {}, h("h2", {}, t("openTables")),
    rows.length ? h("table", { class: "list" }, rows) : h("p", {}, t("none"))));
  main.replaceChildren(...parts);
}

// ---- the table -----------------------------------------------------------------------------

// Whether the game keeps Kozel's accounts (kozel.md §8.1): a round's award opens the account or
// is remembered until one does (Sea Kozel's threshold only drops a small award). Every ledger
// names opened and remembered points; only these games fill them, so it is the rules that say
// how a score reads, never the ledger's fields. The terminal table asks the same.
function keepsAccounts(rules) {
  return "open_threshold" in rules.options && !("single_record" in rules.options);
}

// A seat's running score (its side's in a team game: partners sit opposite, 0+2 and 1+3). Where
// the game keeps accounts (online-club.md §4.1) an open one shows red, remembered points "+r"
// yellow; every other score shows as it stands: points, penalty pips, chips, wins.
function badge(rules, scores, seat) {
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

async function tablePage(id) {
  const params = new URLSearchParams(location.search);
  let info = (await api(`/api/tables/${id}`)).table;
  const { levels } = await api("/api/games");
  const state = { view: null, v: 0, clock: null, clockAt: 0, selected: null, commitments: {},
    lastRound: null, end: null, reveals: [], rematch: null, error: "" };
  const head = h("section", {});
  const felt = h("div", { class: "felt" });
  const boardSvg = el("svg", { class: "board", id: "board" });
  const boardBox = h("div", { class: "board-wrap" }, boardSvg);
  const handSvg = el("svg", { class: "hand", id: "hand" });
  const actions = h("div", { class: "actions" });
  const status = h("div", { class: "status" });
  const players = h("div", { class: "players" });
  const result = h("section", { id: "result" });
  const fair = h("section", { class: "small", id: "fair" });
  const notice = h("p", { class: "notice", id: "notice" });
  // kept, not redrawn with each move: a button replaced under the pointer loses its click
  const standinText = h("span", {});
  const takeBackButton = h("button", { id: "takeback", onclick: takeBack }, t("takeBack"));
  const standin = h("div", { class: "standin", id: "standin", style: "display:none" },
    standinText, takeBackButton);
  felt.append(players, status, standin, boardBox, actions, handSvg);
  main.replaceChildren(head, notice, felt, result, fair);
  // a friend who opens an invitation link before logging in can do it here
  if (!me && info.status === "open") main.prepend(loginForms());

  function seatName(s) { return (info.seats[s] && info.seats[s].name) || t("seatN", { n: s + 1 }); }

  function renderHead() {
    head.replaceChildren(h("h2", {}, `${info.game}${info.listing ? ` (${info.listing})` : ""} · ${info.players} · ${info.move_time_s}s${info.rated ? ` · ${t("rated")}` : ""}`));
    if (info.status !== "open") return;
    head.append(h("p", {}, t("waiting")));
    const list = h("div", { class: "actions" });
    // a rematch keeps its players' seats for them a while
    const kept = Object.fromEntries((info.reserved || []).map((r) => [r.seat, r.name]));
    info.seats.forEach((s, i) => {
      if (s) list.append(h("span", { class: "player" }, s.name + guestMark(s.guest)));
      else list.append(h("button", { disabled: !me || info.your_seat != null, onclick: async () => {
        try {
          await api(`/api/tables/${id}/join`, { seat: i, invite: params.get("invite") });
          // the socket's seat is fixed when it opens: open a new one as the seated player
          socket.onclose = null; socket.close(); connect();
          await reload();
        }
        catch (err) { head.append(h("div", { class: "error" }, err.message)); }
      } }, `${t("join")} · ${t("seatN", { n: i + 1 })}${i in kept ? ` (${t("reservedFor", { name: kept[i] })})` : ""}`));
    });
    head.append(list);
    if (info.invite) {
      const link = `${location.origin}/table/${id}?invite=${info.invite}`;
      head.append(h("p", { class: "small" }, `${t("invite")}: `, h("a", { href: link }, link)));
    }
    if (me && info.your_seat != null && info.invite) {
      const level = h("select", {}, levels.map((l) => h("option", { value: l }, l)));
      level.value = "greedy";
      head.append(h("div", { class: "actions" }, level, h("button", { onclick: async () => {
        try { await api(`/api/tables/${id}/bots`, { level: level.value }); await reload(); }
        catch (err) { head.append(h("div", { class: "error" }, err.message)); }
      } }, t("bots"))));
    }
  }

  async function reload() { info = (await api(`/api/tables/${id}`)).table; renderHead(); render(); }

  // a refusal stays on the page until the player acts again
  function act(message) {
    state.selected = null;
    state.error = "";
    socket.send(JSON.stringify(message));
    render();
  }

  function send(move) { act({ type: "move", move, v: state.v }); }

  function takeBack() { act({ type: "back" }); }

  function clickTile(text) {
    const moves = state.view.legal.filter((m) => tileOf(m) === text);
    if (moves.length === 1) { send(moves[0]); return; }
    state.selected = state.selected === text ? null : text; render();
  }

  function render() {
    const view = state.view;
    players.replaceChildren();
    status.replaceChildren();
    actions.replaceChildren();
    if (!view) { boardSvg.replaceChildren(); handSvg.replaceChildren(); return; }
    // the version drawn: what a test (or a curious player) can wait for instead of a pause
    felt.dataset.v = state.v;
    // a bot plays this page's seat (its player's time ran out, or he was away): he is told so
    // and offered his seat back, not moves (online-club.md §2)
    const mine = view.seat !== null ? info.seats[view.seat] : null;
    const standIn = Boolean(mine && mine.bot && !state.end);
    if (standIn) state.selected = null;
    const n = view.hand_sizes.length;
    for (let s = 0; s < n; s++) {
      players.append(h("div", { class: `player${view.turn === s ? " turn" : ""}${view.seat === s ? " me" : ""}` },
        seatName(s), info.seats[s] && info.seats[s].bot ? ` (${t("bot")})` : "",
        guestMark(info.seats[s] && info.seats[s].guest), " ",
        badge(view.rules, view.scores, s), h("div", { class: "small" }, `${view.hand_sizes[s]} ${t("tiles")}`)));
    }
    const round = view.extra && view.extra.number;
    if (round) status.append(h("span", {}, t("round", { n: round })));
    status.append(h("span", {}, `${t("bazar")}: ${view.bazar_size}`));
    if (view.turn !== null && !state.end) {
      const whose = view.turn !== view.seat ? seatName(view.turn) : standIn ? t("yourBot") : null;
      status.append(h("span", {}, whose === null ? t("yourTurn") : t("turnOf", { name: whose })));
      const timer = h("span", { class: "timer", id: "timer" });
      status.append(timer);
    }
    if (view.scores && view.scores.pot > 0) status.append(h("span", { class: "pot" }, `🐟 +${view.scores.pot}`));
    if (view.seat === null) status.append(h("span", {}, t("spectator")));
    // the board, and the ends the chosen tile fits: a disc on each, its train or branch lit up
    const legal = standIn ? [] : view.legal || [];
    const tileMoves = new Set(legal.map(tileOf).filter(Boolean));
    const chosen = state.selected ? legal.filter((m) => tileOf(m) === state.selected) : [];
    const width = boardWidth(felt);
    const spots = drawBoard(boardSvg, view, { width, names: seatName, playable: tileMoves,
      selected: state.selected, onTile: clickTile });
    for (const end of new Set(chosen.map(endOf).filter((e) => e !== null))) {
      // a plain play before its variants (close, last) that name the same end
      const move = chosen.find((m) => m === `${state.selected}:${end}`) || chosen.find((m) => endOf(m) === end);
      const lane = boardSvg.querySelector(`g.lane[data-end="${end}"]`);
      if (lane) { lane.classList.add("target"); lane.addEventListener("click", () => send(move)); }
      const at = spots[end];
      if (!at) continue;
      const g = el("g", { class: "end", "data-end": end }, boardSvg);
      el("circle", { cx: at[0], cy: at[1], r: 14 }, g);
      const pip = el("text", { x: at[0], y: at[1] + 5, "text-anchor": "middle" }, g);
      pip.textContent = view.ends[end] ?? end;
      g.addEventListener("click", (e) => { e.stopPropagation(); send(move); });
    }
    for (const m of chosen) {
      actions.append(h("button", { class: "secondary", onclick: () => send(m) }, moveText(view, m, seatName)));
    }
    // a lone draw or pass is made by the table itself: nothing to offer
    const forced = legal.length === 1 && (legal[0] === "draw" || legal[0] === "pass");
    for (const m of legal) {
      if (!tileOf(m) && !forced) actions.append(h("button", { onclick: () => send(m) }, moveText(view, m, seatName)));
    }
    standin.style.display = standIn ? "" : "none";
    if (standIn) {
      standinText.textContent = (mine.why === "gone" ? t("standInGone") : t("standInTimeout"))
        + (mine.back ? ` ${t("backNext")}` : "");
      takeBackButton.style.display = mine.back ? "none" : "";
    }
    drawHand(handSvg, view.hand || [], tileMoves, state.selected, clickTile, width);
    handSvg.style.display = view.hand ? "" : "none"; // a spectator, or Kolbasa's blind rows
    if (state.error) actions.append(h("span", { class: "error" }, state.error));
    renderResult();
  }

  function renderResult() {
    result.replaceChildren();
    const view = state.view;
    if (state.end) {
      const e = state.end;
      const names = e.winners.map(seatName).join(", ");
      result.append(h("h2", {}, t("matchOver")));
      if (e.ending && e.ending.timeout !== undefined) {
        // away past the grace, or present but silent past the move time
        const why = e.ending.gone ? N_("gone") : N_("timeout");
        result.append(h("p", {}, t(why, { name: seatName(e.ending.timeout) })));
      }
      if (e.ending && e.ending.deserted) result.append(h("p", {}, t("deserted")));
      // an interrupted match has no result; a match every side lost (all goats) no winner
      if (e.winners.length) result.append(h("p", {}, `${t("winners")}: ${names}`));
      else if (e.losers && e.losers.length) result.append(h("p", {}, t("nobodyWon")));
      if (e.losers && e.losers.length) {
        // the loser has a name in the yards' games: the goat of Kozel, the donkey of Osyol
        const titles = { goat: N_("goat"), donkey: N_("donkey") };
        const title = titles[view && view.rules && view.rules.loser] || N_("losers");
        result.append(h("p", { class: "losers" }, `${t(title)}: ${e.losers.map(seatName).join(", ")}`));
      }
      if (e.ratings && e.ratings.kozel) {
        result.append(h("p", {}, `${t("ratings")}: ` + Object.entries(e.ratings.kozel)
          .map(([s, d]) => `${seatName(Number(s))} ${d >= 0 ? "+" : ""}${d}`).join(", ")));
      }
      const links = h("div", { class: "actions" },
        h("a", { href: `/replay/${id}` }, t("replay")), " ",
        h("a", { href: `/api/records/${id}?download=1` }, t("download")));
      // a player asks for a rematch, or accepts the one another asked for: the same call
      // seats him at the new table (online-club.md §2); a spectator may go and watch it
      if (info.your_seat != null) {
        links.append(h("button", { id: "rematch", onclick: async () => {
          try { const r = await api(`/api/tables/${id}/rematch`, {}); go(`/table/${r.table.id}`); }
          catch (err) { links.append(h("span", { class: "error" }, err.message)); }
        } }, state.rematch ? t("acceptRematch") : t("rematch")));
      } else if (state.rematch) links.append(h("a", { href: `/table/${state.rematch}` }, t("rematch")));
      result.append(links);
    }
    const r = state.lastRound;
    if (r && view) {
      const n = view.hand_sizes.length;
      const fishy = r.outcome.reason === "fish" ? " 🐟" : "";
      // what each player scored this round: where the game keeps accounts the award
      // (online-club.md §4.2), the change of his total and remembered points, 0 where
      // remembered points were wiped; elsewhere the change of his score, a loss with its minus
      const accounts = keepsAccounts(view.rules);
      const points = [...Array(n).keys()].map((s) => {
        const side = s % r.after.scores.length; // one score per side in a team game
        const d = (x) => x.scores[side] + (accounts ? x.remembered[side] : 0);
        const change = d(r.after) - d(r.before);
        return accounts ? Math.max(0, change) : change;
      });
      const rows = [
        h("tr", {}, [...Array(n).keys()].map((s) => h("th", {}, seatName(s)))),
        h("tr", {}, [...Array(n).keys()].map((s) => h("td", {}, badge(view.rules, r.before, s)))),
        h("tr", {}, [...Array(n).keys()].map((s) => h("td", {}, `${points[s]}${fishy}`))),
        h("tr", { class: "rule" }, [...Array(n).keys()].map((s) => h("td", {}, badge(view.rules, r.after, s)))),
      ];
      result.append(h("h2", {}, `${t("roundResult")} · ${t("round", { n: r.number })}`),
        h("table", { class: "scoretable", id: "scoretable" }, rows));
    }
    if (!result.childNodes.length) result.style.display = "none"; else result.style.display = "";
  }

  function renderFair() {
    fair.replaceChildren(h("div", {}, t("commitment")));
    for (const [number, hash] of Object.entries(state.commitments)) {
      const reveal = state.reveals.find((x) => x.number === Number(number));
      fair.append(h("div", {}, `${t("round", { n: number })}: ${hash}`,
        reveal ? h("div", {}, t(reveal.ok ? N_("revealed") : N_("mismatch"), { seed: reveal.seed })) : ""));
    }
  }

  async function onEvent(event) {
    if (event.t === "round_start") { state.commitments[event.number] = event.seed_hash; renderFair(); }
    if (event.t === "round_end") {
      state.lastRound = event;
      const ok = (await sha256(String(event.seed))) === state.commitments[event.number];
      state.reveals.push({ number: event.number, seed: event.seed, ok });
      renderFair();
    }
    if (event.t === "match_end") state.end = event;
    if (event.t === "rematch") state.rematch = event.table;
    if (event.t === "rematch") notice.textContent = t("rematchAsked", { name: event.name });
    if (event.t === "closed") notice.textContent = t("closed");
    const hands = [N_("replaced"), N_("returning"), N_("back")];
    if (hands.includes(event.t)) info.seats = event.seats;
    if ([N_("disconnected"), N_("reconnected"), ...hands].includes(event.t)) {
      notice.textContent = t(event.t, { name: event.name, s: event.grace_s });
    }
  }

  let socket;
  let left = false;
  const key = `bazar.v.${id}`;
  leaveTable = () => { left = true; socket.close(); };
  async function receive(data) {
    // an event this page has already applied (a sync holds it too) would apply a move twice
    if (data.type === "event" && data.v <= state.v) return;
    if (data.type === "error") { state.error = errorText(data); render(); return; }
    if (data.type === "table") { info = { ...info, ...data.table }; renderHead(); }
    if (data.type === "sync") {
      state.commitments = {}; state.reveals = []; state.end = null;
      for (const e of data.events) await onEvent(e);
      info = { ...info, ...data.table };
      state.rematch = (info.ending && info.ending.rematch) || null;
      renderHead();
    }
    // a notice (a player away or back) is not part of the game: it has no version
    if (data.type === "event" || data.type === "notice") await onEvent(data.event);
    if ("view" in data && data.view) state.view = data.view;
    if (data.v !== undefined) { state.v = data.v; sessionStorage.setItem(key, data.v); }
    if (data.clock !== undefined) { state.clock = data.clock; state.clockAt = performance.now(); }
    render();
  }
  // one message at a time, in order: a round's end waits for its seed's hash, and the messages
  // behind it must wait too, else its older view and version land after theirs
  let inbox = Promise.resolve();
  function connect() {
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${id}`);
    socket.onopen = () => socket.send(JSON.stringify({ type: "hello", v: 0 }));
    socket.onmessage = (message) => {
      inbox = inbox.then(() => receive(JSON.parse(message.data))).catch(reportError);
    };
    // 4404: no such table (the error came before): nothing to come back to
    socket.onclose = (closed) => { if (!left && closed.code !== 4404) setTimeout(connect, 1000); };
  }
  setInterval(() => {
    const timer = document.getElementById("timer");
    if (!timer || !state.clock) return;
    const left = Math.max(0, state.clock.left_s - (performance.now() - state.clockAt) / 1000);
    timer.textContent = `⏱ ${Math.ceil(left)}`;
  }, 250);
  renderHead();
  connect();
}

// ---- history, replay, ratings, profiles -----------------------------------------------------

async function historyPage() {
  const { records } = await api("/api/records");
  const file = h("input", { type: "file", accept: ".json,application/json" });
  const error = h("div", { class: "error" });
  const upload = h("form", { class: "grid", onsubmit: async (e) => {
    e.preventDefault();
    if (!file.files[0]) return;
    try { const r = await api("/api/records", await file.files[0].text(), true); go(`/replay/${r.id}`); }
    catch (err) { error.textContent = err.message; }
  } }, h("label", {}, t("upload"), file), h("button", {}, t("upload")));
  const rows = records.map((r) => h("tr", {},
    h("td", {}, r.game), h("td", {}, recordPlayers(r)),
    h("td", {}, JSON.stringify((r.summary.scores || {}).scores || "")),
    h("td", {}, h("a", { href: `/replay/${r.id}` }, t("replay")), " · ",
      h("a", { href: `/api/records/${r.id}?download=1` }, t("download")))));
  main.replaceChildren(h("section", {}, h("h2", {}, t("history")), h("table", { class: "list" }, rows)),
    h("section", {}, upload, error));
}

// A stored match, position by position: the board and every hand (a finished record is public).
async function replayPage(id) {
  const meta = await api(`/api/records/${id}`);
  const names = (s) => meta.players[s] || t("seatN", { n: s + 1 });
  const boardSvg = el("svg", { class: "board", id: "board" });
  const felt = h("div", { class: "felt" });
  const info = h("div", { class: "status", id: "replay-status" });
  const slider = h("input", { type: "range", min: 0, value: 0, style: "width:100%", "aria-label": t("move") });
  let ply = 0, plies = 0, asked = 0;
  async function show(n) {
    const ask = ++asked;
    const pos = await api(`/api/records/${id}/position?ply=${Math.max(0, n)}`);
    if (ask !== asked) return; // a later step was asked for meanwhile
    ply = pos.ply; plies = pos.plies; slider.max = plies; slider.value = ply;
    drawBoard(boardSvg, pos.view, { width: boardWidth(felt), names, hands: pos.hands });
    const parts = [t("round", { n: pos.round }), `${t("move")} ${ply}/${plies}`];
    if (pos.last) parts.push(`${t("lastMove")}: ${moveText(pos.view, pos.last, names)}`);
    if (pos.view.turn !== null) parts.push(t("turnOf", { name: names(pos.view.turn) }));
    info.replaceChildren(...parts.map((p) => h("span", {}, p)));
    felt.dataset.ply = ply;
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  // the arrow keys step, Home and End jump (one handler: a later page replaces it)
  document.onkeydown = (e) => {
    if (!felt.isConnected || e.target.closest("input, textarea, select")) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies }[e.key];
    if (to !== undefined && to >= 0 && to <= plies) { e.preventDefault(); show(to); }
  };
  felt.append(info, h("div", { class: "board-wrap" }, boardSvg));
  const deals = meta.deals.map((d) => h("div", {}, `${t("round", { n: d.number })}: ${d.seed_hash || "—"} ${d.confirmed ? "✓ " + t("verified") : ""}`));
  main.replaceChildren(h("section", {}, h("h2", {}, `${t("replay")}: ${meta.game} · ${recordPlayers(meta)}`),
    felt,
    h("div", { class: "actions" },
      h("button", { id: "replay-start", onclick: () => show(0) }, t("start")),
      h("button", { id: "replay-prev", onclick: () => show(ply - 1) }, t("prev")),
      h("button", { id: "replay-next", onclick: () => show(ply + 1) }, t("next")),
      h("button", { id: "replay-end", onclick: () => show(plies) }, t("end")),
      h("a", { href: `/api/records/${id}?download=1` }, t("download"))),
    slider), h("section", { class: "small" }, deals));
  await show(Number(new URLSearchParams(location.search).get("ply")) || 0);
}

async function leaderboardPage() {
  const params = new URLSearchParams(location.search);
  const game = params.get("game") || "kozel";
  const data = await api(`/api/leaderboard?game=${encodeURIComponent(game)}`);
  const { games } = await api("/api/games");
  const select = h("select", { onchange: (e) => go(`/leaderboard?game=${e.target.value}`) },
    games.map((g) => h("option", { value: g.name }, g.name)));
  select.value = game;
  const list = (rows) => h("table", { class: "list" }, rows.map((r, i) => h("tr", {}, h("td", {}, i + 1),
    h("td", {}, h("a", { href: `/profile/${encodeURIComponent(r.name)}` }, r.name)), h("td", {}, r.rating),
    h("td", {}, r.games ?? ""))));
  main.replaceChildren(h("section", {}, h("h2", {}, t("skill")), select, list(data.skill)),
    h("section", {}, h("h2", {}, t("kozelRating")), list(data.kozel)));
}

async function profilePage(name) {
  const data = await api(`/api/profile/${encodeURIComponent(name)}`);
  main.replaceChildren(h("section", {}, h("h2", {}, `${t("profile")}: ${data.user.name}`),
    h("p", {}, `${t("kozelRating")}: ${data.user.kozel_rating}`),
    h("table", { class: "list" }, h("tr", {}, h("th", {}, t("game")), h("th", {}, t("skill")), h("th", {}, t("games"))),
      data.ratings.map((r) => h("tr", {}, h("td", {}, r.game), h("td", {}, r.rating), h("td", {}, r.games))))));
  if (me && !me.guest && me.id === data.user.id) main.append(passwordForm());
}

// A new password for the player himself: it logs him out everywhere else.
function passwordForm() {
  const old = h("input", { type: "password", name: "old", autocomplete: "current-password" });
  const fresh = h("input", { type: "password", name: "new", autocomplete: "new-password" });
  const said = h("p", { class: "error" });
  const form = h("form", { class: "grid", id: "password", onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api("/api/password", { old: old.value, new: fresh.value });
      old.value = fresh.value = "";
      said.className = ""; said.textContent = t("passwordChanged");
    } catch (err) { said.className = "error"; said.textContent = err.message; }
  } }, h("label", {}, t("oldPassword"), old), h("label", {}, t("newPassword"), fresh),
  h("button", {}, t("changePassword")));
  return h("section", {}, h("h2", {}, t("changePassword")), form, said);
}

// ---- routing -------------------------------------------------------------------------------

function go(path) { history.pushState({}, "", path); route(); }
window.addEventListener("popstate", route);
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a");
  if (a && a.origin === location.origin && !a.pathname.startsWith("/api/") && !a.hasAttribute("download")) {
    e.preventDefault(); go(a.pathname + a.search);
  }
});

async function route() {
  if (leaveTable) { leaveTable(); leaveTable = null; }
  me = (await api("/api/session")).user;
  translateChrome();
  const path = location.pathname;
  let m;
  try {
    if ((m = path.match(/^\/table\/([\w-]+)$/))) await tablePage(m[1]);
    else if (path === "/history") await historyPage();
    else if ((m = path.match(/^\/replay\/([\w-]+)$/))) await replayPage(m[1]);
    else if (path === "/leaderboard") await leaderboardPage();
    else if ((m = path.match(/^\/profile\/(.+)$/))) await profilePage(decodeURIComponent(m[1]));
    else await lobby();
  } catch (err) {
    main.replaceChildren(h("section", {}, h("div", { class: "error" }, err.message)));
  }
}

await loadTexts();
route();
