// Ocho Loco: a move shows the moment it is made, whatever the network; the server settles it.
// A tap posts the move as ever (htmx) and, in the same frame, the page guesses its outcome: the
// card flies to the pile (an 8 once its suit is picked), a face-down card comes from the stock
// for ROBAR, a button (PASAR, SIGUIENTE RONDA...) shows it was taken. The server's answer or
// its push, whichever comes first, replaces the guess (where they agree nothing moves twice).
// A refusal (a stale version, someone moved first, 409/429/5xx, a dropped connection, a
// timeout) puts everything back, the notice says why (static/js/answers.js), and the page asks
// for the table as it is now. Only the acting page guesses: the others see the move once the
// server applied it. One move at a time: a tap while one is on its way is refused with a word.
// No move is offered while the socket is down (static/js/socket.js).
import { play, travel } from "./feel.js";
import { gettext, isMove, reduceMotion, toast, versionOf } from "./helpers.js";
import { socketDown } from "./socket.js";

const FLIGHT = 300; // ms: a card's trip to the pile or from the stock
const BACK = 220; // ms: a refused card's trip back to its place
const WAIT = gettext("Tu jugada va en camino: espera un momento.");
const OFFLINE = gettext("Sin conexión con la mesa: espera a que vuelva para jugar.");

let pending = null; // the move on its way, and everything its guess changed

function page() { return document.getElementById("table-page"); }

// --- Guesses --------------------------------------------------------------------------
function place(el, rect) {
  el.style.left = rect.left + "px";
  el.style.top = rect.top + "px";
  el.style.setProperty("--w", rect.width + "px");
}

// A card drawn above everything, where `rect` is: the guess, marked `data-guess`.
function ghost(className, rect, card) {
  const el = document.createElement("span");
  el.className = className + " in-flight";
  el.setAttribute("data-guess", "");
  el.setAttribute("aria-hidden", "true");
  if (card) {
    el.setAttribute("data-card", card.dataset.card);
    card.querySelectorAll(":scope > [aria-hidden]").forEach(function (part) {
      el.appendChild(part.cloneNode(true));
    });
  }
  place(el, rect);
  document.body.appendChild(el);
  return el;
}

function fly(el, to, duration) {
  const from = el.getBoundingClientRect();
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const scale = to.width / from.width;
  const end = "translate(" + dx + "px," + dy + "px) scale(" + scale + ")";
  if (reduceMotion.matches) { el.style.transform = end; return null; }
  const flight = el.animate([{ transform: "none" }, { transform: end }],
    { duration: duration, easing: "cubic-bezier(.2,.7,.2,1)", fill: "forwards" });
  flight.currentTime = 16; // the first frame drawn already shows the card on its way
  return flight;
}

function pileRect() {
  const top = document.querySelector("#board .pile > .card");
  return top ? top.getBoundingClientRect() : null;
}

// Where a drawn card will land: after the last card of the hand.
function handEnd() {
  const cards = document.querySelectorAll("#panel .hand .card[data-card]");
  if (!cards.length) return null;
  const last = cards[cards.length - 1].getBoundingClientRect();
  const room = last.right + last.width + 8 <= window.innerWidth;
  return { left: room ? last.right + 4 : last.left, top: room ? last.top : last.top - last.height / 3,
    width: last.width, height: last.height };
}

function guessPlay(card) {
  const dialog = document.getElementById(card.getAttribute("data-needs-suit") || "");
  if (dialog && dialog.open) dialog.close();
  const to = pileRect();
  const el = ghost(card.className.replace(/\b(selected|playable|dragging)\b/g, ""), card.getBoundingClientRect(), card);
  card.classList.add("leaving");
  if (to) fly(el, to, FLIGHT);
  play("play");
  return el;
}

function guessDraw() {
  const stock = document.querySelector("#board .stock .card");
  const to = handEnd();
  if (!stock || !to) return null;
  const el = ghost("card back", stock.getBoundingClientRect(), null);
  fly(el, to, FLIGHT);
  play("draw");
  return el;
}

// --- A move on its way ----------------------------------------------------------------
function start(detail) {
  const config = detail.requestConfig;
  const form = config.elt.closest("form") || config.elt;
  const move = config.formData.get("move");
  const submitter = (move && form.querySelector('[name=move][value="' + CSS.escape(move) + '"]')) ||
    (config.triggeringEvent && config.triggeringEvent.submitter) || form.querySelector("button");
  const m = {
    xhr: detail.xhr, version: versionOf("panel"), ghost: null, card: null, draw: false,
    pressed: null, disabled: [], hand: new Set(),
  };
  document.querySelectorAll("#panel .hand .card[data-card]").forEach(function (c) { m.hand.add(c.dataset.card); });
  const suitDialog = submitter && submitter.closest("dialog.suit-dialog");
  const card = suitDialog ? document.querySelector('[data-needs-suit="' + suitDialog.id + '"]')
    : submitter && submitter.matches(".hand .card[data-card]") ? submitter : null;
  m.card = card;
  m.draw = !card && !!submitter && submitter.hasAttribute("data-draw");
  // The guess is drawn once htmx has sent the move (a microtask: still in the tap's frame),
  // so the request does not wait for the layout the guess measures.
  if (card || m.draw) {
    queueMicrotask(function () {
      if (pending === m) m.ghost = card ? guessPlay(card) : guessDraw();
    });
  }
  if (submitter && !card) {
    m.pressed = submitter;
    submitter.classList.add("taken");
    submitter.setAttribute("aria-busy", "true");
  }
  document.querySelectorAll("#panel form .btn").forEach(function (b) {
    if (!b.disabled) { b.disabled = true; m.disabled.push(b); }
  });
  page().classList.add("move-pending");
  page().setAttribute("data-move", "pending");
  return m;
}

