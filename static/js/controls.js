// Ocho Loco: playing without a mouse. Keyboard: ← → move through the cards, ↑ goes to the
// buttons and ↓ back to the cards, Enter chooses and plays; P or Esc open the menu; M sound;
// F fullscreen. A gamepad does the same (d-pad, A or X to play, Start menu, Back sound).
// Drag a card to the pile to play it. Every action ends in the same buttons a tap uses.
import { toggleSound } from "./feel.js";
import { gettext, openMenu, playCard, toast } from "./helpers.js";

function cards() { return Array.from(document.querySelectorAll("#panel .hand .card")); }
function buttons() {
  return Array.from(document.querySelectorAll(
    "#panel .actions .btn, #panel .summary .btn, #panel .robot-form .btn, #panel form > .btn.primary"
  )).filter(function (b) { return !b.disabled && b.offsetParent !== null; });
}
function openDialog() { return document.querySelector("dialog[open]"); }

function move(list, step) {
  if (!list.length) return;
  const index = list.indexOf(document.activeElement);
  const next = index < 0 ? 0 : (index + step + list.length) % list.length;
  list[next].focus();
}

const actions = {
  left: function () { move(inButtons() ? buttons() : cards(), -1); },
  right: function () { move(inButtons() ? buttons() : cards(), 1); },
  up: function () { const b = buttons(); if (b.length) b[0].focus(); },
  down: function () { const c = cards(); if (c.length) c[0].focus(); },
  activate: function () {
    const el = document.activeElement;
    if (el && el.matches("button, a, [role=button]")) el.click();
    else actions.down();
  },
  menu: openMenu,
  sound: toggleSound,
  fullscreen: function () {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
  },
};
function inButtons() { return buttons().indexOf(document.activeElement) >= 0; }

// Focus survives the swap of the panel: the same card (or button) is focused again. A card
// just played may have lost the focus before the answer came (it leaves the hand at the
// tap): the panel's last focused place stands for it then.
let focusKey = null;
let lastInPanel = null;
function keyOf(el) {
  return el.dataset.card ? { card: el.dataset.card, index: cards().indexOf(el) }
    : { button: el.textContent.trim(), index: buttons().indexOf(el) };
}
document.addEventListener("focusin", function (event) {
  const panel = document.getElementById("panel");
  lastInPanel = panel && panel.contains(event.target) && event.target.matches("button")
    ? keyOf(event.target) : null;
});
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  if (event.detail.target.id !== "panel") return;
  const el = document.activeElement;
  if (el && event.detail.target.contains(el)) focusKey = keyOf(el);
  else if ((!el || el === document.body) && lastInPanel) focusKey = lastInPanel;
  else focusKey = null;
});
document.addEventListener("htmx:oobAfterSwap", function (event) {
  if (event.detail.target.id !== "panel" || !focusKey) return;
  const key = focusKey;
  focusKey = null;
  if (key.card) {
    const list = cards();
    const same = list.find(function (c) { return c.dataset.card === key.card; });
    const el = same || list[Math.min(key.index, list.length - 1)];
    if (el) el.focus(); else actions.up();
  } else {
    const list = buttons();
    // The button gone (EMPEZAR LA PARTIDA, SIGUIENTE RONDA): the hand, not another button.
    const el = list.find(function (b) { return b.textContent.trim() === key.button; }) || cards()[0] || list[0];
    if (el) el.focus();
  }
});

document.addEventListener("keydown", function (event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.matches("input, textarea, select")) return;
  const key = event.key;
  if (openDialog()) {
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const list = Array.from(openDialog().querySelectorAll("button"));
      move(list, key === "ArrowLeft" ? -1 : 1);
      event.preventDefault();
    }
    return; // Esc closes the dialog natively
  }
  const map = {
    ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down",
    p: "menu", P: "menu", Escape: "menu", m: "sound", M: "sound", f: "fullscreen", F: "fullscreen",
  };
  if (map[key]) {
    event.preventDefault();
    actions[map[key]]();
  } else if (key === "Enter" && !event.target.matches("button, a")) {
    event.preventDefault();
    actions.activate();
  }
});

document.addEventListener("click", function (event) {
  if (event.target.closest("[data-sound-toggle]")) actions.sound();
  else if (event.target.closest("[data-fullscreen]")) actions.fullscreen();
});

// --- Gamepad ("control compatible"), standard mapping ---------------------------------
const PAD = { 12: "up", 13: "down", 14: "left", 15: "right", 0: "pad-a", 2: "pad-a", 9: "menu", 8: "sound" };
const held = {};
let polling = false;
function poll() {
  const pads = navigator.getGamepads ? Array.from(navigator.getGamepads()).filter(Boolean) : [];
  pads.forEach(function (pad) {
    Object.keys(PAD).forEach(function (index) {
      const button = pad.buttons[index];
      const pressed = !!(button && (button.pressed || button.value > 0.5));
      const id = pad.index + ":" + index;
      if (pressed && !held[id]) padAction(PAD[index]);
      held[id] = pressed;
    });
  });
  if (pads.length) requestAnimationFrame(poll); else polling = false;
}
function padAction(name) {
  const dialog = openDialog();
  if (dialog) {
    const list = Array.from(dialog.querySelectorAll("button"));
    if (name === "left" || name === "up") move(list, -1);
    else if (name === "right" || name === "down") move(list, 1);
    else if (name === "pad-a" && dialog.contains(document.activeElement)) document.activeElement.click();
    else if (name === "menu") dialog.close();
    return;
  }
  if (name === "pad-a") actions.activate(); else actions[name]();
}
window.addEventListener("gamepadconnected", function () {
  if (!polling) { polling = true; requestAnimationFrame(poll); }
  toast(gettext("Control conectado: la cruceta recorre las cartas, A juega."));
});

// --- Drag a card to the pile ----------------------------------------------------------
let drag = null;
document.addEventListener("pointerdown", function (event) {
  const card = event.target.closest("#panel .hand .card[data-playable]");
  if (!card || event.button !== 0) return;
  drag = { card: card, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
});
document.addEventListener("pointermove", function (event) {
  if (!drag || event.pointerId !== drag.id) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 12) return;
  drag.moved = true;
  drag.card.classList.add("dragging");
  drag.card.style.transform = "translate(" + dx + "px," + dy + "px)";
  const pile = document.querySelector("#board .pile");
  if (pile) pile.classList.toggle("drop-target", overPile(event));
});
function overPile(event) {
  const pile = document.querySelector("#board .pile");
  if (!pile) return false;
  const r = pile.getBoundingClientRect();
  const m = 30; // a generous target
  return event.clientX > r.left - m && event.clientX < r.right + m &&
    event.clientY > r.top - m && event.clientY < r.bottom + m;
}
function endDrag(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const current = drag;
  drag = null;
  const pile = document.querySelector("#board .pile");
  if (pile) pile.classList.remove("drop-target");
  if (!current.moved) return;
  // Played where it was dropped: the card flies on from there (static/js/moves.js).
  if (event.type === "pointerup" && overPile(event)) playCard(current.card);
  current.card.classList.remove("dragging");
  current.card.style.transform = "";
  // A drag is not a tap: swallow the click that may follow it (dispatched before timers run).
  const swallow = function (e) { e.stopPropagation(); e.preventDefault(); };
  document.addEventListener("click", swallow, { capture: true, once: true });
  setTimeout(function () { document.removeEventListener("click", swallow, { capture: true }); }, 0);
}
document.addEventListener("pointerup", endDrag);
document.addEventListener("pointercancel", endDrag);
