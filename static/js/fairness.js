// Ocho Loco: "¿Fue justo el reparto?" checked in the browser with Web Crypto. From the
// revealed text alone it computes the SHA-256 (it must be the commitment shown at the deal),
// deals the deck as the table does (it must give the hands played) and orders each
// reshuffled pile by SHA-256 of "salt:n:card" (it must give the stock the round used).
import { gettext, interpolate } from "./helpers.js";

const REVEAL = /^ocholoco-reparto-1 sal=([0-9a-f]{32}) mazo=([0-9A-Z,]+)$/;

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), function (b) {
    return b.toString(16).padStart(2, "0");
  }).join("");
}

function same(a, b) { return a.length === b.length && a.every(function (x, i) { return x === b[i]; }); }

function labels(cards) {  // "10H", "10H#2" for a second copy: the engine's copy labels
  const seen = {};
  return cards.map(function (c) { seen[c] = (seen[c] || 0) + 1; return seen[c] === 1 ? c : c + "#" + seen[c]; });
}

async function check(data, reveal) {
  const results = [];
  const match = REVEAL.exec(reveal);
  if (!match) return [[false, gettext("El texto revelado no tiene la forma esperada.")]];
  const salt = match[1];
  const deck = match[2].split(",");
  const hash = await sha256(reveal);
  const print = { hash: hash.slice(0, 8) };
  results.push(hash === data.commitment
    ? [true, interpolate(gettext("La huella del texto revelado es la que se mostró al repartir: %(hash)s…"), print)]
    : [false, interpolate(gettext("La huella del texto revelado (%(hash)s…) NO es la que se mostró al repartir."), print)]);
  const hands = data.hands.map(function () { return []; });
  for (let i = 0; i < data.hand_size * data.players; i++) {
    hands[(data.dealer + 1 + i) % data.players].push(deck[i]);
  }
  const dealt = hands.every(function (hand, p) { return same(hand.slice().sort(), data.hands[p].slice().sort()); });
  results.push(dealt ? [true, gettext("Repartido ese mazo, salen exactamente las manos que se jugaron.")]
    : [false, gettext("Repartido ese mazo, NO salen las manos que se jugaron.")]);
  for (const r of data.reshuffles) {
    const names = labels(r.pile);
    const keys = await Promise.all(names.map(function (l) { return sha256(salt + ":" + r.number + ":" + l); }));
    const order = r.pile.map(function (c, i) { return [keys[i], c]; })
      .sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; })
      .map(function (pair) { return pair[1]; });
    const reshuffle = { number: r.number };
    results.push(same(order, r.order)
      ? [true, interpolate(gettext("Rebarajada %(number)s: el orden del mazo nuevo sale de la sal."), reshuffle)]
      : [false, interpolate(gettext("Rebarajada %(number)s: el orden del mazo nuevo NO sale de la sal."), reshuffle)]);
  }
  return results;
}

document.addEventListener("click", function (event) {
  const copy = event.target.closest("[data-copy-from]");
  if (copy) {
    const field = document.querySelector(copy.getAttribute("data-copy-from"));
    field.select();
    const shown = function () { const note = copy.parentNode.querySelector("[data-copied]"); if (note) note.hidden = false; };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(shown, shown);
    else { document.execCommand("copy"); shown(); }
    return;
  }
  if (!event.target.closest("[data-fairness-check]")) return;
  const list = document.querySelector("[data-fairness-results]");
  list.replaceChildren();
  const say = function (ok, text) {
    const item = document.createElement("li");
    item.className = ok ? "ok" : "bad";
    item.textContent = (ok ? "✔ " : "✘ ") + text;
    list.appendChild(item);
  };
  if (!(window.crypto && crypto.subtle)) {
    say(false, gettext("Este navegador no puede calcular SHA-256 en esta página (hace falta una conexión segura): usa el comando de la terminal."));
    return;
  }
  const data = JSON.parse(document.getElementById("fairness-data").textContent);
  check(data, document.getElementById("reveal").value.trim()).then(function (results) {
    results.forEach(function (r) { say(r[0], r[1]); });
    list.dataset.checked = results.every(function (r) { return r[0]; }) ? "ok" : "bad";
  });
});
