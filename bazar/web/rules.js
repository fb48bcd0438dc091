// The rules of every game: the index (/rules), a game's page (/rules/GAME: how to play, a
// position from a bots' game, its options in words) and openHelp(game), the table's "?".
import { N_, lang, t } from "./i18n.js";
import { drawBoard } from "./board.js";
import { el, tileSvg } from "./tiles.js";
import { api, h, main, setTitle } from "./dom.js";
import { boardWidth, gameName, keepsAccounts } from "./words.js";

const rulesOf = (game) => api(`/api/rules/${encodeURIComponent(game)}?lang=${lang}`);

// A count of players: "2–4" (or "4" where the game takes only one count).
function playersText([low, high]) {
  return t("rulesPlayers", { players: low === high ? low : `${low}–${high}` });
}

// A variant's description under its own name: the name it starts with ("Block: …") is left
// out, the name being said just before it.
function described(description) {
  const rest = description.replace(/^[^:]{1,48}:\s+/, "");
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

export async function rulesIndex() {
  const { families } = await api(`/api/rules?lang=${lang}`);
  main.replaceChildren(h("section", { class: "rules-index" },
    h("h1", {}, t("rules")),
    h("p", { class: "hint" }, t("rulesIntro")),
    h("div", { class: "rules-families" }, families.map((f) => h("div", { class: "rules-family" },
      h("h2", {}, f.heading),
      h("ul", {}, f.variants.map((v) => h("li", {},
        h("a", { href: `/rules/${v.name}` }, gameName(v.name)),
        h("p", { class: "hint" }, `${described(v.description)} · ${playersText(v.players)}`)))))))));
}

// The how-to-play text: Markdown the server rendered from the package's own texts (no raw HTML
// passes through it), so it may be set as markup.
function howTo(html) {
  const box = h("div", { class: "rules-text" });
  box.innerHTML = html;
  return box;
}

// A real position of the game (the middle of a bots' round), drawn as the table draws it.
function diagram(data, width) {
  const svg = el("svg", { class: "board", role: "img", "aria-label": t("rulesDiagramLabel", { game: data.title }) });
  const felt = h("div", { class: "felt rules-diagram-felt" }, h("div", { class: "board-wrap" }, svg));
  const figure = h("figure", { class: "rules-diagram" }, felt,
    h("figcaption", {}, t("rulesDiagram", { moves: data.diagram.moves })));
  // where the hands are the game (a poker hand, the tricks to come) they are shown face up;
  // Kolbasa's rows stay blind, as they are to their owners
  const hands = data.capabilities.seat_rows === "open" ? data.diagram.hands : null;
  const names = (s) => t("rulesSeat", { n: s + 1 });
  return { figure, draw: () => drawBoard(svg, data.diagram.view, { width: width(svg.parentElement), height: 320, hands, names }) };
}

function optionsTable(data) {
  const byPlayers = data.options.some((o) => o.by_players);
  return h("table", { class: "list rules-options" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("rulesOption")), h("th", { scope: "col" }, t("rulesValue")),
      byPlayers ? h("th", { scope: "col" }, t("rulesByPlayers")) : null)),
    h("tbody", {}, data.options.filter((o) => o.name !== "players").map((o) => h("tr", { "data-option": o.name },
      h("td", {}, o.meaning), h("td", { "data-label": t("rulesValue") }, o.value),
      byPlayers ? h("td", { "data-label": t("rulesByPlayers") }, o.by_players) : null))));
}

export async function rulesPage(game) {
  const data = await rulesOf(game);
  setTitle("rulesThisGame", { game: gameName(data.name) });
  const pic = diagram(data, (felt) => boardWidth(felt));
  main.replaceChildren(h("section", { class: "rules-page" },
    h("nav", { class: "crumbs", "aria-label": t("rules") },
      h("a", { href: "/rules" }, t("rules")), " › ", data.heading),
    h("h1", {}, gameName(data.name)),
    h("p", { class: "rules-lead" }, `${data.description} · ${playersText(data.players)}`),
    pic.figure,
    howTo(data.html),
    h("h2", {}, t("rulesThisGame", { game: gameName(data.name) })),
    h("p", { class: "hint" }, t("rulesDefaults", { players: data.players_default })),
    h("div", { class: "rules-table-wrap" }, optionsTable(data)),
    data.siblings.length ? [
      h("h2", {}, t("rulesSiblings")),
      h("ul", { class: "rules-siblings" }, data.siblings.map((v) => h("li", {},
        h("a", { href: `/rules/${v.name}` }, gameName(v.name)),
        h("p", { class: "hint" }, described(v.description))))),
    ] : null));
  pic.draw();
}

