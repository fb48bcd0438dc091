// A table: its seats round the felt, the board, the player's hand and moves, the move log, the
// round's and the match's end. Played by pointer or by keyboard alone (UX.md §9), every move said
// in words to a screen reader.
import { N_, errorText, t, tn } from "./i18n.js";
import { drawBoard, drawSocket, endOf, tileOf } from "./board.js";
import { digitsWanted, el, parseTile } from "./tiles.js";
import { api, go, h, main, session, setTitle } from "./dom.js";
import { loginForms } from "./account.js";
import { renderWaiting } from "./waiting.js";
import { badge, boardWidth, byPip, endName, endNumber, endsOffered, gameName, guestMark, laidText, levelName, logText,
  moveText, pipSaid, tileSaid, tileText } from "./words.js";
import { onResultEvent, pauseLeft, renderFair, renderResult, seenRoundEnd } from "./result.js";
import { drawHand, stepFocus } from "./hand.js";
import { adviceText, analysed, gradedText, markOf, progressText } from "./coach.js";
import { setSound, sound, soundOn } from "./sound.js";

//: the width under which the table takes a phone's layout (UX.md §8)
const PHONE = 600;
//: the seconds of a player's clock under which it warns him
const LOW_S = 5;
//: how long a seat's last action shows on its plate
const CHIP_MS = 3000;
//: the lines the move log keeps
const LOG_LINES = 300;

// A loudspeaker, struck through while the sounds are off (drawn: no emoji font is assumed).
function speaker(on) {
  const svg = el("svg", { viewBox: "0 0 24 24", width: 22, height: 22, class: "icon", "aria-hidden": "true" });
  el("path", { d: "M3 9v6h4l5 4V5L7 9H3z" }, svg);
  if (on) el("path", { d: "M15 8.5a4.5 4.5 0 0 1 0 7M17.5 6a8 8 0 0 1 0 12", class: "wave" }, svg);
  else el("path", { d: "M15 9l6 6M21 9l-6 6", class: "wave" }, svg);
  return svg;
}

