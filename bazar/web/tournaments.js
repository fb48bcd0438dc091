// The tournaments: the list with the form that organises one, and a tournament's own page (its
// standings, each round's tables, the ways in and out), kept live by the tournament's socket.
import { N_, lang, t, tn } from "./i18n.js";
import { api, go, h, main, session, setTitle } from "./dom.js";
import { gameName, levelName } from "./words.js";
import { el } from "./tiles.js";

//: the formats in the order the form offers them (the library's FORMATS)
const FORMATS = ["swiss", "round_robin", "knockout", "arena"];
const FORMAT_NAMES = { swiss: N_("tour.swiss"), round_robin: N_("tour.round_robin"),
  knockout: N_("tour.knockout"), arena: N_("tour.arena") };
const STATUS_NAMES = { open: N_("tour.status.open"), playing: N_("tour.status.playing"),
  finished: N_("tour.status.finished") };
//: the tie-breaks a standings table shows, in the order they break ties, by their names
const TIEBREAKS = [["buchholz", N_("tour.buchholz")], ["median_buchholz", N_("tour.median_buchholz")],
  ["sonneborn_berger", N_("tour.sonneborn_berger")], ["wins", N_("tour.wins")]];
//: the arena's games shown unfolded, the newest
const RECENT_GAMES = 12;
//: an option the form offers where the game has one: how far a match goes
const MATCH_LENGTH = [["limit", N_("tour.limit")], ["target", N_("tour.target")]];

// A number of points as the page's language writes it ("1.5", «1,5»).
function num(x) { return new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(x); }

// A moment (seconds since the epoch) in the page's language, to the minute.
function when(s) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(s * 1000));
}

// A tournament's format and how long it runs: "Swiss · 5 rounds", "Arena · 30 min".
function formatText(x) {
  const name = t(FORMAT_NAMES[x.format] || x.format);
  if (x.format === "arena" && x.duration_s) return `${name} · ${tn("tour.minutes", Math.round(x.duration_s / 60))}`;
  if (x.rounds) return `${name} · ${tn("tour.roundsN", x.rounds)}`;
  return name;
}

// How many entries a tournament has: the listing may give the entries or their count.
function entryCount(x) { return Array.isArray(x.entries) ? x.entries.filter((e) => !e.withdrawn).length : x.entries || 0; }

// A flame: an arena's entry on a streak (drawn: no emoji font is assumed), said in words.
function flame() {
  const svg = el("svg", { viewBox: "0 0 16 16", width: 16, height: 16, class: "flame", "aria-hidden": "true" });
  el("path", { d: "M8 1c1 3 4 4.5 4 8.5A4 4 0 0 1 4 9.5C4 7.5 5 6.5 6 5.5c0 1.5.5 2.5 1.5 3C7.5 6 7 3.5 8 1z" }, svg);
  return h("span", { class: "fire", title: t("tour.onFire") }, svg, h("span", { class: "sr-only" }, t("tour.onFire")));
}

// ---- the list and the form -------------------------------------------------------------

export async function tournamentsPage() {
  const [{ tournaments }, { games, default_game: usual, move_times: times }] = await Promise.all([
    api("/api/tournaments"), api(`/api/games?lang=${lang}`)]);
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  main.replaceChildren(
    h("section", { id: "tournaments" }, h("h1", {}, t("tournaments")), listing(tournaments)),
    ...(session.me ? [organiseForm(games, byName, times, usual), importForm()] : [h("section", {}, h("p", {}, t("tour.loginFirst")),
      h("a", { class: "button", href: "/" }, t("login")))]));
}

// A tournament's file (a download of a finished one's page) stored again: the club replays
// its every record and shows its standings.
function importForm() {
  const error = h("div", { class: "error", role: "alert" });
  // the browser's own file button speaks the browser's language, not the page's: it is
  // hidden behind a label of the page's, and the chosen file's name is said beside it
  const file = h("input", { type: "file", name: "file", accept: ".json,application/json", id: "tournament-file",
    class: "sr-only" });
  const chosen = h("span", { class: "hint", id: "tournament-chosen" }, t("noFileChosen"));
  file.addEventListener("change", () => {
    chosen.textContent = file.files[0] ? file.files[0].name : t("noFileChosen");
  });
  return h("section", { id: "import-box" }, h("h2", {}, t("tour.import")), h("p", { class: "hint" }, t("tour.importHint")),
    h("form", { class: "import", id: "import", onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = "";
      if (!file.files[0]) { error.textContent = t("noFileChosen"); return; }
      try {
        const made = await api("/api/tournaments/import", await file.files[0].text(), true);
        go(`/tournament/${made.tournament.id}`);
      } catch (err) { error.textContent = err.message; }
    } }, h("label", { for: "tournament-file", class: "button secondary", tabindex: "0",
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); file.click(); } } },
    t("tour.chooseFile")), file, chosen, h("button", {}, t("tour.importButton"))), error);
}

