"""The chat in real Chromium against a real server: a player and a spectator talk, and a
moderator hides a message in the admin; it disappears from both pages at once."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.chromium import PHONE
from tests.browser.helpers import open_table
from tests.live import ROOT, fresh_database, server_processes

pytestmark = pytest.mark.browser

STAFF, PASSWORD = "moderadora", "una-clave-de-prueba-9"


@pytest.fixture(scope="module")
def server_with_staff() -> Iterator[str]:
    """A server on a fresh database that has a staff account (made by createsuperuser)."""
    with fresh_database() as db_env:
        env = {**db_env, "CHANNEL_PREFIX": f"t{uuid.uuid4().hex[:8]}", "ROBOT_DELAY": "0.15"}
        subprocess.run(
            [sys.executable, "manage.py", "createsuperuser", "--noinput",
             "--username", STAFF, "--email", "moderacion@example.com"],
            cwd=ROOT, env={**os.environ, **env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD},
            check=True, capture_output=True,
        )  # fmt: skip
        with server_processes(env) as urls:
            yield urls[0]


def write(page: Page, text: str) -> None:
    page.fill("#chat-form textarea", text)
    page.press("#chat-form textarea", "Enter")
    expect(page.locator("#chat-form textarea")).to_have_value("")


def test_a_player_and_a_spectator_chat_and_a_hidden_message_disappears_from_both(
    new_page, server_with_staff
):
    player = new_page()
    url = open_table(player, server_with_staff, "Ana")
    player.click("text=AGREGAR ROBOT")
    player.click("text=EMPEZAR LA PARTIDA")
    expect(player.locator("#chat-log")).to_contain_text("Empezó la partida.")
    spectator = new_page(PHONE, has_touch=True)
    spectator.goto(url)
    expect(spectator.locator("#table-page")).to_have_attribute("data-ws", "open")
    expect(spectator.locator("#chat")).to_be_hidden()  # behind the button on a phone

    write(player, "<b>¡Hola!</b> ¿alguien mira?")

    expect(player.locator("#chat-log .chat-msg")).to_have_count(1)
    badge = spectator.locator("[data-chat-unread]")
    expect(badge).to_have_text("1")
    spectator.click("[data-chat-toggle]")
    expect(spectator.locator("#chat")).to_be_visible()
    expect(badge).to_be_hidden()
    message = spectator.locator("#chat-log .chat-msg")
    expect(message.locator(".chat-text")).to_have_text("<b>¡Hola!</b> ¿alguien mira?")
    expect(message.locator(".chat-author")).to_have_text("Ana")

    spectator.fill("#chat-form input[name=name]", "Tía Rosa")
    write(spectator, "Yo miro, ¡suerte!")
    rude = "esto es un insulto"
    write(spectator, rude)
    for page in (player, spectator):
        expect(page.locator("#chat-log .chat-msg")).to_have_count(3)
        expect(page.locator("#chat-log .chat-msg").nth(1)).to_contain_text("Tía Rosa")
        expect(page.locator("#chat-log .chat-msg").nth(1)).to_contain_text("mirando")
        expect(page.locator("#chat-log")).to_contain_text(rude)

    moderator = new_page()
    moderator.goto(server_with_staff + "/admin/")
    moderator.fill("input[name=username]", STAFF)
    moderator.fill("input[name=password]", PASSWORD)
    moderator.press("input[name=password]", "Enter")
    moderator.goto(server_with_staff + "/admin/chat/chatmessage/?q=insulto")
    moderator.check("input[name=_selected_action]")
    moderator.select_option("select[name=action]", "hide")
    moderator.fill("input[name=reason]", "Insulto.")
    moderator.click("button[name=index]")
    expect(moderator.locator(".messagelist")).to_contain_text("Mensajes ocultos: 1.")

    for page in (player, spectator):
        expect(page.locator("#chat-log")).not_to_contain_text(rude)
        expect(page.locator("#chat-log .chat-msg:visible")).to_have_count(2)
    player.reload()
    expect(player.locator("#chat-log")).not_to_contain_text(rude)
    expect(player.locator("#chat-log")).to_contain_text("Yo miro, ¡suerte!")
