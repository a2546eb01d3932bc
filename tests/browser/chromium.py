"""Debian's Chromium as the browser tests and the benchmarks drive it (Playwright), and the
screen sizes they use."""

from __future__ import annotations

from playwright.sync_api import expect

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
# A page waits for a state that must come (a push, a robot's move) for at most this long: so
# that a broken product fails instead of hanging, and a busy machine never trips it.
WAIT_MS = 30_000
# A page whose socket is down tries again after a random wait below 2^retries s, at most 64 s
# (static/js/socket.js): the longer its server takes to come back (a busy machine starts one
# slowly), the longer it may wait after the server is up. A reconnection is waited for that
# long and a margin, not less: a shorter bound failed under load with the page between two tries.
RECONNECT_MS = 70_000
expect.set_options(timeout=WAIT_MS)
