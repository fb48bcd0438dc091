// The players: the leaderboard, a profile, and a player's own password.
import { N_, lang, t } from "./i18n.js";
import { api, go, h, main, session } from "./dom.js";
import { el } from "./tiles.js";
import { gameName } from "./words.js";
import { HIS, YOURS, recordList } from "./records.js";

// A rating as the page shows it: one decimal, in the page's language ("12.5", «12,5»).
function rated(x) { return new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(x); }

// A player's name, linked to the profile.
function profileLink(name) { return h("a", { href: `/profile/${encodeURIComponent(name)}` }, name); }

// A ranked table: place, player, then the given columns (each [key, cell of a row]).
function ranking(rows, columns, id) {
  if (!rows.length) return h("p", { class: "hint" }, t("nobodyRated"));
  return h("table", { class: "list ranking", id },
    h("thead", {}, h("tr", {}, h("th", { class: "num", scope: "col" }, "#"), h("th", { scope: "col" }, t("player")),
      columns.map(([key]) => h("th", { class: "num", scope: "col" }, t(key))))),
    h("tbody", {}, rows.map((r, i) => h("tr", {}, h("td", { class: "num" }, i + 1), h("td", {}, profileLink(r.name)),
      columns.map(([, cell]) => h("td", { class: "num" }, cell(r)))))));
}

export async function leaderboardPage() {
  // the game asked for, else the club's own, which the leaderboard names
  const asked = new URLSearchParams(location.search).get("game");
  const [data, { games }] = await Promise.all([
    api(asked ? `/api/leaderboard?game=${encodeURIComponent(asked)}` : "/api/leaderboard"), api("/api/games")]);
  const { game } = data;
  const select = h("select", { id: "leaderboard-game", onchange: (e) => go(`/leaderboard?game=${encodeURIComponent(e.target.value)}`) },
    games.map((g) => h("option", { value: g.name }, gameName(g.name))));
  select.value = game;
  main.replaceChildren(
    h("section", {}, h("h2", {}, `${t("skill")} · ${gameName(game)}`),
      h("label", { class: "inline" }, t("game"), select),
      ranking(data.skill, [[N_("rating"), (r) => rated(r.rating)], [N_("matches"), (r) => r.games]], "skill")),
    h("section", {}, h("h2", {}, t("kozelRating")), ranking(data.kozel, [[N_("points"), (r) => r.rating]], "club-points")));
}

//: the colours of the chart's lines, a game each, in the order of the player's games
const COLOURS = ["#15803d", "#2563eb", "#dc2626", "#ca8a04", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];

// The player's rating in each game after every rated match, drawn as lines over time: the
// time runs left to right over the span of all his games, the rating up; each match a dot.
// It is drawn for the width it has, so that its words read at their size on a phone too.
function ratingChart(chart, width) {
  const games = Object.keys(chart);
  const points = games.flatMap((g) => chart[g]);
  if (!points.length) return h("p", { class: "hint" }, t("noRatedGames"));
  const W = Math.max(280, Math.min(640, width)), H = 200, left = 40, right = 12, top = 12, bottom = 26;
  const times = points.map((p) => p[0]), values = points.map((p) => p[1]);
  let t0 = Math.min(...times), t1 = Math.max(...times);
  if (t1 === t0) { t0 -= 3600; t1 += 3600; }
  let lo = Math.floor(Math.min(...values)), hi = Math.ceil(Math.max(...values));
  if (hi - lo < 2) { lo -= 1; hi += 1; }
  const x = (s) => left + ((s - t0) / (t1 - t0)) * (W - left - right);
  const y = (v) => top + ((hi - v) / (hi - lo)) * (H - top - bottom);
  const svg = el("svg", { class: "chart", id: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": t("ratingChart") });
  for (const v of [lo, (lo + hi) / 2, hi]) {
    el("line", { class: "grid", x1: left, x2: W - right, y1: y(v), y2: y(v) }, svg);
    el("text", { x: left - 4, y: y(v) + 4, "text-anchor": "end" }, svg).textContent = rated(v);
  }
  el("line", { class: "axis", x1: left, x2: W - right, y1: H - bottom, y2: H - bottom }, svg);
  const day = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short" });
  for (const [s, anchor] of [[t0, "start"], [t1, "end"]]) {
    el("text", { x: x(s), y: H - 8, "text-anchor": anchor }, svg).textContent = day.format(new Date(s * 1000));
  }
  const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  games.forEach((g, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const line = el("polyline", { stroke: colour, points: chart[g].map(([s, v]) => `${x(s)},${y(v)}`).join(" ") }, svg);
    line.dataset.game = g;
    for (const [s, v] of chart[g]) {
      const dot = el("circle", { cx: x(s), cy: y(v), r: 3.5, fill: colour }, svg);
      el("title", {}, dot).textContent = `${gameName(g)} · ${when.format(new Date(s * 1000))}: ${rated(v)}`;
    }
  });
  const legend = h("div", { class: "legend" }, games.map((g, i) => h("span", { style: `--swatch: ${COLOURS[i % COLOURS.length]}` }, gameName(g))));
  return h("div", {}, svg, legend);
}

export async function profilePage(name) {
  const data = await api(`/api/profile/${encodeURIComponent(name)}`);
  const played = data.played || [];
  const ratings = Object.fromEntries(data.ratings.map((r) => [r.game, r]));
  const total = played.reduce((n, p) => n + p.games, 0);
  const wins = played.reduce((n, p) => n + p.wins, 0);
  // every game he played, and every game he is rated in (a rating older than the list of games)
  const games = [...played.map((p) => p.game), ...data.ratings.map((r) => r.game).filter((g) => !played.some((p) => p.game === g))];
  const rows = games.map((g) => {
    const p = played.find((x) => x.game === g) || { games: ratings[g].games, wins: "—" };
    return h("tr", {}, h("td", {}, gameName(g)), h("td", { class: "num" }, p.games), h("td", { class: "num" }, p.wins),
      h("td", { class: "num" }, ratings[g] ? rated(ratings[g].rating) : "—"));
  });
  const table = rows.length ? h("table", { class: "list", id: "profile-games" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game")), h("th", { class: "num", scope: "col" }, t("matches")),
      h("th", { class: "num", scope: "col" }, t("wins")), h("th", { class: "num", scope: "col" }, t("rating")))),
    h("tbody", {}, rows)) : h("p", { class: "hint" }, t("noRecords"));
  const own = session.me && session.me.id === data.user.id;
  const matches = recordList(t("recentMatches"), `player=${encodeURIComponent(data.user.name)}&limit=10&`,
    "profile-matches", own ? YOURS : HIS);
  await matches.ready;
  main.replaceChildren(h("section", {}, h("h2", {}, `${t("profile")}: ${data.user.name}`),
    h("div", { class: "stats" },
      h("div", {}, h("span", {}, t("gamesPlayed")), h("b", { id: "profile-total" }, total)),
      h("div", {}, h("span", {}, t("wins")), h("b", { id: "profile-wins" }, wins)),
      // the club's points of Kozel come with its rated matches: none yet is said in words,
      // not as a rating of 0
      h("div", {}, h("span", {}, t("kozelRating")), data.kozel_rated
        ? h("b", { id: "profile-kozel" }, data.user.kozel_rating)
        : h("span", { id: "profile-kozel", class: "hint" }, t("notRatedYet")))),
    table),
  h("section", {}, h("h2", {}, t("ratingChart")), ratingChart(data.chart || {}, main.clientWidth - 40)),
  matches.section);
  if (own && !session.me.guest) main.append(passwordForm());
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
