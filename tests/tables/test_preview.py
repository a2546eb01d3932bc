"""The invitation as a chat app shows it: fetched as a link preview (no cookies, no JavaScript,
a link-preview user agent), it says who invites, to what and how the table stands, with a
picture of the table; it never names a card of a hand nor carries the players' address, and
the fetch seats nobody, starts no session and spends nobody's rate limit."""

from __future__ import annotations

import io
import re
from dataclasses import astuple
from html.parser import HTMLParser

import pytest
from PIL import Image

from tables.audiences import wording
from tables.invitation import picture
from tables.invitation.preview import invitation_preview
from tables.invitation.qr import QR_NAME
from tables.models import Seat
from tables.state.snapshot import TableSnapshot

from .helpers import ANA_HAND, BETO_HAND, Person, lobby, new_address, panel

pytestmark = pytest.mark.django_db(transaction=True)

# What chat apps send (as they send it) when they fetch a link to show its preview.
CHAT_APPS = {
    "WhatsApp": "WhatsApp/2.23.20.0 A",
    "Signal": "WhatsApp/2",
    "Facebook": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "iMessage": "facebookexternalhit/1.1 Facebot Twitterbot/1.0",
    "X": "Twitterbot/1.0",
    "Slack": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "Slack images": "Slack-ImgProxy (+https://api.slack.com/robots)",
    "Telegram": "TelegramBot (like TwitterBot)",
    "Discord": "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "LinkedIn": "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    "Teams": "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5",
    "Applebot": (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like "
        "Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
    ),
    "Mastodon": "http.rb/5.1.1 (Mastodon/4.1.2; +https://example.social/) Bot",
}
WHATSAPP = CHAT_APPS["WhatsApp"]
# People's browsers, which get the table itself.
PEOPLE = {
    "Chrome on Android": (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/126.0 Mobile Safari/537.36"
    ),
    "Safari on iPhone": (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
        "like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
    ),
    "Facebook's in-app browser": (
        "Mozilla/5.0 (Linux; Android 16; Pixel 10 Build/CP1A; wv) AppleWebKit/537.36 (KHTML, "
        "like Gecko) Version/4.0 Chrome/146.0 Mobile Safari/537.36 MetaIAB Facebook"
    ),
    "headless Chromium": (
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        "HeadlessChrome/140.0.0.0 Safari/537.36"
    ),
}


