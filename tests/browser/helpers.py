"""Steps a person takes at the table, written once for every browser test."""

from __future__ import annotations

import json
import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.chromium import WAIT_MS

# How often a wait on a page's own script (`wait_until`) asks again. Playwright's default asks on
# every animation frame, which keeps a waiting page drawing 60 frames a second for as long as
# the test waits: measured on a still page, 0.8-2.2 CPU-s of Chromium per 10 s of waiting,
# against 0.04-0.14 asked every 100 ms. Most of the browser tier is such waiting (a robot's
# delay, a push), on two workers that share the machine's cores with Chromium.
POLL_MS = 50


def wait_until(page: Page, expression: str, arg=None):
    """Until `expression` (a function of `arg`, run in the page) is truthy: its value's handle.
    Every wait on a page's script goes through here (tests/test_repository.py)."""
    return page.wait_for_function(expression, arg=arg, polling=POLL_MS)


# For `locator.evaluate_all`: each element's box in the viewport, as [left, top, right, bottom].
BOXES = """els => els.map(e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
})"""


def open_table(page: Page, base_url: str, name: str, rules: str = "clasico") -> str:
    """ABRIR MESA from the home page; returns the table's invitation link (the host's page
    is at the players' own address)."""
    page.goto(base_url + "/")
    page.check(f"input[name=rules][value={rules}]")
    page.fill("input[name=name]", name)
    page.click("text=ABRIR MESA")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
    return base_url + page.locator("#invite-link").get_attribute("data-invite")


def keyboard_lobby_with_robot(page: Page, base_url: str) -> None:
    """Ana opens a table from the home page and adds a robot with the keyboard alone (Enter on
    the name field is ABRIR MESA; no label is read, so any language will do)."""
    page.goto(base_url + "/")
    page.locator("input[name=name]").focus()
    page.keyboard.type("Ana")
    page.keyboard.press("Enter")
    expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
    page.locator("#panel .robot-form .btn").focus()
    page.keyboard.press("Enter")  # AGREGAR ROBOT
    expect(page.locator("#board .badge")).to_have_count(1)


def join_table(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#panel input[name=name]", name)
    page.click("text=SENTARME")
    expect(page.locator("#board .you-tag").filter(visible=True)).to_have_count(1)
    expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")


def page_time_passes(page: Page, until, within_ms: int, step_ms: int = 1000) -> None:
    """For what the page must do within `within_ms` of its own time by its own timers (a
    socket's next try after its server is back): its clock (Playwright's, installed before its
    first load: `clock.install()`) moved on `step_ms` at a time, its timers firing in order,
    until `until()` holds or only WAIT_MS of those `within_ms` are left (counted by its own
    Date.now(), the time that passes by itself included). The caller then expects the outcome
    within WAIT_MS, as ever: the page never gets more of its time than `within_ms`, as when the
    test waited that long, but a wait it draws at random is passed at once. After each step,
    a connection its timers started is let finish (open or closed: its data-ws, socket.js)."""
    start = page.evaluate("Date.now()")
    while page.evaluate("Date.now()") - start + step_ms <= within_ms - WAIT_MS:
        if until():
            return
        page.clock.run_for(step_ms)
        wait_until(
            page, "() => (document.getElementById('table-page') || {dataset: {}}).dataset.ws"
            " !== 'connecting'"
        )


def board_version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or 0)


def is_my_turn(page: Page) -> bool:
    return page.locator("#panel .your-turn").count() > 0


def take_turn(page: Page) -> None:
    """Play the first playable card (tap it twice; an 8 names the first suit), else draw or pass."""
    before = same_version([page])
    card = page.locator("#panel .hand .card[data-playable]").first
    if card.count():
        card.click()
        expect(card).to_have_class(re.compile(r"\bselected\b"))
        card.click()
        dialog = page.locator("dialog.suit-dialog[open]")
        if dialog.count():
            dialog.locator(".btn.suit").first.click()
    elif page.locator("#panel [data-draw]").count():
        page.click("#panel [data-draw]")
    else:  # PASAR (its move, whatever the page's language calls it)
        page.click("#panel button[name=move][value=pass]")
    wait_for_version_above(page, before)


# What the page showed when a state it waited for did not come: enough to tell a move that was
# never sent from one that was refused, a socket that closed, or a push that never came.
PAGE_REPORT = """() => ({
    versions: ['#board', '#panel'].map(
        id => (document.querySelector(id) || {dataset: {}}).dataset.version),
    move: (document.getElementById('table-page') || {dataset: {}}).dataset.move || '',
    ws: (document.getElementById('table-page') || {dataset: {}}).dataset.ws || '',
    focused: document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : '',
    turn: !!document.querySelector('#panel .your-turn'),
    buttons: Array.from(document.querySelectorAll('#panel form .btn')).map(
        b => b.textContent.trim() + (b.disabled ? ' (disabled)' : '')),
    hand: Array.from(document.querySelectorAll('#panel .hand .card')).map(
        c => c.dataset.card + (c.hasAttribute('data-playable') ? '*' : '') + ' ' + c.className),
    toast: (document.getElementById('toast') || {}).textContent || '',
    notice: (document.getElementById('notice') || {}).textContent || '',
    log: (window.__testLog || []).slice(-20),
})"""


