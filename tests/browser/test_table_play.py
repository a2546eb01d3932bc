"""A table played in real Chromium against a real server, as people would."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.chromium import PHONE
from tests.browser.helpers import (
    BOXES,
    at_rest,
    is_my_turn,
    join_table,
    open_table,
    play_round,
    same_version,
    take_turn,
    wait_until,
)


def _start_with_guest_and_robot(new_page, server_url, rules="clasico"):
    host = new_page()
    url = open_table(host, server_url, "Ana", rules)
    guest = new_page(PHONE, has_touch=True)
    join_table(guest, url, "Beto")
    expect(host.locator("#board")).to_contain_text("Beto")
    host.click("text=AGREGAR ROBOT")
    expect(host.locator("#board .badge")).to_contain_text("Robot Normal")
    host.click("text=EMPEZAR LA PARTIDA")
    expect(host.locator("#panel .hand .card")).to_have_count(5)
    expect(guest.locator("#panel .hand .card")).to_have_count(5)
    return host, guest, url


def test_a_host_a_guest_and_a_robot_play_a_whole_round_through_the_page(new_page, server_url):
    host, guest, _ = _start_with_guest_and_robot(new_page, server_url)
    errors = []
    for page in (host, guest):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    play_round([host, guest])

    for page in (host, guest):
        summary = page.locator("#panel .summary")
        expect(summary).to_be_visible()
        expect(summary.locator("tbody tr")).to_have_count(3)
        expect(summary.locator("button")).to_have_text(re.compile("SIGUIENTE RONDA|REVANCHA"))
    assert errors == []

    # A first round can end the match (8s count 50): then REVANCHA deals the new match's first.
    button = guest.locator("#panel .summary button")
    next_round = button.inner_text().strip() == "SIGUIENTE RONDA"
    button.click()
    expect(host.locator("#panel .summary")).to_have_count(0)
    expect(host.locator("#board")).to_contain_text("Ronda 2" if next_round else "Ronda 1")


def test_a_spectator_who_opens_the_link_mid_round_sees_the_moves_but_no_hand(
    new_page, server_url
):
    host, guest, url = _start_with_guest_and_robot(new_page, server_url)
    spectator = new_page(PHONE, has_touch=True)
    spectator.goto(url)
    expect(spectator.locator("#table-page")).to_have_attribute("data-ws", "open")
    expect(spectator.locator("#panel")).to_contain_text("Estás mirando")
    expect(spectator.locator("#panel .hand")).to_have_count(0)
    # Only the top card is face up for a spectator.
    expect(spectator.locator("[data-card]")).to_have_count(1)

    at_rest(host)  # a person is to move: the robot waits too
    before = same_version([host, guest, spectator])
    mover = host if is_my_turn(host) else guest
    take_turn(mover)
    wait_until(
        spectator, "v => parseInt(document.querySelector('#board').dataset.version) > v", arg=before
    )
    expect(spectator.locator("#panel .hand")).to_have_count(0)
    expect(spectator.locator("[data-card]")).to_have_count(1)


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 800}, {"width": 820, "height": 1180}, PHONE],
    ids=["laptop", "tablet-upright", "phone"],
)
def test_a_spectator_sees_the_pile_and_its_news_in_the_middle_of_the_free_height(
    new_page, server_url, viewport
):
    # A spectator has no hand: the pile and the news fill the band between the seats and the
    # panel's "Estás mirando", in its middle, instead of leaving the felt below them empty.
    _, _, url = _start_with_guest_and_robot(new_page, server_url)
    spectator = new_page(viewport)
    spectator.goto(url)
    expect(spectator.locator("#panel")).to_contain_text("Estás mirando")
    seats, pile, news, panel = (
        spectator.locator(selector).evaluate_all(BOXES)[0]
        for selector in ("#board .players", "#board .center", "#board .status-line", "#panel")
    )
    height = spectator.evaluate("innerHeight")
    assert height - panel[3] <= 0.1 * height, (viewport, panel)  # no empty felt below it
    shown_top, shown_bottom = min(pile[1], news[1]), max(pile[3], news[3])
    free_above, free_below = shown_top - seats[3], panel[1] - shown_bottom
    assert abs(free_above - free_below) <= 0.1 * (panel[1] - seats[3]), (
        viewport, free_above, free_below
    )


def test_a_player_who_reloads_mid_round_finds_the_same_hand(new_page, server_url):
    host, guest, _ = _start_with_guest_and_robot(new_page, server_url)
    hand = guest.locator("#panel .hand .card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    guest.reload()
    expect(guest.locator("#table-page")).to_have_attribute("data-ws", "open")
    again = guest.locator("#panel .hand .card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    # Robots may have moved meanwhile, never the guest: the same cards.
    assert sorted(again) == sorted(hand)


def test_on_a_phone_the_whole_hand_and_the_buttons_are_on_screen(new_page, server_url):
    host, guest, _ = _start_with_guest_and_robot(new_page, server_url)
    at_rest(guest)  # the robot, if first, has played: nothing changes until a person does
    expect(guest.locator("#panel .hand .card")).to_have_count(5)
    width, height = PHONE["width"], PHONE["height"]
    assert not guest.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    boxes = guest.locator("#panel .hand .card, #panel .actions .btn").evaluate_all(BOXES)
    assert len(boxes) >= 6
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0
        assert right <= width and bottom <= height


def test_todas_las_jugadas_opens_when_a_push_redraws_the_board_under_the_click(
    new_page, server_url
):
    host, guest, _ = _start_with_guest_and_robot(new_page, server_url)
    at_rest(host)
    version = same_version([host, guest])
    take_turn(host if is_my_turn(host) else guest)
    at_rest(host, version + 1)
    button = host.locator("#board").get_by_role("button", name="Todas las jugadas")
    box = button.bounding_box()
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    host.mouse.down()
    redrawn = host.evaluate("""() => {
        const old = document.querySelector('#board');
        const newer = parseInt(old.dataset.version) + 1;  // (the page drops a repeated state)
        const pushed = old.outerHTML.replace('<section', '<section hx-swap-oob="true"')
            .replace(/data-version="\\d+"/, `data-version="${newer}"`);
        htmx.swap('#board', pushed, {swapStyle: 'none'});  // as a push does: out of band
        return document.querySelector('#board') !== old;
    }""")
    host.mouse.up()

    assert redrawn
    expect(host.locator("#log-dialog")).to_be_visible()
    expect(host.locator("#log-dialog")).to_contain_text("Jugadas")
