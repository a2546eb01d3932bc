"""A first game without anyone to explain it, in Chromium: the rules page, the round's and
the match's summary, the phone header, the desktop layout, and axe-core finding nothing on
any of these pages at phone and desktop sizes."""

from __future__ import annotations

import dataclasses

import pytest
from playwright.sync_api import Page, expect

import ocholoco
from tables.audiences import wording
from tests.browser.chromium import DESKTOP, PHONE
from tests.browser.helpers import BOXES, at_rest, axe_violations, open_table, still
from tests.live import set_round
from tests.tables.helpers import position

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
LANGUAGE_OF = {"es-ES": "es", "en-US": "en", "pt-BR": "pt-br"}  # the browser's -> the page's


def _code(page: Page) -> str:
    return page.url.rstrip("/").split("/")[-1]


def _with_a_robot(page: Page) -> None:
    page.click("text=AGREGAR ROBOT")
    expect(page.locator("#board .badge")).to_have_count(1)
    page.click("text=EMPEZAR LA PARTIDA")
    expect(page.locator("#panel .hand .card").first).to_be_visible()


def _ana_plays_her_last_card(page: Page, servers, totals=(0, 0)) -> None:
    """Ana (to move, against a robot) holds only the 5♥ on a 7♥ and plays it; the robot is
    left with K♦ and 9♣ (19 points)."""
    state = position("clasico", [["5H"], ["KD", "9C"]], "7H")
    match = dataclasses.replace(ocholoco.new_match("clasico", 2), totals=totals)
    set_round(servers, _code(page), ocholoco.to_json(state), ocholoco.to_json(match))
    page.reload()
    expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
    card = page.locator("#panel .hand .card[data-card='5H']")
    card.click()
    card.click()
    expect(page.locator("#panel .summary")).to_be_visible()


