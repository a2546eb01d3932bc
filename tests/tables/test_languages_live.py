"""One table, several languages, live: each page gets its pushes in the language it is read in,
and a change is rendered once per audience in each language the table's pages read, never in
one nobody reads there."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.live import frames
from tables.models import Table
from tests.realtime import connect, in_event_loop, nothing_more, received

from .helpers import Person, version_shown

THREE = [("es", "Español"), ("en", "English"), ("pt-br", "Português (Brasil)")]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("three")]


@pytest.fixture
def three(settings):
    settings.LANGUAGES = THREE


def _languages(table: Table) -> list[str]:
    return Table.objects.get(pk=table.pk).languages_read()


@in_event_loop
async def test_a_page_in_a_new_language_is_noted_and_gets_each_change_in_its_own_language(game):
    table, _ana, beto = game
    assert await sync_to_async(_languages)(table) == ["es"]  # the host's, at ABRIR MESA
    spanish = await connect(table, Person())
    english = await connect(table, Person(), language="en")
    for socket in (spanish, english):
        await received(socket, 1)
    assert await sync_to_async(_languages)(table) == ["es", "en"]

    await sync_to_async(beto.move)(table, "5H", table.version)

    pushed = {name: await received(socket, 1) for name, socket in
              (("es", spanish), ("en", english))}
    assert version_shown(pushed["es"]) == version_shown(pushed["en"]) == table.version + 1
    assert "Estás mirando la partida." in pushed["es"]
    for language in ("es", "en"):
        kept = frames.frames_newer(table.pk, table.version, language)
        assert kept.language == language
        assert kept.page_html(frames.WATCHERS) in pushed[language]
    assert frames.frames_newer(table.pk, table.version, "pt-br") is None  # nobody reads it
    for socket in (spanish, english):
        await nothing_more(socket)  # one frame each, not one per language
        await socket.disconnect()


@in_event_loop
async def test_a_language_the_site_does_not_offer_reads_the_default_and_is_not_noted(game):
    table, _ana, _beto = game
    socket = await connect(table, Person(), language="xx")
    socket.table_group = table.group_name  # (the default's groups: it joined those)
    await received(socket, 1)
    assert await sync_to_async(_languages)(table) == ["es"]
    await socket.disconnect()


def test_a_table_opened_in_english_is_rendered_in_english_alone():
    host = Person("Ann")
    response = host.client.post(
        "/abrir/", {"name": "Ann", "rules": "clasico"}, headers={"Accept-Language": "en"}
    )
    table = Table.objects.get(player_code=response.url.strip("/").split("/")[-1])
    assert table.languages_read() == ["en"]
    page = host.get(response.url, headers={"Accept-Language": "en"}).content.decode()
    assert f'ws-connect="/ws/mesa/{table.player_code}/?lang=en"' in page
    assert '<html lang="en"' in page