// Whatever the move's outcome, its buttons work again (a new panel brings its own).
function finish(move) {
  move.disabled.forEach(function (b) { b.disabled = false; });
  if (move.pressed) { move.pressed.classList.remove("taken"); move.pressed.removeAttribute("aria-busy"); }
  const p = page();
  if (p) { p.classList.remove("move-pending"); p.removeAttribute("data-move"); }
  pending = null;
}

// The server said what happened (its fragments are on the page): wherever the guessed card
// is now (on the pile, back in the hand), it comes there from where the guess got to.
// A drawn card is already in its place, face up, under the face-down one, which turns away.
function settle(move) {
  const guess = move.ghost;
  if (guess && move.card) {
    const from = guess.getBoundingClientRect();
    guess.remove();
    const code = CSS.escape(move.card.dataset.card);
    const now = document.querySelector("#board .pile > .card[data-card=\"" + code + "\"]") ||
      document.querySelector("#panel .hand .card[data-card=\"" + code + "\"]");
    if (now) travel(now, from, 200);
  } else if (guess) {
    guess.removeAttribute("data-guess"); // the server's card is on the page: no guess left
    const drawn = Array.from(document.querySelectorAll("#panel .hand .card[data-card]"))
      .filter(function (c) { return !move.hand.has(c.dataset.card); });
    const to = drawn.length && drawn[0].getBoundingClientRect();
    const at = guess.getBoundingClientRect();
    guess.getAnimations().forEach(function (a) { a.cancel(); });
    place(guess, at);
    const turn = to && !reduceMotion.matches ? guess.animate([{ transform: "none" },
      { transform: "translate(" + (to.left - at.left) + "px," + (to.top - at.top) + "px) scaleX(0)" }],
    { duration: 180, easing: "ease-in" }) : null;
    if (turn) turn.onfinish = function () { guess.remove(); }; else guess.remove();
  }
  finish(move);
}

// Refused: the guess goes back where it came from and the page is as it was; then it asks
// for the table as it is now (only a newer version replaces what it shows). Not after a
// CSRF refusal: nothing happened, answers.js renews the token and sends the move again, and
// a page fetched meanwhile would set a CSRF cookie of its own, one the renewed token does
// not match (a browser without the cookie is given a new one by every page it asks for).
function rollBack(move, askTable) {
  const card = move.card;
  const ghostEl = move.ghost;
  const home = card && card.isConnected ? card.getBoundingClientRect()
    : document.querySelector("#board .stock .card") && document.querySelector("#board .stock .card").getBoundingClientRect();
  const done = function () {
    if (ghostEl) ghostEl.remove();
    if (card) card.classList.remove("leaving");
  };
  const back = ghostEl && home && !reduceMotion.matches ? fly(ghostEl, home, BACK) : null;
  if (back) back.onfinish = done; else done();
  finish(move);
  if (askTable) catchUp();
}

function catchUp() {
  fetch(location.pathname, { credentials: "same-origin", headers: { Accept: "text/html" } })
    .then(function (response) { return response.ok ? response.text() : ""; })
    .then(function (text) {
      const doc = new DOMParser().parseFromString(text, "text/html");
      const parts = ["board", "panel"].map(function (id) { return doc.getElementById(id); })
        .filter(Boolean).map(function (el) { return el.outerHTML; });
      if (parts.length) htmx.swap(document.body, parts.join(""), { swapStyle: "none" });
    })
    .catch(function () { /* offline: the socket brings the table when it is back */ });
}

// --- Wiring ---------------------------------------------------------------------------
// Before htmx queues anything: one move at a time, and none while the socket is down.
document.addEventListener("htmx:confirm", function (event) {
  if (!isMove(event.detail.elt, event.detail.verb)) return;
  if (pending || socketDown()) {
    event.preventDefault();
    toast(pending ? WAIT : OFFLINE);
  }
});

document.addEventListener("htmx:beforeRequest", function (event) {
  const detail = event.detail;
  if (pending || !isMove(detail.elt, detail.requestConfig.verb)) return;
  const move = pending = start(detail);
  detail.xhr.addEventListener("loadend", function () {
    if (pending !== move) return; // settled already, by the answer's fragments or a push
    const xhr = move.xhr;
    if (xhr.status >= 200 && xhr.status < 300) settle(move);
    else rollBack(move, !xhr.getResponseHeader("X-Csrf-Failed"));
  });
});

// The server's fragments (the answer or a push) show a version past the move's: settled.
document.addEventListener("htmx:oobAfterSwap", function (event) {
  if (pending && event.detail.target && event.detail.target.id === "panel" &&
      versionOf("panel") > pending.version) settle(pending);
});

// Taps on the hand or the buttons while a move is on its way (or the socket is down) are
// refused with a word, before they choose or send anything.
document.addEventListener("click", function (event) {
  if (!pending && !socketDown()) return;
  const tapped = event.target.closest("#panel .hand .card, #panel form .btn, #board [data-stock]");
  if (!tapped) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  toast(pending ? WAIT : OFFLINE);
}, true);
