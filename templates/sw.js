{% load static %}// Ocho Loco's service worker: shows the "te toca" alerts and opens the table when tapped.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data.text() }; }
  const title = data.title || "Ocho Loco";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "Te toca.",
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
