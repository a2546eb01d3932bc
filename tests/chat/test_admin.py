"""Moderation in the Django admin: staff only, and every action through a service.

The actions are posted as the admin's own forms post them (the change list's action bar with
its reason, the table page's moderation forms), and what players see afterwards is checked on
their page and their socket.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client, RequestFactory

from chat.models import ChatMessage, ChatMute, ModerationAction
from tables.models import Table, TableEvent
from tables.web.clients import address_key
from tests.realtime import connect, in_event_loop, received
from tests.tables.helpers import Person, lobby, notice, page, robot_play, started

from .helpers import authors, chat_log, say, texts

pytestmark = pytest.mark.django_db(transaction=True)


def spectator_address(person: Person) -> str:
    """The hashed address the chat keeps for a spectator (`tables.web.clients.address_key`)."""
    request = RequestFactory().post("/", REMOTE_ADDR=person.address)
    return address_key(request)


def admin_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def act(client: Client, model: str, action: str, objects: list, reason: str = "Insultos."):
    return client.post(
        f"/admin/{model}/",
        {"action": action, "_selected_action": [o.pk for o in objects], "reason": reason},
    )


def moderate(client: Client, table: Table, action: str, **data):
    return client.post(f"/admin/tables/table/{table.pk}/moderar/", {"action": action, **data})


def test_the_admin_pages_load_for_staff_with_counts_search_and_filters(staff):
    table, (ana, _) = started("Ana", "Beto", robots=1)
    say(ana, table, "hola")
    client = admin_client(staff)

    listing = client.get("/admin/tables/table/").content.decode()
    assert table.code in listing and "Mirando ahora" in listing and "Jugando" in listing
    assert table.code in client.get("/admin/tables/table/", {"q": "Beto"}).content.decode()
    assert table.code not in client.get("/admin/tables/table/", {"q": "Zoe"}).content.decode()
    filtered = client.get("/admin/tables/table/", {"status__exact": "lobby"}).content.decode()
    assert table.code not in filtered
    detail = client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    for words in ("Beto", "Robotina", "match_started", "Moderación", "Cerrar la mesa"):
        assert words in detail
    messages = client.get("/admin/chat/chatmessage/", {"table__id__exact": table.pk})
    assert messages.status_code == 200 and "hola" in messages.content.decode()
    assert "hola" not in client.get("/admin/chat/chatmessage/", {"q": "chau"}).content.decode()
    for path in ("/admin/chat/moderationaction/", "/admin/chat/chatmute/", "/admin/"):
        assert client.get(path).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "player", "staff without permissions"])
def test_nobody_but_moderators_reaches_the_admin_or_its_actions(who, django_user_model):
    table, (ana, _) = started("Ana", "Beto")
    say(ana, table, "hola")
    client = {"anonymous": Client(), "player": ana.client}.get(who) or admin_client(
        django_user_model.objects.create_user("mirón", password="x", is_staff=True)
    )

    pages = [client.get(p) for p in ("/admin/tables/table/", "/admin/chat/chatmessage/")]
    closed = act(client, "tables/table", "close", [table])
    hidden = act(client, "chat/chatmessage", "hide", list(ChatMessage.objects.all()))
    robot = moderate(client, table, "robot", number=1, reason="x")

    for response in (*pages, closed, hidden, robot):
        assert response.status_code in (302, 403)
        if response.status_code == 302:
            assert response.url.startswith("/admin/login/")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not table.seats.get(number=1).abandoned
    assert not ChatMessage.objects.filter(hidden=True).exists()
    assert not ModerationAction.objects.exists()


def test_closing_a_table_needs_a_reason_and_leaves_it_read_only_with_the_reason(staff):
    table, (ana, beto) = started("Ana", "Beto")
    client = admin_client(staff)

    act(client, "tables/table", "close", [table], reason="  ")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not ModerationAction.objects.exists()

    act(client, "tables/table", "close", [table], reason="Nombres ofensivos.")

    table.refresh_from_db()
    assert (table.status, table.closed_reason) == ("closed", "Nombres ofensivos.")
    record = ModerationAction.objects.get()
    assert (record.actor, record.kind, record.table, record.reason) == (
        staff, "close", table, "Nombres ofensivos."
    )
    assert TableEvent.objects.filter(table=table, kind="closed").exists()
    assert "Esta mesa está cerrada." in notice(beto.move(table, "DRAW"))
    assert say(beto, table, "¿qué pasó?").status_code == 409
    assert "La mesa está cerrada: Nombres ofensivos." in page(ana, table)
    assert "La moderación cerró la mesa: Nombres ofensivos." in chat_log(page(ana, table))


def test_a_person_replaced_by_a_robot_loses_the_seat_and_a_robot_plays_it(staff):
    table, (ana, beto) = started("Ana", "Beto")
    client = admin_client(staff)

    moderate(client, table, "robot", number=1, reason="Insulta a todos.")

    seat = table.seats.get(number=1)
    assert seat.abandoned and seat.plays_as_robot and seat.name == "Beto"
    assert "No tienes un lugar en esta mesa." in notice(beto.move(table, "DRAW"))
    table.refresh_from_db()
    assert robot_play(table_id=table.pk, version=table.version)  # Beto's turn
    assert ModerationAction.objects.get().kind == "replace"
    assert "La moderación puso un robot en el lugar de Beto." in chat_log(page(ana, table))


def test_a_renamed_seat_shows_its_new_name_everywhere_including_its_old_messages(staff):
    table, (ana, beto) = lobby("Ana", "Feo")
    say(beto, table, "hola")
    client = admin_client(staff)

    moderate(client, table, "rename", number=1, name="Ana", reason="x")  # taken
    assert table.seats.get(number=1).name == "Feo"
    moderate(client, table, "rename", number=1, name="Beto", reason="Nombre ofensivo.")

    assert table.seats.get(number=1).name == "Beto"
    log = chat_log(page(ana, table))
    assert authors(log) == ["Beto"] and "Feo" not in log
    assert "La moderación cambió un nombre: ahora es Beto." in log
    assert ModerationAction.objects.get().target == "Lugar 2: «Feo» → «Beto»"


@in_event_loop
async def test_a_hidden_message_disappears_from_every_open_page_at_once_and_can_come_back(staff):
    table, (ana, beto) = await sync_to_async(started)("Ana", "Beto")
    await sync_to_async(say)(beto, table, "algo feo")
    message = await sync_to_async(ChatMessage.objects.get)()
    sockets = [await connect(table, ana), await connect(table, Person())]
    for socket in sockets:
        assert texts(await received(socket, 1)) == ["algo feo"]
    client = await sync_to_async(admin_client)(staff)

    await sync_to_async(act)(client, "chat/chatmessage", "hide", [message])

    for socket in sockets:
        html = await received(socket, 1)
        assert f'id="chat-msg-{message.pk}"' in html and 'hx-swap-oob="true"' in html
        assert " hidden" in html and "algo feo" not in html
    assert "algo feo" not in await sync_to_async(page)(ana, table)

    await sync_to_async(act)(client, "chat/chatmessage", "unhide", [message])

    for socket in sockets:
        assert texts(await received(socket, 1)) == ["algo feo"]
        await socket.disconnect()
    kinds = await sync_to_async(list)(ModerationAction.objects.values_list("kind", flat=True))
    assert sorted(kinds) == ["hide", "unhide"]


def test_a_muted_seat_or_spectator_address_cannot_write_in_that_table_only(staff):
    table, (ana, beto) = started("Ana", "Beto")
    other, _ = lobby("Carla")
    rude, polite = Person(), Person()
    for person in (beto, rude, polite):
        say(person, table, "hola")
    by_beto = ChatMessage.objects.get(seat_number=1)
    by_rude = ChatMessage.objects.get(seat_number=None, address=spectator_address(rude))
    client = admin_client(staff)

    act(client, "chat/chatmessage", "mute_author", [by_beto, by_rude])

    assert ChatMute.objects.count() == 2
    # The mute binds the spectator's address: new cookies (a fresh browser) do not shed it.
    rude_again = Person(address=rude.address)
    for person in (beto, rude, rude_again):
        refused = say(person, table, "otra vez")
        assert refused.status_code == 409 and "te silenció" in refused.content.decode()
    for person, where in ((polite, table), (ana, table), (beto, other), (rude, other)):
        assert say(person, where, "yo sí").status_code == 200

    act(client, "chat/chatmute", "unmute", list(ChatMute.objects.all()), reason="Ya pasó.")
    assert say(beto, table, "gracias").status_code == 200
    assert ModerationAction.objects.filter(kind="unmute").count() == 2


def test_the_moderation_record_can_be_read_and_never_changed_by_hand(staff):
    table, _ = started("Ana", "Beto")
    client = admin_client(staff)
    act(client, "tables/table", "close", [table], reason="Pruebas.")
    record = ModerationAction.objects.get()

    assert client.get("/admin/chat/moderationaction/add/").status_code == 403
    detail = client.get(f"/admin/chat/moderationaction/{record.pk}/change/").content.decode()
    assert "Pruebas." in detail and 'name="_save"' not in detail
    deleted = client.post(f"/admin/chat/moderationaction/{record.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 403 and ModerationAction.objects.count() == 1
    assert client.get("/admin/tables/table/add/").status_code == 403


@in_event_loop
async def test_a_page_connecting_after_a_message_or_a_hidden_one_gets_the_log_as_it_is_now(staff):
    # The greeting's log is kept while it stays the same: a message, or one hidden, is news.
    table, (ana, beto) = await sync_to_async(started)("Ana", "Beto")
    await sync_to_async(say)(ana, table, "hola")
    keeping = await connect(table, beto)  # the table keeps a page open: its log is kept
    assert texts(chat_log(await received(keeping, 1))) == ["hola"]

    await sync_to_async(say)(ana, table, "algo feo")
    late = await connect(table, Person())
    assert texts(chat_log(await received(late, 1))) == ["hola", "algo feo"]

    message = await sync_to_async(ChatMessage.objects.get)(text="algo feo")
    client = await sync_to_async(admin_client)(staff)
    await sync_to_async(act)(client, "chat/chatmessage", "hide", [message])
    later = await connect(table, Person())
    log = chat_log(await received(later, 1))
    assert "algo feo" not in log and " hidden" in log
    for socket in (keeping, late, later):
        await socket.disconnect()


@in_event_loop
async def test_the_kept_log_knows_which_messages_are_hidden_not_just_how_many(staff):
    # Hidden {1st, 4th}, then {2nd, 3rd}: as many, and their ids add up the same.
    table, (ana, beto) = await sync_to_async(started)("Ana", "Beto")
    for text in ("uno", "dos", "tres", "cuatro"):
        await sync_to_async(say)(ana, table, text)
    messages = await sync_to_async(list)(ChatMessage.objects.order_by("pk"))
    client = await sync_to_async(admin_client)(staff)
    await sync_to_async(act)(client, "chat/chatmessage", "hide", [messages[0], messages[3]])
    keeping = await connect(table, beto)
    assert texts(chat_log(await received(keeping, 1))) == ["dos", "tres"]

    await sync_to_async(act)(client, "chat/chatmessage", "unhide", [messages[0], messages[3]])
    await sync_to_async(act)(client, "chat/chatmessage", "hide", [messages[1], messages[2]])
    later = await connect(table, Person())

    assert texts(chat_log(await received(later, 1))) == ["uno", "cuatro"]
    for socket in (keeping, later):
        await socket.disconnect()
