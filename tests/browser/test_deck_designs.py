"""The four deck designs, in Chromium at phone and desktop sizes: each draws its own faces,
pips, figures and back from the same markup; no king, queen or jack is a font glyph; only
the chosen design's artwork is fetched; the hand stays bright when it is not your turn; the
cards keep their names. Screenshots go to pytest's temporary folder, never into the repo."""

from __future__ import annotations

import base64
import re

import pytest
from playwright.sync_api import Page, expect

import ocholoco
from tables.audiences import wording
from tests.browser.chromium import DESKTOP, PHONE
from tests.browser.helpers import join_table, open_table, still
from tests.live import set_round
from tests.tables.helpers import position

DECKS = {"clasica": "francesa", "moderna": "francesa", "cuatro-colores": "cuatro-colores",
         "reino": "reino"}
ANA = ["KH", "QS", "JD", "7D", "10C", "AS", "2H"]
TOP = "KC"
COURT = ("K", "Q", "J")
# The chess pieces (U+2654-265F), once the kings, queens and jacks.
CHESS = re.compile("[\u2654-\u265f]")

# Per card of the page: its code, the first layer of its .center's picture, how many suit
# signs its .center masks, whether the .center and the big suit (::after) are shown, its text.
CARD_LOOKS = """els => els.map(e => {
  const c = e.querySelector('.center'), cs = getComputedStyle(c);
  const mask = cs.maskImage || cs.webkitMaskImage || 'none';
  return {
    code: e.dataset.card, picture: cs.backgroundImage, centerText: c.textContent,
    pips: mask === 'none' ? 0 : mask.split('url(').length - 1,
    center: cs.display !== 'none', bigSuit: getComputedStyle(e, '::after').display !== 'none',
    filter: getComputedStyle(e).filter,
  };
})"""

BACKGROUND = "e => getComputedStyle(e).backgroundImage"

# The share of pixels that differ between two PNG screenshots of the same size, counted in
# the page's own canvas (no image library needed).
PIXEL_DIFFERENCE = """async ([a, b]) => {
  const load = src => new Promise(ok => {
    const i = new Image(); i.onload = () => ok(i); i.src = src;
  });
  const [x, y] = await Promise.all([load(a), load(b)]);
  const data = img => {
    const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    const g = c.getContext('2d'); g.drawImage(img, 0, 0);
    return g.getImageData(0, 0, c.width, c.height).data;
  };
  const p = data(x), q = data(y);
  let differ = 0;
  for (let i = 0; i < p.length; i += 4) {
    const d = Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]);
    if (d > 48) differ++;
  }
  return differ / (p.length / 4);
}"""


def _code(page: Page) -> str:
    return page.url.rstrip("/").split("/")[-1]


@pytest.fixture
def table(new_page, servers):
    """Ana (seat 0) holds three figures, a seven, a ten, an ace and a two, on a king; `turn`
    says whose turn it is. Returns a function that opens Ana's view with a deck at a size."""
    ana = new_page()
    url = open_table(ana, servers[0], "Ana")
    beto = new_page()
    join_table(beto, url, "Beto")
    ana.click("text=EMPEZAR LA PARTIDA")
    expect(ana.locator("#panel .hand .card").first).to_be_visible()
    cookies = [c for c in ana.context.cookies() if c["name"] != "baraja"]
    stock = tuple(c for c in ("3C", "4D", "5S", "6H", "9S", "9D") if c not in ANA)

    def view(deck: str, viewport: dict, *, turn: int = 0) -> Page:
        set_round(servers, _code(ana), ocholoco.to_json(
            position("clasico", [ANA, ["3S", "4H", "5D"]], TOP, stock=stock, turn=turn)))
        page = new_page(viewport)
        deck_cookie = {"name": "baraja", "value": deck, "domain": "127.0.0.1", "path": "/"}
        page.context.add_cookies([*cookies, deck_cookie])
        page.goto(url)
        expect(page.locator("html")).to_have_class(re.compile(rf"\bdeck-{deck}\b"))
        expect(page.locator("#panel .hand .card")).to_have_count(len(ANA))
        expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
        page.wait_for_load_state("networkidle")
        still(page)
        return page

    return view


