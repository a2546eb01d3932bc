"""The table chat: written through the POST view, heard on the table's own socket.

Sockets are wrapped as config/asgi.py wraps them; a person's socket carries the session
cookie of their Django test client, as a browser's would.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from chat.models import ChatMessage
from tables.live.presence import presence_written
from tables.models import Presence, TableEvent
from tests.realtime import connect, in_event_loop, nothing_more, received
from tests.tables.helpers import Person, lobby, page, started

from .helpers import authors, chat_log, events, say, texts

pytestmark = pytest.mark.django_db(transaction=True)

@in_event_loop
async def test_a_players_message_reaches_every_viewer_under_the_seats_name():
    table, (ana, beto) = await sync_to_async(started)("Ana", "Beto")
    spectator = Person()
    sockets = [await connect(table, p) for p in (ana, beto, spectator)]
    for socket in sockets:
        await received(socket, 1)

    response = await sync_to_async(say)(beto, table, "¡Hola, mesa!")

    assert response.status_code == 200
    for socket in sockets:
        html = await received(socket, 1)
        assert texts(html) == ["¡Hola, mesa!"] and authors(html) == ["Beto"]
        assert 'hx-swap-oob="beforeend:#chat-log"' in html and "mirando" not in html
        await socket.disconnect()


@in_event_loop
async def test_a_spectators_message_is_marked_as_watching_and_carries_their_chosen_name():
    table, (ana, _) = await sync_to_async(started)("Ana", "Beto")
    spectator = Person()
    socket = await connect(table, ana)
    await received(socket, 1)

    await sync_to_async(say)(spectator, table, "¡Vamos Ana!", name="  Tía   Rosa ")

    html = await received(socket, 1)
    assert authors(html) == ["Tía Rosa"] and '<span class="chat-tag">mirando</span>' in html
    later = await sync_to_async(say)(spectator, table, "otra vez")
    assert later.status_code == 200
    assert 'value="Tía Rosa"' in await sync_to_async(page)(spectator, table)
    await socket.disconnect()


@in_event_loop
async def test_the_conversation_so_far_comes_on_connect_and_on_page_load_newest_last():
    table, (ana, beto) = await sync_to_async(started)("Ana", "Beto")
    for person, text in ((ana, "primero"), (beto, "segundo"), (ana, "tercero")):
        assert (await sync_to_async(say)(person, table, text)).status_code == 200
    latecomer = Person()

    socket = await connect(table, latecomer)
    on_connect = chat_log(await received(socket, 1))
    on_load = chat_log(await sync_to_async(page)(latecomer, table))

    assert texts(on_connect) == texts(on_load) == ["primero", "segundo", "tercero"]
    assert authors(on_load) == ["Ana", "Beto", "Ana"]
    await socket.disconnect()


@in_event_loop
async def test_a_message_is_shown_exactly_as_typed_and_never_as_html():
    table, (ana, beto) = await sync_to_async(started)("Ana", "Beto")
    socket = await connect(table, ana)
    await received(socket, 1)

    await sync_to_async(say)(beto, table, "<script>alert(1)</script> & <b>hola</b>")

    pushed = await received(socket, 1)
    loaded = chat_log(await sync_to_async(page)(ana, table))
    for html in (pushed, loaded):
        assert "<script>alert" not in html and "<b>hola" not in html
        assert texts(html) == [
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;hola&lt;/b&gt;"
        ]
    await socket.disconnect()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Escribe un mensaje."),
        (" \n ", "Escribe un mensaje."),
        ("x" * 301, "Un mensaje puede tener hasta 300 caracteres."),
    ],
)
@in_event_loop
async def test_an_empty_or_too_long_message_is_refused_and_nothing_is_posted(text, message):
    table, (ana, beto) = await sync_to_async(lobby)("Ana", "Beto")
    socket = await connect(table, ana)
    await received(socket, 1)

    response = await sync_to_async(say)(beto, table, text)

    assert response.status_code == 409 and message in response.content.decode()
    assert 'id="chat-error"' in response.content.decode()
    await nothing_more(socket)
    assert not await sync_to_async(ChatMessage.objects.exists)()
    await socket.disconnect()


def test_a_message_of_exactly_300_characters_is_posted_whole():
    table, (ana,) = lobby("Ana")
    posted = say(ana, table, "ñ" * 300)
    assert posted.status_code == 200
    assert ChatMessage.objects.get().text == "ñ" * 300
    # The answer clears the error line: hidden and empty (it once said "None").
    assert '<p id="chat-error" class="chat-error" role="alert" hidden hx-swap-oob="true"></p>' in (
        posted.content.decode()
    )


def test_without_javascript_a_message_is_posted_and_the_browser_goes_back_to_the_chat():
    table, (ana,) = lobby("Ana")
    response = ana.post(f"/mesa/{table.code}/chat/", {"text": "sin js"}, htmx=False)
    assert response.status_code == 302 and response.url == f"/mesa/{table.player_code}/#chat"
    refused = ana.post(f"/mesa/{table.code}/chat/", {"text": ""}, htmx=False)
    assert refused.status_code == 302
    assert "Escribe un mensaje." in ana.get(refused.url).content.decode()


@in_event_loop
async def test_when_the_host_turns_spectator_chat_off_spectators_cannot_write_and_players_can():
    table, (ana, beto) = await sync_to_async(started)("Ana", "Beto")
    spectator = Person()
    watching, playing = await connect(table, spectator), await connect(table, beto)
    await received(watching, 1)
    await received(playing, 1)

    refused = await sync_to_async(beto.post)(f"/mesa/{table.code}/chat/mirones/", {"allowed": "0"})
    assert refused.status_code == 409 and "Solo quien abrió la mesa" in refused.content.decode()
    response = await sync_to_async(ana.post)(f"/mesa/{table.code}/chat/mirones/", {"allowed": "0"})

    assert response.status_code == 200 and "checked" not in response.content.decode()
    gate = await received(watching, 1)
    assert 'id="chat-gate"' in gate and "apagó el chat para quienes miran" in gate
    await nothing_more(playing)
    spoken = await sync_to_async(say)(spectator, table, "hola")
    assert spoken.status_code == 409 and "apagó el chat" in spoken.content.decode()
    assert (await sync_to_async(say)(beto, table, "hola")).status_code == 200
    assert "apagó el chat para quienes miran" in await sync_to_async(page)(spectator, table)

    await sync_to_async(ana.post)(f"/mesa/{table.code}/chat/mirones/", {"allowed": ["0", "1"]})
    assert (await sync_to_async(say)(spectator, table, "gracias")).status_code == 200
    for socket in (watching, playing):
        await socket.disconnect()


def test_the_page_shows_the_seats_own_history_and_the_tables_events_in_time_order():
    table, (ana, beto) = lobby("Ana", "Beto", robots=1)
    say(ana, table, "¿empezamos?")
    ana.act(table, "empezar")

    log = chat_log(page(beto, table))

    assert events(log) == [
        "Ana abrió la mesa.", "Beto se sentó a la mesa.", "Se sumó Robotina, un robot.",
        "Empezó la partida.",
    ]
    assert log.index("Robotina") < log.index("¿empezamos?") < log.index("Empezó la partida")


def test_a_round_and_a_match_won_show_who_won_and_with_how_many_points():
    table, (ana, beto) = started("Ana", "Beto")
    TableEvent.objects.create(
        table=table, version=90, kind="round_over", data={"points": {"0": 0, "1": 23}}
    )
    TableEvent.objects.create(table=table, version=91, kind="match_over", data={"winners": [1]})
    TableEvent.objects.create(table=table, version=92, kind="rematch")

    assert events(chat_log(page(ana, table)))[-3:] == [
        "Beto ganó la ronda con 23 puntos.", "¡Beto ganó la partida!",
        "¡Revancha! Nueva partida en la misma mesa.",
    ]


@in_event_loop
async def test_a_table_change_pushes_its_event_line_to_the_chat():
    table, (ana,) = await sync_to_async(lobby)("Ana")
    socket = await connect(table, ana)
    await received(socket, 1)

    await sync_to_async(Person("Beto").join)(table)

    pushed = await received(socket, 1)  # one frame: board, panel and chat line
    assert events(pushed) == ["Beto se sentó a la mesa."]
    await socket.disconnect()


@in_event_loop
async def test_the_spectators_watching_now_are_counted_while_their_socket_is_open():
    table, (ana, _) = await sync_to_async(started)("Ana", "Beto")
    sockets = [await connect(table, ana), await connect(table, Person()), await connect(table)]
    for socket in sockets:
        await received(socket, 1)  # greeted: its presence is on its way
    count = sync_to_async(
        lambda: Presence.objects.filter(table=table, seat_number__isnull=True).count()
    )
    await presence_written()
    assert await count() == 2
    for socket in sockets:
        await socket.disconnect()
    await presence_written()
    assert await count() == 0
