// Ocho Loco by ear: the game log (every event, in order, none lost), "Tu turno" said once as a
// turn begins, single keys that answer a question at any moment (C D T U R, H or ? for help),
// and how much is said. The server tells every line; this file only puts them in order.
import { gettext, interpolate, ngettext, versionOf } from "./helpers.js";

const VERBOSITY = "ocholoco-verbosity";
const CHAT_QUIET = "ocholoco-chat-quiet";
const KEPT_LINES = 100; // lines kept in the log region (older ones are read from "U" or the dialog)

function page() { return document.getElementById("table-page"); }
function me() { const p = page(); return (p && p.dataset.me) || ""; }

// --- The game log ---------------------------------------------------------------------
// Each line the board carries has a key ("event id.line") that grows along the table's log,
// and the board the version it shows. A board one version ahead brings that version's lines;
// a page further behind (away, reconnected) asks for what it missed. One at a time, in order.
let logVersion = null;
let lastKey = [0, 0];
const heard = [];
let queue = Promise.resolve();

function keyOf(li) {
  const parts = (li.getAttribute("data-line") || "0.0").split(".");
  return [parseInt(parts[0], 10), parseInt(parts[1], 10)];
}
function isAfter(a, b) { return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]); }
function mine(li) { return li.dataset.seat !== "" && li.dataset.seat === me(); }
function textOf(li) { return mine(li) && li.dataset.you ? li.dataset.you : li.textContent; }
function verbosity() { return localStorage.getItem(VERBOSITY) || "all"; }
function spoken(li) {
  const level = verbosity();
  return level === "all" || (level === "mine" && mine(li));
}

function append(items) {
  const log = document.getElementById("game-log");
  items.forEach(function (li) {
    const key = keyOf(li);
    if (!isAfter(key, lastKey)) return;
    lastKey = key;
    const text = textOf(li);
    heard.push(text);
    if (heard.length > KEPT_LINES) heard.shift();
    if (!log || !spoken(li)) return;
    const line = document.createElement("p");
    line.textContent = text;
    log.appendChild(line);
    while (log.children.length > KEPT_LINES) log.removeChild(log.firstElementChild);
  });
}

function catchUp() {
  const log = document.getElementById("game-log");
  if (!log || !log.dataset.logUrl) return Promise.resolve();
  return fetch(log.dataset.logUrl + "?desde=" + logVersion, { credentials: "same-origin" })
    .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
    .then(function (html) {
      const feed = new DOMParser().parseFromString(html, "text/html").querySelector(".log-feed");
      if (!feed) return;
      append(Array.from(feed.children));
      logVersion = Math.max(logVersion, versionOf(feed));
    })
    .catch(function () { /* asked again with the next version */ });
}

function boardShown() {
  const board = document.getElementById("board");
  if (!board) return;
  const version = versionOf(board);
  const feed = board.querySelector(".log-feed");
  const lines = feed ? Array.from(feed.children) : [];
  queue = queue.then(function () {
    if (logVersion === null) { // the page's first board: its lines were said before it opened
      logVersion = version;
      lines.forEach(function (li) { const key = keyOf(li); if (isAfter(key, lastKey)) lastKey = key; });
      return null;
    }
    if (version <= logVersion) return null;
    if (version === logVersion + 1 && lines.length) {
      append(lines);
      logVersion = version;
      return null;
    }
    return catchUp();
  });
}

// --- Your turn, said once and first -----------------------------------------------------
// The panel marks a turn of this seat with a key of its own: whatever order the board and
// the panel arrive in, a turn is said when its key is first seen.
let turnKey = null;
function panelShown() {
  const turn = document.querySelector("#panel .your-turn[data-turn-key]");
  if (!turn || turn.dataset.turnKey === turnKey) return;
  turnKey = turn.dataset.turnKey;
  const hint = turn.dataset.turnHint;
  say("turn-alert", hint ? interpolate(gettext("Tu turno: %(hint)s."), { hint: hint }) : gettext("Tu turno."));
}

// A region is read when its words change: the same words said again (a second "Tu turno.")
// differ from the last by a no-break space, at once (a delay could say a turn already played).
const flips = {};
function say(id, text) {
  const el = document.getElementById(id);
  if (!el) return;
  flips[id] = !flips[id];
  el.textContent = text + (flips[id] ? "\u00a0" : "");
}

document.addEventListener("htmx:oobAfterSwap", function (event) {
  const id = event.detail.target && event.detail.target.id;
  if (id === "board") boardShown();
  else if (id === "panel") panelShown();
  else if (id === "chat-log") chatQuiet(localStorage.getItem(CHAT_QUIET) === "on");
});

