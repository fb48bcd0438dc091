// The club's pages: the chrome round them (the bar, the language) and the router. No build step.
import { lang, loadTexts, setLang, t } from "./i18n.js";
import { api, go, h, main, session } from "./dom.js";
import { guestMark } from "./words.js";
import { lobby } from "./lobby.js";
import { tablePage } from "./table.js";
import { historyPage, replayPage } from "./records.js";
import { leaderboardPage, profilePage } from "./people.js";
import { rulesIndex, rulesPage } from "./rules.js";

function translateChrome() {
  document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = t(n.dataset.t); });
  document.getElementById("lang").textContent = lang === "ru" ? "EN" : "RU";
  document.getElementById("lang").title = t("language");
  document.documentElement.lang = lang;
  const box = document.getElementById("me");
  box.replaceChildren();
  if (session.me) {
    box.append(session.me.guest ? session.me.name + guestMark(true) : h("a", { href: `/profile/${encodeURIComponent(session.me.name)}` }, session.me.name),
      " ", h("button", { class: "secondary", onclick: async () => {
        await api("/api/logout", {}); session.me = null; route();
      } }, t("logout")));
  }
}

document.getElementById("lang").addEventListener("click", async () => {
  await setLang(lang === "ru" ? "en" : "ru"); route();
});

// ---- routing -------------------------------------------------------------------------------

window.addEventListener("popstate", route);
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a");
  if (a && a.origin === location.origin && !a.pathname.startsWith("/api/") && !a.hasAttribute("download")) {
    e.preventDefault(); go(a.pathname + a.search);
  }
});

async function route() {
  if (session.leave) { session.leave(); session.leave = null; }
  session.me = (await api("/api/session")).user;
  translateChrome();
  const path = location.pathname;
  let m;
  try {
    if ((m = path.match(/^\/table\/([\w-]+)$/))) await tablePage(m[1]);
    else if (path === "/history") await historyPage();
    else if ((m = path.match(/^\/replay\/([\w-]+)$/))) await replayPage(m[1]);
    else if (path === "/leaderboard") await leaderboardPage();
    else if (path === "/rules") await rulesIndex();
    else if ((m = path.match(/^\/rules\/([\w-]+)$/))) await rulesPage(m[1]);
    else if ((m = path.match(/^\/profile\/(.+)$/))) await profilePage(decodeURIComponent(m[1]));
    else await lobby();
  } catch (err) {
    main.replaceChildren(h("section", {}, h("div", { class: "error" }, err.message)));
  }
}

await loadTexts();
route();
