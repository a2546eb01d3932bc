// Ocho Loco: what the page does when the server's answer is not the one it asked for.
// No error answer ever replaces the page. An answer that brings its own notice (a fragment
// swapped by id, as the site's refusals do) is shown; any other error (404, 429, 500, an
// error page, a dropped connection, a timeout) becomes a short notice, in the reader's
// language, saying what happened and what to do. A CSRF failure (a page open for very long,
// or cookies cleared) was refused before doing anything, so the page renews its token and
// sends it once more.
import { gettext, isMove, toast } from "./helpers.js";

const MESSAGES = {
  0: gettext("Sin conexión con el servidor: revisa tu internet y vuelve a intentarlo."),
  400: gettext("El servidor no entendió ese pedido: recarga la página y vuelve a intentarlo."),
  403: gettext("No se pudo hacer eso: recarga la página y vuelve a intentarlo."),
  404: gettext("Esta mesa ya no está en esa dirección: pide el enlace nuevo a quien abrió la mesa."),
  409: gettext("La mesa cambió: mira de nuevo y vuelve a intentarlo."),
  413: gettext("Eso es demasiado largo para enviarlo."),
  429: gettext("Vas muy rápido: espera un momento y vuelve a intentarlo."),
  500: gettext("Algo falló en el servidor: vuelve a intentarlo en un momento."),
  timeout: gettext("El servidor tardó demasiado en responder: vuelve a intentarlo."),
  csrf: gettext("La página llevaba mucho tiempo abierta: recárgala para seguir."),
};

function messageFor(status) {
  if (MESSAGES[status]) return MESSAGES[status];
  return status >= 500 ? MESSAGES[500] : MESSAGES[400];
}

// The notice goes where the person is looking: the chat's own line for the chat's forms,
// the table's notice area otherwise (or a toast on a page without one).
function show(text, elt) {
  const inChat = elt && elt.closest && elt.closest("#chat");
  const target = document.getElementById(inChat ? "chat-error" : "notice");
  if (!target) {
    toast(text);
    return;
  }
  if (inChat) {
    target.textContent = text;
    target.hidden = false;
    return;
  }
  const p = document.createElement("p");
  p.className = "notice error";
  p.setAttribute("role", "alert");
  p.textContent = text;
  target.replaceChildren(p);
}

// The element that made the request (the detail's `elt` may be its target instead).
function source(detail) {
  return (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
}

// What a request sent, as htmx.ajax takes it back.
function valuesOf(config) {
  const values = {};
  config.formData.forEach(function (value, key) {
    if (key in values) values[key] = [].concat(values[key], value);
    else values[key] = value;
  });
  return values;
}

// A request sent again after a CSRF renewal asks no question (hx-confirm) a second time,
// and if it is refused again (cookies blocked, say) that is told, not renewed once more:
// one renewal per action, whatever else the page sends meanwhile.
const retried = new WeakSet();

function csrfRenewThenRetry(detail) {
  const config = detail.requestConfig;
  const elt = source(detail);
  fetch("/csrf/", { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    })
    .then(function (data) {
      // Every form carries the token too (and Django reads the form's before the header).
      document.body.setAttribute("hx-headers", JSON.stringify({ "X-CSRFToken": data.token }));
      document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (input) {
        input.value = data.token;
      });
      const values = valuesOf(config);
      if ("csrfmiddlewaretoken" in values) values.csrfmiddlewaretoken = data.token;
      return values;
    }, function () {
      show(MESSAGES.csrf, elt);  // no new token: only a reload helps
      return null;
    })
    .then(function (values) {
      if (!values) return;
      // The retry's own failures (a timeout, a dropped connection, a refusal) are told by
      // the handlers below, each with its own words; none of them is a stale page.
      // A push may have replaced the form meanwhile: send from its successor, same action.
      const from = elt.isConnected ? elt
        : document.querySelector("[hx-post=\"" + CSS.escape(config.path) + "\"]") || elt;
      retried.add(from);
      return htmx.ajax(config.verb.toUpperCase(), config.path, { source: from, values: values })
        .catch(function () {})
        .finally(function () { retried.delete(from); });
    });
}

