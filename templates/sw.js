{% load static %}// Ocho Loco's service worker: shows the "te toca" alerts and opens the table when tapped.
"use strict";

// The notification's words, should a push come without them (the server words each push in
// its receiver's language), in the language of the page that registered or last updated this
// worker: this file is rendered for each request, with its language, and loads that
// language's catalog (Django's JavaScript catalog, config/i18n.py). Without it: Spanish.
try { importScripts("{% script_catalog_url %}"); } catch (e) { /* the Spanish source */ }
if (typeof self.gettext !== "function") self.gettext = function (text) { return text; };

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data.text() }; }
  const title = data.title || "Ocho Loco";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || gettext("Te toca."),
    tag: data.tag || "ocholoco",
    renotify: true,
    icon: "{% static 'icons/icon-192.png' %}",
    badge: "{% static 'icons/icon-192.png' %}",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (const client of list) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  }));
});
