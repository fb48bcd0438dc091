// The lobby: a card per game (its name, a line on it, "play now"), the chosen game's settings
// (remembered per game), and the tables open or in play, kept live by the lobby's socket.
import { N_, lang, t } from "./i18n.js";
import { api, go, h, main, session } from "./dom.js";
import { loginForms } from "./account.js";
import { gameName, guestMark, levelName } from "./words.js";
import { tileSvg } from "./tiles.js";

//: the lobby's groups of games in the order shown (the server says each game's group)
const GROUPS = { line: N_("group.line"), kozel: N_("group.kozel"), cross: N_("group.cross"),
  trains: N_("group.trains"), other: N_("group.other") };

//: a group's picture: the tiles a round of it opens with (null: a tile face down)
const PICTURES = { line: [[6, 4], [4, 1]], kozel: [[1, 1], [1, 5]], cross: [[5, 5], [5, 0]],
  trains: [[12, 12], [12, 7]], other: [[null, null], [6, 3]] };

//: the fish modes the table's maker chooses between (kozel.md §8.1), where the game counts
//: a fish one of these ways: a game that scores it otherwise (a team's side takes all, the
//: lowest hand wins) is played by its own rule
const FISH_CHOICE = [N_("for_everyone"), N_("for_one")];
const fishChosen = (g) => FISH_CHOICE.includes(g.options.fish_mode);

//: the game chosen last, and each game's settings as the player left them
const CHOSEN = "bazar.lobby.game";
//: the game a visitor asked to play before he had a name: played once he has one
const PENDING = "bazar.lobby.playNow";
const settingsKey = (game) => `bazar.lobby.settings.${game}`;

function remembered(game) {
  try { return JSON.parse(localStorage.getItem(settingsKey(game))) || {}; } catch { return {}; }
}