// ---- the table's "?" -----------------------------------------------------------------------

// What the table screen shows, for the game whose view is `view`: the marks every game has,
// then those its rules' capabilities and options call for.
function legend(view) {
  const caps = view.rules.capabilities, options = view.rules.options;
  const items = [];
  const add = (sample, key, vars = {}) => items.push(h("div", { class: "legend-item" },
    h("dt", {}, sample), h("dd", {}, t(key, vars))));
  const outlined = tileSvg(6, 4, { vertical: false, size: 18, cls: "last" });
  add(outlined, N_("legendLast"));
  add(h("span", { class: "legend-ring" }, t("legendYou")), N_("legendTurn"));
  // the sockets of the open ends, where tiles are laid in lines
  if (caps.end_names !== null) {
    const socket = el("svg", { viewBox: "0 0 32 32", width: 32, height: 32, "aria-hidden": "true" });
    const g = el("g", { class: "end" }, socket);
    el("circle", { cx: 16, cy: 16, r: 14 }, g);
    const num = el("text", { x: 16, y: 21, "text-anchor": "middle" }, g);
    num.textContent = "4";
    add(socket, N_("legendSocket"));
  }
  if (keepsAccounts(view.rules)) {
    add(h("span", { class: "badge yellow" }, "+9"), N_("legendRemembered"), { n: options.open_threshold });
    add(h("span", { class: "badge red" }, "37"), N_("legendOpened"));
    if (options.eggs) add(h("span", { class: "badge" }, t("potEggs", { n: 12 })), N_("legendPot"));
  }
  if (caps.own_trains) {
    const marker = el("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" });
    el("circle", { cx: 8, cy: 8, r: 6, class: "marker" }, marker);
    add(marker, N_("legendMarker"));
  }
  if (caps.satisfies_doubles) {
    add(h("span", { class: "legend-unsatisfied" }, tileSvg(5, 5, { vertical: false, size: 16 })), N_("legendUnsatisfied"));
  }
  // the games scored in play by multiples (the Fives, Telephone's fifths)
  if (caps.scored_in_play && "divide_in_play" in options) {
    add(h("span", { class: "badge" }, "5+10 = 15"), N_("legendSum"), { base: options.base ?? 5 });
  }
  return h("dl", { class: "legend" }, items);
}

const KEYS = [["← →", N_("keyTiles")], ["Enter", N_("keyPlay")], ["D", N_("keyDraw")], ["P", N_("keyPass")], ["H", N_("keyHint")], ["Esc", N_("keyCancel")], ["?", N_("keyHelp")]];

// The rules of `game` and what its table screen shows, in a modal dialog over the table: Esc or
// the close button closes it, the focus stays inside while it is open and goes back where it
// was when it closes.
export async function openHelp(game) {
  const back = document.activeElement;
  const data = await rulesOf(game);
  const close = h("button", { type: "button", class: "secondary rules-close", "aria-label": t("close") }, "×");
  const heading = h("h2", { id: "help-title", tabindex: "-1" }, `${gameName(data.name)} — ${t("rulesHelp")}`);
  const dialog = h("dialog", { class: "rules-help", "aria-labelledby": "help-title" },
    h("div", { class: "rules-help-head" }, heading, close),
    h("h3", {}, t("legendTitle")),
    legend(data.diagram.view),
    h("h3", {}, t("keysTitle")),
    h("dl", { class: "legend keys" }, KEYS.map(([k, key]) => h("div", { class: "legend-item" },
      h("dt", {}, h("kbd", {}, k)), h("dd", {}, t(key))))),
    h("h3", {}, t("rulesHowTo")),
    howTo(data.html),
    h("p", {}, h("a", { href: `/rules/${data.name}` }, t("rulesFull"))));
  close.addEventListener("click", () => dialog.close());
  // a modal dialog keeps the page out of reach; Tab also wraps from its last control to its first
  dialog.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const stops = [...dialog.querySelectorAll("a[href], button, [tabindex='0']")];
    const first = stops[0], last = stops[stops.length - 1];
    if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
    else if (e.shiftKey && (document.activeElement === first || document.activeElement === heading)) {
      e.preventDefault(); last.focus();
    }
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (back && back.isConnected && back.focus) back.focus();
  });
  // a link inside leaves the table for the rules page: the dialog goes with it
  dialog.addEventListener("click", (e) => { if (e.target.closest("a")) dialog.close(); });
  document.body.append(dialog);
  dialog.showModal();
  heading.focus();
  return dialog;
}
