"""A 360 px phone in every language (#52): on the home page, the lobby, a table in play (the
viewer's hand, ROBAR, PASAR, the menu open), the round's summary and the rules page, in Spanish,
English and Brazilian Portuguese, no button, link drawn as a button, choice's label, seat's
name box or cell of the summary's table has text running out of its box or cut by an ellipsis,
nothing of them lies beyond the screen's edges, and no page scrolls sideways.

One server, one host (and a guest and a robot at the same table): the host's page is read in
each language in turn, by the choice the language buttons keep (its cookie). With NARROW_SHOTS
set to a folder, every page read is also saved there as screenshots (the whole page in pieces,
and a sheet's or the summary's scrolled content a screen at a time)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import ocholoco
from tests.browser.helpers import still
from tests.live import set_round
from tests.tables.helpers import position

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
LANGUAGES = ("es", "en", "pt-br")
# The rules with "¡Última carta!" (and the longest name): its checkbox and the button that
# catches who did not say it ("¡TE PILLÉ! (no dijo «¡Última carta!»)"), the longest words.
ANNOUNCING = "anuncio"
SHOTS = os.environ.get("NARROW_SHOTS", "")
# What a person reads or taps: buttons, links drawn as buttons, the choices' labels, the seats'
# boxes and names, the round's summary and its table (the cards are pictures, measured by the
# layout tests).
READ = ", ".join([
    "button:not(.card)", ".btn", "label.choice", ".choice > span:not(.preview)", ".player",
    ".player-name", ".badge", ".announce", ".chat-toggle", ".topbar .rules-name", ".summary",
    ".scores th", ".scores td",
])  # fmt: skip
# For each element of READ on screen: by how many px its text runs out of its box (what
# scrollWidth counts, an ellipsis's cut included, and the text's own box against the element's)
# and out of the screen (`width` px wide).
OVERFLOWS = """([selector, width]) => {
  const found = [];
  for (const e of document.querySelectorAll(selector)) {
    if (!e.getClientRects().length || e.closest('.visually-hidden, [hidden], dialog:not([open])'))
      continue;
    const box = e.getBoundingClientRect();
    let over = e.scrollWidth - e.clientWidth;
    const texts = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = texts.nextNode(); t; t = texts.nextNode()) {
      const holder = t.parentElement, held = holder.getBoundingClientRect();
      // Text hidden for the eye (.visually-hidden, or clipped into 1 px like .menu-word).
      if (!t.data.trim() || holder.closest('.visually-hidden') || held.width <= 1) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        over = Math.max(over, Math.round(Math.max(r.right - box.right, box.left - r.left)));
      }
    }
    const out = Math.round(Math.max(box.right - width, -box.left));
    if (over > 0 || out > 0) found.push({
      what: [e.tagName.toLowerCase(), ...e.classList].join('.'),
      text: e.textContent.replace(/\\s+/g, ' ').trim().slice(0, 60), over, out,
    });
  }
  return found;
}"""


def _in(page: Page, language: str) -> None:
    """The page's person chooses `language` (as the language buttons do: a cookie)."""
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "domain": "127.0.0.1", "path": "/"}]
    )


