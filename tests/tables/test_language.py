"""The language a person reads the site in: their choice (a cookie), else their browser's, else
Spanish; offered on the home page and in the table's menu, each language named in itself."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from .helpers import Person, page

THREE = [("es", "Español"), ("en", "English"), ("pt-br", "Português (Brasil)")]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("three_languages")]


@pytest.fixture
def three_languages(settings):
    """The languages #52 brings, offered (the site offers a language once its catalog is whole)."""
    settings.LANGUAGES = THREE


def _html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def test_spanish_without_a_choice_or_a_browser_language_the_site_knows():
    assert _html_lang(Person().get("/").content.decode()) == "es"
    unknown = Person().get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert _html_lang(unknown.content.decode()) == "es"


def test_the_browsers_language_first_then_the_persons_choice_kept_in_a_cookie():
    person = Person()
    brazil = {"Accept-Language": "pt-BR,pt;q=0.9"}
    assert _html_lang(person.get("/", headers=brazil).content.decode()) == "pt-br"
    response = person.post("/idioma/", {"language": "en", "next": "/reglas/"}, htmx=False)
    assert response.status_code == 302 and response.url == "/reglas/"
    assert person.client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    again = person.get("/", headers=brazil).content.decode()
    assert _html_lang(again) == "en"


def test_an_unknown_language_or_a_next_elsewhere_changes_nothing():
    person = Person()
    refused = person.post("/idioma/", {"language": "xx", "next": "/"})
    assert refused.status_code == 400
    assert "Ese idioma no existe." in refused.content.decode()
    assert settings.LANGUAGE_COOKIE_NAME not in person.client.cookies
    away = {"language": "en", "next": "https://example.org/"}
    elsewhere = person.post("/idioma/", away, htmx=False)
    assert elsewhere.status_code == 302 and not elsewhere.url.startswith("http")
    assert person.get("/idioma/").status_code == 405


def test_home_and_the_table_menu_offer_each_language_named_in_itself(game):
    table, ana, _beto = game
    for html in (Person().get("/").content.decode(), page(ana, table)):
        form = html[html.index('class="language-form"') :]
        form = form[: form.index("</form>")]
        buttons = re.findall(r'name="language" value="([^"]+)" lang="([^"]+)"[^>]*>([^<]+)<', form)
        assert buttons == [(code, code, name) for code, name in THREE]
        assert 'value="es" lang="es" aria-pressed="true"' in form


def test_with_spanish_alone_offered_a_browser_in_english_reads_spanish_and_no_choice_shows(
    settings,
):
    settings.LANGUAGES = [("es", "Español")]
    html = Person().get("/", headers={"Accept-Language": "en-US,en;q=0.9"}).content.decode()
    assert _html_lang(html) == "es"
    assert "language-form" not in html
