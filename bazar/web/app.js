// The club's pages: the frame round them (the bar, the language, the tab's title) and the
// router. No build step.
import { N_, lang, loadTexts, setLang, t } from "./i18n.js";
import { api, go, h, main, session, setTitle } from "./dom.js";
import { guestMark } from "./words.js";
import { lobby } from "./lobby.js";
import { tablePage } from "./table.js";
import { historyPage, replayPage } from "./records.js";
import { leaderboardPage, profilePage } from "./people.js";
import { rulesIndex, rulesPage } from "./rules.js";
import { tournamentPage, tournamentsPage } from "./tournaments.js";

// Each address of the club: the page that draws it, the bar's item it comes under and the
// tab's title (a key).
const PAGES = [
  { path: /^\/$/, section: "lobby", title: N_("lobby"), show: () => lobby() },
  { path: /^\/table\/([\w-]+)$/, section: "lobby", title: N_("titleTable"), show: (m) => tablePage(m[1]) },
  { path: /^\/tournaments$/, section: "tournaments", title: N_("tournaments"), show: () => tournamentsPage() },
  { path: /^\/tournament\/([\w-]+)$/, section: "tournaments", title: N_("tournament"),
    show: (m) => tournamentPage(m[1]) },
  { path: /^\/history$/, section: "history", title: N_("history"), show: () => historyPage() },
  { path: /^\/replay\/([\w-]+)$/, section: "history", title: N_("replay"), show: (m) => replayPage(m[1]) },
  { path: /^\/leaderboard$/, section: "leaderboard", title: N_("leaderboard"), show: () => leaderboardPage() },
  { path: /^\/rules$/, section: "rules", title: N_("rules"), show: () => rulesIndex() },
  { path: /^\/rules\/([\w-]+)$/, section: "rules", title: N_("rules"), show: (m) => rulesPage(m[1]) },
  { path: /^\/profile\/(.+)$/, section: "leaderboard", title: N_("profile"),
    show: (m) => profilePage(decodeURIComponent(m[1])) },
];

//: the page in view (one of PAGES; null for an address the club does not have)
let shown = null;

// The bar in the page's language: its texts and labels, the page in view marked, who is
// logged in (a guest said in words), the language chosen pressed.
function translateChrome() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = t(n.dataset.t); });
  document.getElementById("nav").setAttribute("aria-label", t("pages"));
  document.getElementById("lang").setAttribute("aria-label", t("language"));
  document.querySelectorAll("#nav a").forEach((a) => {
    if (shown && a.dataset.section === shown.section) {
      a.setAttribute("aria-current", a.pathname === location.pathname ? "page" : "true");
    } else a.removeAttribute("aria-current");
  });
  document.querySelectorAll("#lang button").forEach((b) => {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  });
  const box = document.getElementById("me");
  box.replaceChildren();
  if (session.me) {
    const name = session.me.name;
    // a long name is cut short, the guest's mark never
    const said = h("span", { class: "name", title: name }, name);
    box.append(session.me.guest
      ? h("span", { class: "who guest" }, said, h("span", { class: "mark" }, guestMark(true)))
      : h("a", { class: "who", href: `/profile/${encodeURIComponent(name)}` }, said),
    " ", h("button", { type: "button", id: "logout", onclick: async () => {
      await api("/api/logout", {}); session.me = null; route();
    } }, t("logout")));
  } else box.append(h("a", { class: "who", href: "/", id: "login" }, t("login")));
}

document.querySelectorAll("#lang button").forEach((b) => b.addEventListener("click", async () => {
  if (b.dataset.lang !== lang) { await setLang(b.dataset.lang); route(); }
}));

// ---- the menu: on a phone the bar's pages, who is here and the language fold under a button

const bar = document.querySelector("header.bar");
const menu = document.getElementById("menu");

function openMenu(open) {
  bar.classList.toggle("open", open);
  menu.setAttribute("aria-expanded", String(open));
}
menu.addEventListener("click", () => openMenu(menu.getAttribute("aria-expanded") !== "true"));
bar.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && bar.classList.contains("open")) { openMenu(false); menu.focus(); }
});
// the menu folds when the focus or a click goes elsewhere, as a native one would
bar.addEventListener("focusout", (e) => { if (!bar.contains(e.relatedTarget)) openMenu(false); });
document.addEventListener("click", (e) => { if (!bar.contains(e.target)) openMenu(false); });

// ---- routing -------------------------------------------------------------------------------

window.addEventListener("popstate", route);
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a");
  if (!a) return;
  // a link within the page (the skip link) moves the focus there, not the router
  if ((a.getAttribute("href") || "").startsWith("#")) {
    const to = document.getElementById(a.hash.slice(1));
    if (to) { e.preventDefault(); to.focus(); }
  } else if (a.origin === location.origin && !a.pathname.startsWith("/api/") && !a.hasAttribute("download")) {
    e.preventDefault(); go(a.pathname + a.search);
  }
});

// An address the club has no page for.
function notFound() {
  setTitle("notFound");
  main.replaceChildren(h("section", { class: "oops", id: "not-found" },
    h("h1", {}, t("notFound")),
    h("p", {}, t("notFoundText")),
    h("p", { class: "oops-what" }, h("code", {}, location.pathname)),
    h("div", { class: "actions" },
      h("a", { class: "button", href: "/" }, t("toLobby")),
      h("a", { class: "button secondary", href: "/rules" }, t("rules")))));
}

// A page that could not be drawn: what went wrong, in the page's language where the club
// said it, and the ways on.
function failed(err) {
  setTitle("loadFailed");
  main.replaceChildren(h("section", { class: "oops", id: "load-failed", role: "alert" },
    h("h1", {}, t("loadFailed")),
    h("p", {}, err.message || String(err)),
    h("p", { class: "oops-what" }, t("loadFailedText")),
    h("div", { class: "actions" },
      h("button", { type: "button", onclick: route }, t("tryAgain")),
      h("a", { class: "button secondary", href: "/" }, t("toLobby")))));
}

// Draws the page of the address in view. After a move to another address (`moved`: the
// popstate or click that asked for it) the focus goes to the page's content, where a screen
// reader reads on and Tab leads, unless the page has put it somewhere of its own.
async function route(moved) {
  if (session.leave) { session.leave(); session.leave = null; }
  openMenu(false);
  const path = location.pathname;
  let match = null;
  shown = PAGES.find((p) => (match = path.match(p.path))) || null;
  try {
    session.me = (await api("/api/session")).user;
    translateChrome();
    if (!shown) { notFound(); return; }
    setTitle(shown.title);
    await shown.show(match);
  } catch (err) {
    translateChrome();
    failed(err);
  }
  const focus = document.activeElement;
  if (moved && (!focus || focus === document.body || bar.contains(focus))) main.focus({ preventScroll: true });
}

await loadTexts();
route();
