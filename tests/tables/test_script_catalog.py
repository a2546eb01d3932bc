"""The scripts' words (#52): Django's JavaScript catalog of the djangojs domain, served at
/jsi18n/<language>/?v=<release> (config/i18n.py) and loaded by every page before its modules;
the catalogs in locale/ hold every text the scripts mark, each translated."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from .helpers import Person

ROOT = Path(settings.BASE_DIR)
THREE = [("es", "Español"), ("en", "English"), ("pt-br", "Português (Brasil)")]
CATALOGS = {"en": "en", "pt-br": "pt_BR"}
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("three_languages")]


@pytest.fixture
def three_languages(settings):
    settings.LANGUAGES = THREE


def test_each_language_has_its_catalog_and_spanish_its_source(settings):
    settings.RELEASE = ""
    english = Person().get("/jsi18n/en/").content.decode()
    assert '"Te toca.": "Your turn."' in english
    assert '"Tienes %(count)s carta.": [\n' in english and '"You have %(count)s cards."' in english
    assert "const v = (n != 1);" in english
    portuguese = Person().get("/jsi18n/pt-br/").content.decode()
    assert '"Sonido apagado": "Som desligado"' in portuguese
    assert "const v = (n != 1);" in portuguese  # "0 pontos", "1 ponto", "2 pontos"
    # Spanish is the source: no catalog, every text says its own words.
    spanish = Person().get("/jsi18n/es/")
    assert spanish.status_code == 200 and "django.catalog = django.catalog || {};" in spanish.text
    assert "newcatalog" not in spanish.text
    # The language is the address's, whatever the person's cookie or browser say.
    brazil = Person().get("/jsi18n/en/", headers={"Accept-Language": "pt-BR"}).content.decode()
    assert brazil == english
    # Only the site's own words: not the admin's date picker.
    assert "Calendário" not in portuguese and "calendar" not in english.lower()


def test_a_language_not_offered_has_no_catalog(settings):
    assert Person().get("/jsi18n/xx/").status_code == 404
    settings.LANGUAGES = [("es", "Español")]
    assert Person().get("/jsi18n/en/").status_code == 404
    assert Person().post("/jsi18n/es/", htmx=False).status_code == 405


def test_kept_a_year_under_its_release_asked_again_otherwise(settings):
    settings.RELEASE = "20261207T0500Z-abc1234"
    kept = Person().get("/jsi18n/en/?v=20261207T0500Z-abc1234")
    assert kept["Cache-Control"] == "public, max-age=31536000, immutable"
    # A page of another release (a deploy under way) or an address without one: asked again
    # each time, never kept under a name its words may not match.
    for other in ("/jsi18n/en/?v=20261201T0900Z-0ff1ce0", "/jsi18n/en/"):
        assert Person().get(other)["Cache-Control"] == "no-cache"
    settings.RELEASE = ""
    assert Person().get("/jsi18n/en/?v=")["Cache-Control"] == "no-cache"


def test_every_page_loads_its_languages_catalog_before_its_modules_but_spanish_none(settings):
    settings.RELEASE = "20261207T0500Z-abc1234"
    for language in ("es", "en", "pt-br"):
        catalog = f"/jsi18n/{language}/"
        person = Person()
        person.client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for path in ("/", "/reglas/", "/mesa/NOEXISTE/"):
            html = person.get(path).content.decode()
            scripts = re.findall(r"<script [^>]*src=\"([^\"]+)\"[^>]*>", html)
            tag = f'<script src="{catalog}?v=20261207T0500Z-abc1234" defer></script>'
            if language == "es":  # the source: the scripts need no catalog, none is loaded
                assert "/jsi18n/" not in html, path
                continue
            assert tag in html, path
            first_module = html.index('<script type="module"')
            assert html.index(tag) < first_module, path
            assert scripts.count(f"{catalog}?v=20261207T0500Z-abc1234") == 1
        # The service worker words a push that came without words in the same language.
        worker = person.get("/sw.js").content.decode()
        assert f'importScripts("{catalog}?v=20261207T0500Z-abc1234")' in worker


def _marked() -> set[str]:
    """Every text the scripts give gettext or ngettext (as literals: makemessages's view)."""
    texts = set()
    for path in [*ROOT.glob("static/js/*.js"), ROOT / "templates" / "sw.js"]:
        code = path.read_text()
        for call in re.finditer(r"\b(n?gettext)\(", code):
            literal = re.match(r'\s*"((?:[^"\\]|\\.)*)"', code[call.end():])
            if literal:
                texts.add(literal.group(1))
    return texts


def _entries(po: Path) -> dict[str, list[str]]:
    entries: dict[str, list[str]] = {}
    for block in po.read_text().split("\n\n"):
        if "#, fuzzy" in block:
            entries.setdefault("<fuzzy>", []).append(block)
        strings: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if m:
                key = m.group(1)
                strings[key] = m.group(2)
            elif line.startswith('"') and key:
                strings[key] += line[1:-1]
        if strings.get("msgid"):
            entries[strings["msgid"]] = [v for k, v in strings.items() if k.startswith("msgstr")]
    return entries


@pytest.mark.parametrize("language", sorted(CATALOGS))
def test_the_catalog_holds_every_text_of_the_scripts_translated(language):
    po = ROOT / "locale" / CATALOGS[language] / "LC_MESSAGES" / "djangojs.po"
    entries = _entries(po)
    assert "<fuzzy>" not in entries
    assert set(entries) == _marked(), "makemessages -d djangojs (README, Adding a language)"
    assert all(all(translations) for translations in entries.values())
    checked = subprocess.run(["msgfmt", "--check-format", "--check-header", "-o", "/dev/null", po],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    # Each named placeholder of a text is in each of its translations.
    for msgid, translations in entries.items():
        wanted = set(re.findall(r"%\(\w+\)s", msgid))
        for translation in translations:
            assert set(re.findall(r"%\(\w+\)s", translation)) == wanted, (msgid, translation)


def test_a_module_takes_the_catalogs_functions_from_helpers_never_from_window():
    for path in sorted(ROOT.glob("static/js/*.js")):
        if path.name == "helpers.js":
            continue
        code = path.read_text()
        assert not re.search(r"\b(window|self|globalThis)\.(n?gettext|interpolate)\b", code), path
        used = set(re.findall(r"(?<![.\w])(ngettext|gettext|interpolate)\(", code))
        imported = re.search(r'import \{([^}]*)\} from "\./helpers\.js"', code)
        names = {n.strip() for n in imported.group(1).split(",")} if imported else set()
        assert used <= names, (path.name, used - names)