def _looks(page: Page) -> list[dict]:
    return page.locator("#board .pile .card, #panel .hand .card").evaluate_all(CARD_LOOKS)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("deck", list(DECKS))
def test_each_design_draws_figures_pips_and_back_from_its_own_artwork(
    table, deck, viewport, tmp_path
):
    page = table(deck, viewport)
    art = DECKS[deck]
    looks = _looks(page)
    assert looks[0]["code"] == TOP and sorted(look["code"] for look in looks[1:]) == sorted(ANA)
    for look in looks:
        assert look["centerText"] == ""  # the markup carries no picture and no glyph
        if look["code"][0] in COURT:
            assert f"/static/cards/{art}/{look['code']}" in look["picture"], look
            assert look["center"] and not look["bigSuit"] and look["pips"] == 0
        elif deck == "moderna":  # one big suit sign, no pips
            assert not look["center"] and look["bigSuit"], look
        else:
            rank = look["code"][:-1]
            assert look["pips"] == (1 if rank == "A" else int(rank)), look
    assert not CHESS.search(page.locator("body").inner_text())
    # Only this design's figures were fetched: the four on screen, no other colouring.
    fetched = page.evaluate("performance.getEntriesByType('resource').map(r => r.name)")
    figures = sorted(
        re.sub(r"\.[0-9a-f]{12}\.svg$", ".svg", name.split("/static/cards/")[1])
        for name in fetched if "/static/cards/" in name
    )
    assert figures == sorted(f"{art}/{code}.svg" for code in ("KC", "KH", "QS", "JD"))
    assert page.locator("#board .stock .card.back").evaluate(BACKGROUND) != "none"
    # Nothing scrolls sideways and the hand's cards are big enough to read.
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    width = page.locator("#panel .hand .card").first.bounding_box()["width"]
    assert width >= 44
    page.screenshot(path=tmp_path / f"{deck}-{viewport['width']}.png")


def test_the_four_designs_differ_at_a_glance(table):
    shots = {}
    for deck in DECKS:
        page = table(deck, PHONE)
        shot = page.locator("#panel .hand").screenshot(animations="disabled")
        shots[deck] = "data:image/png;base64," + base64.b64encode(shot).decode()
    decks = list(DECKS)
    for i, a in enumerate(decks):
        for b in decks[i + 1:]:
            share = page.evaluate(PIXEL_DIFFERENCE, [shots[a], shots[b]])
            assert share > 0.25, f"{a} and {b} differ in only {share:.0%} of the hand's pixels"


def test_the_hand_stays_bright_out_of_turn_and_the_playable_cards_light_up_in_turn(table):
    waiting = table("clasica", PHONE, turn=1)
    expect(waiting.locator("#panel .your-turn")).to_have_count(0)
    assert {look["filter"] for look in _looks(waiting)[1:]} == {"none"}
    playing = table("clasica", PHONE, turn=0)
    expect(playing.locator("#table-page")).to_have_class(re.compile(r"\bmy-turn\b"))
    lit = playing.locator("#panel .hand .card.playable")
    expect(lit.first).to_be_visible()
    shadow = lit.first.evaluate("e => getComputedStyle(e).boxShadow")
    assert "255, 194, 51" in shadow  # the accent ring


def test_cards_keep_their_names_in_every_design(table):
    page = table("reino", PHONE)
    for code in ANA:
        card = page.locator(f"#panel .hand .card[data-card='{code}']")
        name = wording.card_name(code)
        expect(card).to_have_accessible_name(re.compile(rf"^{re.escape(name)}\b", re.I))
    expect(page.get_by_role("img", name=wording.card_name(TOP))).to_be_visible()


def test_the_deck_choices_preview_each_design_honestly(new_page, server_url):
    page = new_page(PHONE)
    page.goto(server_url + "/")
    for deck, art in DECKS.items():
        choice = page.locator(f".deck-choice.deck-{deck}")
        king = choice.locator(".card.rank-K.suit-clubs .center")
        expect(king).to_be_visible()
        assert f"/static/cards/{art}/KC" in king.evaluate(BACKGROUND)
        assert choice.locator(".card.back").evaluate(BACKGROUND) != "none"
