"""'Te toca' by Web Push, end to end against a push endpoint run by the test itself."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

import ocholoco
from tables.live import turn_alerts
from tables.management.commands.vapid_keys import new_keys
from tables.models import Presence, PushSubscription

from .helpers import Person, round_of, run_queued, started

# Alerts go out on commit: real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A push service on 127.0.0.1 that keeps what it receives (as a browser vendor's would)."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """The keys a browser makes when it subscribes (the receiving end of the encryption)."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {
            "endpoint": endpoint, "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth))


@pytest.fixture
def service(settings):
    keys = new_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = keys["public_key"], keys["private_key"]
    running = PushService()
    yield running
    running.close()


def _subscribe(person: Person, table, service: PushService) -> Browser:
    browser = Browser(f"{service.url}/push/{os.urandom(4).hex()}")
    response = person.client.post(
        f"/mesa/{table.code}/avisos/", json.dumps(browser.subscription),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return browser


def _finish_turn(person: Person, table, player: int) -> None:
    """`person` (player `player`) plays a card if one fits, else draws, until the turn passes."""
    while round_of(table).turn == player:
        moves = [str(m) for m in ocholoco.legal_moves(round_of(table))]
        play = next((m for m in moves if m not in ("draw", "pass")), moves[0])
        assert person.move(table, play).status_code == 200


def test_a_player_away_from_the_table_gets_an_encrypted_push_when_it_is_their_turn(service):
    table, (ana, beto) = started("Ana", "Beto")  # Beto is to move
    browser = _subscribe(ana, table, service)
    _finish_turn(beto, table, 1)
    assert run_queued(turn_alerts.turn_alert) == 1

    assert len(service.received) == 1
    headers, body = service.received[0]
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    payload = browser.decrypt(body)
    assert payload["title"] == "Mesa de Ana"
    assert payload["body"].startswith("Beto ") and payload["body"].endswith("te toca.")
    assert payload["url"] == f"/mesa/{table.player_code}/"  # what a new invitation keeps


def test_no_push_while_the_seat_has_the_table_open(service):
    table, (ana, beto) = started("Ana", "Beto")
    _subscribe(ana, table, service)
    Presence.objects.create(table=table, channel_name="open-tab", seat_number=0)
    _finish_turn(beto, table, 1)
    assert round_of(table).turn == 0
    assert run_queued(turn_alerts.turn_alert) == 1
    assert service.received == []


def test_one_alert_per_turn_and_none_for_a_seat_whose_person_left(service):
    table, (ana, beto) = started("Ana", "Beto")  # Beto to move: his turn began at the deal
    _subscribe(beto, table, service)
    assert beto.move(table, "draw").status_code == 200  # still his turn: no new alert
    assert run_queued(turn_alerts.turn_alert) == 0
    assert service.received == []

    assert beto.act(table, "abandonar").status_code == 200
    table.refresh_from_db()  # a robot plays his seat now
    turn_alerts.turn_alert.call(table_id=table.pk, seat_number=1, version=table.version)
    assert service.received == []


def test_only_a_seated_browser_can_subscribe_and_a_forged_subscription_is_refused(service):
    table, (ana, beto) = started("Ana", "Beto")
    stranger = Person("Carla")
    refused = stranger.client.post(
        f"/mesa/{table.code}/avisos/", json.dumps(Browser(service.url).subscription),
        content_type="application/json",
    )
    assert refused.status_code == 400 and "lugar" in refused.json()["error"]
    broken = ana.client.post(
        f"/mesa/{table.code}/avisos/", "{not json", content_type="application/json"
    )
    assert broken.status_code == 400 and "no válida" in broken.json()["error"]
    assert not PushSubscription.objects.exists()


def test_the_service_worker_and_the_manifest_are_served_for_the_whole_site():
    client = Person().client
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    assert b"notificationclick" in worker.content
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"].startswith("application/manifest+json")
    data = json.loads(manifest.content)
    assert data["scope"] == "/" and data["display"] == "standalone"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}


def test_a_push_is_worded_in_the_language_of_the_page_that_subscribed(service, settings):
    """#52: each subscription keeps its page's language; the same turn reaches an English and
    a Brazilian browser of one seat, each in its own words."""
    settings.LANGUAGES = [("es", "Español"), ("en", "English"), ("pt-br", "Português (Brasil)")]
    table, (ana, beto) = started("Ana", "Beto")  # Beto is to move
    browsers = {}
    for language in ("en", "pt-br"):
        ana.client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        browsers[language] = _subscribe(ana, table, service)
    assert sorted(PushSubscription.objects.values_list("language", flat=True)) == ["en", "pt-br"]
    _finish_turn(beto, table, 1)
    assert run_queued(turn_alerts.turn_alert) == 1
    assert len(service.received) == 2
    payloads = {}
    for _headers, body in service.received:
        for language, browser in browsers.items():
            try:
                payloads[language] = browser.decrypt(body)
            except Exception:  # noqa: BLE001, S112 (another browser's: its keys cannot read it)
                continue
    assert payloads["en"]["title"] == "Ana's table"
    assert payloads["en"]["body"].startswith("Beto ")
    assert payloads["en"]["body"].endswith(": your turn.")
    assert payloads["pt-br"]["title"] == "Mesa de Ana"
    assert payloads["pt-br"]["body"].endswith(": é a sua vez.")
