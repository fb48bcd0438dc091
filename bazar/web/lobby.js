// The lobby: the forms to log in and to set up a table, and the tables open or in play.
import { N_, t } from "./i18n.js";
import { api, go, h, main, session } from "./dom.js";
import { loginForms } from "./account.js";
import { guestMark } from "./words.js";

export async function lobby() {
  const parts = [];
  if (!session.me) parts.push(loginForms());
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
    const why = session.me && session.me.guest ? N_("ratedNoGuests") : bots.checked ? N_("ratedNoBots") : "";
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
  h("button", { disabled: !session.me }, t("create")));
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

