"""Steps a person takes at the table, written once for every browser test."""

from __future__ import annotations

import re
import time

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

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


def join_table(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#panel input[name=name]", name)
    page.click("text=SENTARME")
    expect(page.locator("#board .you-tag").filter(visible=True)).to_have_count(1)
    expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")


def board_version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or 0)


def is_my_turn(page: Page) -> bool:
    return page.locator("#panel .your-turn").count() > 0


def take_turn(page: Page) -> None:
    """Play the first playable card (tap it twice; an 8 names the first suit), else draw or pass."""
    before = board_version(page)
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
    else:
        page.click("#panel >> text=PASAR")
    wait_for_version_above(page, before)


def wait_for_version_above(page: Page, version: int) -> None:
    """Until both the board and the viewer's panel show a state newer than `version`."""
    page.wait_for_function(
        """v => ['#board', '#panel'].every(
            id => parseInt(document.querySelector(id).dataset.version) > v)""",
        arg=version,
    )


def play_round(pages: list[Page], timeout: float = 180) -> None:
    """Every person takes their turns until the round ends (robots play theirs)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pages[0].locator("#panel .summary").count():
            return
        moved = False
        for page in pages:
            if is_my_turn(page):
                take_turn(page)
                moved = True
        if not moved:
            time.sleep(0.05)
    raise AssertionError("the round did not end in time")


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
