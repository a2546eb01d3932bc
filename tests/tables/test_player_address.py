"""A table has two addresses: the invitation, which the host may renew, and the players' own,
which never changes. Renewing the invitation stops new people and the watchers who came by
it; every seated player's page and URL go on working."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from chat.models import ChatMessage
from tables.live.socket import revoked_html
from tests.realtime import ARRIVES, connect, in_event_loop, next_message, received

from .helpers import BETO_HAND, Person, cards_shown, lobby, panel

pytestmark = pytest.mark.django_db(transaction=True)


def renew(host: Person, table) -> None:
    assert host.post(f"/mesa/{table.player_code}/enlace/").status_code == 200
    table.refresh_from_db()


def test_a_seated_browser_is_sent_to_the_players_address_and_a_visitor_stays_on_the_invitation(
    game,
):
    table, _, beto = game
    response = beto.get(f"/mesa/{table.code}/")
    assert response.status_code == 302 and response.url == f"/mesa/{table.player_code}/"
    assert Person().get(f"/mesa/{table.code}/").status_code == 200


def test_after_a_new_invitation_every_seated_action_at_the_players_address_still_works(game):
    table, ana, beto = game
    players, old = table.player_code, table.code
    renew(ana, table)
    assert table.code != old

    page = beto.get(f"/mesa/{players}/")
    assert page.status_code == 200 and cards_shown(panel(page.content.decode())) == set(BETO_HAND)
    moved = beto.post(f"/mesa/{players}/jugar/", {"move": "5H", "version": table.version})
    assert moved.status_code == 200
    assert beto.post(f"/mesa/{players}/chat/", {"text": "sigo aquí"}).status_code == 200
    assert ChatMessage.objects.get().author_name == "Beto"
    assert beto.get(f"/mesa/{players}/registro/").status_code == 200
    left = beto.post(f"/mesa/{players}/abandonar/")
    assert left.status_code == 200 and left.headers["HX-Redirect"] == f"/mesa/{players}/"
    # The old invitation is gone for everyone, players included.
    assert beto.get(f"/mesa/{old}/").status_code == 404


def test_the_volver_link_still_leads_to_the_seat_after_a_new_invitation(game):
    table, ana, beto = game
    secret = beto.secret(table)
    renew(ana, table)
    phone = Person()
    response = phone.get(f"/volver/{secret}/")
    assert response.status_code == 302 and response.url == f"/mesa/{table.player_code}/"


def test_the_page_posts_to_the_address_it_was_loaded_from_and_shows_the_players_one_to_no_one_else(
    game,
):
    table, ana, beto = game
    seated = beto.get(f"/mesa/{table.player_code}/").content.decode()
    assert 'hx-post="jugar/"' in seated and 'hx-post="chat/"' in seated
    assert f"/mesa/{table.code}/jugar/" not in seated
    assert f'ws-connect="/ws/mesa/{table.player_code}/"' in seated

    watching = Person().get(f"/mesa/{table.code}/").content.decode()
    assert table.player_code not in watching
    assert f'ws-connect="/ws/mesa/{table.code}/"' in watching


def test_only_the_current_invitation_seats_a_newcomer():
    table, (ana,) = lobby("Ana")
    old = table.code
    by_players_address = Person("Beto").post(
        f"/mesa/{table.player_code}/sentarse/", {"name": "Beto"}
    )
    assert by_players_address.status_code == 409
    assert "hace falta el enlace de invitación" in by_players_address.content.decode()

    renew(ana, table)

    assert Person("Carla").post(f"/mesa/{old}/sentarse/", {"name": "Carla"}).status_code == 404
    assert Person("Dani").join(table).status_code == 200
    assert sorted(table.seats.values_list("name", flat=True)) == ["Ana", "Dani"]


@in_event_loop
async def test_a_new_invitation_stops_the_watchers_who_came_by_the_old_one_only(game):
    table, ana, beto = game
    watcher = await connect(table, Person())
    player = await connect(table, beto, code=table.player_code)
    await received(watcher, 1)
    await received(player, 1)

    await sync_to_async(renew)(ana, table)

    assert await next_message(watcher) == revoked_html()
    assert (await watcher.receive_output(timeout=ARRIVES))["type"] == "websocket.close"
    html = await received(player, 1)  # one frame per viewer
    assert cards_shown(panel(html)) == set(BETO_HAND)
    assert f'data-invitation="/mesa/{table.code}/"' in html  # the menu shows the new link
    assert not re.search(r"/mesa/[\w-]+/(?:jugar|chat)/", html)  # fragments carry no address
    await player.disconnect()
