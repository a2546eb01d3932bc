"""The pages keep their Content-Security-Policy (style-src 'self': no inline style) through a
played round (#52): not one securitypolicyviolation event (tests/browser/event_log.js counts
them, with the element and the script that caused each)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    at_rest,
    drag_to_the_pile,
    is_my_turn,
    open_table,
    same_version,
    take_turn,
    wait_for_version_above,
)


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__cspViolations")


def _drag_to_the_pile(page: Page) -> bool:
    """Drag the first playable card to the pile (an 8 names the first suit); False if none."""
    card = page.locator("#panel .hand .card[data-playable]").first
    if not card.count():
        return False
    at_rest(page)
    before = same_version([page])
    drag_to_the_pile(page, card)
    wait_for_version_above(page, before)
    return True


def test_a_played_round_and_its_pages_meet_the_style_policy(new_page, server_url):
    page = new_page()
    open_table(page, server_url, "Ana")
    page.click("text=AGREGAR ROBOT")
    expect(page.locator("#board .badge")).to_contain_text("Robot")
    page.click("text=EMPEZAR LA PARTIDA")
    expect(page.locator("#panel .hand .card").first).to_be_visible()
    page.click("[data-open-menu]")
    expect(page.locator("#menu")).to_be_visible()
    page.keyboard.press("Escape")
    page.fill("#chat-form textarea", "hola")
    page.press("#chat-form textarea", "Enter")
    expect(page.locator("#chat-log")).to_contain_text("hola")
    dragged = False
    while True:  # the round, dragging a card to the pile at least once
        version = same_version([page])
        if page.locator("#panel .summary").count():
            break
        if not is_my_turn(page):
            wait_for_version_above(page, version)
        elif dragged or not _drag_to_the_pile(page):
            take_turn(page)
        else:
            dragged = True
    page.locator("#all-moves").evaluate("button => button.click()")  # (under the summary)
    expect(page.locator("#log-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    assert violations(page) == []
    code = re.search(r"/mesa/([^/]+)/", page.url)[1]
    page.goto(f"{server_url}/mesa/{code}/historial/")
    page.locator("a[href*='/ronda/']:not([href*='/justo/'])").first.click()
    expect(page.locator("a[href*='jugada=']").first).to_be_visible()
    page.locator("a[href*='jugada=']").last.click()
    assert violations(page) == []
    page.goto(f"{server_url}/reglas/")
    assert violations(page) == []


def test_an_element_given_a_style_keeps_the_policy_when_htmx_swaps_it(new_page, server_url):
    """An element's inline style (a script's CSSOM, or the browser's own, as a resized
    textarea's) is not copied by htmx onto the element that replaces it: htmx would do it with
    setAttribute("style"), which the policy refuses (htmx-config's attributesToSettle)."""
    page = new_page()
    open_table(page, server_url, "Ana")
    page.evaluate("""() => {
        document.getElementById('notice').style.outline = '1px solid red';
        htmx.swap(document.body, '<div id="notice" class="notice-area" hx-swap-oob="true"></div>',
                  {swapStyle: 'none'});
    }""")
    expect(page.locator("#notice")).not_to_have_attribute("style", re.compile("."))
    assert violations(page) == []
