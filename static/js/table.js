// Ocho Loco: the table page's small behaviours. The server decides everything; this file only
// keeps older fragments from replacing newer ones and makes the hand pleasant to use.
import { gettext, interpolate, openMenu, playCard, toast, versionOf } from "./helpers.js";

// A fragment carries the table version it shows; never swap an older one over a newer one,
// nor the same state again (the socket's greeting repeats what the page already shows, and
// would wipe what the viewer was typing).
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  const incoming = event.detail.fragment && event.detail.fragment.firstElementChild
    ? event.detail.fragment.firstElementChild : event.detail.fragment;
  const current = event.detail.target;
  const vNew = versionOf(incoming);
  const vOld = versionOf(current);
  if (vNew !== null && vOld !== null && vNew <= vOld) {
    event.detail.shouldSwap = false;
  }
});

// A push may replace the form that made a request before its answer arrives; the answer's
// fragments are then swapped against the whole document instead of the detached form.
document.addEventListener("htmx:beforeSwap", function (event) {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (source && !document.body.contains(source) && event.detail.shouldSwap) {
    event.detail.shouldSwap = false;
    htmx.swap(document.body, event.detail.serverResponse, { swapStyle: "none" });
  }
});

function clearSelection(except) {
  document.querySelectorAll(".hand .card.selected").forEach(function (c) {
    if (c !== except) { c.classList.remove("selected"); c.removeAttribute("aria-pressed"); }
  });
}

// Tap a card to choose it, tap it again to play it; an 8 then asks for the suit.
document.addEventListener("click", function (event) {
  const card = event.target.closest(".hand .card");
  if (card) {
    if (!card.hasAttribute("data-playable")) {
      event.preventDefault();
      const why = card.getAttribute("data-why");
      toast(why || gettext("Espera tu turno."));
      return;
    }
    if (!card.classList.contains("selected")) {
      event.preventDefault();
      clearSelection(card);
      card.classList.add("selected");
      card.setAttribute("aria-pressed", "true");
      return;
    }
    event.preventDefault();
    playCard(card);
    return;
  }
  if (event.target.closest("[data-close-dialog]")) {
    event.target.closest("dialog").close();
    return;
  }
  if (event.target.closest("[data-stock]")) {
    const draw = document.querySelector("[data-draw]");
    if (draw) draw.click(); else toast(gettext("Ahora no puedes robar."));
    return;
  }
  const copy = event.target.closest("[data-copy]");
  if (copy) {
    const input = document.querySelector(copy.getAttribute("data-copy"));
    if (!input) return;
    input.select();
    const done = function () { toast(gettext("¡Enlace copiado!")); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
    return;
  }
  if (event.target.closest("[data-dismiss-away]")) {
    event.target.closest(".away-summary").remove();
    return;
  }
  if (event.target.closest("[data-open-menu]")) {
    openMenu();
  }
});

// A viewer's deck design: change the look at once and remember it on the server.
document.addEventListener("change", function (event) {
  if (!event.target.matches("[data-deck]")) return;
  const root = document.documentElement;
  root.className = root.className.replace(/\bdeck-[\w-]+/g, "").trim() + " deck-" + event.target.value;
  if (window.htmx) htmx.trigger(event.target.form, "submit");
});

// "Mientras no estabas": the page remembers the last table version this browser saw and,
// coming back to a table that moved on, asks for a summary of what happened since.
function seenKey() {
  const page = document.getElementById("table-page");
  return page ? "ocholoco-seen-" + page.dataset.code : null;
}
document.addEventListener("DOMContentLoaded", function () {
  const key = seenKey();
  const away = document.getElementById("away");
  if (!key || !away) return;
  const seen = parseInt(localStorage.getItem(key) || "", 10);
  if (seen && seen < versionOf("board")) {
    away.setAttribute("hx-get", away.getAttribute("hx-get") + "?desde=" + seen);
    htmx.process(away);
    htmx.trigger(away, "ocholoco:away");
  }
});
function rememberSeen() {
  const key = seenKey();
  const v = versionOf("board");
  if (key && v && document.visibilityState === "visible") localStorage.setItem(key, String(v));
}
document.addEventListener("visibilitychange", rememberSeen);
window.addEventListener("pagehide", rememberSeen);
setInterval(rememberSeen, 2000);

// The time left for the turn, when the table has a turn limit.
function showClocks() {
  document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
    const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), sec = left % 60;
    el.textContent = h ? interpolate(gettext("· quedan %(hours)s h %(minutes)s min"), { hours: h, minutes: m })
      : interpolate(gettext("· quedan %(time)s"), { time: m + ":" + String(sec).padStart(2, "0") });
  });
}
setInterval(showClocks, 1000);

document.addEventListener("htmx:afterSwap", function (event) {
  const dialog = document.querySelector("dialog[data-open-on-load]:not([open])");
  if (dialog) dialog.showModal();
});

function refresh() {
  showClocks();
  const page = document.getElementById("table-page");
  if (!page) return;
  page.classList.toggle("my-turn", !!document.querySelector(".panel .your-turn"));
  // The invitation a seated player's panel carries is the current one (the host may renew
  // it); every invitation box on the page shows it.
  const panel = document.getElementById("panel");
  const invitation = panel && panel.getAttribute("data-invitation");
  document.querySelectorAll("[data-invite]").forEach(function (input) {
    if (invitation) input.setAttribute("data-invite", invitation);
    input.value = location.origin + input.getAttribute("data-invite");
  });
}

// A robot's move redraws the board while someone presses one of its buttons ("Todas las
// jugadas"): the button pressed is gone by the release, so the browser clicks nothing. The
// release is then given to the button that took its place (the same id, under the pointer).
let pressed = null;
document.addEventListener("pointerdown", function (event) {
  const button = event.target.closest && event.target.closest("#board button[id]");
  pressed = button && event.isPrimary ? { button: button, clicked: false } : null;
}, true);
document.addEventListener("click", function (event) {
  const button = event.target.closest && event.target.closest("button[id]");
  if (pressed && button && button.id === pressed.button.id) pressed.clicked = true;
}, true);
document.addEventListener("pointerup", function (event) {
  const press = pressed;
  if (!press) return;
  setTimeout(function () {  // after the click the release makes, if it makes one
    pressed = null;
    if (press.clicked || press.button.isConnected) return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const now = under && under.closest("button[id]");
    if (now && now.id === press.button.id) {
      htmx.process(now);  // (htmx wires a swapped-in button when it settles, 20 ms later)
      now.click();
    }
  }, 0);
}, true);

document.addEventListener("htmx:afterSettle", refresh);
document.addEventListener("htmx:wsAfterMessage", refresh);
document.addEventListener("DOMContentLoaded", refresh);