def _fits_sideways(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_rules_are_one_tap_from_home_and_the_contents_jump_to_each_section(
    new_page, server_url
):
    page = new_page(PHONE, has_touch=True)
    page.goto(server_url + "/")
    page.get_by_role("link", name="Reglas completas").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Reglas completas")
    assert _fits_sideways(page)

    page.locator(".toc").get_by_role("link", name="Las cartas especiales").click()
    expect(page).to_have_url(server_url + "/reglas/#especiales")
    expect(page.locator("#especiales-t")).to_be_in_viewport()
    expect(page.locator("#especiales")).to_contain_text("ROBAR 2")

    page.goto(server_url + "/reglas/#reglas-chileno")
    expect(page.locator("#reglas-chileno-t")).to_be_in_viewport()
    expect(page.locator("#reglas-chileno")).to_contain_text("comodín")


def test_the_tables_menu_links_the_rules_page_at_its_own_rule_set(new_page, server_url):
    page = new_page()
    open_table(page, server_url, "Ana", "especiales")
    page.click("[data-open-menu]")
    link = page.locator("#menu").get_by_role("link", name="Reglas completas")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", "/reglas/#reglas-especiales")


def test_the_round_summary_says_who_won_what_and_why_and_fits_a_phone(new_page, servers):
    page = new_page(PHONE, has_touch=True)
    open_table(page, servers[0], "Ana")
    _with_a_robot(page)
    _ana_plays_her_last_card(page, servers)

    summary = page.locator("#panel .summary")
    expect(summary).to_contain_text("Ana se quedó sin cartas y gana +19")
    expect(summary.locator("thead")).to_contain_text("Le faltan para 100")
    robot = summary.locator("tbody tr").nth(1)
    expect(robot.locator(".hand-points")).to_have_text("19 puntos")
    expect(robot.locator(".round-points")).to_have_text("—")
    expect(robot.locator(".to-go")).to_have_text("100")
    expect(summary.locator("tbody tr").first.locator(".to-go")).to_have_text("81")
    still(page)
    left, _, right, _ = summary.evaluate_all(BOXES)[0]
    assert left >= 0 and right <= PHONE["width"]
    assert _fits_sideways(page)


def test_the_match_end_shows_the_match_alone(new_page, servers):
    page = new_page()
    open_table(page, servers[0], "Ana")
    _with_a_robot(page)
    _ana_plays_her_last_card(page, servers, totals=(90, 40))

    summary = page.locator("#panel .summary")
    expect(summary.get_by_role("heading")).to_have_text("¡Partida terminada!")
    expect(summary.locator(".winner")).to_have_text("Gana Ana con 109 puntos")
    expect(summary.get_by_role("button", name="REVANCHA")).to_be_visible()
    expect(page.locator("#panel .hand")).to_have_count(0)
    expect(page.locator("#panel").get_by_text("ABANDONAR")).to_have_count(0)


def test_the_phone_header_shows_the_rules_name_whole(new_page, server_url):
    longest = max(ocholoco.PRESETS.values(), key=lambda rules: len(wording.rules_name(rules)))
    page = new_page(PHONE, has_touch=True)
    open_table(page, server_url, "Ana", longest.key)
    name = page.locator(".topbar .rules-name")
    expect(name).to_have_text(wording.rules_name(longest))
    still(page)
    whole = name.evaluate(
        "e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
    )
    assert whole, "the rules' name is cut"
    (box,) = name.evaluate_all(BOXES)
    (menu,) = page.locator("[data-open-menu]").evaluate_all(BOXES)
    assert box[2] <= menu[0]
    expect(page.locator("[data-open-menu]")).to_have_accessible_name("☰ Menú")


def test_on_a_desktop_the_height_goes_to_the_table_and_the_hand(new_page, server_url):
    page = new_page(DESKTOP)
    open_table(page, server_url, "Ana")
    _with_a_robot(page)
    at_rest(page)  # the robot has played its turn: Ana's table stands still
    (status,) = page.locator("#board .status-line").evaluate_all(BOXES)
    (actions,) = page.locator("#panel .actions").evaluate_all(BOXES)
    assert actions[1] - status[3] < 100, "an empty band between the table and the hand"
    widths = [right - left for left, _, right, _ in
              page.locator("#panel .hand .card").evaluate_all(BOXES)]
    assert min(widths) >= 110
    (pile,) = page.locator("#board .pile .card").evaluate_all(BOXES)
    assert pile[2] - pile[0] >= 130
    bottom = max(b[3] for b in page.locator("#panel .hand .card").evaluate_all(BOXES))
    assert bottom <= DESKTOP["height"]


# Every size in Spanish; the other languages at the phone's, where their longer words are
# the tightest.
@pytest.mark.parametrize(
    ("size", "locale"),
    [(PHONE, "es-ES"), (DESKTOP, "es-ES"), (PHONE, "en-US"), (PHONE, "pt-BR")],
    ids=["phone", "desktop", "phone-en", "phone-pt-br"],
)
def test_axe_finds_nothing_on_the_home_page_the_rules_the_lobby_a_table_and_the_summary(
    new_page, servers, size, locale
):
    page = new_page(size, has_touch=size is PHONE, locale=locale)
    page.goto(servers[0] + "/")
    expect(page.locator("html")).to_have_attribute("lang", LANGUAGE_OF[locale])
    assert axe_violations(page) == [], "home"
    page.goto(servers[0] + "/reglas/")
    assert axe_violations(page) == [], "rules"
    page.goto(servers[0] + "/")
    page.fill("input[name=name]", "Ana")
    page.locator("form.open-form button[type=submit]").click()  # ABRIR MESA, in its words
    expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
    assert axe_violations(page) == [], "lobby"
    page.locator("#panel .robot-form .btn").click()  # AGREGAR ROBOT
    expect(page.locator("#board .badge")).to_have_count(1)
    page.locator("#panel form > .btn.primary").click()  # EMPEZAR LA PARTIDA
    expect(page.locator("#panel .hand .card").first).to_be_visible()
    assert axe_violations(page) == [], "a table in play"
    _ana_plays_her_last_card(page, servers)
    assert axe_violations(page) == [], "the round's summary"
