"""What a link may do, and what an error may never do to the page, in real Chromium.

A new invitation leaves the seated players' open pages working; an error answer (404, 409,
429, 500, a page's CSRF token gone stale, a dropped connection) leaves the page in place with
a Spanish notice; the page runs under its Content-Security-Policy without one violation.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import (
    at_rest,
    is_my_turn,
    join_table,
    open_table,
    same_version,
    take_turn,
    wait_until,
)

BROKEN_PAGE = (
    "<!doctype html><html><head><title>Server Error</title></head>"
    "<body><h1>Server Error (500)</h1></body></html>"
)


def _two_players(new_page, server_url) -> tuple[Page, Page, str]:
    host = new_page()
    invitation = open_table(host, server_url, "Ana")
    guest = new_page()
    join_table(guest, invitation, "Beto")
    expect(host.locator("#board")).to_contain_text("Beto")
    return host, guest, invitation


def _say(page: Page, text: str) -> None:
    page.fill("#chat-form textarea", text)
    page.press("#chat-form textarea", "Enter")


def _renew(host: Page) -> None:
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("[data-open-menu]")
    host.click("text=Nuevo enlace de invitación")
    expect(host.locator("#notice")).to_contain_text("el anterior ya no sirve")
    host.keyboard.press("Escape")


def _page_stays(page: Page) -> None:
    expect(page.locator("#table-page")).to_have_count(1)
    expect(page.locator("#board")).to_be_visible()
    assert "Server Error" not in page.content() and "Page not found" not in page.content()


def test_a_new_invitation_leaves_every_seated_page_working_without_a_reload(
    new_page, server_url
):
    host, guest, old = _two_players(new_page, server_url)
    host.click("text=EMPEZAR LA PARTIDA")
    expect(guest.locator("#panel .hand .card")).to_have_count(7)
    watcher = new_page()
    watcher.goto(old)
    expect(watcher.locator("#table-page")).to_have_attribute("data-ws", "open")

    _renew(host)

    # The watcher who came by the old link is told it no longer serves.
    expect(watcher.locator("#notice")).to_contain_text("ya no sirve")
    # Beto's page, as it was: the chat, the moves, the menu's new invitation.
    _say(guest, "¿seguimos?")
    expect(host.locator("#chat-log")).to_contain_text("¿seguimos?")
    _page_stays(guest)
    new_link = host.locator("#menu-invite").input_value()
    assert new_link != old and new_link.startswith(server_url)
    expect(guest.locator("#menu-invite")).to_have_value(new_link)
    player = guest if is_my_turn(guest) else host
    take_turn(player)
    # A reload keeps working: Beto's URL is the players' own address, not the invitation.
    assert guest.url != old
    guest.reload()
    expect(guest.locator("#panel .hand .card").first).to_be_visible()
    # ABANDONAR still works from the open page, and leaves Beto watching.
    guest.once("dialog", lambda dialog: dialog.accept())
    guest.click("#panel >> text=ABANDONAR")
    expect(guest.locator("#panel")).to_contain_text("Estás mirando la partida.")
    expect(host.locator("#board")).to_contain_text("Robot")
    # The new invitation lets a newcomer watch; the old one is gone.
    late = new_page()
    late.goto(new_link)
    expect(late.locator("#board")).to_be_visible()
    late.goto(old)
    expect(late.locator(".notice.error")).to_contain_text("no existe")


# htmx leaves the promise of a request whose connection dropped rejected, with nothing in it.
@pytest.mark.console_allows(r": undefined$")
def test_no_error_answer_replaces_the_page_and_each_says_what_happened(new_page, server_url):
    host, guest, old = _two_players(new_page, server_url)
    watcher = new_page()
    watcher.goto(old)
    expect(watcher.locator("#table-page")).to_have_attribute("data-ws", "open")

    # 404: the link the watcher came by was renewed; their chat post finds no table.
    _renew(host)
    _say(watcher, "hola")
    expect(watcher.locator("#chat-error")).to_contain_text("ya no está en esa dirección")
    _page_stays(watcher)

    # 429: too many messages from one seat. The limit counts in fixed windows of 10 s, and a
    # busy machine may cross one while the messages go: within three windows' worth one of
    # them must be refused.
    error = guest.locator("#chat-error")
    for n in range(16):
        _say(guest, f"mensaje {n}")
        wait_until(
            guest, "() => !document.querySelector('#chat-error').hidden"
            " || document.querySelector('#chat-form textarea').value === ''"
        )
        if error.is_visible():
            break
    expect(error).to_contain_text("Vas muy rápido")
    _page_stays(guest)

    # 409: an action made at a version the table left behind is refused with its reason.
    host.evaluate("document.querySelector('#panel [name=version]').value = '1'")
    host.click("text=EMPEZAR LA PARTIDA")
    expect(host.locator("#notice")).to_contain_text("La mesa cambió mientras elegías")
    _page_stays(host)

    # 500 with a whole error page, and a dropped connection: the page stays, a notice says so.
    host.route(re.compile(r".*/robot/$"), lambda route: route.fulfill(status=500, body=BROKEN_PAGE))
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#notice")).to_contain_text("Algo falló en el servidor")
    _page_stays(host)
    host.unroute(re.compile(r".*/robot/$"))
    host.route(re.compile(r".*/robot/$"), lambda route: route.abort("connectionreset"))
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#notice")).to_contain_text("Sin conexión")
    _page_stays(host)
    host.unroute(re.compile(r".*/robot/$"))
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#board .badge")).to_contain_text("Robot")
    expect(host.locator("#notice .notice")).to_have_count(0)


def test_a_page_whose_csrf_token_went_stale_recovers_by_itself(new_page, server_url):
    host, guest, _ = _two_players(new_page, server_url)
    # What a long idle or a browser clearing its cookies does: the CSRF cookie is gone.
    guest.context.clear_cookies(name="csrftoken")

    _say(guest, "sigo aquí")

    expect(host.locator("#chat-log")).to_contain_text("sigo aquí")
    expect(guest.locator("#chat-error")).to_be_hidden()
    _page_stays(guest)
    host.context.clear_cookies(name="csrftoken")
    host.click("text=AGREGAR ROBOT")  # a table action too, sent again with the new token
    expect(host.locator("#board .badge")).to_contain_text("Robot")


def test_a_page_answer_that_lands_after_a_csrf_renewal_leaves_the_next_action_working(
    new_page, server_url
):
    # A browser without the CSRF cookie is given a new one by every page it asks for. Had a
    # refused action also asked for the table anew, that page's cookie could land after the
    # renewed token and leave the page with a token its cookie does not match: the action
    # after it was told "recárgala". Here any such page is held until the retry is through,
    # then sent as it was asked for (without the cookie the renewal brought).
    host, _, _ = _two_players(new_page, server_url)
    held = []

    def hold(route: Route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        held.append((route, route.request.all_headers()))

    host.route(host.url, hold)
    host.context.clear_cookies(name="csrftoken")
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#board .badge")).to_have_count(1)
    for route, headers in held:  # its answer, and its cookie, in before the next action
        with host.expect_response(lambda response, asked=route.request: response.request == asked):
            route.fulfill(response=route.fetch(headers=headers))
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#board .badge")).to_have_count(2)
    expect(host.locator("#notice .notice")).to_have_count(0)


def test_a_stale_csrf_retry_goes_out_even_if_a_push_replaced_the_form_meanwhile(
    new_page, server_url
):
    host, _, _ = _two_players(new_page, server_url)
    host.context.clear_cookies(name="csrftoken")
    # While the token is renewed, a push swaps the panel (here: the same form, anew).
    host.evaluate(
        """() => {
          const fetch = window.fetch;
          window.fetch = function (url, options) {
            if (String(url).includes("/csrf/")) {
              const form = document.querySelector(".robot-form");
              const copy = form.cloneNode(true);
              form.replaceWith(copy);
              htmx.process(copy);
            }
            return fetch(url, options);
          };
        }"""
    )
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#board .badge")).to_contain_text("Robot")
    expect(host.locator("#notice .notice")).to_have_count(0)


def test_the_table_runs_without_a_content_security_policy_violation(new_page, server_url):
    violations: list[str] = []
    pages = []
    for _ in range(2):
        page = new_page()
        page.on(
            "console",
            lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
        )
        pages.append(page)
    host, guest = pages
    invitation = open_table(host, server_url, "Ana")
    join_table(guest, invitation, "Beto")
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#board .badge")).to_contain_text("Robot")
    host.click("text=EMPEZAR LA PARTIDA")
    expect(host.locator("#panel .hand .card")).to_have_count(5)
    at_rest(host)  # a person is to move: the robot waits too
    version = same_version(pages)
    take_turn(host if is_my_turn(host) else guest)
    _say(guest, "hola")
    expect(host.locator("#chat-log")).to_contain_text("hola")
    # The board stays while the log loads: the robot, if it was next, has moved.
    at_rest(host, version + 1)
    host.click("text=Todas las jugadas")
    expect(host.locator("#log-dialog")).to_be_visible()
    host.keyboard.press("Escape")
    host.click("[data-open-menu]")
    expect(host.locator("#menu")).to_be_visible()
    policy = host.evaluate(
        "fetch(location.href).then(r => r.headers.get('content-security-policy'))"
    )
    assert "script-src 'self'" in policy
    assert violations == []


def test_a_websocket_message_over_the_bound_closes_the_socket(new_page, server_url):
    page = new_page()
    open_table(page, server_url, "Ana")
    code = page.evaluate(
        """() => new Promise(resolve => {
            const url = location.href.replace(/^http/, "ws").replace("/mesa/", "/ws/mesa/");
            const small = new WebSocket(url);
            small.onopen = () => {
                small.send("x".repeat(100));
                const big = new WebSocket(url);
                big.onopen = () => big.send("x".repeat(100000));
                big.onclose = event => resolve([small.readyState, event.code]);
                // Only a bound, so that a socket left open fails the test instead of hanging.
                setTimeout(() => resolve([small.readyState, "still open"]), 30000);
            };
        })"""
    )
    small_state, big_close = code
    # The small one stays open; the big one is cut ("message too big", or dropped outright).
    assert small_state == 1 and big_close in (1006, 1009)
