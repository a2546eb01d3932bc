// Ocho Loco: the table chat's small behaviours. Messages arrive over the table's socket (htmx
// swaps them in); this file keeps the log at the newest line unless the reader scrolled up,
// opens and closes the chat on a phone, counts what arrived while it was closed, and sends on
// Enter.
import { gettext, interpolate, ngettext } from "./helpers.js";

const WIDE = window.matchMedia("(min-width: 900px)");
let stick = true;
let seen = 0;

function log() { return document.getElementById("chat-log"); }
function column() { return document.getElementById("chat"); }
function isOpen() {
  const chat = column();
  return !!chat && (WIDE.matches || chat.classList.contains("is-open"));
}
function lastId(selector) {
  let max = 0;
  document.querySelectorAll(selector).forEach(function (li) {
    max = Math.max(max, parseInt(li.getAttribute("data-id"), 10) || 0);
  });
  return max;
}

function localTimes() {
  const today = new Date().toDateString();
  const lang = document.documentElement.lang || "es";
  document.querySelectorAll("#chat-log time[datetime]:empty").forEach(function (el) {
    const at = new Date(el.getAttribute("datetime"));
    if (isNaN(at)) return;
    const hm = at.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    el.textContent = at.toDateString() === today ? hm
      : at.toLocaleDateString(lang, { day: "numeric", month: "short" }) + " " + hm;
  });
}

function update() {
  const el = log();
  if (!el) return;
  localTimes();
  if (stick) el.scrollTop = el.scrollHeight;
  const badge = document.querySelector("[data-chat-unread]");
  if (isOpen()) {
    seen = lastId("#chat-log .chat-msg");
  }
  let unread = 0;
  document.querySelectorAll("#chat-log .chat-msg:not([hidden])").forEach(function (li) {
    if ((parseInt(li.getAttribute("data-id"), 10) || 0) > seen) unread += 1;
  });
  if (badge) {
    badge.textContent = unread > 99 ? "99+" : String(unread);
    badge.hidden = unread === 0;
    const toggle = badge.closest("[data-chat-toggle]");
    if (toggle) {
      toggle.setAttribute("aria-label", unread
        ? interpolate(ngettext("Chat: %(count)s sin leer", "Chat: %(count)s sin leer", unread), { count: unread })
        : gettext("Chat"));
    }
  }
}

function setOpen(open) {
  const chat = column();
  if (!chat) return;
  chat.classList.toggle("is-open", open);
  document.querySelectorAll("[data-chat-toggle]").forEach(function (t) {
    t.setAttribute("aria-expanded", String(open));
  });
  if (open) {
    stick = true;
    const text = chat.querySelector("textarea");
    if (text) text.focus({ preventScroll: true });
  }
  update();
}

// The log's reader scrolled up: new lines no longer pull the view down until they come back.
document.addEventListener("scroll", function (event) {
  const el = event.target;
  if (el && el.id === "chat-log") {
    stick = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  }
}, true);

document.addEventListener("click", function (event) {
  if (event.target.closest("[data-chat-toggle]")) {
    event.preventDefault();
    setOpen(!isOpen());
  } else if (event.target.closest("[data-chat-close]")) {
    event.preventDefault();
    setOpen(false);
  }
});

document.addEventListener("keydown", function (event) {
  const text = event.target.closest && event.target.closest("#chat-form textarea");
  if (text && event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    text.form.requestSubmit();
  } else if (event.key === "Escape" && !WIDE.matches && isOpen()) {
    // Escape closes the chat on a phone before it opens the table's menu.
    event.stopPropagation();
    setOpen(false);
  }
}, true);

// A message went out: clear the box for the next one, and follow the conversation down.
document.addEventListener("htmx:afterRequest", function (event) {
  const form = event.detail.elt;
  if (form && form.id === "chat-form" && event.detail.xhr && event.detail.xhr.status < 300) {
    const text = form.querySelector("textarea");
    text.value = "";
    text.focus();
    stick = true;
  }
});

document.addEventListener("htmx:wsAfterMessage", update);
document.addEventListener("htmx:afterSettle", update);
WIDE.addEventListener("change", update);
document.addEventListener("DOMContentLoaded", function () {
  const toggle = document.querySelector("[data-chat-toggle]");
  const menu = document.querySelector(".topbar [data-open-menu]");
  if (toggle && menu) menu.before(toggle);
  if (location.hash === "#chat") {
    history.replaceState(null, "", location.pathname + location.search);
    setOpen(true);
  }
  seen = lastId("#chat-log .chat-msg");
  update();
});
