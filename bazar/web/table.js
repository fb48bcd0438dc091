// A table: its seats, the board, the player's hand and moves, the round's and the match's end.
import { N_, errorText, t, tn } from "./i18n.js";
import { drawBoard, drawSocket, endOf, tileOf } from "./board.js";
import { drawHand, el } from "./tiles.js";
import { api, go, h, main, session } from "./dom.js";
import { loginForms } from "./account.js";
import { renderWaiting } from "./waiting.js";
import { badge, boardWidth, guestMark, moveText } from "./words.js";
import { onResultEvent, pauseLeft, renderFair, renderResult, seenRoundEnd } from "./result.js";

export async function tablePage(id) {
  const params = new URLSearchParams(location.search);
  let info = (await api(`/api/tables/${id}`)).table;
  const { levels } = await api("/api/games");
  const state = { view: null, v: 0, clock: null, clockAt: 0, selected: null, commitments: {},
    roundEnd: null, sheetHidden: false, end: null, reveals: [], rematch: null, error: "" };
  const head = h("section", {});
  const felt = h("div", { class: "felt" });
  const boardSvg = el("svg", { class: "board", id: "board" });
  // the round's and the match's result: a sheet over the board (result.js)
  const result = h("section", { id: "result", hidden: true });
  const boardBox = h("div", { class: "board-wrap" }, boardSvg, result);
  const handSvg = el("svg", { class: "hand", id: "hand" });
  const actions = h("div", { class: "actions" });
  const status = h("div", { class: "status" });
  const players = h("div", { class: "players" });
  const fair = h("section", { class: "small", id: "fair" });
  const notice = h("p", { class: "notice", id: "notice" });
  // kept, not redrawn with each move: a button replaced under the pointer loses its click
  const standinText = h("span", {});
  const takeBackButton = h("button", { id: "takeback", onclick: takeBack }, t("takeBack"));
  const standin = h("div", { class: "standin", id: "standin", style: "display:none" },
    standinText, takeBackButton);
  felt.append(players, status, standin, boardBox, actions, handSvg);
  main.replaceChildren(head, notice, felt, fair);
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
    // a player who picks a tile of the new round is done looking at the last one
    if (state.roundEnd && !state.end) seenRoundEnd(state, (m) => socket.send(JSON.stringify(m)));
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
    const legal = standIn || pauseLeft(state) > 0 ? [] : view.legal || [];
    const tileMoves = new Set(legal.map(tileOf).filter(Boolean));
    const chosen = state.selected ? legal.filter((m) => tileOf(m) === state.selected) : [];
    const width = boardWidth(felt);
    // the round that ended stays on the board, every hand face up, while its result is seen
    const final = state.roundEnd && state.roundEnd.final;
    const spots = final
      ? drawBoard(boardSvg, final.view, { width, names: seatName, hands: final.hands })
      : drawBoard(boardSvg, view, { width, names: seatName, playable: tileMoves,
        selected: state.selected, onTile: clickTile });
    boardBox.classList.toggle("ended", Boolean(final));
    for (const end of final ? [] : new Set(chosen.map(endOf).filter((e) => e !== null))) {
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
    showResult();
  }

  function showResult() {
    const final = state.roundEnd && state.roundEnd.final;
    renderResult(result, { state, names: seatName, tableId: id, yourSeat: info.your_seat,
      seat: state.view && state.view.seat,
      rules: final ? final.view.rules : state.view && state.view.rules,
      onNext: () => { seenRoundEnd(state, (m) => socket.send(JSON.stringify(m))); render(); },
      onShowBoard: () => { state.sheetHidden = true; render(); },
      onShowResult: () => { state.sheetHidden = false; render(); },
      onRematch: async (links) => {
        try { const r = await api(`/api/tables/${id}/rematch`, {}); go(`/table/${r.table.id}`); }
        catch (err) { links.append(h("span", { class: "error" }, err.message)); }
      } });
  }

  async function onEvent(event) {
    if (await onResultEvent(state, event)) renderFair(fair, state);
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
      state.commitments = {}; state.reveals = []; state.end = null; state.roundEnd = null;
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
    if (state.roundEnd) showResult(); // its countdown
    const timer = document.getElementById("timer");
    if (!timer || !state.clock) return;
    // the move clock runs once the pause between rounds is over
    const ran = (performance.now() - state.clockAt) / 1000 - (state.clock.starts_in_s || 0);
    const left = Math.max(0, state.clock.left_s - Math.max(0, ran));
    timer.textContent = `⏱ ${Math.ceil(left)}`;
  }, 250);
  renderHead();
  connect();
}

