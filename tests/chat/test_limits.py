"""How often one may write in the chat binds the person, not a cookie they can drop.

Posts are forged as a stranger with the link would forge them: plain HTTP with real cookies
(only a CSRF cookie, or a seated guest's cookie captured before their first message), CSRF
checks on, each from a chosen address.
"""

from __future__ import annotations

import pytest
from django.test import Client

from chat.models import ChatMessage
from tests.tables.helpers import Person, lobby, new_address, started

from .helpers import say

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED = "Vas muy rápido: espera unos segundos"


def csrf_cookie(table_code: str, address: str) -> str:
    """The CSRF cookie a first visit to the table gives (all a curl needs to post)."""
    visitor = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    visitor.get(f"/mesa/{table_code}/")
    return visitor.cookies["csrftoken"].value


def forged_post(code: str, address: str, cookies: dict[str, str], text: str):
    """One POST from a client that keeps no cookie between posts (a fresh curl each time)."""
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    for name, value in cookies.items():
        client.cookies[name] = value
    return client.post(
        f"/mesa/{code}/chat/", {"text": text},
        headers={"HX-Request": "true", "X-CSRFToken": cookies["csrftoken"]},
    )  # fmt: skip


def test_a_spectator_who_drops_every_cookie_still_gets_five_messages_in_ten_seconds(
    ratelimit_clock,
):
    table, _ = started("Ana", "Beto")
    address = new_address()
    cookies = {"csrftoken": csrf_cookie(table.code, address)}

    answers = [forged_post(table.code, address, cookies, f"spam {n}") for n in range(30)]

    assert [a.status_code for a in answers].count(200) == 5
    assert all(a.status_code == 429 for a in answers[5:])
    assert REFUSED in answers[-1].content.decode()
    assert ChatMessage.objects.count() == 5


def test_a_seated_guests_cookie_replayed_before_any_message_is_limited_by_the_seat(ratelimit_clock):
    table, (ana, beto) = lobby("Ana", "Beto")
    captured = {name: morsel.value for name, morsel in beto.client.cookies.items()}
    captured["csrftoken"] = csrf_cookie(table.code, beto.address)

    answers = [
        forged_post(table.code, new_address(), captured, f"spam {n}") for n in range(30)
    ]  # from as many addresses as posts: the seat is what counts

    assert [a.status_code for a in answers].count(200) == 5
    assert ChatMessage.objects.filter(seat_number=1).count() == 5
    assert say(ana, table, "yo sí puedo").status_code == 200  # another seat


def test_a_seats_sixth_message_in_ten_seconds_is_refused_and_the_next_window_is_free(
    ratelimit_clock,
):
    table, (ana,) = lobby("Ana")
    for n in range(5):
        assert say(ana, table, f"mensaje {n}").status_code == 200

    refused = say(ana, table, "uno más")

    assert refused.status_code == 429 and REFUSED in refused.content.decode()
    assert ChatMessage.objects.count() == 5
    ratelimit_clock.now += 11
    assert say(ana, table, "ya pasó un rato").status_code == 200


def test_all_the_spectators_of_a_table_share_one_budget_and_the_players_keep_theirs(
    ratelimit_clock,
):
    table, (ana, _) = started("Ana", "Beto")
    crowd = [Person() for _ in range(15)]  # each from an address of their own

    answers = [say(person, table, "¡hola!") for person in crowd]

    assert [a.status_code for a in answers].count(200) == 10
    assert "Los que miran están escribiendo demasiado" in answers[-1].content.decode()
    assert say(ana, table, "bienvenidos").status_code == 200


def test_the_limits_hold_when_the_host_lets_spectators_write_again():
    table, (ana, _) = started("Ana", "Beto")
    off = ana.post(f"/mesa/{table.code}/chat/mirones/", {"allowed": "0"})
    assert off.status_code == 200
    watcher = Person()
    assert "apagó el chat" in say(watcher, table, "hola").content.decode()

    assert ana.post(f"/mesa/{table.code}/chat/mirones/", {"allowed": ["0", "1"]}).status_code == 200

    other = new_address()  # every attempt counts, the refused one too: another spectator
    answers = [say(Person(address=other), table, f"hola {n}") for n in range(8)]
    assert [a.status_code for a in answers].count(200) == 5