function listing(all) {
  if (!all.length) return h("p", { class: "hint" }, t("tour.none"));
  // the ones still to join first, then those in play, then the finished
  const order = { open: 0, playing: 1, finished: 2 };
  const sorted = [...all].sort((a, b) => (order[a.status] ?? 3) - (order[b.status] ?? 3));
  return h("div", { class: "table-wrap" }, h("table", { class: "list tournaments" },
    h("thead", {}, h("tr", {}, [N_("tour.name"), N_("game"), N_("tour.format"), N_("tour.entries"),
      N_("tour.status"), N_("tour.starts")].map((k) => h("th", { scope: "col" }, t(k))))),
    // each cell says what it is where a phone folds the row and hides the heads
    h("tbody", {}, sorted.map((x) => h("tr", { "data-status": x.status },
      h("td", {}, h("a", { href: `/tournament/${x.id}` }, x.name || t("tour.untitled"))),
      h("td", {}, gameName(x.game), x.teams ? ` · ${t("tour.teams")}` : ""),
      h("td", {}, formatText(x)),
      h("td", { class: "num", "data-label": t("tour.entries") }, entryCount(x)),
      h("td", {}, h("span", { class: `state ${x.status}` }, t(STATUS_NAMES[x.status] || x.status))),
      h("td", { "data-label": t("tour.starts") }, x.starts_at ? h("time", {}, when(x.starts_at)) : x.status === "open" ? t("tour.byOrganiser") : "—"))))));
}

