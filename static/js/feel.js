// Ocho Loco: what makes the table feel like a game. Cards travel to the pile and from the
// stock, and sounds are synthesized with Web Audio (no files); what a screen reader says is
// ear.js's. It only reads the fragments the server sent; it changes nothing. moves.js makes
// its guessed moves sound and travel with the same play() and travel().
import { gettext, reduceMotion, toast, versionOf } from "./helpers.js";

const SOUND_KEY = "ocholoco-sound";

// --- Sound --------------------------------------------------------------------------
let audio = null;
function soundOn() { return localStorage.getItem(SOUND_KEY) !== "off"; }
function ensureAudio() {
  if (!audio && window.AudioContext) audio = new AudioContext();
  if (audio && audio.state === "suspended") audio.resume();
  return audio;
}
// Browsers let a page make sound only after the person touched it.
["pointerdown", "keydown"].forEach(function (type) {
  document.addEventListener(type, function () { if (soundOn()) ensureAudio(); }, { once: true });
});

function tone(freq, start, length, type, volume) {
  const ctx = audio;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type || "sine";
  osc.frequency.value = freq;
  const t = ctx.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume || 0.18, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

function noise(length) {
  const ctx = audio;
  const buffer = ctx.createBuffer(1, ctx.sampleRate * length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const src = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = 0.25;
  src.buffer = buffer;
  src.connect(filter).connect(gain).connect(ctx.destination);
  src.start();
}

const SOUNDS = {
  play: function () { tone(180, 0, 0.09, "triangle", 0.3); noise(0.05); },
  draw: function () { noise(0.16); },
  turn: function () { tone(660, 0, 0.14); tone(880, 0.12, 0.22); },
  won: function () { [523, 659, 784, 1047].forEach(function (f, i) { tone(f, i * 0.1, 0.25); }); },
  lost: function () { [392, 330, 262].forEach(function (f, i) { tone(f, i * 0.14, 0.3, "triangle"); }); },
};
export function play(name) {
  if (!soundOn() || !ensureAudio() || audio.state !== "running") return;
  SOUNDS[name]();
}

function showSoundState() {
  document.querySelectorAll("[data-sound-toggle]").forEach(function (button) {
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    button.textContent = soundOn() ? gettext("Sonido: sí (M)") : gettext("Sonido: no (M)");
  });
}
export function toggleSound() {
  localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
  showSoundState();
  toast(soundOn() ? gettext("Sonido encendido") : gettext("Sonido apagado"));
}

// --- Motion -------------------------------------------------------------------------
let before = null; // where things were before the board changed

function rectOf(el) { return el ? el.getBoundingClientRect() : null; }

// `el` comes to where it is from `from` (a rectangle). The motion adds to the element's own
// transform (a lit card stands a little higher).
export function travel(el, from, duration) {
  if (!el || !from || reduceMotion.matches) return;
  const to = el.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.3, Math.min(1.5, from.width / to.width));
  if (Math.hypot(dx, dy) < 1 && Math.abs(scale - 1) < 0.01) return;
  el.classList.add("traveling");  // a click under its path goes to what lies beneath
  el.animate(
    [{ transform: "translate(" + dx + "px," + dy + "px) scale(" + scale + ")" },
      { transform: "translate(0px,0px) scale(1)" }],
    { duration: duration || 420, easing: "cubic-bezier(.2,.7,.2,1)", composite: "add" }
  ).onfinish = function () { el.classList.remove("traveling"); };
}

function flyBack(from, to) {
  if (!from || !to || reduceMotion.matches) return;
  const ghost = document.createElement("span");
  ghost.className = "card back";
  ghost.style.cssText = "position:fixed;z-index:30;pointer-events:none;margin:0;--w:" + from.width + "px;" +
    "left:" + from.left + "px;top:" + from.top + "px;";
  document.body.appendChild(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  ghost.animate(
    [{ transform: "none", opacity: 1 }, { transform: "translate(" + dx + "px," + dy + "px) scale(.5)", opacity: 0.4 }],
    { duration: 450, easing: "ease-in" }
  ).onfinish = function () { ghost.remove(); };
}

document.addEventListener("htmx:oobBeforeSwap", function (event) {
  if (event.detail.target.id !== "board" || !event.detail.shouldSwap) return;
  const me = document.getElementById("table-page").dataset.me;
  const hand = {};
  document.querySelectorAll("#panel .hand .card").forEach(function (c) { hand[c.dataset.card] = rectOf(c); });
  const seats = {};
  document.querySelectorAll("#board .player").forEach(function (p) { seats[p.dataset.seat] = rectOf(p); });
  before = { me: me, hand: hand, seats: seats, stock: rectOf(document.querySelector("#board .stock .card")) };
});

function afterBoard(board) {
  const kind = board.dataset.lastKind;
  const seat = board.dataset.lastSeat;
  const mine = before && seat !== "" && seat === before.me;
  // This page's own move was guessed when it was made (static/js/moves.js): its card is
  // already on its way, and the guess hands over to the server's state.
  const played = kind === "play" || kind === "out";
  const guessed = mine && !!document.querySelector(played
    ? '[data-guess][data-card="' + CSS.escape(board.dataset.lastCard) + '"]' : ".back[data-guess]");
  if (played && !guessed) {
    const pile = board.querySelector(".pile .card");
    const from = before && (mine ? before.hand[board.dataset.lastCard] : before.seats[seat]);
    travel(pile, from);
    play("play");
  } else if ((kind === "draw" || kind === "penalty") && before && !guessed) {
    const target = mine ? document.querySelector("#panel .hand") : board.querySelector(".player.seat-" + seat);
    flyBack(before.stock, rectOf(target));
    play("draw");
  }
  before = null;
}

// --- Reacting to the new state ------------------------------------------------------
let wasMyTurn = false;
let summaryShown = false;
function afterPanel() {
  const myTurn = !!document.querySelector("#panel .your-turn");
  if (myTurn && !wasMyTurn) play("turn");
  wasMyTurn = myTurn;
  const summary = document.querySelector("#panel .summary[data-outcome]");
  if (summary && !summaryShown) play(summary.dataset.outcome === "won" ? "won" : "lost");
  summaryShown = !!summary;
}

// htmx reports a swap once per element it settled (and even when the version guard kept
// the old one), so react once per version shown.
const handled = { board: null, panel: null };
document.addEventListener("htmx:oobAfterSwap", function (event) {
  const id = event.detail.target && event.detail.target.id;
  if (id !== "board" && id !== "panel") return;
  const el = document.getElementById(id);
  if (!el || handled[id] === versionOf(el)) return;
  handled[id] = versionOf(el);
  if (id === "board") afterBoard(el); else afterPanel();
});

document.addEventListener("DOMContentLoaded", function () {
  showSoundState();
  ["board", "panel"].forEach(function (id) {
    const el = document.getElementById(id);
    if (el) handled[id] = versionOf(el);
  });
  wasMyTurn = !!document.querySelector("#panel .your-turn");
  summaryShown = !!document.querySelector("#panel .summary");
});