// --- Asking -----------------------------------------------------------------------------
// Each suit's cards, as one sentence ("Picas: 7 de picas; 8 de picas.").
const SUITS = [
  ["spades", gettext("Picas: %(cards)s.")],
  ["hearts", gettext("Corazones: %(cards)s.")],
  ["diamonds", gettext("Diamantes: %(cards)s.")],
  ["clubs", gettext("Tréboles: %(cards)s.")],
  ["joker", gettext("Comodines: %(cards)s.")],
];
// A card's spoken name ends with why it cannot be played: "7 de picas, no: tienes que…"
// (the server's words; tables.audiences.wording.card_refusal). Such a card also carries its
// name and that reason apart (data-spoken-name, data-spoken-why), in the page's language:
// nothing here cuts the words of any language. A card without them is read whole.
function spokenName(el) {
  const hidden = el.querySelector(".visually-hidden");
  return (hidden ? hidden.textContent : el.getAttribute("aria-label") || "").trim();
}

const answers = {
  hand: function () {
    const cards = Array.from(document.querySelectorAll("#panel .hand .card"));
    if (!cards.length) {
      return me() ? gettext("No tienes cartas en la mano ahora.")
        : gettext("Estás mirando la partida: no tienes cartas.");
    }
    // Each card by its name ("…, se puede jugar"); why the others cannot, said once.
    let why = "";
    const said = function (card) {
      if (!card.dataset.spokenName || !card.dataset.spokenWhy) return spokenName(card);
      why = why || card.dataset.spokenWhy;
      return card.dataset.spokenName;
    };
    const groups = SUITS.map(function (suit) {
      const names = cards.filter(function (c) { return c.classList.contains("suit-" + suit[0]); }).map(said);
      return names.length ? interpolate(suit[1], { cards: names.join("; ") }) : "";
    }).filter(Boolean);
    const playable = cards.filter(function (c) { return c.hasAttribute("data-playable"); }).length;
    const others = !why ? ""
      : " " + interpolate(playable ? gettext("Las demás no: %(why)s.") : gettext("Ninguna se puede jugar: %(why)s."),
        { why: why });
    const count = interpolate(ngettext("Tienes %(count)s carta.", "Tienes %(count)s cartas.", cards.length),
      { count: cards.length });
    return count + " " + groups.join(" ") + others;
  },
  pile: function () {
    const board = document.getElementById("board");
    const top = board && board.querySelector(".pile .card");
    if (!top) return gettext("Todavía no hay cartas en la mesa.");
    const parts = [interpolate(gettext("Arriba: %(card)s."), { card: top.getAttribute("aria-label") })];
    const suit = board.querySelector(".pile .active-suit");
    if (suit) parts.push(suit.getAttribute("aria-label") + ".");
    const pending = board.querySelector(".pending");
    if (pending && pending.dataset.count) {
      const count = parseInt(pending.dataset.count, 10);
      parts.push(interpolate(ngettext("Hay que robar %(count)s.", "Hay que robar %(count)s.", count),
        { count: count }));
    }
    const stock = board.querySelector(".stock-count");
    if (stock) {
      const count = parseInt(stock.textContent, 10);
      parts.push(interpolate(ngettext("En el mazo quedan %(count)s.", "En el mazo quedan %(count)s.", count),
        { count: stock.textContent.trim() }));
    }
    return parts.join(" ");
  },
  turns: function () {
    const board = document.getElementById("board");
    const players = board ? Array.from(board.querySelectorAll(".players li[data-name]")) : [];
    if (!players.length) return gettext("Todavía no hay nadie en la mesa.");
    const turn = players.find(function (p) { return p.classList.contains("is-turn"); });
    const parts = [];
    if (turn) {
      parts.push(turn.dataset.seat === me() ? gettext("Te toca a ti.")
        : interpolate(gettext("Le toca a %(name)s."), { name: turn.dataset.name }));
    }
    players.forEach(function (p) {
      const you = p.dataset.seat === me();
      if (p.dataset.count === undefined) {
        parts.push(you ? gettext("Tú: esperando.") : interpolate(gettext("%(name)s: esperando."), { name: p.dataset.name }));
        return;
      }
      const n = parseInt(p.dataset.count, 10);
      const score = parseInt(p.dataset.score, 10);
      // (the points are counted too: "1 punto" in a language that says so)
      const points = interpolate(ngettext("%(score)s puntos", "%(score)s puntos", score), { score: p.dataset.score });
      const args = { name: p.dataset.name, count: n, points: points };
      parts.push(interpolate(you ? ngettext("Tú: %(count)s carta, %(points)s.", "Tú: %(count)s cartas, %(points)s.", n)
        : ngettext("%(name)s: %(count)s carta, %(points)s.", "%(name)s: %(count)s cartas, %(points)s.", n), args));
    });
    return parts.join(" ");
  },
  last: function () {
    let lines = heard.slice(-5);
    if (!lines.length) {
      lines = Array.from(document.querySelectorAll("#board .last-moves li")).reverse()
        .map(function (li) { return li.textContent.trim() + "."; });
    }
    return lines.length ? interpolate(gettext("Últimas jugadas: %(moves)s"), { moves: lines.join(" ") })
      : gettext("Todavía no hay jugadas.");
  },
  score: function () {
    const board = document.getElementById("board");
    if (!board || !board.dataset.target) return gettext("Todavía no empezó la partida.");
    const target = parseInt(board.dataset.target, 10);
    const penalty = board.dataset.scoring === "penalty";
    const round = { round: board.dataset.round, target: target };
    const parts = [interpolate(penalty
      ? gettext("Ronda %(round)s. Partida a %(target)s puntos: al llegar alguien, gana quien tenga menos.")
      : gettext("Ronda %(round)s. Partida a %(target)s puntos."), round)];
    Array.from(board.querySelectorAll(".players li[data-score]")).forEach(function (p) {
      const you = p.dataset.seat === me();
      const score = parseInt(p.dataset.score, 10);
      const args = { name: p.dataset.name, score: score, left: Math.max(target - score, 0), target: target };
      let said;
      if (penalty && you) {
        said = ngettext("Tú: %(score)s puntos, a %(left)s de %(target)s.", "Tú: %(score)s puntos, a %(left)s de %(target)s.", score);
      } else if (penalty) {
        said = ngettext("%(name)s: %(score)s puntos, a %(left)s de %(target)s.",
          "%(name)s: %(score)s puntos, a %(left)s de %(target)s.", score);
      } else if (you) {
        said = ngettext("Tú: %(score)s puntos, te faltan %(left)s.", "Tú: %(score)s puntos, te faltan %(left)s.", score);
      } else {
        said = ngettext("%(name)s: %(score)s puntos, le faltan %(left)s.", "%(name)s: %(score)s puntos, le faltan %(left)s.", score);
      }
      parts.push(interpolate(said, args));
    });
    return parts.join(" ");
  },
};

