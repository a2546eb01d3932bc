"""The table's websocket: what each viewer gets on connect and after every change.

The app is wrapped as config/asgi.py wraps it (sessions from the signed cookie, the table's
URL routes); a viewer's cookie is the one their Django test client holds. Moves are made the
way browsers make them, by HTTP POST, from inside the running event loop.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tables.live.frames import viewer_html
from tables.live.socket import revoked_html
from tests.realtime import ARRIVES, application, connect, in_event_loop, next_message, received

from .helpers import (
    ANA_HAND,
    BETO_HAND,
    Person,
    board,
    cards_shown,
    panel,
    robot_play,
    version_shown,
)

pytestmark = pytest.mark.django_db(transaction=True)


@in_event_loop
async def test_on_connect_a_seated_player_gets_the_board_and_their_own_hand(game):
    table, ana, beto = game
    sockets = [await connect(table, ana), await connect(table, beto)]

    ana_sees, beto_sees = [await received(socket, 1) for socket in sockets]

    assert cards_shown(board(ana_sees)) == {"9H"} == cards_shown(board(beto_sees))
    assert cards_shown(panel(ana_sees)) == set(ANA_HAND)
    assert cards_shown(panel(beto_sees)) == set(BETO_HAND)
    assert version_shown(ana_sees) == table.version
    for socket in sockets:
        await socket.disconnect()


@in_event_loop
async def test_on_connect_a_spectator_gets_the_board_and_no_hand(game):
    table, _, _ = game
    strangers = [Person(), None]  # a browser with a session of its own, and one without
    await sync_to_async(strangers[0].get)(f"/mesa/{table.code}/")
    for stranger in strangers:
        socket = await connect(table, stranger)
        html = await received(socket, 1)
        assert cards_shown(html) == {"9H"}
        assert "Estás mirando la partida." in panel(html)
        await socket.disconnect()


@in_event_loop
async def test_after_a_move_every_viewer_gets_the_new_board_and_each_seat_only_its_panel(game):
    table, ana, beto = game
    viewers = {"ana": ana, "beto": beto, "spectator": Person()}
    sockets = {name: await connect(table, person) for name, person in viewers.items()}
    for socket in sockets.values():
        await received(socket, 1)
    version = table.version

    await sync_to_async(beto.move)(table, "5H", version)

    # One frame per viewer: the board and their own panel together.
    pushed = {name: await received(socket, 1) for name, socket in sockets.items()}
    for html in pushed.values():
        assert version_shown(html) == version + 1
        assert cards_shown(board(html)) == {"5H"}
        assert html.count('id="board"') == html.count('id="panel"') == 1
    assert cards_shown(panel(pushed["ana"])) == set(ANA_HAND)
    assert "Tu turno" in pushed["ana"]
    assert cards_shown(panel(pushed["beto"])) == set(BETO_HAND) - {"5H"}
    assert cards_shown(panel(pushed["spectator"])) == set()
    for socket in sockets.values():
        await socket.disconnect()


@in_event_loop
async def test_a_robots_move_is_pushed_to_every_viewer(game):
    table, ana, beto = game
    await sync_to_async(beto.act)(table, "abandonar")
    await sync_to_async(table.refresh_from_db)()
    sockets = [await connect(table, ana), await connect(table, beto)]
    for socket in sockets:
        await received(socket, 1)

    assert await sync_to_async(robot_play)(table_id=table.pk, version=table.version)

    for socket in sockets:
        assert version_shown(await received(socket, 1)) == table.version + 1
        await socket.disconnect()


@in_event_loop
async def test_a_socket_for_an_unknown_table_is_closed_and_not_retried():
    # Accepted first (the handshake never waits for the database), then closed with a code
    # of ours: htmx's ws extension reconnects after 1006/1011/1012/1013 only.
    socket = WebsocketCommunicator(application, "/ws/mesa/no-existe/")
    connected, _ = await socket.connect()
    assert connected
    closed = await socket.receive_output(timeout=ARRIVES)
    assert closed == {"type": "websocket.close", "code": 4404}


@in_event_loop
async def test_a_new_invitation_link_closes_the_spectators_sockets_and_keeps_the_players(game):
    table, ana, beto = game
    spectator = await connect(table, Person())
    player = await connect(table, beto)
    await received(spectator, 1)
    await received(player, 1)

    await sync_to_async(ana.act)(table, "enlace")

    assert await next_message(spectator) == revoked_html()
    assert (await spectator.receive_output(timeout=ARRIVES))["type"] == "websocket.close"
    html = await received(player, 1)
    assert cards_shown(panel(html)) == set(BETO_HAND)
    await player.disconnect()


@in_event_loop
async def test_pages_connecting_together_share_a_greeting_yet_each_seat_sees_only_its_hand(game):
    # Sockets that connect together are greeted in one batch, from one render per audience.
    table, ana, beto = game
    viewers = [ana, beto, Person(), ana, None, beto]
    sockets = await asyncio.gather(*(connect(table, viewer) for viewer in viewers))

    shown = [await received(socket, 1) for socket in sockets]

    assert cards_shown(panel(shown[0])) == cards_shown(panel(shown[3])) == set(ANA_HAND)
    assert cards_shown(panel(shown[1])) == cards_shown(panel(shown[5])) == set(BETO_HAND)
    for watcher in (shown[2], shown[4]):
        assert cards_shown(panel(watcher)) == set()
        assert not cards_shown(watcher) & (set(ANA_HAND) | set(BETO_HAND))
    assert {version_shown(html) for html in shown} == {table.version}
    for socket in sockets:
        await socket.disconnect()


@in_event_loop
async def test_a_page_reconnecting_after_a_move_gets_the_table_as_it_is_now(game):
    table, ana, beto = game
    first = await connect(table, ana)
    await received(first, 1)
    await first.disconnect()  # the table's last page: what was kept for it goes
    version = table.version

    await sync_to_async(beto.move)(table, "5H", version)
    again = await connect(table, ana)

    html = await received(again, 1)
    assert version_shown(html) == version + 1
    assert cards_shown(board(html)) == {"5H"}
    await again.disconnect()


@in_event_loop
async def test_a_move_reaches_its_answer_its_push_its_greeting_and_a_catch_up_in_the_same_bytes(
    game,
):
    table, ana, beto = game
    socket = await connect(table, beto)
    await received(socket, 1)

    answer = await sync_to_async(beto.move)(table, "5H", table.version)
    pushed = await received(socket, 1)
    later = await connect(table, beto)
    greeted = await received(later, 1)
    _, caught_up = await sync_to_async(viewer_html)(table.pk, 1, "es")

    assert version_shown(pushed) == table.version + 1
    assert pushed.rstrip().endswith("</section>") and panel(pushed) and board(pushed)
    assert answer.content.decode().startswith(pushed)
    assert greeted.startswith(pushed)
    assert caught_up == pushed
    for page in (socket, later):
        await page.disconnect()
