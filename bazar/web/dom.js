// What every page shares: the JSON API, building elements, going to another address, and
// who is logged in.
import { errorText, t } from "./i18n.js";

//: the page's one content area, redrawn by each page
export const main = document.getElementById("main");

//: who is logged in (null: nobody), and how the page in view is left (a table's socket closed)
export const session = { me: null, leave: null };

export async function api(path, body, raw = false) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" },
    body: raw ? body : JSON.stringify(body),
  };
  // a club out of reach says so in the page's language, not as the browser's "Failed to fetch"
  const response = await fetch(path, options).catch(() => { throw new Error(t("offline")); });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(errorText({ message: data.error || response.statusText, code: data.code, params: data.params }));
  }
  return data;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    // a style attribute is inline style, which the page's Content-Security-Policy refuses
    else if (k === "style") node.style.cssText = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : String(c ?? ""));
  return node;
}

// Another address of the club, without reloading the page (the router hears a popstate).
export function go(path) {
  history.pushState({}, "", path);
  dispatchEvent(new PopStateEvent("popstate"));
}

// The tab's title: the page the router shows (`key`, a catalogue key, with its `vars`), then
// the club's name ("Lobby · bazar", «Лобби · базар»). `mark` goes before it: the table puts
// "● " there while it is the player's turn, so a glance at the tab says so.
export function setTitle(key, vars = {}, mark = "") {
  document.title = mark + (key ? `${t(key, vars)} · ` : "") + t("siteName");
}
