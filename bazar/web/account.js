// Logging in: as a guest (a name is enough), or with an account (a name kept, a rating).
import { t } from "./i18n.js";
import { api, go, h, session } from "./dom.js";

// The forms; once somebody is logged in, the page is drawn again for him.
export function loginForms() {
  const error = h("div", { class: "error", role: "alert" });
  const name = h("input", { name: "name", required: true, maxlength: 24, autocomplete: "nickname",
    placeholder: t("namePlaceholder") });
  const guest = h("form", { class: "grid", onsubmit: async (e) => {
    e.preventDefault();
    try { session.me = (await api("/api/guest", { name: name.value })).user; go(location.pathname + location.search); }
    catch (err) { error.textContent = err.message; }
  } }, h("label", {}, t("name"), name), h("button", { id: "guest" }, t("guest")));
  const rname = h("input", { maxlength: 24, autocomplete: "username" });
  const rpass = h("input", { type: "password", autocomplete: "current-password" });
  const account = h("form", { class: "grid", onsubmit: (e) => { e.preventDefault(); auth("/api/login"); } },
    h("label", {}, t("name"), rname), h("label", {}, t("password"), rpass),
    h("button", {}, t("login")),
    h("button", { type: "button", class: "secondary", onclick: () => auth("/api/register") }, t("register")));
  async function auth(path) {
    try { session.me = (await api(path, { name: rname.value, password: rpass.value })).user; go(location.pathname + location.search); }
    catch (err) { error.textContent = err.message; }
  }
  return h("section", { class: "welcome" },
    h("div", { class: "way" }, h("h2", {}, t("guestTitle")), h("p", { class: "hint" }, t("guestHint")), guest),
    h("details", { class: "way", open: !matchMedia("(max-width: 760px)").matches },
      h("summary", {}, h("h2", {}, `${t("login")} / ${t("register")}`)),
      h("p", { class: "hint" }, t("accountHint")), account),
    error);
}
