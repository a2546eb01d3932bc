"""The scripts' words in each reader's language (#52): what the scripts say (the ask keys'
answers, a toast, the sound button) comes from Django's JavaScript catalog of the page's
language; in Spanish, the words the site always said."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import keyboard_lobby_with_robot, wait_until

pytestmark = pytest.mark.browser

# What Ana hears at a table she opened, with a robot, the match just started (7 cards each,
# no points yet), and after pressing M (sound off).
WORDS = {
    "es": {
        "hand": "Tienes 7 cartas. ",
        "turns": "Tú: 7 cartas, 0 puntos.",
        "score": ("Ronda 1. Partida a 100 puntos.", "Tú: 0 puntos, te faltan 100."),
        "sound": ("Sonido apagado", "Sonido: no (M)"),
    },
    "en": {
        "hand": "You have 7 cards. ",
        "turns": "You: 7 cards, 0 points.",
        "score": ("Round 1. Game to 100 points.", "You: 0 points, 100 to go."),
        "sound": ("Sound off", "Sound: off (M)"),
    },
    "pt-br": {
        "hand": "Você tem 7 cartas. ",
        "turns": "Você: 7 cartas, 0 pontos.",  # pt_BR: the singular for 1 alone (n != 1)
        "score": ("Rodada 1. Partida até 100 pontos.", "Você: 0 pontos, precisa de mais 100."),
        "sound": ("Som desligado", "Som: não (M)"),
    },
}


@pytest.fixture
def three_languages_url(server_url):
    """The shared server: it offers the three languages, as the site does by default."""
    return server_url


def _table_with_robot(page: Page, url: str, language: str) -> None:
    """Ana, in `language` (Django's language cookie; her browser says English), opens a table
    with a robot and starts the match, with the keyboard alone (no label read)."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    keyboard_lobby_with_robot(page, url)
    page.locator("#panel form > .btn.primary").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#panel .hand .card")).to_have_count(7)


def _answer(page: Page, key: str) -> str:
    page.evaluate("document.getElementById('answer').textContent = ''")
    page.keyboard.press(key)
    wait_until(page, "() => document.getElementById('answer').textContent !== ''")
    return page.locator("#answer").text_content().strip()


@pytest.mark.parametrize("language", ["es", "en", "pt-br"])
def test_the_scripts_speak_the_readers_language(new_page, three_languages_url, language):
    words = WORDS[language]
    errors: list[str] = []
    page = new_page(locale="en-US")
    page.on("pageerror", lambda error: errors.append(str(error)))  # none from the scripts
    _table_with_robot(page, three_languages_url, language)
    assert page.locator("html").get_attribute("lang") == language
    catalog = page.locator("head script:not([type])").last.get_attribute("src")
    if language == "es":  # the source: no catalog
        assert not catalog.startswith("/jsi18n/")
    else:
        assert catalog.startswith(f"/jsi18n/{language}/")

    expect(page.locator("#panel .your-turn")).to_be_visible()  # (the robot may start)
    hand = _answer(page, "c")
    assert hand.startswith(words["hand"])
    # Each card by its name, and why the others cannot be played said once: from the cards'
    # data-spoken-name and data-spoken-why, whatever words the language puts between them.
    blocked = page.locator("#panel .hand .card[data-spoken-why]")
    if blocked.count():
        assert hand.count(blocked.first.get_attribute("data-spoken-why")) == 1
        for card in blocked.all():
            assert card.get_attribute("data-spoken-name") in hand
            assert card.locator(".visually-hidden").text_content().strip() not in hand
    assert words["turns"] in _answer(page, "t")
    round_said, mine = words["score"]
    score = _answer(page, "r")
    assert score.startswith(round_said) and mine in score

    page.keyboard.press("m")
    toast, button = words["sound"]
    expect(page.locator("#toast")).to_have_text(toast)
    expect(page.locator("[data-sound-toggle]").first).to_have_text(button)
    assert errors == []
