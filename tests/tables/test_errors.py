"""Error answers: Spanish pages in the site's look; to htmx, a notice and never a whole page."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import Table

from .helpers import Person

pytestmark = pytest.mark.django_db

SITE_LOOK = "css/ocholoco.css"


@pytest.fixture
def production(settings) -> None:
    """Django's own error handlers answer (with DEBUG on they show its technical pages)."""
    settings.DEBUG = False


def test_a_missing_page_is_spanish_and_styled_like_the_site(production):
    response = Client().get("/no-existe/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "No encontramos esta página" in html and SITE_LOOK in html and 'lang="es"' in html
    assert "Not Found" not in html


def test_a_server_error_is_spanish_and_styled_like_the_site(production, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("tables.web.home.render", broken)
    response = Client(raise_request_exception=False).get("/")
    html = response.content.decode()
    assert response.status_code == 500
    assert "Algo falló en el servidor" in html and SITE_LOOK in html
    assert "Server Error" not in html


@pytest.mark.parametrize("debug", [True, False])
def test_a_csrf_failure_page_is_spanish_and_styled_like_the_site(settings, debug):
    settings.DEBUG = debug
    response = Client(enforce_csrf_checks=True).post("/abrir/", {"name": "Ana"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "La página caducó" in html and SITE_LOOK in html
    assert "Forbidden" not in html and "CSRF verification failed" not in html
    assert not Table.objects.exists()


def test_a_csrf_failure_to_htmx_is_a_notice_that_asks_for_a_new_token():
    response = Client(enforce_csrf_checks=True).post(
        "/abrir/", {"name": "Ana"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 403 and response["X-Csrf-Failed"] == "1"
    assert html.startswith('<div id="notice"') and 'hx-swap-oob="true"' in html
    assert "<html" not in html


def test_a_page_gets_a_fresh_csrf_token_that_works():
    client = Client(enforce_csrf_checks=True)
    response = client.get("/csrf/")
    token = response.json()["token"]
    assert response["Cache-Control"] == "no-store" and "csrftoken" in client.cookies
    opened = client.post(
        "/abrir/", {"name": "Ana", "rules": "clasico"}, headers={"X-CSRFToken": token}
    )
    assert opened.status_code == 302


def test_a_flood_of_abrir_mesa_from_one_address_is_refused_in_spanish(ratelimit_clock, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table_open": "3/h"}
    flooder = Person("Ana")
    answers = [
        flooder.post("/abrir/", {"name": "Ana", "rules": "clasico"}, htmx=False) for _ in range(6)
    ]

    assert [a.status_code for a in answers] == [302, 302, 302, 429, 429, 429]
    html = answers[-1].content.decode()
    assert "Se abrieron demasiadas mesas desde tu conexión" in html and SITE_LOOK in html
    assert Table.objects.count() == 3
    # Every browser from that address is refused (no cookie to drop), others are not.
    assert Person(address=flooder.address).post(
        "/abrir/", {"name": "Eva", "rules": "clasico"}, htmx=False
    ).status_code == 429
    assert Person("Beto").open_table()


def test_a_flood_of_sentarme_from_one_address_is_refused_with_a_notice(ratelimit_clock, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "seat_claim": "2/h"}
    tables = [Person("Ana").open_table() for _ in range(3)]
    address = Person().address
    answers = [Person("Beto", address=address).join(table) for table in tables]

    assert [a.status_code for a in answers] == [200, 200, 429]
    html = answers[-1].content.decode()
    assert "Demasiados intentos de sentarse" in html and 'id="notice"' in html
    assert tables[2].seats.count() == 1


def test_the_admin_sign_in_is_throttled_per_address(ratelimit_clock, settings, django_user_model):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "admin_login": "3/5m"}
    django_user_model.objects.create_superuser("moderadora", password="la-buena-clave-1")
    address = Person().address
    tries = [
        Client(REMOTE_ADDR=address).post(
            "/admin/login/", {"username": "moderadora", "password": f"mala-{n}"}
        )
        for n in range(4)
    ]
    assert [t.status_code for t in tries] == [200, 200, 200, 429]
    assert "Demasiados intentos de entrar" in tries[-1].content.decode()
    # Even the right password waits: the attempts are what is limited.
    right = Client(REMOTE_ADDR=address).post(
        "/admin/login/", {"username": "moderadora", "password": "la-buena-clave-1"}
    )
    assert right.status_code == 429
    elsewhere = Client(REMOTE_ADDR=Person().address).post(
        "/admin/login/", {"username": "moderadora", "password": "la-buena-clave-1"}
    )
    assert elsewhere.status_code == 302