export async function lobby() {
  const parts = [];
  if (!session.me) parts.push(loginForms());
  const { games, default_game: usual, move_times: times, levels } = await api(`/api/games?lang=${lang}`);
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  // the game chosen last, else the club's own
  const first = byName[localStorage.getItem(CHOSEN)] ? localStorage.getItem(CHOSEN) : usual;

  // the settings of the chosen game
  const error = h("div", { class: "error", role: "alert" });
  const game = h("select", { name: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("select", { name: "players" });
  const fish = h("select", { name: "fish_mode" }, FISH_CHOICE.map((m) => h("option", { value: m }, t(m))));
  const fishLabel = h("label", {}, t("fishMode"), fish);
  const time = h("select", { name: "move_time_s" },
    times.map((s) => h("option", { value: s }, t("seconds", { n: s }))));
  const rated = h("input", { type: "checkbox", name: "rated" });
  const access = h("select", { name: "access" },
    [N_("open"), N_("invitation_link")].map((a) => h("option", { value: a }, t(a))));
  const bots = h("input", { type: "checkbox", name: "bots", checked: true });
  const level = h("select", { name: "level" }, levels.map((l) => h("option", { value: l }, levelName(l))));
  const levelLabel = h("label", {}, t("level"), level);
  // a rated match is between registered people: with bots, or for a guest, the box is off
  // and says why, rather than a rated request the server would refuse
  const ratedWhy = h("p", { class: "hint", id: "rated-why" });
  function ratable() {
    const why = session.me && session.me.guest ? N_("ratedNoGuests") : bots.checked ? N_("ratedNoBots") : "";
    rated.disabled = Boolean(why);
    if (why) rated.checked = false;
    ratedWhy.textContent = why ? t(why) : "";
    levelLabel.classList.toggle("off", !bots.checked);
  }
  function settings() {
    return { players: Number(players.value), move_time_s: Number(time.value), fish_mode: fish.value,
      access: access.value, rated: rated.checked, bots: bots.checked, level: level.value };
  }
  function keep() {
    localStorage.setItem(CHOSEN, game.value);
    localStorage.setItem(settingsKey(game.value), JSON.stringify(settings()));
  }
  // a game's settings as its player left them, each checked against what is offered now,
  // else the game's own defaults
  function lastSettings(name) {
    const g = byName[name];
    const last = remembered(name);
    const [low, high] = g.players_range;
    return {
      players: last.players >= low && last.players <= high ? last.players : g.players,
      move_time_s: times.includes(last.move_time_s) ? last.move_time_s : times.includes(30) ? 30 : times[0],
      fish_mode: FISH_CHOICE.includes(last.fish_mode) ? last.fish_mode : g.options.fish_mode,
      access: last.access === "invitation_link" ? "invitation_link" : "open",
      rated: Boolean(last.rated),
      bots: last.bots !== false,
      level: levels.includes(last.level) ? last.level : levels.includes("greedy") ? "greedy" : levels[0],
    };
  }
  function choose(name) {
    const g = byName[name];
    const last = lastSettings(name);
    game.value = name;
    const [low, high] = g.players_range;
    players.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => low + i)
      .map((n) => h("option", { value: n }, n)));
    players.value = last.players;
    time.value = last.move_time_s;
    fishLabel.style.display = fishChosen(g) ? "" : "none";
    fish.value = last.fish_mode;
    access.value = last.access;
    bots.checked = last.bots;
    level.value = last.level;
    rated.checked = last.rated;
    ratable();
    chosenTitle.textContent = `${t("newTable")}: ${g.title}`;
    chosenSummary.textContent = g.summary;
    for (const card of cards.querySelectorAll(".game-card")) {
      const on = card.dataset.game === name;
      card.classList.toggle("chosen", on);
      card.querySelector(".pick").setAttribute("aria-pressed", String(on));
    }
    localStorage.setItem(CHOSEN, name);
  }
  bots.addEventListener("change", () => { ratable(); keep(); });
  game.addEventListener("change", () => choose(game.value));
  for (const control of [players, fish, time, rated, access, level]) control.addEventListener("change", keep);

  const chosenTitle = h("h2", { id: "chosen" });
  const chosenSummary = h("p", { class: "hint" });
  const form = h("form", { class: "grid", id: "create", onsubmit: async (e) => {
    e.preventDefault();
    keep();
    if (needName()) return;
    const request = { game: game.value, players: Number(players.value), move_time_s: Number(time.value),
      rated: rated.checked, access: access.value, options: {} };
    if (fishLabel.style.display !== "none") request.options.fish_mode = fish.value;
    if (bots.checked) request.bots = level.value;
    try {
      const made = await api("/api/tables", request);
      sit(`/table/${made.table.id}` + (made.table.access === "invitation_link" ? `?invite=${made.invite}` : ""));
    } catch (err) { error.textContent = err.message; }
  } },
  h("label", { class: "wide" }, t("game"), game), h("label", {}, t("players"), players), fishLabel,
  h("label", {}, t("moveTime"), time), h("label", {}, t("access"), access),
  h("label", { class: "check" }, bots, t("bots")), levelLabel,
  h("label", { class: "check" }, rated, t("rated")), ratedWhy,
  h("button", { class: "wide" }, t("create")));
  const setup = h("section", { class: "setup", id: "setup" }, chosenTitle, chosenSummary, form, error);

  // a visitor without a name is sent to the guest form first (false: he has one)
  function needName() {
    if (session.me) return false;
    const field = document.querySelector(".welcome input[name=name]");
    field.scrollIntoView({ block: "center" });
    field.focus();
    document.querySelector(".welcome .error").textContent = t("nameFirst");
    return true;
  }
  // a seat in the game at once; a table made for it has the game's last settings
  async function playNow(name) {
    if (!session.me) sessionStorage.setItem(PENDING, name);
    if (needName()) return;
    const { players: n, move_time_s: seconds, level: bots } = lastSettings(name);
    try {
      const made = await api("/api/play-now", { game: name, players: n, move_time_s: seconds, level: bots });
      sit(`/table/${made.table.id}`);
    } catch (err) { error.textContent = err.message; setup.scrollIntoView({ block: "nearest" }); }
  }

  // a card per game, in its group
  function card(g) {
    const picture = h("span", { class: "picture" },
      PICTURES[g.group].map(([a, b], i) => tileSvg(a, b, { vertical: i === 0, size: 14 })));
    const [low, high] = g.players_range;
    return h("article", { class: "game-card", "data-game": g.name },
      h("button", { type: "button", class: "pick", "aria-pressed": "false", onclick: () => {
        choose(g.name);
        // on a phone the settings are under the cards
        if (matchMedia("(max-width: 760px)").matches) setup.scrollIntoView({ behavior: "smooth" });
      } },
      picture, h("span", { class: "title" }, g.title), h("span", { class: "summary", title: g.summary }, g.summary),
      h("span", { class: "range" }, t("playersRange", { range: low === high ? low : `${low}–${high}` }))),
      h("button", { type: "button", class: "play", "aria-label": `${t("playNow")}: ${g.title}`,
        onclick: () => playNow(g.name) },
        t("playNow")));
  }
  const cards = h("div", { class: "groups" }, Object.entries(GROUPS).map(([group, key]) => {
    const mine = games.filter((g) => g.group === group);
    return mine.length ? h("section", { class: "group" }, h("h2", {}, t(key)),
      h("div", { class: "cards" }, mine.map(card))) : "";
  }));

  // the tables, live
  const live = h("span", { class: "live", role: "status" });
  const list = h("div", { id: "tables" });
  const tables = h("section", { class: "tables" }, h("h2", {}, t("openTables"), " ", live), list,
    h("p", { class: "to-tournaments" }, h("a", { href: "/tournaments", id: "lobby-tournaments" }, t("tour.lobbyLink"))));
  parts.push(h("div", { class: "lobby" }, tables, cards, setup));
  main.replaceChildren(...parts);
  choose(first);
  showTables((await api("/api/tables")).tables);
  const pending = sessionStorage.getItem(PENDING);
  if (session.me && pending) {
    sessionStorage.removeItem(PENDING);
    if (byName[pending]) playNow(pending);
  }

  function showTables(all) {
    if (!all.length) {
      list.replaceChildren(h("p", {}, t("none")), h("p", { class: "hint" }, t("noneHint")));
      return;
    }
    // the tables that wait for players first: a seat to take
    const waiting = [...all.filter((x) => x.status === "open"), ...all.filter((x) => x.status !== "open")];
    list.replaceChildren(h("table", { class: "list" }, waiting.map((x) => {
      const free = x.seats.filter((s) => !s).length;
      // a rematch keeps its players' seats for them a while
      const kept = Object.fromEntries((x.reserved || []).map((r) => [r.seat, r.name]));
      const link = x.status === "open" ? t("join") : t("watch");
      const said = [x.status === "open" ? t("freeSeats", { n: free }) : t("playing"),
        t("seconds", { n: x.move_time_s }), ...(x.rated ? [t("rated")] : [])];
      return h("tr", { "data-status": x.status },
        h("td", { class: "what" }, h("b", {}, gameName(x.game)), h("span", { class: "hint" }, said.join(" · "))),
        h("td", { class: "go" }, h("a", { class: `button${x.status === "open" ? "" : " secondary"}`,
          href: `/table/${x.id}` }, link)),
        h("td", { class: "who" }, h("div", { class: "chips" }, x.seats.map((seat, i) => seatChip(seat, kept[i])))));
    })));
  }

  let socket;
  let left = false;
  session.leave = () => { left = true; if (socket) socket.close(); };
  function connect() {
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
    socket.onopen = () => { live.textContent = `● ${t("live")}`; live.classList.remove("off"); };
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.type === "tables") showTables(data.tables);
    };
    socket.onclose = () => {
      if (left) return;
      live.textContent = t("reconnecting"); live.classList.add("off");
      setTimeout(connect, 1000);
    };
  }
  connect();
}

// To the table at `path`, seen from its top (a card chosen far down the lobby left the page
// scrolled there).
function sit(path) {
  scrollTo(0, 0);
  go(path);
}

// A seat as the lobby lists it: a person (a guest marked as one), a bot by its level, a bot
// playing for somebody who left, a free seat or one kept for `kept`; told apart in words, not
// by colour alone.
function seatChip(s, kept) {
  if (!s && kept) return h("span", { class: "seat free" }, t("reservedFor", { name: kept }));
  if (!s) return h("span", { class: "seat free" }, t("empty"));
  if (s.bot && s.why) return h("span", { class: "seat bot" }, t("botFor", { name: s.name }));
  if (s.bot) return h("span", { class: "seat bot" }, t("botLevel", { level: levelName(s.bot) }));
  return h("span", { class: `seat ${s.guest ? "guest" : "member"}` }, s.name + guestMark(s.guest));
}
