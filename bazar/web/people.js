// The players: the leaderboard, a profile, and a player's own password.
import { t } from "./i18n.js";
import { api, go, h, main, session } from "./dom.js";

export async function leaderboardPage() {
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

export async function profilePage(name) {
  const data = await api(`/api/profile/${encodeURIComponent(name)}`);
  main.replaceChildren(h("section", {}, h("h2", {}, `${t("profile")}: ${data.user.name}`),
    h("p", {}, `${t("kozelRating")}: ${data.user.kozel_rating}`),
    h("table", { class: "list" }, h("tr", {}, h("th", {}, t("game")), h("th", {}, t("skill")), h("th", {}, t("games"))),
      data.ratings.map((r) => h("tr", {}, h("td", {}, r.game), h("td", {}, r.rating), h("td", {}, r.games))))));
  if (session.me && !session.me.guest && session.me.id === data.user.id) main.append(passwordForm());
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

