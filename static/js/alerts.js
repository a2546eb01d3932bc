// Ocho Loco: "te toca" alerts. In front: nothing beyond the table's own highlight and sound.
// In a background tab: the title and the favicon change, and a notification if allowed.
// With no tab open: Web Push, asked for with a clear button, never on page load.
import { gettext, toast } from "./helpers.js";

const page = document.getElementById("table-page");
const title = document.title;
const favicon = document.getElementById("favicon");
const icon = favicon ? favicon.href : null;
const DOT = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#0d5c3a"/>' +
  '<text x="30" y="48" font-family="Georgia" font-size="44" font-weight="700" text-anchor="middle" fill="#fff">8</text>' +
  '<circle cx="50" cy="14" r="12" fill="#ffc233" stroke="#0d5c3a" stroke-width="3"/></svg>');

function myTurn() { return !!document.querySelector("#panel .your-turn"); }

let alerted = false;
function backgroundAlert() {
  if (!myTurn()) { alerted = false; restore(); return; }
  if (!document.hidden || alerted) return;
  alerted = true;
  document.title = gettext("(●) Tu turno — Ocho Loco");
  if (favicon) favicon.href = DOT;
  if (window.Notification && Notification.permission === "granted" && navigator.serviceWorker) {
    navigator.serviceWorker.ready.then(function (registration) {
      registration.showNotification("Ocho Loco", {
        body: gettext("Te toca."), tag: "mesa-" + page.dataset.code, data: { url: location.pathname },
      });
    });
  }
}
function restore() {
  document.title = title;
  if (favicon && icon) favicon.href = icon;
}
function watchTurns() {
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "panel") backgroundAlert();
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { restore(); alerted = myTurn(); }
  });
}

// --- Web Push -------------------------------------------------------------------------
const url = page && page.dataset.alertsUrl;
const vapid = page && page.dataset.vapid;
const bar = document.querySelector("[data-alerts-bar]");
const supported = "serviceWorker" in navigator && "PushManager" in window && !!vapid;
const iOS = /iPhone|iPad|iPod/.test(navigator.userAgent);

function keyBytes(base64) {
  const padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), function (c) { return c.charCodeAt(0); });
}

async function enable() {
  if (!supported) {
    const help = document.querySelector("[data-alerts-ios]");
    if (iOS && help) help.hidden = false;
    else toast(gettext("Este navegador no puede avisarte con la página cerrada."));
    return;
  }
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    toast(gettext("Sin permiso para avisos: puedes darlo en los ajustes del navegador."));
    return;
  }
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription() ||
    await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapid) });
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    body: JSON.stringify(subscription.toJSON()),
  });
  const answer = await response.json().catch(function () { return {}; });
  toast(answer.message || answer.error || gettext("No se pudo activar los avisos."));
  if (response.ok && bar) bar.hidden = true;
}

function offerPush() {
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-alerts-enable]")) enable().catch(function () {
      toast(gettext("No se pudo activar los avisos."));
    });
  });
  if (url && "serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(async function (registration) {
      const subscribed = supported && await registration.pushManager.getSubscription();
      if (bar) bar.hidden = !!(subscribed && Notification.permission === "granted");
    }).catch(function () { if (bar) bar.hidden = false; });
  } else if (url && bar) {
    bar.hidden = false;
  }
}

// Only a table page alerts. (A module has no early return: the wiring waits for this test.)
if (page) {
  watchTurns();
  offerPush();
}
