// Ocho Loco: what several of the page's modules need, written once. Nothing here runs by
// itself: no listener, no timer; each function acts when a module calls it.

// --- Words -----------------------------------------------------------------------------
// The scripts' words in the reader's language: Django's JavaScript catalog (the djangojs
// domain, served at /jsi18n/<language>/ by config/i18n.py and loaded by base.html before the
// modules) defines the globals gettext, ngettext and interpolate. The modules import these
// instead (the same names, so that makemessages finds their texts); without the catalog
// (it failed to load) each says the Spanish source, as the catalog of Spanish does. Texts
// are whole sentences with named placeholders: interpolate(gettext("Le toca a %(name)s."),
// { name: name }).
export function gettext(text) {
  return typeof window.gettext === "function" ? window.gettext(text) : text;
}
export function ngettext(singular, plural, count) {
  return typeof window.ngettext === "function" ? window.ngettext(singular, plural, count)
    : (count === 1 ? singular : plural);
}
export function interpolate(format, values) {
  if (typeof window.interpolate === "function") return window.interpolate(format, values, true);
  return format.replace(/%\(\w+\)s/g, function (match) { return String(values[match.slice(2, -2)]); });
}

// A player who asked for less motion gets the end of every animation at once.
export const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

// A short notice at the foot of the screen (the page's #toast), gone by itself.
let toastTimer = null;
export function toast(text) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(function () { el.hidden = true; }, 2600);
}

// The table version a fragment shows (its data-version), given the element or its id: null
// when it shows none, so no comparison with it holds.
export function versionOf(elOrId) {
  const el = typeof elOrId === "string" ? document.getElementById(elOrId) : elOrId;
  const v = el && el.getAttribute ? el.getAttribute("data-version") : null;
  return v === null || v === "" ? null : parseInt(v, 10);
}

// Playing a card of the hand: an 8 first asks for the suit (its dialog sends the move), any
// other card sends its move as the card's own button does.
export function playCard(card) {
  const dialogId = card.getAttribute("data-needs-suit");
  if (dialogId) {
    const dialog = document.getElementById(dialogId);
    if (dialog && !dialog.open) dialog.showModal();
  } else {
    // htmx sends a form's submitter as the one it last saw clicked or focused. A drag makes
    // no click, and a card focused as its panel came in (the focus kept across the swap) got
    // it before htmx wired the new form: the move would go without its card (a 409). The
    // card takes the focus again, so htmx sees it, whatever came before.
    if (document.activeElement === card) card.blur();
    card.focus({ preventScroll: true });
    card.form.requestSubmit(card);
  }
}

// Whether a request is a move: any post of the panel (a card, ROBAR, PASAR, SIGUIENTE RONDA...).
export function isMove(elt, verb) {
  return verb === "post" && !!elt && !!elt.closest && !!elt.closest("#panel");
}

// The table's menu (P, Esc, the menu button, a gamepad's Start).
export function openMenu() {
  const menu = document.getElementById("menu");
  if (menu && !menu.open) menu.showModal();
}