// The form that organises a tournament: `usual` is the club's game, chosen first.
function organiseForm(games, byName, times, usual) {
  const error = h("div", { class: "error", role: "alert" });
  const name = h("input", { name: "name", required: true, maxlength: 60, autocomplete: "off" });
  const game = h("select", { name: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("select", { name: "players" });
  const format = h("select", { name: "format" }, FORMATS.map((f) => h("option", { value: f }, t(FORMAT_NAMES[f]))));
  const rounds = h("input", { name: "rounds", type: "number", min: 1, max: 30, value: 5, inputmode: "numeric" });
  const roundsLabel = h("label", {}, t("tour.rounds"), rounds);
  const roundsHint = h("p", { class: "hint", id: "rounds-hint" });
  const minutes = h("input", { name: "duration_min", type: "number", min: 1, max: 600, value: 30, inputmode: "numeric" });
  const minutesLabel = h("label", {}, t("tour.duration"), minutes);
  const length = h("input", { name: "length", type: "number", min: 1, max: 1000, inputmode: "numeric" });
  const lengthText = h("span", {});
  const lengthLabel = h("label", {}, lengthText, length);
  const teams = h("input", { type: "checkbox", name: "teams" });
  const teamsLabel = h("label", { class: "check" }, teams, t("tour.teams"));
  const time = h("select", { name: "move_time_s" }, times.map((s) => h("option", { value: s }, t("seconds", { n: s }))));
  time.value = times.includes(30) ? 30 : times[0];
  const rated = h("input", { type: "checkbox", name: "rated" });
  const access = h("select", { name: "access" },
    [["open", N_("open")], ["invite", N_("tour.byInvitation")]].map(([v, k]) => h("option", { value: v }, t(k))));
  const startsAt = h("input", { name: "starts_at", type: "datetime-local" });

  // the fields of the chosen game and format: its players, how far its match goes, teams
  // where it has them; rounds where the format counts them, minutes for an arena
  function chooseGame() {
    const g = byName[game.value];
    const [low, high] = g.players_range;
    players.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => low + i)
      .map((n) => h("option", { value: n }, n)));
    players.value = g.players;
    const option = MATCH_LENGTH.find(([k]) => g.options[k]);
    lengthLabel.hidden = !option;
    if (option) { lengthText.textContent = t(option[1]); length.value = g.options[option[0]]; }
    teamsLabel.hidden = !g.options.teams;
    teams.checked = false;
  }
  function chooseFormat() {
    const f = format.value;
    roundsLabel.hidden = !["swiss", "round_robin"].includes(f);
    rounds.required = f === "swiss";
    minutesLabel.hidden = f !== "arena";
    roundsHint.textContent = f === "round_robin" ? t("tour.roundsAll") : f === "knockout" ? t("tour.roundsBracket") : "";
    if (f === "round_robin") rounds.value = "";
    else if (!rounds.value) rounds.value = 5;
  }
  game.addEventListener("change", chooseGame);
  format.addEventListener("change", chooseFormat);
  game.value = byName[usual] ? usual : games[0].name;
  chooseGame();
  chooseFormat();

  const form = h("form", { class: "grid", id: "organise", onsubmit: async (e) => {
    e.preventDefault();
    error.textContent = "";
    const g = byName[game.value];
    const request = { name: name.value.trim(), game: game.value, players: Number(players.value),
      format: format.value, teams: !teamsLabel.hidden && teams.checked, rated: rated.checked,
      access: access.value, move_time_s: Number(time.value), options: {} };
    if (!roundsLabel.hidden && rounds.value) request.rounds = Number(rounds.value);
    if (!minutesLabel.hidden) request.duration_min = Number(minutes.value);
    const option = MATCH_LENGTH.find(([k]) => g.options[k]);
    if (option && Number(length.value) !== g.options[option[0]]) request.options[option[0]] = Number(length.value);
    if (startsAt.value) request.starts_at = new Date(startsAt.value).getTime() / 1000;
    try {
      const made = await api("/api/tournaments", request);
      const tour = made.tournament;
      go(`/tournament/${tour.id}` + (tour.invite ? `?invite=${encodeURIComponent(tour.invite)}` : ""));
    } catch (err) { error.textContent = err.message; }
  } },
  h("label", { class: "wide" }, t("tour.name"), name),
  h("label", {}, t("game"), game), h("label", {}, t("players"), players),
  h("label", {}, t("tour.format"), format), roundsLabel, minutesLabel, roundsHint, lengthLabel,
  teamsLabel, h("label", {}, t("moveTime"), time), h("label", {}, t("access"), access),
  h("label", { class: "check" }, rated, t("rated")),
  h("label", {}, t("tour.startsAt"), startsAt), h("p", { class: "hint" }, t("tour.startsAtHint")),
  h("button", { class: "wide" }, t("tour.organise")));
  return h("section", { id: "organise-box" }, h("h2", {}, t("tour.new")), form, error);
}

// ---- a tournament ------------------------------------------------------------------------

