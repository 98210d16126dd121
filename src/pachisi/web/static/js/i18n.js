// Every visible text of the pages goes through t(key, params): one catalogue per language,
// loaded as JSON from /static/i18n/, the language taken from the page's switch (remembered in
// localStorage) or else from the browser's preferred languages.

export const LANGUAGES = ["en", "de", "cs", "hu", "hi"];
const STORAGE_KEY = "pachisi_lang";
const FALLBACK = "en";

let catalogue = {};
let fallback = {};
let current = FALLBACK;

/** The language to use: the remembered choice, else the first of the browser's we have. */
export function chooseLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || FALLBACK]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

async function fetchCatalogue(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no catalogue for ${lang}`);
  return response.json();
}

/** Load the catalogue of `lang` (English stays loaded for any key a catalogue lacks). */
export async function loadLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = FALLBACK;
  if (!Object.keys(fallback).length) fallback = await fetchCatalogue(FALLBACK);
  catalogue = lang === FALLBACK ? fallback : await fetchCatalogue(lang);
  current = lang;
  document.documentElement.lang = lang;
}

export function currentLanguage() {
  return current;
}

/** The text for `key` in the current language, with `{name}` placeholders filled from params. */
export function t(key, params = {}) {
  const template = catalogue[key] ?? fallback[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/** The text for `key` if a catalogue has it, else `otherwise` (e.g. the server's English). */
export function tOr(key, otherwise, params = {}) {
  return key in catalogue || key in fallback ? t(key, params) : otherwise;
}

/** Translate every element of `root` marked with data-i18n (text) or data-i18n-* (attributes). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const attr of ["title", "aria-label", "placeholder"]) {
    const data = `data-i18n-${attr}`;
    for (const el of root.querySelectorAll(`[${data}]`)) {
      el.setAttribute(attr, t(el.getAttribute(data)));
    }
  }
}

/**
 * Fill the <select> `select` with the languages (each named in its own language) and switch
 * on change: the choice is remembered and `onChange` redraws whatever is not static markup.
 */
export function mountLanguageSwitch(select, onChange) {
  select.replaceChildren();
  for (const lang of LANGUAGES) {
    const option = document.createElement("option");
    option.value = lang;
    option.textContent = fallback[`language.${lang}`] ?? lang;
    option.lang = lang;
    select.append(option);
  }
  select.value = current;
  select.addEventListener("change", async () => {
    localStorage.setItem(STORAGE_KEY, select.value);
    await loadLanguage(select.value);
    translatePage();
    onChange();
  });
}

/** Load the chosen language and translate the static markup: the first call of every page. */
export async function setUpLanguage() {
  await loadLanguage(chooseLanguage());
  translatePage();
}
