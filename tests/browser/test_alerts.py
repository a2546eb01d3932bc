"""'Te toca' in the browser: the service worker, and the alert of a tab in the background."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.helpers import open_table


def test_chromium_registers_the_service_worker_for_the_whole_site(new_page, server_url):
    page = new_page()
    open_table(page, server_url, "Ana")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == server_url + "/"
    expect(page.locator("[data-alerts-enable]")).to_be_visible()
    manifest = page.evaluate("document.querySelector('link[rel=manifest]').href")
    assert manifest.endswith("/manifest.webmanifest")


def test_a_tab_in_the_background_shows_the_turn_in_its_title_and_favicon(new_page, server_url):
    page = new_page()
    open_table(page, server_url, "Ana")
    page.click("text=AGREGAR ROBOT")
    expect(page.locator("#board .badge")).to_have_count(1)
    # The tab goes to the background before the robot (first to play) hands Ana the turn.
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
          Object.defineProperty(document, 'visibilityState', {
            configurable: true, get: () => 'hidden' });
        }"""
    )
    page.click("text=EMPEZAR LA PARTIDA")
    expect(page.locator("#panel .your-turn")).to_have_count(1)
    expect(page).to_have_title("(●) Tu turno — Ocho Loco")
    assert page.evaluate("document.getElementById('favicon').href").startswith("data:image/svg")

    page.evaluate(
        """() => {
          Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
          Object.defineProperty(document, 'visibilityState', {
            configurable: true, get: () => 'visible' });
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    expect(page).to_have_title("Mesa de Ocho Loco")