class Reader:
    """Reads pages at 360 px and keeps every overflow found, by page and language."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.shots = 0

    def read(self, page: Page, what: str, language: str) -> None:
        expect(page.locator("html")).to_have_attribute("lang", language)
        if page.locator("#board").count():
            still(page)
        # Against the screen's own width: a phone's browser widens its layout to a page wider
        # than the screen (and zooms out), where innerWidth is the page's width.
        wide = page.evaluate("document.documentElement.scrollWidth") - NARROW["width"]
        if wide > 0:
            self.found.append(f"{what} ({language}): the page scrolls sideways by {wide}px")
        for item in page.evaluate(OVERFLOWS, [READ, NARROW["width"]]):
            self.found.append(
                f"{what} ({language}): {item['what']} {item['text']!r}"
                + (f" runs {item['over']}px out of its box" if item["over"] > 0 else "")
                + (f" lies {item['out']}px beyond the screen" if item["out"] > 0 else "")
            )
        self.shoot(page, f"{what}-{language}")
        # What a sheet or the summary holds below its fold, scrolled into view a screen at a time.
        for box in ("#menu[open]", "#panel .summary"):
            if not SHOTS or not page.locator(box).count():
                continue
            screens = page.locator(box).evaluate("e => Math.ceil(e.scrollHeight / e.clientHeight)")
            for screen in range(1, screens):
                page.locator(box).evaluate("(e, n) => e.scrollTop = n * e.clientHeight", screen)
                self.shoot(page, f"{what}-{language}-below-{screen}")
            page.locator(box).evaluate("e => e.scrollTop = 0")

    def shoot(self, page: Page, name: str) -> None:
        """With NARROW_SHOTS: the whole page, in pieces of 1400 px (a long page in one picture
        is too tall to look at)."""
        if not SHOTS:
            return
        self.shots += 1
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{self.shots:02d}-" + re.sub(r"[^\w-]+", "-", name)
        height = page.evaluate("document.documentElement.scrollHeight")
        for part, top in enumerate(range(0, height, 1400)):
            clip = {"x": 0, "y": top, "width": NARROW["width"], "height": min(1400, height - top)}
            page.screenshot(path=folder / f"{name}-{part}.png", full_page=True, clip=clip)

    def every_language(self, page: Page, what: str, then=None) -> None:
        """Read the page (and, with `then`, what it opens) in each language."""
        for language in LANGUAGES:
            _in(page, language)
            page.reload()
            if page.locator("#table-page").count():
                expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
            self.read(page, what, language)
            if then is not None:
                then(page, language)


def _menu(reader: Reader):
    def open_menu(page: Page, language: str) -> None:
        page.click("[data-open-menu]")
        expect(page.locator("#menu")).to_be_visible()
        reader.read(page, "the menu", language)
        page.keyboard.press("Escape")
        expect(page.locator("#menu")).to_be_hidden()

    return open_menu


def _code(page: Page) -> str:
    return page.url.rstrip("/").split("/")[-1]


def _position(
    servers, page: Page, hands: list[list[str]], stock: tuple[str, ...], exposed: int = -1,
    rules: str = "clasico",
) -> None:  # fmt: skip
    """The host (seat 0) to move, holding `hands[0]` on a 7♥, the stock `stock`; seat `exposed`
    down to one card without saying "¡Última carta!" (the host may catch them)."""
    state = ocholoco.to_json(position(rules, hands, "7H", stock=stock))
    set_round(servers, _code(page), {**state, "exposed": None if exposed < 0 else exposed})


def test_at_360px_no_text_runs_out_of_its_box_in_any_language(new_page, servers):
    # The shared server: it offers the three languages, as the site does by default.
    reader = Reader()
    base = servers[0]
    host = new_page(NARROW, locale="es-ES", has_touch=True, is_mobile=True)
    guest = new_page(NARROW, locale="pt-BR", has_touch=True, is_mobile=True)

    host.goto(base + "/")
    reader.every_language(host, "home")
    host.check("input[name=rules][value=casa]")  # the house rules' settings, open
    reader.read(host, "home, house rules", "pt-br")
    host.goto(base + "/reglas/")
    reader.every_language(host, "rules")

    host.goto(base + "/")
    _in(host, "es")
    host.fill("input[name=name]", "Ana")
    host.locator("form.open-form button[type=submit]").click()
    expect(host.locator("#table-page")).to_have_attribute("data-ws", "open")
    invitation = base + host.locator("#invite-link").get_attribute("data-invite")
    guest.goto(invitation)
    expect(guest.locator("#table-page")).to_have_attribute("data-ws", "open")
    reader.read(guest, "joining", "pt-br")
    guest.fill("#panel input[name=name]", "Bia")
    guest.locator("form.join-form button").click()
    expect(guest.locator("#board .you-tag").filter(visible=True)).to_have_count(1)
    host.locator("#panel .robot-form .btn").click()
    expect(host.locator("#board .badge")).to_have_count(1)
    reader.every_language(host, "lobby")

    host.locator("#panel form > .btn.primary").click()  # the match starts
    expect(host.locator("#panel .hand .card").first).to_be_visible()
    hand = ["KD", "9C", "4S", "JS", "2C", "QS", "10D"]
    _position(servers, host, [hand, ["5S", "6S"], ["3C", "4C"]], stock=("3D", "AD"))
    reader.every_language(host, "in play, ROBAR", then=_menu(reader))
    expect(host.locator("#panel [data-draw]")).to_be_visible()
    _position(servers, host, [hand, ["5S", "6S"], ["3C", "4C"]], stock=())
    reader.every_language(host, "in play, PASAR")
    expect(host.locator("#panel button[name=move][value=pass]")).to_be_visible()

    _position(servers, host, [["5H"], ["KD", "9C"], ["3C", "4C"]], stock=("3D",))
    host.reload()
    expect(host.locator("#table-page")).to_have_attribute("data-ws", "open")
    card = host.locator("#panel .hand .card[data-card='5H']")
    card.click()
    card.click()
    expect(host.locator("#panel .summary")).to_be_visible()
    reader.every_language(host, "the round's summary")
    reader.read(guest, "the round's summary, a guest", "pt-br")

    # Another table, the guest's, where "¡Última carta!" is said: the guest may say it, or catch
    # the robot who did not.
    guest.goto(base + "/")
    guest.check(f"input[name=rules][value={ANNOUNCING}]")
    guest.fill("input[name=name]", "Bia")
    guest.locator("form.open-form button[type=submit]").click()
    expect(guest.locator("#table-page")).to_have_attribute("data-ws", "open")
    guest.locator("#panel .robot-form .btn").click()
    expect(guest.locator("#board .badge")).to_have_count(1)
    guest.locator("#panel form > .btn.primary").click()
    expect(guest.locator("#panel .hand .card").first).to_be_visible()
    _position(servers, guest, [["5H", "KD"], ["5S"]], ("3D",), exposed=1, rules=ANNOUNCING)
    reader.every_language(guest, "in play, ¡ÚLTIMA CARTA!, ¡TE PILLÉ!")
    expect(guest.locator("#panel .announce")).to_be_visible()
    expect(guest.locator("#panel button[name=move][value=catch]")).to_be_visible()

    assert not reader.found, "\n".join(reader.found)
