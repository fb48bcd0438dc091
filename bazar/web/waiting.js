// The waiting room of an open table: its seats (a free one to take), the invitation link to
// copy for a friend, bots of a level to fill the rest, and the way out.
import { t } from "./i18n.js";
import { api, go, h, session } from "./dom.js";
import { guestMark, levelName } from "./words.js";

// Draws the room into `head` for the table `info`. `ctx`: the table's `id`, the `invite` of
// the link the page was opened with, the bot `levels`, `reload()` (the table asked again and
// drawn) and `reseat()` (the socket opened again as the seated player).
export function renderWaiting(head, info, ctx) {
  const { id } = ctx;
  const room = h("div", { class: "waiting" });
  const error = h("div", { class: "error", role: "alert" });
  const fail = (err) => { error.textContent = err.message; };
  const free = info.seats.filter((s) => !s).length;
  room.append(h("p", {}, t("waiting"), " · ", t("freeSeats", { n: free })));
  // a rematch keeps its players' seats for them a while
  const kept = Object.fromEntries((info.reserved || []).map((r) => [r.seat, r.name]));
  const seats = h("div", { class: "seats" });
  info.seats.forEach((s, i) => {
    if (s) {
      const who = s.bot ? t("botLevel", { level: levelName(s.bot) }) : s.name + guestMark(s.guest);
      seats.append(h("span", { class: "player" }, who));
      return;
    }
    const reserved = i in kept ? ` (${t("reservedFor", { name: kept[i] })})` : "";
    // a seat nobody here may take (his own is taken, or he has no name yet) is only shown free
    if (!session.me || info.your_seat != null) {
      seats.append(h("span", { class: "free" }, `${t("seatN", { n: i + 1 })} · ${t("empty")}${reserved}`));
      return;
    }
    seats.append(h("button", { onclick: async () => {
      try {
        await api(`/api/tables/${id}/join`, { seat: i, invite: ctx.invite });
        // the socket's seat is fixed when it opens: open a new one as the seated player
        ctx.reseat();
        await ctx.reload();
      } catch (err) { fail(err); }
    } }, `${t("join")} · ${t("seatN", { n: i + 1 })}${reserved}`));
  });
  room.append(seats);
  if (info.invite) {
    room.append(h("p", { class: "hint" }, t("inviteHint")),
      inviteLink(`${location.origin}/table/${id}?invite=${info.invite}`));
  }
  if (session.me && info.your_seat != null && info.invite) {
    const level = h("select", { name: "level", "aria-label": t("level") },
      ctx.levels.map((l) => h("option", { value: l }, levelName(l))));
    level.value = ctx.levels.includes("greedy") ? "greedy" : ctx.levels[0];
    room.append(h("div", { class: "fill" }, h("label", {}, t("level"), level),
      h("button", { class: "secondary", onclick: async () => {
        try { await api(`/api/tables/${id}/bots`, { level: level.value }); await ctx.reload(); }
        catch (err) { fail(err); }
      } }, t("fillWithBots"))));
  }
  if (info.your_seat != null) {
    room.append(h("button", { class: "secondary leave", onclick: async () => {
      try { await api(`/api/tables/${id}/leave`, {}); go("/"); } catch (err) { fail(err); }
    } }, t("leaveSeat")));
  }
  room.append(error);
  head.append(room);
}

// The invitation link, with a button that copies it (the clipboard where the page may use
// it; else the link is selected for the player to copy) and says what it did.
function inviteLink(link) {
  const field = h("input", { readonly: true, value: link, "aria-label": t("invite"), class: "link" });
  const said = h("span", { class: "copied", role: "status" });
  field.addEventListener("focus", () => field.select());
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = t("copied");
    } catch {
      // no clipboard for the page (an address not served over HTTPS): the old way, or by hand
      field.focus(); field.select();
      said.textContent = document.execCommand("copy") ? t("copied") : t("copyByHand");
    }
  }
  return h("div", { class: "invite" }, h("span", {}, `${t("invite")}:`), field,
    h("button", { type: "button", id: "copy-invite", onclick: copy }, t("copy")), said);
}
