"""House rules at the table, in Chromium: every preset plays a round; the announcement is
caught and fined, the discard is reshuffled, a joker makes the next player draw 4, and an
eight-seat table fits a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

import ocholoco
from tables.audiences import wording
from tests.browser.chromium import PHONE
from tests.browser.helpers import (
    BOXES,
    at_rest,
    board_version,
    join_table,
    open_table,
    play_round,
    wait_until,
)
from tests.live import set_round
from tests.tables.helpers import position


def _start(page: Page, robots: int = 1) -> None:
    for _ in range(robots):
        before = page.locator("#board .badge").count()
        page.click("text=AGREGAR ROBOT")
        expect(page.locator("#board .badge")).to_have_count(before + 1)
    page.click("text=EMPEZAR LA PARTIDA")
    expect(page.locator("#panel .hand .card").first).to_be_visible()


@pytest.mark.parametrize("rules", ["libro", "anuncio", "chileno"])
def test_a_round_of_each_house_preset_is_played_to_its_end(new_page, server_url, rules):
    page = new_page()
    open_table(page, server_url, "Ana", rules)
    expect(page.locator(".rules-name")).to_have_text(wording.rules_name(ocholoco.PRESETS[rules]))
    _start(page, robots=2)
    play_round([page])
    expect(page.locator("#panel .summary")).to_be_visible()


def _code(page: Page) -> str:
    return page.url.rstrip("/").split("/")[-1]


def _set(servers, page: Page, state: ocholoco.Round, *others: Page) -> None:
    set_round(servers, _code(page), ocholoco.to_json(state))
    for p in (page, *others):
        p.reload()
        expect(p.locator("#table-page")).to_have_attribute("data-ws", "open")


def _ana_and_beto(new_page, servers, rules: str) -> tuple[Page, Page]:
    """Ana (host, on a computer) and Beto (on a phone) start a match with `rules`."""
    ana = new_page()
    url = open_table(ana, servers[0], "Ana", rules)
    beto = new_page(PHONE, has_touch=True)
    join_table(beto, url, "Beto")
    ana.click("text=EMPEZAR LA PARTIDA")
    expect(beto.locator("#panel .hand .card").first).to_be_visible()
    return ana, beto


def test_a_forgotten_last_card_is_caught_and_fined(new_page, servers):
    ana, beto = _ana_and_beto(new_page, servers, "anuncio")
    # Beto (to move) holds two cards; the stock has cards for the fine.
    state = position("anuncio", [["KS", "3C"], ["5H", "9C"]], "9H",
                     stock=("2D", "4D", "6D", "7D"), turn=1)
    _set(servers, ana, state, beto)

    expect(beto.locator(".announce")).to_be_visible()  # he could say it, and does not
    card = beto.locator("#panel .hand .card[data-card='5H']")
    card.click()
    card.click()
    expect(beto.locator("#panel .hand .card")).to_have_count(1)

    expect(ana.locator("#panel").get_by_text("¡TE PILLÉ!")).to_be_visible()
    ana.locator("#panel").get_by_text("¡TE PILLÉ!").click()
    expect(beto.locator("#panel .hand .card")).to_have_count(3)
    expect(ana.locator("#board .last-moves")).to_contain_text("no dijo «¡Última carta!»")


def test_saying_ultima_carta_leaves_nothing_to_catch(new_page, servers):
    ana, beto = _ana_and_beto(new_page, servers, "anuncio")
    state = position("anuncio", [["KS", "3C"], ["5H", "9C"]], "9H", stock=("2D", "4D"), turn=1)
    _set(servers, ana, state, beto)

    beto.locator(".announce input").check()
    card = beto.locator("#panel .hand .card[data-card='5H']")
    card.click()
    card.click()
    expect(ana.locator("#board .last-moves")).to_contain_text("Beto dijo «¡Última carta!»")
    expect(ana.locator("#panel").get_by_text("¡TE PILLÉ!")).to_have_count(0)


def test_the_discard_is_reshuffled_when_the_stock_runs_out(new_page, servers):
    ana = new_page()
    open_table(ana, servers[0], "Ana", "libro")
    _start(ana, robots=1)
    # Ana to move, nothing fits, the stock is empty and the discard holds four cards.
    played = [("play", 1, "2C", None, 0), ("play", 0, "4C", None, 0), ("play", 1, "6C", None, 0)]
    data = ocholoco.to_json(position("libro", [["KD", "3D"], ["QH"]], "9C", turn=0))
    data["history"] = [["open", 0, "JC", None, 0], *[list(e) for e in played]]
    data["top"] = "9C"
    set_round(servers, _code(ana), data)
    ana.reload()
    expect(ana.locator("#board .stock-count")).to_have_text("0")
    before = board_version(ana)
    ana.click("#panel [data-draw]")
    wait_until(
        ana, "v => parseInt(document.querySelector('#board').dataset.version) > v", arg=before
    )
    ana.click("#board >> text=Todas las jugadas")
    expect(ana.locator("#log-dialog")).to_contain_text("Se baraja el descarte")


def test_a_joker_makes_the_next_player_draw_four(new_page, servers):
    ana, beto = _ana_and_beto(new_page, servers, "chileno")
    state = position("chileno", [["KS", "3C", "4C"], ["JK", "9C", "5D"]], "9H",
                     stock=("2D", "4D", "6D", "7D", "8C"), turn=1)
    _set(servers, ana, state, beto)

    joker = beto.locator("#panel .hand .card[data-card='JK']")
    expect(joker).to_have_accessible_name("comodín, se puede jugar")
    joker.click()
    joker.click()
    expect(ana.locator("#board .pile [data-card='JK']")).to_be_visible()
    expect(ana.locator("#panel [data-draw]")).to_have_text("ROBAR 4")


def test_an_eight_seat_table_fits_a_phone(new_page, server_url):
    page = new_page(PHONE, has_touch=True)
    open_table(page, server_url, "Ana", "anuncio")
    _start(page, robots=7)
    expect(page.locator("#board .player")).to_have_count(8)
    at_rest(page)  # the seven robots have moved: nothing changes until Ana does
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    boxes = page.locator("#panel .hand .card").evaluate_all(BOXES)
    assert boxes
    for left, _top, right, _bottom in boxes:
        assert left >= 0 and right <= PHONE["width"]
