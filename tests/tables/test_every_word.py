"""Every word a player reads is marked for translation (#52): the pages, fragments, refusals, log
lines, pushes and files of a round, rendered in a pseudo-language whose catalog is the Spanish
source wrapped in ⟦…⟧. Any text left outside the marks (but names, chat and numbers) was never
marked, and would stay Spanish in every language. And no English or Portuguese entry is empty,
fuzzy or missing, so a marked text is never left Spanish either."""

from __future__ import annotations

import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from tables.live.turn_alerts import alert_text
from tables.models import Seat
from tests.realtime import connect, in_event_loop, received

from .helpers import Person, match_of, position, set_round, started

PSEUDO = "xx"
LOCALE = Path(settings.BASE_DIR) / "locale"
# Read by people besides the text between tags: these attributes (a button's spoken name, a
# confirmation) and the page's description. (A link preview's tags are in its host's language,
# checked apart.)
READ = {"aria-label", "title", "placeholder", "alt", "hx-confirm", "data-why"}
PREVIEW = {"description", "og:title", "og:description", "og:image:alt", "twitter:title",
           "twitter:description", "twitter:image:alt"}
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
# Not words of ours: the people's names and chat, the game's name, each language's own name,
# a date's month (Django's), numbers and signs, a card's corner (A, J, Q, K) and the keys'
# names on a keyboard.
DATA = re.compile(
    r"Ana|Beto|Robot\w*|hola a todos|Ocho|Loco|Español|English|Português|Brasil|Pseudo"
    r"|(?<=\d )(Ene|Feb|Mar|Abr|May|Jun|Jul|Ago|Sep|Oct|Nov|Dic)\b"
    r"|\b(Esc|Enter|NVDA|JAWS|Insert|Start|Back|F\d?|[A-Z])\b|[^\w]|\d|_"
)
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="session")
def pseudo_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pseudo-language's catalogs, made from the English ones with GNU gettext: each
    entry's Spanish, wrapped."""
    root = tmp_path_factory.mktemp("locale")
    folder = root / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for domain in ("django", "djangojs"):
        source = LOCALE / "en" / "LC_MESSAGES" / f"{domain}.po"
        emptied = subprocess.run(
            ["msgfilter", "--keep-header", "-i", str(source), "sed", "-n", ""],
            check=True, capture_output=True,
        ).stdout
        spanish = subprocess.run(["msgen", "-"], input=emptied, check=True, capture_output=True)
        wrapped = subprocess.run(
            ["msgfilter", "--keep-header", "sed", "-e", "s/^/⟦/", "-e", "s/$/⟧/"],
            input=spanish.stdout, check=True, capture_output=True,
        )
        subprocess.run(["msgfmt", "-o", str(folder / f"{domain}.mo"), "-"],
                       input=wrapped.stdout, check=True)
    return root


@pytest.fixture
def pseudo(settings, pseudo_locale: Path) -> None:
    settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
    settings.LOCALE_PATHS = [pseudo_locale, *settings.LOCALE_PATHS]


class _Read(HTMLParser):
    """A page's text as read: its text between tags in order (NUL between nodes, so that a
    translation with markup inside stays one), and the attributes read apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stream: list[str] = []
        self.attributes: list[str] = []
        self.preview: dict[str, str] = {}  # a page's description, or its link preview's tags
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self.skip += 1
        names = dict(attrs)
        meta = names.get("name") or names.get("property")
        if tag == "meta" and meta in PREVIEW:
            self.preview[meta] = names.get("content") or ""
        self.attributes.extend(value for name, value in attrs if value and name in READ)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.stream.append(data)


def _left(text: str) -> list[str]:
    while MARKED.search(text):
        text = MARKED.sub("", text)
    return [" ".join(piece.split())[:120] for piece in text.split("\0")
            if DATA.sub("", piece).strip()]


def unmarked(html: str, preview: bool = False) -> list[str]:
    """The texts of `html` a person reads that are not inside the marks (nor data); with
    `preview`, those of its link preview's tags alone (worded in the host's language, not the
    reader's: a table page's description is its preview's)."""
    reader = _Read()
    reader.feed(html)
    if preview:
        return [left for value in reader.preview.values() for left in _left(value)]
    left = _left("\0".join(reader.stream))
    for value in reader.attributes:
        left += _left(value)
    if "og:title" not in reader.preview:
        left += _left(reader.preview.get("description", ""))
    return left


