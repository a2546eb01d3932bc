"""A move shows the moment it is made and the server settles it (issue 23), in Chromium.

The page's request is held (Playwright's routing) to look at the page between the tap and the
answer: the card already on its way, the button already taken, one move at a time. Each way a
move can be refused puts the card back with the reason and leaves the page as a reload shows
it; a dropped socket says "Reconectando…" and the page catches up when it is back.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, Route, WebSocketRoute, expect

import ocholoco
from tests.browser.chromium import RECONNECT_MS
from tests.browser.helpers import open_table, page_time_passes
from tests.live import set_round
from tests.tables.helpers import position

BROKEN_PAGE = "<!doctype html><html><body><h1>Server Error (500)</h1></body></html>"
PLAY = re.compile(r".*/jugar/$")
HAND = ["5H", "8S", "2C", "KD", "9H"]  # on the 7♥: 5♥, 8♠ and 9♥ serve


def _ana_to_move(page: Page, servers) -> Page:
    """Ana against a robot, to move with HAND on the 7♥ (the robot holds three cards)."""
    open_table(page, servers[0], "Ana")
    page.click("text=AGREGAR ROBOT")
    expect(page.locator("#board .badge")).to_have_count(1)
    page.click("text=EMPEZAR LA PARTIDA")
    expect(page.locator("#panel .hand .card")).to_have_count(7)
    state = position("clasico", [HAND, ["3C", "4D", "QS"]], "7H", stock=("JC", "6D", "10S", "AH"))
    match = ocholoco.new_match("clasico", 2)
    code = page.url.rstrip("/").split("/")[-1]
    set_round(servers, code, ocholoco.to_json(state), ocholoco.to_json(match))
    page.reload()
    expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
    expect(page.locator("#panel .your-turn")).to_be_visible()
    return page


def _hold(page: Page, pattern=PLAY) -> list[Route]:
    """The page's requests to `pattern` wait (in the list) until the test lets them go."""
    held: list[Route] = []
    page.route(pattern, lambda route: held.append(route))
    return held


def _card(page: Page, code: str):
    return page.locator(f"#panel .hand .card[data-card='{code}']")


def _tap_twice(page: Page, code: str) -> None:
    card = _card(page, code)
    card.click()
    expect(card).to_have_class(re.compile(r"\bselected\b"))
    card.click()


def _guess(page: Page):
    return page.locator("[data-guess]")