def page_report(page: Page) -> str:
    """What the page shows now (PAGE_REPORT), for a failing test's message, whole."""
    return "what the page showed:\n" + json.dumps(page.evaluate(PAGE_REPORT), indent=1)


def wait_for_version_above(page: Page, version: int) -> None:
    """Until both the board and the viewer's panel show a state newer than `version`."""
    try:
        wait_until(
            page, """v => ['#board', '#panel'].every(
                id => parseInt(document.querySelector(id).dataset.version) > v)""",
            arg=version,
        )
    except PlaywrightTimeout:
        raise AssertionError(
            f"no state newer than {version} came: {page_report(page)}"
        ) from None


# The board and the panel show one version (at least `v`), and nothing on the page moves in a
# way that shifts a box: a card flying to the pile (feel.js), a card lifting (a transition),
# the turn's pop-in. Paint-only animations (the seat's glow, a fade) do not count.
STILL = """v => {
  const board = document.querySelector('#board'), panel = document.querySelector('#panel');
  if (!board || !panel || board.dataset.version !== panel.dataset.version) return false;
  if (parseInt(board.dataset.version) < v) return false;
  const paintOnly = new Set(['offset', 'computedOffset', 'easing', 'composite', 'opacity',
    'boxShadow', 'filter', 'color', 'backgroundColor', 'borderColor', 'outlineColor']);
  return document.getAnimations().every(a => a.playState !== 'running' || !a.effect
    || a.effect.getKeyframes().every(k => Object.keys(k).every(p => paintOnly.has(p))));
}"""


def still(page: Page, version: int = 0) -> None:
    """Until the page shows one version (at least `version`) on its board and its panel and
    nothing on it moves: what is measured then is what the person sees."""
    wait_until(page, STILL, arg=version)


def at_rest(page: Page, version: int = 0) -> None:
    """Until the page shows the table (at `version` or later) waiting for a person (the robots
    wait too) and stands still: a layout measured then cannot be swapped or moved by a robot's
    move."""
    still(page, version)
    expect(page.locator("#board .player.is-turn:not(:has(.badge))")).to_have_count(1)
    still(page, version)


def same_version(pages: list[Page]) -> int:
    """Until every page shows one version, the newest any of them shows, and none has a move
    of its own on its way (its answer or its push not in yet): returns it. A test acts from
    there: the table it reads is the one its move will be made against."""
    while True:
        newest = max(board_version(page) for page in pages)
        for page in pages:
            wait_until(
                page, """v => (['#board', '#panel'].every(
                    id => parseInt(document.querySelector(id).dataset.version) === v)
                    || parseInt(document.querySelector('#board').dataset.version) > v)
                    && (document.getElementById('table-page') || {dataset: {}}).dataset.move
                        !== 'pending'""",
                arg=newest,
            )
        if {board_version(page) for page in pages} == {newest}:
            return newest


def play_round(pages: list[Page]) -> None:
    """Every person takes their turns until the round ends (robots play theirs)."""
    while True:
        version = same_version(pages)
        if pages[0].locator("#panel .summary").count():
            return
        mover = next((page for page in pages if is_my_turn(page)), None)
        if mover is not None:
            take_turn(mover)
        else:  # a robot's turn
            wait_for_version_above(pages[0], version)


# axe-core (bundled by axe-playwright-python): WCAG 2.1 A and AA, best practice, and the
# experimental rules (among them: a control's name contains its visible text).
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice", "experimental"],
    }
}


def axe_violations(page: Page) -> list[str]:
    """What axe-core finds wrong on the page as it is now, one line per rule and element."""
    results = Axe().run(page, options=AXE_OPTIONS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {node['target']}"
        for v in results.response["violations"]
        for node in v["nodes"]
    ]


def drag_to_the_pile(page: Page, card: Locator) -> None:
    """Drag `card` from the hand onto the pile, as a mouse does (an 8 names the first suit)."""
    source = card.bounding_box()
    target = page.locator("#board .pile").bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 10, target["y"] + 10, steps=8)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    page.mouse.up()
    if page.locator("dialog.suit-dialog[open]").count():
        page.locator("dialog.suit-dialog[open] .btn.suit").first.click()
