// A table: its seats, the board, the player's hand and moves, the round's and the match's end.
import { N_, errorText, t, tn } from "./i18n.js";
import { drawBoard, drawSocket, endOf, tileOf } from "./board.js";
import { drawHand, el } from "./tiles.js";
import { api, go, h, main, session } from "./dom.js";
import { loginForms } from "./account.js";
import { renderWaiting } from "./waiting.js";
import { badge, boardWidth, guestMark, keepsAccounts, moveText } from "./words.js";

async function sha256(text) {
  if (!crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function tablePage(id) {
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
  if (!session.me && info.status === "open") main.prepend(loginForms());

  function seatName(s) { return (info.seats[s] && info.seats[s].name) || t("seatN", { n: s + 1 }); }

  function renderHead() {
    head.replaceChildren(h("h2", {}, `${info.game}${info.listing ? ` (${info.listing})` : ""} · ${info.players} · ${info.move_time_s}s${info.rated ? ` · ${t("rated")}` : ""}`));
    if (info.status !== "open") return;
    renderWaiting(head, info, { id, invite: params.get("invite"), levels, reload,
      reseat: () => { socket.onclose = null; socket.close(); connect(); } });
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
        badge(view.rules, view.scores, s), h("div", { class: "small" }, tn("nTiles", view.hand_sizes[s]))));
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
      drawSocket(boardSvg, end, at, view.ends[end] ?? end, () => send(move));
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
  session.leave = () => { left = true; socket.close(); };
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