// Seconds as a clock says them: "0:42", tenths in the last ten ("9.4").
function clockText(s) {
  if (s < 10) return s.toFixed(1);
  const whole = Math.ceil(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// Whether the page should keep still (the player asked his system for less motion).
function still() { return matchMedia("(prefers-reduced-motion: reduce)").matches; }

export async function tablePage(id) {
  const params = new URLSearchParams(location.search);
  let info = (await api(`/api/tables/${id}`)).table;
  const { levels } = await api("/api/games");
  const state = { view: null, v: 0, clock: null, clockAt: 0, selected: null, commitments: {},
    roundEnd: null, sheetHidden: false, end: null, reveals: [], rematch: null, error: "",
    // when (performance.now) the players may no longer ask for a rematch: the table says
    rematchUntil: null,
    // the move chosen among the selected tile's (its end), by arrow, digit or socket
    choice: 0,
    // each seat's last action, shown on its plate a while ({text, at, draws})
    chips: {},
    // the last tile laid, and whether it came live (it slides in) or in a sync
    last: null,
    myTurn: false, low: false,
    // the seat whose plate shakes at the next drawing (it just passed)
    shake: null,
    // the coach's hint of this position ({v, move, advice, win}), or its refusal
    hint: null, hinting: false };
  const head = h("section", { class: "table-head" });
  const felt = h("div", { class: "felt" });
  const boardSvg = el("svg", { class: "board", id: "board" });
  // the round's and the match's result: a sheet over the board (result.js)
  const result = h("section", { id: "result", hidden: true });
  const boardBox = h("div", { class: "board-wrap" }, boardSvg, result);
  const players = h("div", { class: "players" });
  const stage = h("div", { class: "stage" }, players, boardBox);
  const hand = h("div", { class: "hand", id: "hand", role: "group", "aria-label": t("yourHand") });
  const actions = h("div", { class: "actions" });
  const status = h("div", { class: "status" });
  // what the coach said of this position, when asked (the Hint button)
  const hintLine = h("p", { class: "hint-line", id: "hint-text" });
  // the clock is one node, moved to the plate of the seat to move: its text never blinks out
  const clock = h("span", { class: "clock", id: "timer" });
  const logLine = h("div", { class: "logline", "aria-hidden": "true" });
  const log = h("ol", { class: "log", role: "log", "aria-live": "off", "aria-label": t("moveLog") });
  const fair = h("section", { class: "small", id: "fair" });
  const notice = h("p", { class: "notice", id: "notice" });
  // moves are said politely; the player's turn and results at once (UX.md §9)
  const polite = h("div", { class: "sr-only", id: "announce", role: "status", "aria-live": "polite" });
  const loud = h("div", { class: "sr-only", id: "alert", "aria-live": "assertive" });
  // kept, not redrawn with each move: a button replaced under the pointer loses its click
  const standinText = h("span", {});
  const takeBackButton = h("button", { id: "takeback", onclick: takeBack }, t("takeBack"));
  const standin = h("div", { class: "standin", id: "standin", style: "display:none" },
    standinText, takeBackButton);
  const play = h("div", { class: "play" }, stage, logLine, standin,
    h("div", { class: "controls" }, status, actions), hintLine, hand);
  felt.append(play, h("aside", { class: "side" }, h("h3", {}, t("moveLog")), log));
  // the coach's grades of a round the player asked about ("How did I play?"), under the table
  const review = h("section", { class: "review", id: "review", hidden: true });
  main.replaceChildren(head, notice, felt, review, fair, polite, loud);
  // a friend who opens an invitation link before logging in can do it here
  if (!session.me && info.status === "open") main.prepend(loginForms());

  // A seat's player by name: a bot of the table's by its level ("Bot 2 · Easy"; one that plays
  // for a player who left keeps the player's name), an empty seat by number.
  function seatName(s) {
    const seat = info.seats[s];
    if (seat && seat.bot && !seat.why) return t("botName", { n: s + 1, level: levelName(seat.bot) });
    return (seat && seat.name) || t("seatN", { n: s + 1 });
  }

  function renderHead() {
    head.replaceChildren(h("div", { class: "table-bar" },
      // the game's name; what else the table is (players, clock, rated) where there is room
      h("h2", {}, gameName(info.game), h("span", { class: "details" },
        ` · ${t("playersN", { n: info.players })} · ${t("perMove", { n: info.move_time_s })}${info.rated ? ` · ${t("rated")}` : ""}`)),
      tools()));
    // a table of a tournament leads back to it: its standings, the next round
    if (info.tournament) {
      const { id: tid, name, round, board } = info.tournament;
      head.append(h("p", { class: "tournament-link" }, h("a", { id: "to-tournament", href: `/tournament/${tid}` },
        t("tour.backTo", { name, round, board }))));
    }
    if (info.status !== "open") return;
    renderWaiting(head, info, { id, invite: params.get("invite"), levels, reload,
      reseat: () => { socket.onclose = null; socket.close(); connect(); } });
  }

  // The table's own buttons: its game's rules, the sounds, and the way out.
  function tools() {
    const help = h("button", { type: "button", class: "tool", "aria-label": t("rulesHere"),
      title: t("rulesHere"), onclick: async () => {
        try {
          const { openHelp } = await import("./rules.js");
          await openHelp((state.view && state.view.rules.name) || info.game);
        } catch (err) { notice.textContent = t("noRulesYet"); }
      } }, "?");
    const on = soundOn();
    const mute = h("button", { type: "button", class: "tool", id: "sound", "aria-pressed": String(on),
      "aria-label": t("sounds"), title: t("sounds"), onclick: () => {
        setSound(!soundOn());
        renderHead();
      } }, speaker(on));
    // numerals instead of pips, for who reads them faster (the board and the hand follow)
    const digits = digitsWanted();
    const numerals = h("button", { type: "button", class: "tool", id: "digits",
      "aria-pressed": String(digits), "aria-label": t("numerals"), title: t("numerals"), onclick: () => {
        localStorage.setItem("bazar.digits", digits ? "0" : "1");
        renderHead();
        render();
      } }, "1|2");
    const out = h("button", { type: "button", class: "tool leave", id: "leave", onclick: leave },
      t("leaveTable"));
    return h("div", { class: "tools" }, help, mute, numerals, out);
  }

  // Leaving asks first where it costs something: a seat at a match under way goes to a bot (a
  // rated match ends), a seat at an open table is given up.
  async function leave() {
    const seated = info.your_seat != null && !state.end;
    const playing = seated && info.status === "playing";
    const mine = playing && state.view && info.seats[state.view.seat];
    if (playing && !(mine && mine.bot)) {
      if (!await askToLeave(info.rated ? t("leaveRated") : t("leaveCasual"))) return;
      socket.send(JSON.stringify({ type: "leave" }));
    } else if (seated && info.status === "open") {
      try { await api(`/api/tables/${id}/leave`, {}); }
      catch (err) { notice.textContent = err.message; return; }
    }
    go("/");
  }

  // The page's own question whether to leave, in a modal dialog (the browser's confirm cannot
  // be styled, translated in its buttons, or kept in the page's language): the focus starts on
  // Stay, Esc or Stay keeps the seat, Leave answers yes; the focus goes back to the Leave button.
  function askToLeave(text) {
    const back = document.activeElement;
    const stay = h("button", { type: "button", class: "secondary", id: "leave-stay", value: "stay" }, t("leaveStay"));
    const go = h("button", { type: "button", class: "danger", id: "leave-yes", value: "leave" }, t("leaveYes"));
    const dialog = h("dialog", { class: "leave-ask", id: "leave-ask", "aria-labelledby": "leave-title",
      "aria-describedby": "leave-text" },
    h("h2", { id: "leave-title" }, t("leaveTitle")), h("p", { id: "leave-text" }, text),
    h("div", { class: "leave-buttons" }, stay, go));
    return new Promise((resolve) => {
      stay.addEventListener("click", () => dialog.close("stay"));
      go.addEventListener("click", () => dialog.close("leave"));
      // Tab goes round the two buttons: a modal dialog keeps the page out of reach
      dialog.addEventListener("keydown", (e) => {
        if (e.key !== "Tab") return;
        e.preventDefault();
        (document.activeElement === stay ? go : stay).focus();
      });
      dialog.addEventListener("close", () => {
        dialog.remove();
        if (back && back.isConnected && back.focus) back.focus();
        resolve(dialog.returnValue === "leave");
      });
      document.body.append(dialog);
      dialog.showModal();
      stay.focus();
    });
  }

  async function reload() { info = (await api(`/api/tables/${id}`)).table; heard(); renderHead(); render(); }

  // What the table's info says beside its seats: how long a rematch may still be asked for.
  function heard() {
    if (typeof info.rematch_left_s === "number") state.rematchUntil = performance.now() + info.rematch_left_s * 1000;
  }

  // a refusal stays on the page until the player acts again
  function act(message) {
    state.selected = null;
    state.choice = 0;
    state.error = "";
    socket.send(JSON.stringify(message));
    render();
  }

  function send(move) { act({ type: "move", move, v: state.v }); }

  function takeBack() { act({ type: "back" }); }

  // Whether the coach may hint here: a casual table where every other seat is a bot's (the
  // server refuses it anywhere else: a rating, a tournament or another person at stake).
  function hintsHere() {
    const view = state.view;
    if (!view || view.seat === null || info.rated || info.tournament) return false;
    return info.seats.every((seat, s) => s === view.seat || (seat && seat.bot && !seat.why));
  }

  // The coach's best move: its tile picked on the board (its end chosen) and why, in words.
  async function askHint() {
    if (state.hinting) return;
    state.hinting = true;
    const v = state.v;
    render();
    try {
      const hint = await api(`/api/tables/${id}/hint`, {});
      state.hint = { ...hint, asked: v };
      const tile = tileOf(hint.move);
      if (hint.v === state.v && tile && legalNow().includes(hint.move)) {
        state.selected = tile;
        state.choice = Math.max(0, chosenMoves().indexOf(hint.move));
      }
    } catch (err) {
      state.hint = { error: err.message, v, asked: v };
    }
    state.hinting = false;
    render();
    if (state.hint && state.hint.v === state.v) say(polite, hintLine.textContent);
  }

  // The moves the player may make now: none while a bot plays his seat, nor during the pause
  // after a round (its result is being seen).
  function legalNow() {
    const view = state.view;
    const mine = view && view.seat !== null ? info.seats[view.seat] : null;
    if (!view || (mine && mine.bot && !state.end) || pauseLeft(state) > 0) return [];
    return view.legal || [];
  }

  function clickTile(text) {
    // a player who picks a tile of the new round is done looking at the last one
    if (state.roundEnd && !state.end) seenRoundEnd(state, (m) => socket.send(JSON.stringify(m)));
    const moves = legalNow().filter((m) => tileOf(m) === text);
    if (!moves.length) return; // a tile that does not fit: it stays where it is
    if (moves.length === 1) { send(moves[0]); return; }
    state.selected = state.selected === text ? null : text;
    state.choice = 0;
    render();
    if (state.selected) say(polite, chosenText());
  }

  // The moves of the selected tile, one per end or variant, in the order the keys pick them.
  function chosenMoves() {
    return state.selected ? legalNow().filter((m) => tileOf(m) === state.selected) : [];
  }

  function chosenText() {
    const moves = chosenMoves();
    return moves.length ? `${moveText(state.view, moves[state.choice % moves.length], seatName)}` : "";
  }

  // Says `text` in a live region; the same text twice differs by a trailing space, so that a
  // screen reader says it again (lila's NVUI does the same).
  function say(region, text) {
    if (!text) return;
    region.textContent = region.textContent === text ? `${text}\u00a0` : text;
  }

  // Keys of the table (UX.md §9): in the hand ←/→ move among the tiles, Enter picks one; with a
  // tile picked ←/→ or 1-9 choose its end and Enter plays; Esc puts it back; D draws, P passes.
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !state.view) return;
    if (e.target.closest && e.target.closest("input, select, textarea, [contenteditable], dialog")) return;
    const moves = chosenMoves();
    const inHand = hand.contains(e.target);
    const legal = legalNow();
    if (e.key === "Escape" && state.selected) {
      state.selected = null; state.choice = 0; render(); e.preventDefault(); return;
    }
    if (moves.length > 1 && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      state.choice = (state.choice + (e.key === "ArrowLeft" ? -1 : 1) + moves.length) % moves.length;
      render(); say(polite, chosenText()); e.preventDefault(); return;
    }
    if (moves.length > 1 && /^[1-9]$/.test(e.key) && Number(e.key) <= moves.length) {
      state.choice = Number(e.key) - 1;
      render(); say(polite, chosenText()); e.preventDefault(); return;
    }
    if (moves.length && e.key === "Enter" && (!inHand || e.target.dataset.tile === state.selected)) {
      send(moves[state.choice % moves.length]); e.preventDefault(); return;
    }
    if (inHand && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      stepFocus(hand, e.key === "ArrowLeft" ? -1 : 1); e.preventDefault(); return;
    }
    if (e.code === "KeyH" && legal.length > 1 && hintsHere()) { askHint(); e.preventDefault(); return; }
    const word = { KeyD: "draw", KeyP: "pass" }[e.code];
    if (word && legal.includes(word)) { send(word); e.preventDefault(); return; }
    const reading = { KeyC: readEnds, KeyW: readHand, KeyE: readCounts, KeyV: readBoard,
      KeyL: () => (log.lastElementChild ? log.lastElementChild.textContent : "") }[e.code];
    if (reading) { say(polite, reading()); e.preventDefault(); return; }
    if (e.key === "?") { head.querySelector("button.tool").click(); e.preventDefault(); }
  }

  // What the keys C, W, E and V read (UX.md §9): the open ends, the hand, the tiles each seat
  // holds, the tiles laid.
  function readEnds() {
    const view = state.view;
    // an end named by its pip is said by it alone ("four"), a train or a branch with its pip
    return Object.entries(view.ends || {}).map(([end, pip]) => (byPip(view, end)
      ? endName(view, end, seatName, { said: true })
      : `${endName(view, end, seatName)}: ${pipSaid(pip)}`)).join("; ");
  }
  function readHand() { return (state.view.hand || []).map(tileSaid).join(", "); }
  function readCounts() {
    const view = state.view;
    return view.hand_sizes.map((n, s) => `${seatName(s)}: ${tn("nTiles", n)}`).join("; ");
  }
  function readBoard() {
    // every tile the board's record names, in its order (a line reads left to right)
    const tiles = [];
    const walk = (x) => {
      if (typeof x === "string" && parseTile(x)) tiles.push(x.replace(/#/g, ""));
      else if (x && typeof x === "object") Object.values(x).forEach(walk);
    };
    walk(state.view.board);
    return tiles.map(tileSaid).join(", ");
  }
  document.addEventListener("keydown", onKey);

  // Where seat `s` sits: you (or, watching, seat 0) at the bottom, the others round an ellipse
  // in turn order, the next on your left (UX.md §1); in % of the stage.
  function seatSpot(s, n, me) {
    const angle = Math.PI / 2 + ((s - me + n) % n) * 2 * Math.PI / n;
    return [50 + 46 * Math.cos(angle), 50 + 42 * Math.sin(angle)];
  }

  // A seat's plate: name, team, who led, tiles left, score, the clock if it is to move, and a
  // moment's chip for what it just did.
  function plate(view, s, me) {
    const n = view.hand_sizes.length;
    const seat = info.seats[s];
    const [x, y] = seatSpot(s, n, me);
    const side = x < 20 ? " left" : x > 80 ? " right" : y < 50 ? " top" : " bottom";
    const teams = view.rules.options.teams && n % 2 === 0;
    const led = view.extra && view.extra.leader !== undefined ? view.extra.leader
      : view.history && view.history.length ? view.history[0][0] : null;
    const name = h("div", { class: "who" },
      teams ? h("span", { class: "team", "aria-label": t("teamN", { n: s % 2 + 1 }) }, "AB"[s % 2]) : "",
      led === s ? h("span", { class: "lead", title: t("ledRound"), "aria-label": t("ledRound") }, "◆") : "",
      h("span", { class: "name" }, seatName(s)), seat && seat.bot && seat.why ? ` (${t("bot")})` : "",
      guestMark(seat && seat.guest));
    const size = view.hand_sizes[s];
    const backs = h("span", { class: "backs", "aria-hidden": "true" },
      [...Array(Math.min(size, 10)).keys()].map(() => h("i", {})));
    const meta = h("div", { class: "meta" }, s === me && view.hand ? "" : backs,
      // "7 tiles" on a wide plate, a bare 7 on a phone's (the words still said)
      h("span", { class: "count" }, h("span", { class: "n", "aria-hidden": "true" }, String(size)),
        h("span", { class: "word" }, tn("nTiles", size))), " ",
      badge(view.rules, view.scores, s));
    const node = h("div", { class: `player${side}${view.turn === s && !state.end ? " turn" : ""}${view.seat === s ? " me" : ""}${teams ? ` team${s % 2}` : ""}`,
      "data-seat": s, style: `left:${x}%;top:${y}%` }, name, meta);
    if (view.turn === s && !state.end) node.append(clock);
    const chip = state.chips[s];
    const age = chip ? performance.now() - chip.at : CHIP_MS;
    if (age < CHIP_MS) {
      node.append(h("span", { class: "act", style: `animation-delay:-${Math.round(age)}ms` }, chip.text));
    }
    return node;
  }

  // The tab's title says when it is the player's move, even from another tab (UX.md §5); else
  // the game and its score ("Kozel · 12–7 · bazar").
  function title(mine) {
    const scores = state.view && state.view.scores && state.view.scores.scores;
    const score = Array.isArray(scores) ? scores.join("–") : "";
    if (mine) document.title = t("titleYourTurn");
    else if (score) setTitle(N_("titleScore"), { game: gameName(info.game), score });
    else setTitle(`title.${info.game}`);
  }

  // The coach's hint in words: the move, and why (the yard's principle it keeps), else the
  // chance to win it leaves.
  function hintWords(hint) {
    if (hint.error) return [h("span", { class: "error" }, hint.error)];
    const move = moveText(state.view, hint.move, seatName);
    const said = (m) => moveText(state.view, m, seatName);
    const why = hint.forced ? t("hintForced") : adviceText(hint.advice, said, seatName, hint)
      || t("hintChance", { win: Math.round(100 * hint.win) });
    return [h("b", {}, `${t("hintSays")}: ${move}.`), " ", why];
  }

  // The felt fills the window under the page's top: the hand stays on screen, the board takes
  // what is left between the seats and the hand.
  function fit() {
    const top = felt.getBoundingClientRect().top + scrollY;
    felt.style.height = `${Math.max(360, innerHeight - top - 6)}px`;
  }

  function render() {
    const view = state.view;
    status.replaceChildren();
    actions.replaceChildren();
    felt.style.display = view ? "" : "none";
    if (!view) { players.replaceChildren(); boardSvg.replaceChildren(); hand.replaceChildren(); title(false); return; }
    fit();
    // the version drawn: what a test (or a curious player) can wait for instead of a pause
    felt.dataset.v = state.v;
    // a bot plays this page's seat (its player's time ran out, or he was away): he is told so
    // and offered his seat back, not moves (online-club.md §2)
    const mine = view.seat !== null ? info.seats[view.seat] : null;
    const standIn = Boolean(mine && mine.bot && !state.end);
    const legal = legalNow();
    if (!legal.length) state.selected = null;
    const n = view.hand_sizes.length;
    const me = view.seat ?? 0;
    // while a round's end is in view, the table is as that round left it: its plates, its
    // number (the board shows every hand face up)
    const final = state.roundEnd && state.roundEnd.final;
    const shown = final ? { ...final.view, seat: view.seat, hand: null } : view;
    players.replaceChildren(...[...Array(n).keys()].map((s) => plate(shown, s, me)));
    // a pass shakes its plate, once, as it comes
    const shaken = state.shake !== null && players.querySelector(`.player[data-seat="${state.shake}"]`);
    if (shaken && !still()) {
      shaken.animate([{ translate: "0" }, { translate: "-4px" }, { translate: "4px" }, { translate: "0" }],
        { duration: 120 });
    }
    state.shake = null;
    stage.classList.toggle("sides", n > 2);
    const round = final ? state.roundEnd.number : view.extra && view.extra.number;
    if (round) status.append(h("span", {}, t("round", { n: round })));
    // the stock, where the game has one to draw from (poker and Texas 42 deal every tile)
    if (shown.rules.capabilities.has_bazar) {
      status.append(h("span", {}, `${t("bazar")}: ${shown.bazar_size}`));
    }
    // the log's strip would name the next round already
    logLine.style.display = final ? "none" : "";
    const paused = pauseLeft(state) > 0;
    const myTurn = view.turn !== null && view.turn === view.seat && !state.end && legal.length > 0;
    if (view.turn !== null && !state.end && !paused) {
      const whose = view.turn !== view.seat ? seatName(view.turn) : standIn ? t("yourBot") : null;
      // the player's own turn names the ends he may play on, by their pips ("play on 4 or 3")
      const offered = whose === null ? endsOffered(view, legal) : "";
      status.append(h("span", { class: whose === null ? "mine" : "" },
        whose !== null ? t("turnOf", { name: whose }) : offered ? t("yourTurnOn", { ends: offered }) : t("yourTurn")));
    }
    if (view.scores && view.scores.pot > 0) status.append(h("span", { class: "pot" }, `🐟 +${view.scores.pot}`));
    if (view.seat === null) status.append(h("span", {}, t("spectator")));
    // the board, and the ends the chosen tile fits: a disc on each, its train or branch lit up
    const tileMoves = new Set(legal.map(tileOf).filter(Boolean));
    const chosen = chosenMoves();
    const picked = chosen.length ? chosen[state.choice % chosen.length] : null;
    const width = boardWidth(boardBox), height = boardBox.clientHeight;
    // the round that ended stays on the board, every hand face up, while its result is seen
    const spots = final
      ? drawBoard(boardSvg, final.view, { width, height, names: seatName, hands: final.hands })
      : drawBoard(boardSvg, view, { width, height, names: seatName, playable: tileMoves,
        selected: state.selected, onTile: clickTile, last: state.last && state.last.tile });
    boardBox.classList.toggle("ended", Boolean(final));
    if (!final) slideLast();
    for (const end of final ? [] : new Set(chosen.map(endOf).filter((e) => e !== null))) {
      // a plain play before its variants (close, last) that name the same end
      const move = chosen.find((m) => m === `${state.selected}:${end}`) || chosen.find((m) => endOf(m) === end);
      const lane = boardSvg.querySelector(`g.lane[data-end="${end}"]`);
      if (lane) { lane.classList.add("target"); lane.addEventListener("click", () => send(move)); }
      const at = spots[end];
      if (!at) continue;
      const socket = drawSocket(boardSvg, end, at, view.ends[end] ?? end, () => send(move), endNumber(view, end));
      socket.classList.toggle("chosen", endOf(picked) === end);
      // the move in words, not only the number the end needs
      socket.setAttribute("aria-label", moveText(view, move, seatName));
    }
    chosen.forEach((m, i) => {
      actions.append(h("button", { class: `secondary${m === picked ? " chosen" : ""}`,
        "aria-keyshortcuts": String(i + 1), onclick: () => send(m) }, moveText(view, m, seatName)));
    });
    // a lone draw or pass is made by the table itself: nothing to offer
    const forced = legal.length === 1 && (legal[0] === "draw" || legal[0] === "pass");
    const keys = { draw: "d", pass: "p" };
    for (const m of legal) {
      if (!tileOf(m) && !forced) {
        actions.append(h("button", { "aria-keyshortcuts": keys[m], onclick: () => send(m) }, moveText(view, m, seatName)));
      }
    }
    standin.style.display = standIn ? "" : "none";
    if (standIn) {
      standinText.textContent = (mine.why === "gone" ? t("standInGone") : t("standInTimeout"))
        + (mine.back ? ` ${t("backNext")}` : "");
      takeBackButton.style.display = mine.back ? "none" : "";
    }
    // a spectator has no hand, nor a Kolbasa player, whose rows lie face down on the board
    // the board of a round that ended, shown alone, shows every hand as it left them: none
    // of the next round beside it
    hand.style.display = view.hand && !(final && state.sheetHidden) ? "" : "none";
    const byTile = (text) => legal.filter((m) => tileOf(m) === text);
    drawHand(hand, view.hand || [], {
      playable: tileMoves, selected: state.selected, onPick: clickTile,
      largest: innerWidth <= PHONE ? 28 : 36, still: still(),
      labelOf: (text) => {
        const ends = byTile(text).map((m) => (endOf(m) === null ? moveText(view, m, seatName) : endName(view, endOf(m), seatName)));
        return ends.length ? t("tilePlayable", { tile: tileText(text), ends: ends.join(", ") }) : tileText(text);
      },
    });
    if (myTurn && legal.length > 1 && hintsHere()) {
      actions.append(h("button", { type: "button", class: "secondary", id: "hint", "aria-keyshortcuts": "h",
        disabled: state.hinting, onclick: askHint }, state.hinting ? t("hintThinking") : t("hint")));
    }
    const hint = state.hint && state.hint.v === state.v ? state.hint : null;
    hintLine.replaceChildren(...(hint ? hintWords(hint) : []));
    hintLine.style.display = hint ? "" : "none";
    if (state.error) actions.append(h("span", { class: "error" }, state.error));
    // a board scaled down to fit the stage (measured once all round it is laid out) keeps its
    // sockets' 44 px for a finger
    const scale = (boardSvg.getScreenCTM() || { a: 1 }).a;
    if (scale > 0 && scale < 1) {
      for (const hit of boardSvg.querySelectorAll("g.end circle.hit")) hit.setAttribute("r", 22 / scale);
    }
    // the player's turn begins: the bell, the title, and a word to a screen reader
    if (myTurn && !state.myTurn) {
      sound("bell");
      say(loud, t("yourTurn"));
    }
    state.myTurn = myTurn;
    title(myTurn);
    tick();
    showResult();
  }

  // The tile last laid (the board outlines it) slides in from the plate of who laid it, when it
  // came live (200 ms; not under reduced motion).
  function slideLast() {
    const last = state.last;
    const node = boardSvg.querySelector("g.layout g.tile.last");
    if (!last || !node || !last.live || still() || !node.animate) return;
    last.live = false;
    const from = players.querySelector(`.player[data-seat="${last.seat}"]`);
    const ctm = boardSvg.getScreenCTM();
    if (!from || !ctm) return;
    const p = from.getBoundingClientRect(), q = node.getBoundingClientRect();
    const dx = (p.x + p.width / 2 - q.x - q.width / 2) / ctm.a;
    const dy = (p.y + p.height / 2 - q.y - q.height / 2) / ctm.d;
    node.animate([{ translate: `${dx}px ${dy}px`, opacity: 0.4 }, { translate: "0 0", opacity: 1 }],
      { duration: 200, easing: "ease-out" });
  }

  // The move clock of the seat to move, tenths in its last ten seconds; red, with one sound for
  // the player, in its last five.
  function tick() {
    if (!state.clock || state.end) { clock.textContent = ""; return; }
    // the move clock runs once the pause between rounds is over
    const ran = (performance.now() - state.clockAt) / 1000 - (state.clock.starts_in_s || 0);
    const left = Math.max(0, state.clock.left_s - Math.max(0, ran));
    clock.textContent = clockText(left);
    const low = left <= LOW_S;
    const owner = clock.closest(".player");
    if (owner) owner.classList.toggle("low", low);
    if (low && !state.low && state.myTurn) sound("low");
    state.low = low;
  }

  // What a move says in the log ("Olya: 6|4 on 4"), to a screen reader ("Olya: six–four on
  // four") and on its seat's plate ("6|4", "drew 2"). Its words come from the event alone (the
  // ends it was laid against, whether the table made it for the player) and the board and rules
  // of its round's view (a Chicken Foot toe is named by its double): the log reads the same live
  // and after a reload.
  function noteMove(event, round, live) {
    const named = round && { board: round.board, rules: round.rules, ends: event.ends || {} };
    const who = seatName(event.seat);
    const tileMove = tileOf(event.move);
    const end = endOf(event.move);
    const [word] = event.move.split(" ");
    const did = logText(named, event.move, seatName);
    // a lone draw or pass the table made for the player (the plates of the others' say nothing)
    const me = state.view ? state.view.seat : info.your_seat;
    const forced = Boolean(event.forced) && me === event.seat;
    addLog(`${who}: ${did}${forced ? ` ${t("log.forced")}` : ""}`, forced ? "forced" : "");
    const chip = state.chips[event.seat];
    if (word === "draw") {
      const draws = chip && chip.draws && performance.now() - chip.at < CHIP_MS ? chip.draws + 1 : 1;
      state.chips[event.seat] = { text: t("chip.drew", { n: draws }), at: performance.now(), draws };
    } else {
      state.chips[event.seat] = { text: tileMove ? tileText(tileMove) : did, at: performance.now() };
    }
    if (tileMove) state.last = { tile: tileMove, seat: event.seat, live };
    if (!live) return;
    if (word === "pass") state.shake = event.seat;
    const [a, b] = tileMove ? parseTile(tileMove) : [0, 1];
    sound(tileMove ? (a === b ? "double" : "click") : { pass: "knock", draw: "shuffle" }[word] || "click");
    const spoken = !tileMove ? did : end === null || !named ? tileSaid(tileMove)
      : laidText(named, tileMove, end, seatName, { said: true });
    say(polite, `${who}: ${spoken}`);
  }

  function addLog(text, cls = "") {
    log.append(h("li", { class: cls }, text));
    while (log.childElementCount > LOG_LINES) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;
    logLine.textContent = text;
  }

  // The log and the live region hear the events as they come (a sync's are the past: logged
  // but not said, nor sounded). A round's result is read out by its sheet (result.js).
  function noteEvent(event, round, live) {
    if (event.t === "move") noteMove(event, round, live);
    if (event.t === "round_start") { addLog(t("round", { n: event.number }), "round"); state.last = null; }
    if (event.t === "round_end" && live) sound("sting");
  }

  function showResult() {
    const final = state.roundEnd && state.roundEnd.final;
    renderResult(result, { state, names: seatName, tableId: id, yourSeat: info.your_seat,
      seat: state.view && state.view.seat,
      rules: final ? final.view.rules : state.view && state.view.rules,
      onNext: () => { seenRoundEnd(state, (m) => socket.send(JSON.stringify(m))); render(); },
      onShowBoard: () => { state.sheetHidden = true; render(); },
      onReview: howDidIPlay,
      onShowResult: () => { state.sheetHidden = false; render(); },
      onRematch: async (links) => {
        try { const r = await api(`/api/tables/${id}/rematch`, {}); go(`/table/${r.table.id}`); }
        catch (err) { links.append(h("span", { class: "error" }, err.message)); }
      } });
  }

  // The coach's grades of the player's own moves in round `number`, followed as they are
  // made, in the section under the table: each move with its mark, what it gave up, the
  // better move and why.
  async function howDidIPlay(number) {
    if (state.reviewing) return;
    state.reviewing = true;
    const status = h("p", { class: "hint", id: "review-status", role: "status" }, t("coachStarting"));
    const close = h("button", { type: "button", class: "secondary", id: "review-close",
      onclick: () => { review.hidden = true; } }, t("close"));
    review.hidden = false;
    review.replaceChildren(h("div", { class: "review-head" }, h("h2", {}, t("reviewTitle", { n: number })), close), status);
    review.scrollIntoView({ block: "start", behavior: still() ? "auto" : "smooth" });
    const words = { board: { kind: state.view.board.kind }, rules: state.view.rules };
    const said = (m) => logText(words, m, seatName);
    try {
      const done = await analysed(`/api/tables/${id}/review`, { round: number },
        (p) => { status.textContent = progressText(p); });
      const graded = done.analysis;
      const me = graded.players[0];
      status.textContent = me && me.accuracy !== null ? t("reviewAccuracy", { accuracy: me.accuracy }) : t("reviewNone");
      review.append(h("ol", { class: "review-moves", id: "review-moves" }, graded.moves.map((m) => h("li", { "data-grade": m.grade },
        markOf(m), markOf(m) ? " " : "", gradedText(m, said, seatName)))));
    } catch (err) {
      status.textContent = err.message;
    }
    state.reviewing = false;
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
  session.leave = () => {
    left = true; socket.close();
    document.removeEventListener("keydown", onKey);
    removeEventListener("resize", render);
    clearInterval(ticking);
    clearInterval(counting);
    document.title = "bazar";
  };
  async function receive(data) {
    // an event this page has already applied (a sync holds it too) would apply a move twice
    if (data.type === "event" && data.v <= state.v) return;
    if (data.type === "error") { state.error = errorText(data); render(); return; }
    if (data.type === "table") { info = { ...info, ...data.table }; heard(); renderHead(); }
    if (data.type === "sync") {
      state.commitments = {}; state.reveals = []; state.end = null; state.roundEnd = null;
      log.replaceChildren();
      // each move is told on the board of its round: the one it ended with, or the one now
      const finals = {};
      for (const e of data.events) if (e.t === "round_end") finals[e.number] = e.final.view;
      let number = null;
      for (const e of data.events) {
        if (e.t === "round_start") number = e.number;
        noteEvent(e, finals[number] || data.view || null, false);
        await onEvent(e);
      }
      info = { ...info, ...data.table };
      heard();
      state.rematch = (info.ending && info.ending.rematch) || null;
      renderHead();
    }
    // a notice (a player away or back) is not part of the game: it has no version
    if (data.type === "event") noteEvent(data.event, state.view, true);
    // the match ended now: the table says how long a rematch may be asked for
    if (data.type === "event" && data.event.t === "match_end") reload().catch(reportError);
    if (data.type === "event" || data.type === "notice") await onEvent(data.event);
    // an event's view leaves out the rules, which never change: they are the sync's
    if ("view" in data && data.view) {
      state.view = data.view.rules || !state.view ? data.view : { ...data.view, rules: state.view.rules };
    }
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
  const ticking = setInterval(tick, 100);
  // the countdowns of the sheet: the next round's, the rematch's
  const counting = setInterval(() => { if (state.roundEnd || state.end) showResult(); }, 250);
  addEventListener("resize", render);
  renderHead();
  connect();
}

