"""One table, three languages (#52): an English host, a Brazilian player and a Spanish
spectator, each by their browser's language, play a round against a robot; the same moves reach
all three, each page reading only its own language, and axe finds nothing wrong in any."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.chromium import DESKTOP
from tests.browser.helpers import axe_violations, play_round, same_version

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
# What each page says of a card played, and words only another language would show.
PLAYED = {"en": " played the ", "pt-br": " jogou o", "es": " jugó "}
FOREIGN = {
    "en": re.compile(r"\b(jugó|jogou|Ronda|Rodada|Turno de|Vez de|cartas)\b"),
    "pt-br": re.compile(r"\b(jugó|played|Ronda|Round|Turno de|Turn|cards)\b"),
    "es": re.compile(r"\b(played|jogou|Rodada|Round|Vez de|Turn)\b"),
}


@pytest.fixture
def url(server_url):
    """The shared server: it offers the three languages, as the site does by default."""
    return server_url


def _person(new_page, locale: str, viewport: dict, **kwargs) -> Page:
    """Someone whose browser says it reads `locale` (its Accept-Language)."""
    return new_page(viewport, locale=locale, **kwargs)


def test_an_english_host_a_brazilian_player_and_a_spanish_spectator_play_one_round(
    new_page, url
):
    host = _person(new_page, "en-US", DESKTOP)
    player = _person(new_page, "pt-BR", PHONE, has_touch=True, is_mobile=True)
    spectator = _person(new_page, "es-ES", TABLET, has_touch=True)
    host.goto(url + "/")
    host.fill("input[name=name]", "Ann")
    host.locator("form.open-form button[type=submit]").click()
    expect(host.locator("#table-page")).to_have_attribute("data-ws", "open")
    invitation = url + host.locator("#invite-link").get_attribute("data-invite")
    player.goto(invitation)
    player.fill("#panel input[name=name]", "Bia")
    player.locator("form.join-form button").click()
    expect(player.locator("#board .you-tag").filter(visible=True)).to_have_count(1)
    host.locator("#panel .robot-form .btn").click()
    expect(host.locator("#board .badge")).to_have_count(1)
    spectator.goto(invitation)
    for page in (host, player, spectator):
        expect(page.locator("#table-page")).to_have_attribute("data-ws", "open")
    host.locator("#panel form > .btn.primary").click()  # the match starts
    expect(host.locator("#panel .hand .card")).to_have_count(5)  # three players: five each

    play_round([host, player, spectator])

    same_version([host, player, spectator])  # the same moves reached all three
    pages = {"en": host, "pt-br": player, "es": spectator}
    moves = {}
    for language, page in pages.items():
        expect(page.locator("html")).to_have_attribute("lang", language)
        # The round's log as the page's screen reader was told it, from the deal to the end.
        log = page.locator("#game-log").text_content()
        text = page.locator("#board").inner_text() + page.locator("#panel").inner_text() + log
        assert PLAYED[language] in log, (language, log)
        assert not FOREIGN[language].search(text), (language, FOREIGN[language].search(text))
        moves[language] = page.locator("#board .pile > .card").first.get_attribute("data-card")
        assert not axe_violations(page), (language, axe_violations(page))
    assert len(set(moves.values())) == 1  # the same card on top of every page's pile
    expect(host.locator("#panel .summary button")).to_have_text(
        re.compile("NEXT ROUND|REMATCH")
    )
    expect(player.locator("#panel .summary button")).to_have_text(
        re.compile("PRÓXIMA RODADA|REVANCHE")
    )
