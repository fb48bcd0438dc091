// Stored matches: the history, and a match replayed position by position.
import { t } from "./i18n.js";
import { drawBoard } from "./board.js";
import { el } from "./tiles.js";
import { api, go, h, main } from "./dom.js";
import { boardWidth, moveText, recordPlayers } from "./words.js";

export async function historyPage() {
  const { records } = await api("/api/records");
  const file = h("input", { type: "file", accept: ".json,application/json" });
  const error = h("div", { class: "error" });
  const upload = h("form", { class: "grid", onsubmit: async (e) => {
    e.preventDefault();
    if (!file.files[0]) return;
    try { const r = await api("/api/records", await file.files[0].text(), true); go(`/replay/${r.id}`); }
    catch (err) { error.textContent = err.message; }
  } }, h("label", {}, t("upload"), file), h("button", {}, t("upload")));
  const rows = records.map((r) => h("tr", {},
    h("td", {}, r.game), h("td", {}, recordPlayers(r)),
    h("td", {}, JSON.stringify((r.summary.scores || {}).scores || "")),
    h("td", {}, h("a", { href: `/replay/${r.id}` }, t("replay")), " · ",
      h("a", { href: `/api/records/${r.id}?download=1` }, t("download")))));
  main.replaceChildren(h("section", {}, h("h2", {}, t("history")), h("table", { class: "list" }, rows)),
    h("section", {}, upload, error));
}

// A stored match, position by position: the board and every hand (a finished record is public).
export async function replayPage(id) {
  const meta = await api(`/api/records/${id}`);
  const names = (s) => meta.players[s] || t("seatN", { n: s + 1 });
  const boardSvg = el("svg", { class: "board", id: "board" });
  const felt = h("div", { class: "felt" });
  const info = h("div", { class: "status", id: "replay-status" });
  const slider = h("input", { type: "range", min: 0, value: 0, style: "width:100%", "aria-label": t("move") });
  let ply = 0, plies = 0, asked = 0;
  async function show(n) {
    const ask = ++asked;
    const pos = await api(`/api/records/${id}/position?ply=${Math.max(0, n)}`);
    if (ask !== asked) return; // a later step was asked for meanwhile
    ply = pos.ply; plies = pos.plies; slider.max = plies; slider.value = ply;
    drawBoard(boardSvg, pos.view, { width: boardWidth(felt), names, hands: pos.hands });
    const parts = [t("round", { n: pos.round }), `${t("move")} ${ply}/${plies}`];
    if (pos.last) parts.push(`${t("lastMove")}: ${moveText(pos.view, pos.last, names)}`);
    if (pos.view.turn !== null) parts.push(t("turnOf", { name: names(pos.view.turn) }));
    info.replaceChildren(...parts.map((p) => h("span", {}, p)));
    felt.dataset.ply = ply;
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  // the arrow keys step, Home and End jump (one handler: a later page replaces it)
  document.onkeydown = (e) => {
    if (!felt.isConnected || e.target.closest("input, textarea, select")) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies }[e.key];
    if (to !== undefined && to >= 0 && to <= plies) { e.preventDefault(); show(to); }
  };
  felt.append(info, h("div", { class: "board-wrap" }, boardSvg));
  const deals = meta.deals.map((d) => h("div", {}, `${t("round", { n: d.number })}: ${d.seed_hash || "—"} ${d.confirmed ? "✓ " + t("verified") : ""}`));
  main.replaceChildren(h("section", {}, h("h2", {}, `${t("replay")}: ${meta.game} · ${recordPlayers(meta)}`),
    felt,
    h("div", { class: "actions" },
      h("button", { id: "replay-start", onclick: () => show(0) }, t("start")),
      h("button", { id: "replay-prev", onclick: () => show(ply - 1) }, t("prev")),
      h("button", { id: "replay-next", onclick: () => show(ply + 1) }, t("next")),
      h("button", { id: "replay-end", onclick: () => show(plies) }, t("end")),
      h("a", { href: `/api/records/${id}?download=1` }, t("download"))),
    slider), h("section", { class: "small" }, deals));
  await show(Number(new URLSearchParams(location.search).get("ply")) || 0);
}

