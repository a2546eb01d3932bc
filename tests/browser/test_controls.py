"""The table played without a mouse, by dragging, and on every screen size (issue 4)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    at_rest,
    drag_to_the_pile,
    is_my_turn,
    open_table,
    page_report,
    same_version,
    wait_for_version_above,
)

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet-portrait": {"width": 820, "height": 1180},
    "tablet-landscape": {"width": 1180, "height": 820},
    "desktop": {"width": 1440, "height": 900},
}


def _table_with_robot(new_page, server_url, viewport=None, **kwargs) -> Page:
    page = new_page(viewport or SIZES["desktop"], **kwargs)
    open_table(page, server_url, "Ana")
    page.click("text=AGREGAR ROBOT")
    expect(page.locator("#board .badge")).to_have_count(1)
    page.click("text=EMPEZAR LA PARTIDA")
    expect(page.locator("#panel .hand .card")).to_have_count(7)
    return page


def _wait_my_turn(page: Page) -> None:
    expect(page.locator("#panel .your-turn")).to_be_visible()


def _first_playable_index(page: Page) -> int:
    return page.locator("#panel .hand .card").evaluate_all(
        "cards => cards.findIndex(c => c.hasAttribute('data-playable'))"
    )


def test_a_whole_round_can_be_played_with_the_keyboard_alone(new_page, server_url):
    page = _table_with_robot(new_page, server_url)
    while True:
        before = same_version([page])
        if page.locator("#panel .summary").count():
            break
        if not is_my_turn(page):  # the robot's turn
            wait_for_version_above(page, before)
            continue
        index = _first_playable_index(page)
        if index >= 0:
            page.keyboard.press("ArrowDown")
            for _ in range(index):
                page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.hasAttribute('data-playable')")
            assert focused, (index, page_report(page))
            page.keyboard.press("Enter")  # choose
            page.keyboard.press("Enter")  # play (or open the suit dialog)
            if page.locator("dialog.suit-dialog[open]").count():
                page.keyboard.press("Enter")  # the first suit has the focus
        else:
            page.keyboard.press("ArrowUp")  # ROBAR or PASAR come first
            label = page.evaluate("document.activeElement.textContent.trim()")
            assert label in ("ROBAR", "PASAR"), (label, page_report(page))
            page.keyboard.press("Enter")
        wait_for_version_above(page, before)
    expect(page.locator("#panel .summary")).to_be_visible()
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.textContent.trim()") in (
        "SIGUIENTE RONDA", "REVANCHA",
    )


def test_p_opens_the_menu_and_m_toggles_the_sound_remembered(new_page, server_url):
    page = _table_with_robot(new_page, server_url)
    page.keyboard.press("p")
    expect(page.locator("#menu")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#menu")).to_be_hidden()
    page.keyboard.press("m")
    assert page.evaluate("localStorage.getItem('ocholoco-sound')") == "off"
    page.reload()
    page.keyboard.press("p")
    expect(page.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "false")


GAMEPAD = """
window.__pad = { index: 0, id: 'Prueba', connected: true, mapping: 'standard', axes: [0, 0, 0, 0],
  buttons: Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 })) };
navigator.getGamepads = () => [window.__pad];
// The page reads the pad once a frame: a button is held for two frames, then let go for two,
// so the page sees it pressed and released however slowly frames come.
const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
window.__press = async (i) => {
  window.__pad.buttons[i] = { pressed: true, touched: true, value: 1 };
  await frames();
  window.__pad.buttons[i] = { pressed: false, touched: false, value: 0 };
  await frames();
};
"""


def test_a_gamepad_moves_through_the_cards_and_plays_one(new_page, server_url):
    page = _table_with_robot(new_page, server_url)
    page.evaluate(GAMEPAD)
    page.evaluate("window.dispatchEvent(new Event('gamepadconnected'))")
    _wait_my_turn(page)
    index = _first_playable_index(page)
    before = same_version([page])
    if index < 0:
        page.evaluate("__press(12)")  # up: the buttons (ROBAR first)
        page.evaluate("__press(0)")  # A
        wait_for_version_above(page, before)
        return
    page.evaluate("__press(13)")  # down: the cards
    for _ in range(index):
        page.evaluate("__press(15)")  # right
    played = page.evaluate("document.activeElement.dataset.card")
    held = page.locator("#panel .hand .card").count()
    page.evaluate("__press(0)")  # A: choose
    page.evaluate("__press(2)")  # X: play
    if page.locator("dialog.suit-dialog[open]").count():
        page.evaluate("__press(0)")
    wait_for_version_above(page, before)
    # That card, and only it, left the hand for the table (the robot may already have covered
    # it on the pile: Clásico has no card that makes Ana draw).
    expect(page.locator(f"#panel .hand .card[data-card='{played}']")).to_have_count(0)
    expect(page.locator("#panel .hand .card")).to_have_count(held - 1)


def test_dragging_a_playable_card_to_the_pile_plays_it(new_page, server_url):
    page = _table_with_robot(new_page, server_url)
    _wait_my_turn(page)
    # Draw until some card fits (drawing keeps the turn).
    while _first_playable_index(page) < 0:
        before = same_version([page])
        page.click("#panel [data-draw]")
        wait_for_version_above(page, before)
    at_rest(page)  # the pile's card has landed (a robot's card flies there)
    card = page.locator("#panel .hand .card[data-playable]").first
    code = card.get_attribute("data-card")
    held = page.locator("#panel .hand .card").count()
    before = same_version([page])
    drag_to_the_pile(page, card)
    wait_for_version_above(page, before)
    # That card, and only it, left the hand for the table (the robot may have covered it).
    expect(page.locator(f"#panel .hand .card[data-card='{code}']")).to_have_count(0)
    expect(page.locator("#panel .hand .card")).to_have_count(held - 1)


def _all_on_screen_and_uncovered(page: Page, viewport: dict) -> None:
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    problems = page.evaluate(
        """([w, h]) => {
          const out = [];
          const els = document.querySelectorAll('#panel .hand .card, #panel .actions .btn');
          for (const el of els) {
            const r = el.getBoundingClientRect();
            if (r.left < 0 || r.top < 0 || r.right > w || r.bottom > h) {
              out.push('off screen: ' + (el.dataset.card || el.textContent.trim()));
              continue;
            }
            // A card's top corners (where its index is) and a button's middle can be touched.
            const points = el.dataset.card
              ? [[r.left + 4, r.top + 4], [r.right - 4, r.top + 4]]
              : [[r.left + r.width / 2, r.top + r.height / 2]];
            for (const [x, y] of points) {
              const hit = document.elementFromPoint(x, y);
              if (!hit || !el.contains(hit)) {
                out.push('covered: ' + (el.dataset.card || el.textContent.trim()));
              }
            }
          }
          return out;
        }""",
        [viewport["width"], viewport["height"]],
    )
    assert problems == []


@pytest.mark.parametrize("size", list(SIZES))
def test_with_five_and_twenty_cards_every_card_and_button_is_on_screen(
    new_page, server_url, size
):
    viewport = SIZES[size]
    page = _table_with_robot(new_page, server_url, viewport, has_touch=size != "desktop")
    _wait_my_turn(page)
    at_rest(page)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    _all_on_screen_and_uncovered(page, viewport)
    while page.locator("#panel .hand .card").count() < 20:
        before = same_version([page])
        page.click("#panel [data-draw]")
        wait_for_version_above(page, before)
    expect(page.locator("#panel .hand .card")).to_have_count(20)
    at_rest(page)  # the drawn cards have flown to the hand
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    _all_on_screen_and_uncovered(page, viewport)
