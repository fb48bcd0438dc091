// The page's texts in Russian and English, from the club's one catalogue (GET /i18n/LANG.json,
// built from bazar/i18n/locale): Russian by default for a Russian browser, the choice kept
// locally.
export let lang = localStorage.getItem("bazar.lang")
  || ((navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en");

let texts = {};

// Fetches the texts of the page's language; every t() waits for it once, at the start.
export async function loadTexts() {
  const response = await fetch(`/i18n/${lang}.json`);
  texts = response.ok ? await response.json() : {};
}

export async function setLang(value) {
  lang = value;
  localStorage.setItem("bazar.lang", value);
  document.documentElement.lang = value;
  await loadTexts();
}

// `key`, marked for `make messages` where the page says it only as a value.
export function N_(key) { return key; }

// The text of `key` with its {fields} filled from `vars` (the catalogue's str.format
// templates: {{ and }} are literal braces).
export function t(key, vars = {}) {
  const template = key in texts ? texts[key] : key;
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g,
    (match, name) => (name === undefined ? match[0] : name in vars ? String(vars[name]) : match));
}

// A counted noun, `n` of something, in the form the language takes for `n` ("1 кость",
// "3 кости", "5 костей"; "1 tile", "5 tiles"): the catalogue's plural entry `web.KEY` comes
// as one text per plural category (`KEY#one`, `KEY#few`, ...), the category is the
// browser's. Its template says the number as {shown} (written the language's way) or {n}.
export function tn(key, n, vars = {}) {
  const category = new Intl.PluralRules(lang).select(n);
  const form = [category, "other", "many"].map((c) => `${key}#${c}`).find((k) => k in texts);
  return t(form || key, { n, shown: n.toLocaleString(lang), ...vars });
}

// A refusal of the server ({message, code, params}) in the page's language; its English
// message where the catalogue does not know the code.
export function errorText(error) {
  const key = `error.${error.code}`;
  return error.code && key in texts ? t(key, error.params || {}) : error.message;
}