// A move that met a restart (the connection dropped, or the proxy answered 502/503/504 while
// a server process was going away) may or may not have reached the table. Once the page's
// socket is open again (within RESEND_WITHIN), the move is sent once more, with the version it
// was made at: the server applies it only if the table still stands there, so a move is never
// made twice; if it had gone through, or someone moved meanwhile, the table says so.
const RESTART_STATUSES = [0, 502, 503, 504];
const RESTARTING = gettext("El servidor se está reiniciando: tu jugada se envía otra vez.");
const RESEND_WITHIN = 5000; // ms
const resent = new WeakSet();
function whenSocketOpen(then, otherwise) {
  // (the page's data-ws is the socket's state, static/js/socket.js)
  if (document.querySelector("#table-page[data-ws=open]")) { then(); return; }
  const timer = setTimeout(function () {
    document.removeEventListener("htmx:wsOpen", opened);
    otherwise();
  }, RESEND_WITHIN);
  function opened() {
    clearTimeout(timer);
    document.removeEventListener("htmx:wsOpen", opened);
    then();
  }
  document.addEventListener("htmx:wsOpen", opened);
}
function resendAfterRestart(detail) {
  const config = detail.requestConfig;
  const values = valuesOf(config);
  show(RESTARTING, source(detail));
  whenSocketOpen(function () {
    setTimeout(function () {  // a little later, so that the table's greeting is in
      // The panel may be a new one now: send from the form holding the same move.
      const button = values.move && document.querySelector(
        "#panel [name=move][value=\"" + CSS.escape(values.move) + "\"]");
      const from = (button && button.form) || document.getElementById("panel");
      if (!from) return;
      // Once per form: a panel brings new forms, so a later move can be sent again too.
      // (htmx.ajax's promise settles when htmx:confirm defers the request, before it is sent:
      // the mark stays.)
      resent.add(from);
      htmx.ajax("POST", config.path, { source: from, values: values }).catch(function () {});
    }, 200 + Math.random() * 400);
  }, function () { show(MESSAGES[0], source(detail)); });
}
function mayResend(detail) {
  return !!detail.requestConfig && isMove(source(detail), detail.requestConfig.verb) &&
    !resent.has(source(detail));
}

document.addEventListener("htmx:confirm", function (event) {
  if (retried.has(event.detail.elt) || resent.has(event.detail.elt)) {
    event.preventDefault();
    event.detail.issueRequest(true);
  }
});

document.addEventListener("htmx:beforeSwap", function (event) {
  const detail = event.detail;
  const xhr = detail.xhr;
  if (!xhr || xhr.status < 400) return;
  if (xhr.getResponseHeader("X-Csrf-Failed") && !retried.has(source(detail))) {
    detail.shouldSwap = false;
    detail.isError = false;
    csrfRenewThenRetry(detail);
    return;
  }
  if (RESTART_STATUSES.indexOf(xhr.status) >= 0 && mayResend(detail)) {
    detail.shouldSwap = false;
    detail.isError = false;
    resendAfterRestart(detail);
    return;
  }
  const text = typeof detail.serverResponse === "string" ? detail.serverResponse : "";
  if (text.indexOf("hx-swap-oob") !== -1 && text.indexOf("<html") === -1) {
    detail.shouldSwap = true;  // the site's own refusal: its notice, swapped by id
    detail.isError = false;
    return;
  }
  detail.shouldSwap = false;
  detail.isError = false;
  show(messageFor(xhr.status), source(detail));
});

document.addEventListener("htmx:sendError", function (event) {
  if (mayResend(event.detail)) resendAfterRestart(event.detail);
  else show(MESSAGES[0], source(event.detail));
});
document.addEventListener("htmx:timeout", function (event) {
  show(MESSAGES.timeout, source(event.detail));
});
