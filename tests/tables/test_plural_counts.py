"""Counts read as a person of each language writes them (#52): every plural entry of the
catalogs at 0, 1 and 2. English and Brazilian Portuguese both keep the singular for 1 alone
("0 points", "0 pontos"; Brazilians write "0 pontos" on a game screen, not gettext's pt_BR
default "0 ponto"), and the Spanish source says its own words."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import ngettext, npgettext

LOCALE = Path(settings.LOCALE_PATHS[0])
CATALOGS = {"en": "en", "pt-br": "pt_BR"}


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs() -> None:
    compiled = [LOCALE / lang / "LC_MESSAGES" / "django.mo" for lang in CATALOGS.values()]
    if not all(mo.exists() for mo in compiled):
        if shutil.which("msgfmt") is None:
            pytest.skip("no compiled catalogs, and no msgfmt to compile them")
        call_command("compilemessages", locale=list(CATALOGS.values()), verbosity=0)
        translation.trans_real._translations.clear()


def _unquote(text: str) -> str:
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape")


def plural_entries(path: Path) -> list[dict[str, str]]:
    """The entries with a plural of a .po file: msgctxt, msgid, msgid_plural, msgstr[i]."""
    entries, entry, key = [], {}, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if "msgid_plural" in entry:
                entries.append(entry)
            entry, key = {}, None
        elif line.startswith("#"):
            continue
        elif match := re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line):
            key = match[1]
            entry[key] = match[2]
        elif (match := re.match(r'^"(.*)"$', line)) and key:
            entry[key] += match[1]
    return [{k: _unquote(v) for k, v in e.items()} for e in entries]


def _counted(entry: dict[str, str], n: int) -> str:
    if "msgctxt" in entry:
        return npgettext(entry["msgctxt"], entry["msgid"], entry["msgid_plural"], n)
    return ngettext(entry["msgid"], entry["msgid_plural"], n)


def test_the_pt_br_catalogs_keep_the_singular_for_one_alone():
    for domain in ("django", "djangojs"):
        header = (LOCALE / "pt_BR" / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
        assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in header


@pytest.mark.parametrize("language", CATALOGS)
def test_every_plural_entry_reads_right_at_zero_one_and_two(language: str):
    entries = plural_entries(LOCALE / CATALOGS[language] / "LC_MESSAGES" / "django.po")
    assert entries
    with translation.override(language):
        for entry in entries:
            assert _counted(entry, 0) == entry["msgstr[1]"], entry["msgid"]
            assert _counted(entry, 1) == entry["msgstr[0]"], entry["msgid"]
            assert _counted(entry, 2) == entry["msgstr[1]"], entry["msgid"]


def test_a_score_of_nothing_reads_as_each_language_writes_it():
    points = ("%(count)s punto", "%(count)s puntos")
    said = {}
    for language in ("es", "en", "pt-br"):
        with translation.override(language):
            said[language] = [ngettext(*points, n) % {"count": n} for n in (0, 1, 2)]
    assert said == {
        "es": ["0 puntos", "1 punto", "2 puntos"],
        "en": ["0 points", "1 point", "2 points"],
        "pt-br": ["0 pontos", "1 ponto", "2 pontos"],
    }


def test_djangos_own_pt_br_words_keep_their_own_rule():
    """Django keeps catalogs whose Plural-Forms differ apart (TranslationCatalog): its own
    pt_BR catalog (n > 1) is not counted by ours, nor ours by it."""
    djangos = ("%(num)d minute", "%(num)d minutes")  # not a literal: makemessages skips it
    ours = ("%(count)s punto", "%(count)s puntos")
    with translation.override("pt-br"):
        assert ngettext(*djangos, 0) % {"num": 0} == "0 minuto"
        assert ngettext(*ours, 0) % {"count": 0} == "0 pontos"
