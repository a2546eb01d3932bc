// Ocho Loco: the table page's socket, in one place: its state (the page's data-ws, connecting,
// open or closed, which other modules and the tests read; the "Reconectando…" banner), its
// reconnection after a restart, and the release its server runs.
// A server process that goes away (a deploy, a restart) closes its sockets with 1012 "service
// restart", a table's pages at a time, spread over a second (tables/live/drain.py): the page
// reconnects at once, to whichever process the proxy picks (the spreading is the server's, so
// a page spends no time with its socket closed, missing moves). A socket lost any other way
// (a process killed: all its pages in the same instant) waits a little jitter first; if that
// fails too, it waits as htmx's full jitter does (a random wait below 2^retries s). Every
// greeting says which release the server runs; a page opened on an earlier one reloads itself
// into it, once, at a calm moment: no move on its way, no dialog open, no card chosen, not
// while a chat line is being typed (whose draft comes back after the reload).
const MOVED = 50; // ms: the most a page waits to reconnect after its process closed it (1012)
const AT_ONCE = 500; // ms: the most it waits after its socket was lost any other way
const SERVICE_RESTART = 1012;
const CALM_EVERY = 1000; // ms: how often a page due to reload looks for a calm moment
const SPREAD = 60000; // ms: a page due to reload waits a random time below this first
const DRAFT = "ocholoco:chat-draft";

// htmx.createWebSocket and htmx.config.wsReconnectDelay are the ws extension's documented
// hooks for making the socket and for the wait before each retry (`retries`: how many failed
// since the last open socket). The extension asks for the wait before it tells the page the
// socket closed (htmx:wsClose), so the close's code is noted on the socket itself, first.
let lastClose = 0;
htmx.createWebSocket = function (url) {
  const socket = new WebSocket(url);
  socket.addEventListener("close", function (event) { lastClose = event.code; });
  return socket;
};
htmx.config.wsReconnectDelay = function (retries) {
  if (retries === 0) return Math.random() * (lastClose === SERVICE_RESTART ? MOVED : AT_ONCE);
  return 1000 * Math.pow(2, Math.min(retries, 6)) * Math.random();
};

// --- The socket's state ---------------------------------------------------------------
// "Reconectando…" once it has been down for BANNER_AFTER (a restart or a deploy brings it back
// sooner, unnoticed); nothing said once it is back. While the banner shows, the page may be
// behind the table: no move is offered (static/js/moves.js asks `socketDown`).
const BANNER_AFTER = 2000; // ms
let bannerTimer = null;
function connection(down) {
  clearTimeout(bannerTimer);
  bannerTimer = null;
  const banner = document.getElementById("connection");
  if (!banner) return;
  if (!down) banner.hidden = true;
  else if (banner.hidden) bannerTimer = setTimeout(function () { banner.hidden = false; }, BANNER_AFTER);
}
export function socketDown() {
  const banner = document.getElementById("connection");
  return !!banner && !banner.hidden;
}
function socketState(state) {
  const page = document.getElementById("table-page");
  if (page) page.setAttribute("data-ws", state);
}
document.addEventListener("htmx:wsConnecting", function () { socketState("connecting"); });
document.addEventListener("htmx:wsOpen", function () {
  socketState("open");
  connection(false);
});
document.addEventListener("htmx:wsClose", function (event) {
  socketState("closed");
  const e = event.detail.event;
  connection(!!e && [1006, 1011, 1012, 1013].indexOf(e.code) >= 0);
});

// --- A new release --------------------------------------------------------------------
function pageRelease() {
  const page = document.getElementById("table-page");
  return page ? page.getAttribute("data-release") || "" : "";
}
function serverRelease() {
  const el = document.getElementById("release");
  return el ? el.getAttribute("data-release") || "" : "";
}
// Releases are named so that a later one sorts after an earlier one: a page never reloads
// into an older process that is still being replaced (it would reload twice).
function newer() {
  const mine = pageRelease();
  const theirs = serverRelease();
  return mine !== "" && theirs !== "" && theirs > mine;
}

function chatBox() { return document.querySelector("#chat textarea[name=text]"); }
function calm() {
  const page = document.getElementById("table-page");
  if (page && page.getAttribute("data-move") === "pending") return false;
  if (document.querySelector("dialog[open]")) return false;
  if (document.querySelector("#panel .hand .card.selected")) return false;
  const box = chatBox();
  return !(box && document.activeElement === box && box.value !== "");
}

// The reload says which release it wants (a cookie, for a minute): a process of an earlier
// one, not yet replaced, leaves that page load to a process of the later one (config/health.py).
const WANTED = "ocholoco_release";
let due = false;
let reloading = false;
function reloadWhenCalm() {
  if (reloading || !newer()) return;
  if (!calm()) { setTimeout(reloadWhenCalm, CALM_EVERY); return; }
  reloading = true;
  const box = chatBox();
  if (box && box.value) sessionStorage.setItem(DRAFT, JSON.stringify({ at: location.pathname, text: box.value }));
  document.cookie = WANTED + "=" + encodeURIComponent(serverRelease()) + "; max-age=60; path=/; samesite=lax";
  location.reload();
}
// Not all at once: every page learns of the release within the same few seconds, and a page
// load costs the server far more than a move (about 38 ms of a web process's CPU: the page,
// its socket, its greeting). Spread over 15 s, 217 pages' reloads filled the site's CPU and
// moves took seconds to arrive (docs/performance.md, "The drain spreads the closes; the page
// reconnects at once; reloads over a minute"); spread over a minute they leave it room. The page is current meanwhile: its socket brings every move.
document.addEventListener("htmx:wsAfterMessage", function () {
  if (!newer() || due) return;
  due = true;
  setTimeout(reloadWhenCalm, Math.random() * SPREAD);
});
if (document.cookie.indexOf(WANTED + "=") >= 0) {
  document.cookie = WANTED + "=; max-age=0; path=/; samesite=lax";
}

// After the reload: the chat line that was being written is back where it was.
function restoreDraft() {
  const kept = sessionStorage.getItem(DRAFT);
  if (!kept) return;
  sessionStorage.removeItem(DRAFT);
  const draft = JSON.parse(kept);
  const box = chatBox();
  if (box && draft.at === location.pathname && !box.value) box.value = draft.text;
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restoreDraft);
else restoreDraft();