class _Meta(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        name = found.get("property") or found.get("name")
        if tag == "meta" and name and found.get("content") is not None:
            self.tags[name] = found["content"] or ""


def meta(html: str) -> dict[str, str]:
    parser = _Meta()
    parser.feed(html)
    return parser.tags


def preview_fetch(path: str, agent: str = WHATSAPP, address: str | None = None):
    """GET `path` as a chat app does: no cookies, its own user agent."""
    return Person(address=address).get(path, headers={"User-Agent": agent})


def path(table) -> str:
    """The address of the table's preview picture now, as its invitation's preview gives it."""
    return image_path(meta(preview_fetch(f"/mesa/{table.code}/").content.decode()))


def image_path(tags: dict[str, str]) -> str:
    assert tags["og:image"].startswith("http://testserver/")
    return tags["og:image"].removeprefix("http://testserver")


@pytest.mark.parametrize("agent", CHAT_APPS.values(), ids=CHAT_APPS.keys())
def test_a_fresh_tables_invitation_fetched_by_a_chat_app_says_who_invites_the_rules_and_the_seats(
    agent,
):
    table, _ = lobby("Ana")
    response = preview_fetch(f"/mesa/{table.code}/", agent)
    assert response.status_code == 200
    tags = meta(response.content.decode())
    assert tags["og:title"] == tags["twitter:title"] == "Ana te invita a una mesa de Ocho Loco"
    assert tags["og:description"].startswith("Clásico · quedan 3 lugares.")
    assert tags["og:url"] == f"http://testserver/mesa/{table.code}/"
    assert re.fullmatch(rf"/mesa/{table.code}/vista/[0-9a-f]{{16}}\.png", image_path(tags))
    assert tags["twitter:image"] == tags["og:image"]
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:image:alt"] and tags["og:site_name"] == "Ocho Loco"


def test_the_invitation_says_how_many_seats_are_left_as_people_and_robots_sit():
    table, (ana, _) = lobby("Ana", "Beto")
    tags = meta(preview_fetch(f"/mesa/{table.code}/").content.decode())
    assert "Clásico · quedan 2 lugares." in tags["og:description"]
    ana.act(table, "robot")
    ana.act(table, "robot")
    tags = meta(preview_fetch(f"/mesa/{table.code}/").content.decode())
    assert "la mesa está completa" in tags["og:description"]


def test_once_the_match_is_on_the_preview_says_it_can_be_watched_and_how_it_stands(game):
    table, ana, beto = game
    tags = meta(preview_fetch(f"/mesa/{table.code}/").content.decode())
    assert tags["og:title"] == "Ana te invita a mirar una partida de Ocho Loco"
    assert "se juega la ronda 1" in tags["og:description"]
    assert "Ana 0, Beto 0" in tags["og:description"]
    assert "mira la partida" in tags["og:description"]
    before = image_path(tags)
    beto.move(table, "5H")  # Beto plays on the 9♥: the pile's top card changes, so does the picture
    after = image_path(meta(preview_fetch(f"/mesa/{table.code}/").content.decode()))
    assert after != before


def test_no_preview_names_a_card_of_a_hand_nor_carries_the_players_address(game):
    table, ana, _ = game
    hands = ANA_HAND + BETO_HAND
    fetched = [
        preview_fetch(f"/mesa/{table.code}/").content.decode(),
        preview_fetch(f"/mesa/{table.player_code}/").content.decode(),
    ]
    # The table's own page carries the same tags in its head, for any chat app a list misses.
    head = ana.get(f"/mesa/{table.player_code}/").content.decode().split("</head>")[0]
    fetched.append(head[head.index('<meta name="description"'):])
    for html in fetched:
        assert table.player_code not in html
        for card in hands:
            assert not re.search(rf"\b{card}\b", html), card
            assert wording.card_name(card) not in html
        assert meta(html)["og:url"] == f"http://testserver/mesa/{table.code}/"
    # What the picture shows: the pile's top card (public), never a card of a hand.
    shown = invitation_preview(TableSnapshot.load(table))
    assert shown.top == "9H"
    assert not set(hands) & {str(v) for v in astuple(shown) if isinstance(v, str)}
    assert table.player_code not in meta(fetched[0])["og:image"]


def test_the_preview_picture_is_1200_by_630_under_300_kb_and_kept_for_good(
    game, monkeypatch: pytest.MonkeyPatch
):
    table, *_ = game
    drawn = []
    draw = picture._draw
    monkeypatch.setattr(picture, "_draw", lambda p: drawn.append(p) or draw(p))
    picture.preview_png.cache_clear()
    path = image_path(meta(preview_fetch(f"/mesa/{table.code}/").content.decode()))
    first = preview_fetch(path, CHAT_APPS["Slack images"])
    again = preview_fetch(path, CHAT_APPS["Facebook"])
    assert first.status_code == again.status_code == 200
    assert first["Content-Type"] == "image/png"
    assert first.content == again.content
    assert len(drawn) == 1  # drawn once, whoever asks again
    assert len(first.content) < 300_000
    assert Image.open(io.BytesIO(first.content)).size == (1200, 630)
    cache = first["Cache-Control"]
    assert "public" in cache and "max-age=31536000" in cache and "immutable" in cache


@pytest.mark.parametrize("rules", ["clasico", "anuncio", "chileno"])
def test_every_preview_picture_of_a_lobby_and_a_match_is_1200_by_630_under_300_kb(rules):
    table, (ana, *_) = lobby("Maximiliano Fernández Ñ", "Beto", robots=1, rules=rules)
    pictures = [preview_fetch(path(table)).content]
    assert ana.act(table, "empezar").status_code == 200
    pictures.append(preview_fetch(path(table)).content)
    assert pictures[0] != pictures[1]
    for png in pictures:
        assert len(png) < 300_000
        assert Image.open(io.BytesIO(png)).size == (1200, 630)


def test_the_picture_address_changes_with_what_it_shows_and_an_old_one_leads_to_the_new():
    table, (ana,) = lobby("Ana")
    old = image_path(meta(preview_fetch(f"/mesa/{table.code}/").content.decode()))
    Person("Beto").join(table)
    new = image_path(meta(preview_fetch(f"/mesa/{table.code}/").content.decode()))
    assert new != old
    moved = preview_fetch(old)
    assert moved.status_code == 302 and moved.url == new
    assert "immutable" not in moved["Cache-Control"]


def test_a_renewed_invitation_answers_a_preview_fetch_with_a_preview_that_says_the_link_changed():
    table, (ana,) = lobby("Ana")
    old = table.code
    assert ana.post(f"/mesa/{table.player_code}/enlace/").status_code == 200
    table.refresh_from_db()
    response = preview_fetch(f"/mesa/{old}/")
    assert response.status_code == 200
    html = response.content.decode()
    tags = meta(html)
    assert tags["og:title"] == "Este enlace de Ocho Loco cambió"
    assert "pide el enlace nuevo" in tags["og:description"]
    assert table.code not in html and table.player_code not in html and "Ana" not in html
    picture = preview_fetch(image_path(tags))
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    # A person who opens the old link is told the same on the site's error page.
    assert Person().get(f"/mesa/{old}/").status_code == 404


def test_a_preview_fetch_seats_nobody_starts_no_session_and_spends_no_persons_rate_limit(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "seat_claim": "1/h"}
    table, _ = lobby("Ana")
    address = new_address()  # the chat app fetches from where the friend is, say
    for agent in CHAT_APPS.values():
        response = preview_fetch(f"/mesa/{table.code}/", agent, address=address)
        assert response.status_code == 200
        assert not response.cookies  # no session, no CSRF token
        assert "Cookie" not in response.get("Vary", "") and "User-Agent" in response["Vary"]
        html = response.content.decode()
        assert "ws-connect" not in html and "<form" not in html and "<script" not in html
    assert Seat.objects.filter(table=table).count() == 1
    beto = Person("Beto", address=address)
    assert beto.join(table).status_code == 200
    assert Seat.objects.filter(table=table).count() == 2


def test_a_person_whose_browser_a_list_takes_for_a_preview_follows_its_link_to_the_table():
    table, _ = lobby("Ana")
    html = preview_fetch(f"/mesa/{table.code}/").content.decode()
    link = re.search(r'href="http://testserver(/mesa/[^"]+\?entrar=1)"', html).group(1)
    page = preview_fetch(link).content.decode()
    assert "SENTARME" in panel(page)


@pytest.mark.parametrize("agent", PEOPLE.values(), ids=PEOPLE.keys())
def test_peoples_browsers_get_the_table_with_the_same_tags_in_its_head(agent):
    table, _ = lobby("Ana")
    response = Person().get(f"/mesa/{table.code}/", headers={"User-Agent": agent})
    html = response.content.decode()
    assert "SENTARME" in panel(html)
    assert meta(html)["og:title"] == "Ana te invita a una mesa de Ocho Loco"


def test_the_players_see_the_invitations_qr_code_and_visitors_do_not():
    table, (ana, _) = lobby("Ana", "Beto")
    qr = f"/mesa/{table.code}/qr.svg"
    assert f'src="{qr}"' in panel(ana.get(f"/mesa/{table.player_code}/").content.decode())
    assert qr not in Person().get(f"/mesa/{table.code}/").content.decode()
    assert re.search(rf'<img src="{qr}" alt="{QR_NAME}[^"]*"', panel(
        ana.get(f"/mesa/{table.player_code}/").content.decode()
    ))
    svg = Person().get(qr)
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert f"<title>{QR_NAME}</title>".encode() in svg.content
    assert Person().get(f"/mesa/{table.player_code}/qr.svg").status_code == 404