def _as_a_reload_shows(page: Page, context: BrowserContext) -> None:
    """The page shows what a fresh page of the same person shows (same version, same hand),
    once the table waits for this person again (the robot's turn may come first)."""
    expect(page.locator("#panel .your-turn")).to_be_visible()
    fresh = context.new_page()
    fresh.goto(page.url)
    expect(fresh.locator("#table-page")).to_have_attribute("data-ws", "open")
    version = fresh.locator("#board").get_attribute("data-version")
    expect(page.locator("#board")).to_have_attribute("data-version", version)
    expect(page.locator("#panel")).to_have_attribute("data-version", version)
    codes = fresh.locator("#panel .hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    expect(page.locator("#panel .hand .card:not(.leaving)")).to_have_count(len(codes))
    assert page.locator("#panel .hand .card").evaluate_all(
        "cs => cs.map(c => c.dataset.card)") == codes
    expect(page.locator("#table-page")).not_to_have_attribute("data-move", "pending")
    fresh.close()


def test_a_played_card_leaves_the_hand_at_once_and_the_answer_settles_it(new_page, servers):
    page = _ana_to_move(new_page(), servers)
    held = _hold(page)
    _tap_twice(page, "5H")
    # Before any answer: the card is on its way (drawn above the page), its place is empty.
    expect(page.locator("[data-guess][data-card='5H']")).to_be_visible()
    expect(_card(page, "5H")).to_be_hidden()
    expect(page.locator("#table-page")).to_have_attribute("data-move", "pending")
    # One move at a time: another tap is refused with a word and chooses nothing.
    _card(page, "9H").click()
    expect(page.locator("#toast")).to_contain_text("va en camino")
    expect(_card(page, "9H")).not_to_have_class(re.compile(r"\bselected\b"))
    assert len(held) == 1
    # Nobody else sees anything yet: a spectator's pile still shows the 7♥.
    watcher = new_page()
    watcher.goto(servers[0] + page.locator("#menu-invite").get_attribute("data-invite"))
    expect(watcher.locator("#board .pile > .card")).to_have_attribute("data-card", "7H")

    held[0].continue_()
    expect(page.locator("#board .pile > .card")).to_have_attribute("data-card", "5H")
    expect(_guess(page)).to_have_count(0)
    expect(_card(page, "5H")).to_have_count(0)
    expect(page.locator("#table-page")).not_to_have_attribute("data-move", "pending")
    expect(watcher.locator("#board .pile > .card")).not_to_have_attribute("data-card", "7H")


def test_an_eight_flies_once_its_suit_is_picked(new_page, servers):
    page = _ana_to_move(new_page(), servers)
    held = _hold(page)
    _tap_twice(page, "8S")
    dialog = page.locator("dialog.suit-dialog[open]")
    expect(dialog).to_be_visible()
    expect(_guess(page)).to_have_count(0)  # nothing flies before the suit
    dialog.locator(".btn.suit").nth(1).click()
    expect(dialog).to_have_count(0)
    expect(page.locator("[data-guess][data-card='8S']")).to_be_visible()
    expect(_card(page, "8S")).to_be_hidden()
    held[0].continue_()
    expect(page.locator("#board .pile > .card")).to_have_attribute("data-card", "8S")
    expect(page.locator("#board .active-suit")).to_be_visible()
    expect(_guess(page)).to_have_count(0)


def test_robar_brings_a_face_down_card_at_once_and_the_answer_turns_it_up(new_page, servers):
    page = _ana_to_move(new_page(), servers)
    held = _hold(page)
    draw = page.locator("#panel [data-draw]")
    draw.click()
    expect(page.locator(".card.back[data-guess]")).to_be_visible()
    expect(draw).to_be_disabled()
    expect(draw).to_have_class(re.compile(r"\btaken\b"))
    expect(page.locator("#panel .hand .card")).to_have_count(len(HAND))
    held[0].continue_()
    expect(_card(page, "JC")).to_be_visible()  # the top of the stock, face up
    expect(_guess(page)).to_have_count(0)
    expect(page.locator("#table-page")).not_to_have_attribute("data-move", "pending")


REFUSALS = {
    # name: (what the server (or the network) does with the move, the notice, card ends in hand)
    "stale version (409)": ("stale", "La mesa cambió mientras elegías", True),
    "too many (429)": (lambda route: route.fulfill(status=429, body="Too many"),
                       "Vas muy rápido", True),
    "server error (500)": (lambda route: route.fulfill(status=500, body=BROKEN_PAGE),
                           "Algo falló en el servidor", True),
    "server error after the move was made": (
        lambda route: (route.fetch(), route.fulfill(status=500, body=BROKEN_PAGE)),
        "Algo falló en el servidor", False),
    "dropped connection": (lambda route: route.abort("connectionreset"), "Sin conexión", True),
}


# htmx leaves the promise of a request whose connection dropped (or timed out) rejected, with
# nothing in it: the page's own notice is what the test reads.
NOTHING_REJECTED = r": undefined$"


@pytest.mark.console_allows(NOTHING_REJECTED)
@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refused_move_puts_the_card_back_and_the_page_as_a_reload_shows_it(
    new_page, servers, case
):
    answer, notice, in_hand = REFUSALS[case]
    page = _ana_to_move(new_page(), servers)
    if answer == "stale":
        page.evaluate("document.querySelector('#panel .hand [name=version]').value = '1'")
    else:
        page.route(PLAY, answer)
    _tap_twice(page, "5H")
    expect(page.locator("#notice")).to_contain_text(notice)
    expect(_guess(page)).to_have_count(0)
    if in_hand:
        expect(_card(page, "5H")).to_be_visible()
        expect(page.locator("#board .pile > .card")).to_have_attribute("data-card", "7H")
    else:  # the server made the move: the page shows it was (no lost move, no ghost)
        expect(_card(page, "5H")).to_have_count(0)
    _as_a_reload_shows(page, page.context)


@pytest.mark.console_allows(NOTHING_REJECTED)
def test_a_move_that_times_out_puts_the_card_back(new_page, servers):
    page = _ana_to_move(new_page(), servers)
    _hold(page)  # never answered
    page.evaluate("htmx.config.timeout = 300")
    _tap_twice(page, "9H")
    expect(page.locator("#notice")).to_contain_text("tardó demasiado")
    expect(_card(page, "9H")).to_be_visible()
    expect(_guess(page)).to_have_count(0)
    expect(page.locator("#table-page")).not_to_have_attribute("data-move", "pending")


def test_someone_moving_first_puts_the_card_back_with_the_reason(new_page, servers):
    """Two pages of the same seat: the second's move is held while the first plays; the push
    settles the second (its card back in the hand), and the server refuses its move."""
    first = _ana_to_move(new_page(), servers)
    second = first.context.new_page()
    second.goto(first.url)
    expect(second.locator("#table-page")).to_have_attribute("data-ws", "open")
    held = _hold(second)
    _tap_twice(second, "9H")
    expect(second.locator("[data-guess][data-card='9H']")).to_be_visible()
    _tap_twice(first, "5H")
    # The push reached the second page: 5♥ played, 9♥ back in the hand, nothing guessed.
    expect(_card(second, "5H")).to_have_count(0)
    expect(_card(second, "9H")).to_be_visible()
    expect(_guess(second)).to_have_count(0)
    held[0].continue_()
    expect(second.locator("#notice")).to_contain_text("La mesa cambió mientras elegías")
    _as_a_reload_shows(second, second.context)


def test_a_dropped_socket_says_reconectando_and_the_page_catches_up(new_page, servers):
    page = new_page()
    # The page's clock is Playwright's (it runs as ever): its next try at the socket, once
    # allowed, is passed at once (helpers.page_time_passes), within RECONNECT_MS of its time.
    page.context.clock.install()
    sockets: list[WebSocketRoute] = []
    allowed = {"connect": True}

    def route_socket(ws: WebSocketRoute) -> None:
        if allowed["connect"]:
            ws.connect_to_server()
            sockets.append(ws)
        else:
            ws.close(code=1013)  # try again later

    page.route_web_socket(re.compile(r".*/ws/mesa/.*"), route_socket)
    _ana_to_move(page, servers)
    banner = page.locator("#connection")
    expect(banner).to_be_hidden()

    allowed["connect"] = False
    sockets[-1].close(code=1011)
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Reconectando…")
    # No move is offered as if it would be delivered.
    _card(page, "5H").click()
    expect(page.locator("#toast")).to_contain_text("Sin conexión")
    expect(_card(page, "5H")).not_to_have_class(re.compile(r"\bselected\b"))
    # Meanwhile the table moves on (the same person, from another page).
    other = page.context.new_page()
    other.goto(page.url)
    _tap_twice(other, "5H")
    expect(_card(other, "5H")).to_have_count(0)

    allowed["connect"] = True
    page_time_passes(page, banner.is_hidden, RECONNECT_MS)
    expect(banner).to_be_hidden()
    expect(_card(page, "5H")).to_have_count(0)
    expect(page.locator("#notice .notice")).to_have_count(0)
    _as_a_reload_shows(page, page.context)


def test_with_reduced_motion_the_hand_still_changes_at_once(new_page, servers):
    page = _ana_to_move(new_page(reduced_motion="reduce"), servers)
    held = _hold(page)
    _tap_twice(page, "5H")
    expect(_card(page, "5H")).to_be_hidden()
    flying = page.locator("[data-guess][data-card='5H']")
    expect(flying).to_be_visible()
    assert flying.evaluate("el => el.getAnimations().length") == 0  # placed, not flown
    held[0].continue_()
    expect(page.locator("#board .pile > .card")).to_have_attribute("data-card", "5H")
    expect(_guess(page)).to_have_count(0)