def _in_pseudo(*people: Person) -> None:
    for person in people:
        person.client.cookies[settings.LANGUAGE_COOKIE_NAME] = PSEUDO


def _looked_at(person: Person, paths: list[str], htmx: bool = False) -> dict[str, list[str]]:
    found = {}
    for path in paths:
        response = person.get(path, headers={"HX-Request": "true"} if htmx else {})
        assert response.status_code in (200, 404), (path, response.status_code)
        left = unmarked(response.content.decode())
        if left:
            found[path] = left
    return found


@pytest.mark.usefixtures("pseudo")
def test_every_page_and_fragment_of_a_round_is_marked_for_translation():
    table, (ana, beto) = started("Ana", "Beto", robots=1)
    _in_pseudo(ana, beto)
    spectator = Person()
    _in_pseudo(spectator)
    code = table.code
    left: dict[str, list[str]] = {}
    home = Person()
    _in_pseudo(home)
    left |= _looked_at(home, ["/", "/reglas/", "/nada/", "/mesa/no-existe/"])
    # A round in play, as each seat and a spectator see it, its refusals and the chat's.
    for person, at in ((ana, table.player_code), (beto, table.player_code), (spectator, code)):
        left |= {f"{p} ({person.name or 'mirón'})": v for p, v in
                 _looked_at(person, [
                     f"/mesa/{at}/", f"/mesa/{at}/registro/", f"/mesa/{at}/partida/1.txt",
                 ]).items()}
    refusals = [
        ana.move(table, "pass"),  # not a pass it may make, or not its turn
        ana.post(f"/mesa/{code}/chat/", {"text": ""}),
        ana.post(f"/mesa/{code}/chat/", {"text": "hola a todos"}),
        ana.post("/idioma/", {"language": "zz", "next": "/"}),
        ana.post("/baraja/", {"deck": "zz"}),
        spectator.post(f"/mesa/{code}/empezar/", {"version": 1}),
    ]
    for n, response in enumerate(refusals):
        if found := unmarked(response.content.decode()):
            left[f"refusal {n}"] = found
    # The round's end (a position put in place: the match's files, which replay the deal,
    # were read above), its summary, the history.
    set_round(table, position("clasico", [["5H"], ["KD", "9C"], ["2C"]], "7H"), match_of(table))
    assert ana.move(table, "5H").status_code == 200
    for person, at in ((ana, table.player_code), (spectator, code)):
        left |= {f"{p} ({person.name or 'mirón'})": v for p, v in _looked_at(person, [
            f"/mesa/{at}/", f"/mesa/{at}/historial/", "/mis-mesas/",
        ]).items()}
    # The push a seat gets when its turn comes, in the language it subscribed in.
    push = alert_text(table, Seat.objects.get(table=table, number=1))
    if found := unmarked(f"{push['title']} {push['body']}"):
        left["push"] = found
    assert not left, "\n".join(f"{where}: {texts}" for where, texts in left.items())


@pytest.mark.usefixtures("pseudo")
def test_an_invitations_preview_is_in_its_hosts_language_whoever_fetches_it():
    host = Person("Ana")
    _in_pseudo(host)
    table = host.open_table()
    # A chat app's fetch of the invitation (no cookie), the host's own page.
    for reader, at in ((Person(), table.code), (host, table.player_code)):
        page = reader.get(f"/mesa/{at}/").content.decode()
        assert 'property="og:title"' in page and not unmarked(page, preview=True)
    spanish = Person("Beto").open_table()
    page = Person().get(f"/mesa/{spanish.code}/").content.decode()
    assert unmarked(page, preview=True)  # a Spanish host's: Spanish, not the pseudo's marks


@in_event_loop
@pytest.mark.usefixtures("pseudo")
async def test_every_push_to_a_page_is_in_its_own_language(game):
    table, _ana, beto = game
    socket = await connect(table, Person(), language=PSEUDO)
    greeting = await received(socket, 1)
    await sync_to_async(beto.move)(table, "5H", table.version)
    pushed = await received(socket, 1)
    await socket.disconnect()
    assert not unmarked(greeting) and not unmarked(pushed), unmarked(greeting + pushed)


@pytest.mark.parametrize("language", ["en", "pt_BR"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_each_catalog_is_whole_none_empty_or_fuzzy(language: str, domain: str):
    catalog = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
    checked = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(catalog)],
        capture_output=True, text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "fuzzy" not in checked.stderr and "untranslated" not in checked.stderr, checked.stderr