export async function tournamentPage(id) {
  const invite = new URLSearchParams(location.search).get("invite") || undefined;
  let tour = (await api(`/api/tournaments/${id}`)).tournament;
  const { levels } = await api("/api/games");
  const head = h("section", { class: "tour-head", id: "tour-head" });
  const yours = h("div", { id: "your-table" });
  const standings = h("section", { id: "standings" });
  const rounds = h("section", { id: "rounds" });
  const live = h("span", { class: "live", role: "status" });
  // a new round, the player's own table and the end are said at once (UX.md §9)
  const loud = h("div", { class: "sr-only", id: "tour-alert", "aria-live": "assertive" });
  const error = h("div", { class: "error", role: "alert", id: "tour-error" });
  main.replaceChildren(head, yours, standings, rounds, loud);
  let clock = null;

  // An entry by name: a bot by its level and number, never its id.
  const entryName = (e) => (e.bot ? t("botName", { n: e.id + 1, level: levelName(e.bot) }) : e.name);
  const byId = () => Object.fromEntries(tour.entries.map((e) => [e.id, e]));
  const mine = () => (tour.you === undefined || tour.you === null ? null : tour.you);
  const isOwner = () => session.me && tour.owner === session.me.id;
  const rounds_ = () => tour.rounds_played || [];
  const lastRound = () => rounds_()[rounds_().length - 1];
  // the player's table of the round in play: his pairing with a table and no result yet
  function myTable() {
    const r = lastRound();
    if (mine() === null || !r || tour.status !== "playing") return null;
    const p = r.pairings.find((x) => x.entries.includes(mine()) && !x.bye && !x.places);
    return p && p.table ? { round: r.round, ...p } : null;
  }

  async function act(path, body = {}) {
    error.textContent = "";
    try {
      const answer = await api(`/api/tournaments/${id}/${path}`, body);
      // the socket brings every change in order; an answer drawn after it could be older
      // than what it brought (the start's, before the director paired the first round)
      if (socket.readyState !== WebSocket.OPEN) {
        tour = answer.tournament || (await api(`/api/tournaments/${id}`)).tournament;
        render();
      }
    } catch (err) { error.textContent = err.message; }
  }

  function progress() {
    if (tour.status === "open") {
      return tour.starts_at ? t("tour.startsOn", { when: when(tour.starts_at) }) : t("tour.waitsForOrganiser");
    }
    if (tour.status === "finished") {
      const entries = byId();
      const first = (tour.standings || []).filter((r) => r.rank === 1).map((r) => entryName(entries[r.entry] || { id: r.entry, name: r.name }));
      return first.length ? t("tour.winner", { name: first.join(", ") }) : "";
    }
    if (tour.format === "arena") return timeLeft() === null ? "" : t("tour.timeLeft", { time: timeLeft() });
    if (tour.rounds) return t("tour.roundOf", { n: tour.round, of: tour.rounds });
    return t("tour.roundN", { n: tour.round });
  }
  // an arena's time to go, as a clock says it ("12:05"): its end is when it started plus its
  // length (null: the club has not said when it started)
  function timeLeft() {
    const start = tour.started_at ?? tour.starts_at;
    if (start === null || start === undefined || !tour.duration_s) return null;
    const s = Math.max(0, Math.round(start + tour.duration_s - Date.now() / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function renderHead() {
    const details = [gameName(tour.game), t("playersN", { n: tour.players }), formatText(tour),
      ...(tour.teams ? [t("tour.teams")] : []), ...(tour.rated ? [t("rated")] : [])];
    const progressLine = h("p", { class: "progress", id: "tour-progress" }, h("span", { class: `state ${tour.status}` },
      t(STATUS_NAMES[tour.status] || tour.status)), " · ", h("span", { class: "when" }, progress()), " ", live);
    head.replaceChildren(h("h1", { tabindex: "-1" }, tour.name || t("tour.untitled")),
      h("p", { class: "hint" }, details.join(" · ")), progressLine, controls(), error);
  }

  // What the viewer may do now: join or withdraw, and the organiser fill the field and start.
  function controls() {
    const box = h("div", { class: "tour-actions" });
    const me = mine() !== null ? byId()[mine()] : null;
    const between = tour.status === "playing" && tour.format === "swiss" && rounds_().every(
      (r) => r.pairings.every((p) => p.bye || p.places));
    const entering = tour.status === "open" || between;
    if (!session.me) {
      if (tour.status !== "finished") box.append(h("a", { class: "button", href: "/" }, t("tour.loginToJoin")));
    } else if (entering && (!me || me.withdrawn)) {
      const partner = h("input", { name: "partner", required: true, autocomplete: "off",
        "aria-label": t("tour.partner"), placeholder: t("tour.partner") });
      box.append(h("form", { class: "join", onsubmit: (e) => {
        e.preventDefault();
        act("join", tour.teams ? { partner: partner.value.trim(), invite } : { invite });
      } }, tour.teams ? h("label", {}, t("tour.partner"), partner) : "",
      h("button", { id: "tour-join" }, t("tour.join"))));
    } else if (me && !me.withdrawn && (entering || tour.format === "arena") && tour.status !== "finished") {
      box.append(h("button", { type: "button", class: "secondary", id: "tour-withdraw",
        onclick: () => act("withdraw") }, t("tour.withdraw")));
    }
    if (isOwner() && tour.status === "open") {
      const level = h("select", { name: "level" }, levels.map((l) => h("option", { value: l }, levelName(l))));
      level.value = levels.includes("greedy") ? "greedy" : levels[0];
      const count = h("input", { name: "count", type: "number", min: 1, max: 64, value: 1, inputmode: "numeric" });
      box.append(h("form", { class: "bots", id: "tour-bots", onsubmit: (e) => {
        e.preventDefault();
        act("bots", { level: level.value, count: Number(count.value) });
      } }, h("label", {}, t("level"), level), h("label", {}, t("tour.botCount"), count),
      h("button", { class: "secondary" }, t("tour.addBots"))));
      box.append(h("button", { type: "button", id: "tour-start", onclick: () => act("start") }, t("tour.start")));
    }
    if (tour.invite && tour.access === "invite" && isOwner()) {
      const link = `${location.origin}/tournament/${tour.id}?invite=${encodeURIComponent(tour.invite)}`;
      box.append(h("label", { class: "invite" }, t("tour.inviteLink"), h("input", { readonly: true, value: link })));
    }
    if (tour.status === "finished") {
      box.append(h("a", { class: "button secondary", href: `/api/tournaments/${tour.id}/export`, download: "" },
        t("tour.export")));
    }
    return box;
  }

  function renderYours() {
    const p = myTable();
    yours.replaceChildren();
    if (!p) return;
    yours.append(h("section", { class: "yours" }, h("p", {}, t("tour.yourTableReady", { round: p.round, board: p.board })),
      h("a", { class: "button", id: "go-table", href: `/table/${p.table}` }, t("tour.goToTable"))));
  }

  function renderStandings() {
    const rows = tour.standings || [];
    if (tour.status === "open" || !rows.length) {
      const entries = tour.entries.filter((e) => !e.withdrawn);
      standings.replaceChildren(h("h2", {}, t("tour.entries"), ` (${entries.length})`),
        entries.length ? h("ol", { class: "entries" }, entries.map((e) => h("li", { class: e.id === mine() ? "me" : "" },
          entryName(e), e.members && e.members.length ? h("span", { class: "members" }, e.members.join(" & ")) : "")))
          : h("p", { class: "hint" }, t("tour.noEntries")));
      return;
    }
    const shown = TIEBREAKS.filter(([k]) => rows.some((r) => r.tiebreaks && k in r.tiebreaks));
    const entries = byId();
    const knockout = tour.format === "knockout";
    standings.replaceChildren(h("h2", {}, t("tour.standings")), h("div", { class: "table-wrap" },
      h("table", { class: "list standings", id: "standings-table" },
        h("thead", {}, h("tr", {}, h("th", { class: "num", scope: "col" }, "#"), h("th", { scope: "col" }, t("tour.entry")),
          h("th", { class: "num", scope: "col" }, t("points")),
          shown.map(([, key]) => h("th", { class: "num", scope: "col" }, t(key))),
          h("th", { class: "num", scope: "col" }, t("tour.played")),
          knockout ? h("th", { scope: "col" }, t("tour.out")) : "")),
        h("tbody", {}, rows.map((r) => {
          const e = entries[r.entry] || { id: r.entry, name: r.name };
          const streak = tour.format === "arena" && r.tiebreaks && r.tiebreaks.streak >= 2;
          return h("tr", { class: r.entry === mine() ? "me" : "", "data-entry": r.entry },
            h("td", { class: "num" }, r.rank),
            h("th", { scope: "row" }, entryName(e),
              streak ? flame() : "",
              e.withdrawn ? h("span", { class: "hint" }, ` (${t("tour.withdrawn")})`) : "",
              e.members && e.members.length ? h("span", { class: "members" }, e.members.join(" & ")) : ""),
            h("td", { class: "num points" }, num(r.points)),
            shown.map(([k]) => h("td", { class: "num" }, num(r.tiebreaks[k]))),
            h("td", { class: "num" }, r.played),
            knockout ? h("td", {}, r.out ? t("tour.outIn", { n: r.out }) : t("tour.stillIn")) : "");
        })))));
  }

  // One table of a round (`label`: its name; a table's number unless an arena's game says
  // otherwise).
  function pairingView(p, label = t("tour.board", { n: p.board })) {
    const entries = byId();
    const you = p.entries.includes(mine());
    const sides = p.entries.map((eid, i) => {
      const e = entries[eid] || { id: eid, name: String(eid) };
      const said = [entryName(e)];
      if (p.places) said.push(t("tour.placePoints", { place: p.places[i], points: num(p.points[i]) }));
      return h("li", { class: p.places && p.places[i] === 1 ? "won" : "" }, h("span", { class: "who" }, said[0]),
        said[1] ? h("span", { class: "hint" }, ` ${said[1]}`) : "",
        (p.forfeit || []).includes(eid) ? h("span", { class: "forfeit" }, ` ${t("tour.noShow")}`) : "");
    });
    let link = "";
    if (p.bye) link = h("span", { class: "bye" }, t("tour.bye"));
    // a finished match's record is the club's, stored under its table's id
    else if (p.record || (p.table && p.places)) {
      link = h("a", { class: "button secondary", href: `/replay/${p.record || p.table}` }, t("tour.record"));
    }
    else if (p.table) {
      link = h("a", { class: `button${you ? "" : " secondary"}`, href: `/table/${p.table}` }, you ? t("tour.play") : t("watch"));
    }
    return h("li", { class: `pairing${you ? " yours" : ""}${p.places || p.bye ? " done" : " in-play"}`, "data-board": p.board },
      h("span", { class: "board" }, label, you ? h("span", { class: "sr-only" }, `, ${t("tour.yourTable")}`) : ""),
      h("ol", { class: "sides" }, sides), h("span", { class: "go" }, link));
  }

  function renderRounds() {
    const all = rounds_();
    if (!all.length) { rounds.replaceChildren(); rounds.hidden = true; return; }
    rounds.hidden = false;
    if (tour.format === "arena") { renderGames(all); return; }
    const block = (r) => h("div", { class: "round", "data-round": r.round },
      h("h3", {}, t("tour.roundN", { n: r.round })),
      h("ol", { class: "pairings" }, r.pairings.map((p) => pairingView(p))));
    // a bracket reads left to right, round after round; the other formats the newest round first
    rounds.replaceChildren(tour.format === "knockout"
      ? h("h2", {}, t("tour.bracket")) : h("h2", {}, t("tour.rounds")), tour.format === "knockout"
      ? h("div", { class: "bracket" }, all.map(block))
      : h("div", { class: "round-list" }, [...all].reverse().map(block)));
  }

  // An arena's games, numbered in the order they were paired, the newest first: the latest
  // in view, the rest folded (an hour's arena plays hundreds).
  function renderGames(all) {
    const games = all.flatMap((r) => r.pairings).map((p, i) => pairingView(p, t("tour.gameN", { n: i + 1 }))).reverse();
    const list = (items) => h("ol", { class: "pairings" }, items);
    rounds.replaceChildren(h("h2", {}, t("tour.games"), ` (${games.length})`), list(games.slice(0, RECENT_GAMES)),
      games.length > RECENT_GAMES ? h("details", { class: "older" }, h("summary", {}, t("tour.olderGames")),
        list(games.slice(RECENT_GAMES))) : "");
  }

  function render() {
    // the tab says a table waits for the player, as the table's does on his turn
    setTitle("tournament", {}, myTable() ? "● " : "");
    renderHead();
    renderYours();
    renderStandings();
    renderRounds();
  }

  // What changed that the player must hear at once: a new round, his own table, the end.
  function announce(before) {
    const said = [];
    if (tour.round > before.round && tour.format !== "arena") said.push(t("tour.roundStarted", { n: tour.round }));
    const p = myTable();
    if (p && p.table !== before.table) said.push(t("tour.yourTableReady", { round: p.round, board: p.board }));
    if (tour.status === "finished" && before.status !== "finished") said.push(t("tour.over"));
    // a repeated text is read again once it differs by a trailing space (lila's NVUI)
    if (said.length) loud.textContent = said.join(". ") + (loud.textContent.endsWith(" ") ? "" : " ");
  }

  render();
  clock = setInterval(() => {
    if (tour.format === "arena" && tour.status === "playing") {
      const node = head.querySelector(".when");
      if (node) node.textContent = progress();
    }
  }, 1000);

  let socket;
  let left = false;
  session.leave = () => { left = true; clearInterval(clock); if (socket) socket.close(); };
  function connect() {
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tournaments/${id}`);
    socket.onopen = () => { live.textContent = `● ${t("live")}`; live.classList.remove("off"); };
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.type !== "tournament") return;
      const table = myTable();
      const before = { round: tour.round, status: tour.status, table: table && table.table };
      tour = data.tournament;
      // the focus stays where it was; where that control is gone (his entry made, the
      // tournament started) it goes to the tournament's heading, not out of the page
      const focus = document.activeElement;
      const inHead = focus && head.contains(focus);
      render();
      const again = inHead && focus.id && document.getElementById(focus.id);
      if (again) again.focus();
      else if (inHead) head.querySelector("h1").focus();
      announce(before);
    };
    socket.onclose = () => {
      if (left) return;
      live.textContent = t("reconnecting"); live.classList.add("off");
      setTimeout(connect, 1000);
    };
  }
  connect();
}
