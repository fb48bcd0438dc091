// Logging in: as a guest, or with an account.
import { t } from "./i18n.js";
import { api, go, h, session } from "./dom.js";

// The forms; once somebody is logged in, the page is drawn again for him.
export function loginForms() {
  const error = h("div", { class: "error" });
  const name = h("input", { name: "name", required: true, maxlength: 24 });
  const guest = h("form", { class: "grid", onsubmit: async (e) => {
    e.preventDefault();
    try { session.me = (await api("/api/guest", { name: name.value })).user; go(location.pathname + location.search); }
    catch (err) { error.textContent = err.message; }
  } }, h("label", {}, t("name"), name), h("button", { id: "guest" }, t("guest")));
  const rname = h("input", { maxlength: 24 }), rpass = h("input", { type: "password" });
  const account = h("form", { class: "grid", onsubmit: (e) => e.preventDefault() },
    h("label", {}, t("name"), rname), h("label", {}, t("password"), rpass),
    h("button", { type: "button", onclick: () => auth("/api/login") }, t("login")),
    h("button", { type: "button", class: "secondary", onclick: () => auth("/api/register") }, t("register")));
  async function auth(path) {
    try { session.me = (await api(path, { name: rname.value, password: rpass.value })).user; go(location.pathname + location.search); }
    catch (err) { error.textContent = err.message; }
  }
  return h("section", {}, h("h2", {}, t("guest")), guest, h("h2", {}, `${t("login")} / ${t("register")}`),
    account, error);
}