function ask(what) {
  if (what === "help") {
    const help = document.getElementById("ear-help");
    if (help && !help.open) help.showModal();
    return;
  }
  if (answers[what]) say("answer", answers[what]());
}

const KEYS = { c: "hand", d: "pile", t: "turns", u: "last", r: "score", h: "help", "?": "help" };
document.addEventListener("keydown", function (event) {
  if (event.ctrlKey || event.metaKey || event.altKey || !page()) return;
  if (event.target.matches("input, textarea, select, [contenteditable]")) return;
  if (document.querySelector("dialog[open]")) return;
  const what = KEYS[event.key.toLowerCase()] || KEYS[event.key];
  if (!what) return;
  event.preventDefault();
  ask(what);
});

document.addEventListener("click", function (event) {
  const button = event.target.closest("[data-ask]");
  if (!button) return;
  const menu = button.closest("dialog");
  if (menu) menu.close(); // what is outside a modal dialog is not read while it is open
  ask(button.dataset.ask);
});

// --- How much is said, and the chat -----------------------------------------------------
function chatQuiet(quiet) {
  const log = document.getElementById("chat-log");
  if (log) log.setAttribute("aria-live", quiet ? "off" : "polite");
}

document.addEventListener("change", function (event) {
  if (event.target.matches("[data-verbosity]")) localStorage.setItem(VERBOSITY, event.target.value);
  else if (event.target.matches("[data-chat-quiet]")) {
    localStorage.setItem(CHAT_QUIET, event.target.checked ? "on" : "off");
    chatQuiet(event.target.checked);
  }
});

document.addEventListener("DOMContentLoaded", function () {
  if (!page()) return;
  const level = verbosity();
  document.querySelectorAll("[data-verbosity]").forEach(function (input) { input.checked = input.value === level; });
  const quiet = localStorage.getItem(CHAT_QUIET) === "on";
  document.querySelectorAll("[data-chat-quiet]").forEach(function (input) { input.checked = quiet; });
  chatQuiet(quiet);
  boardShown();
  panelShown();
});
