"""A robot's turn left pending when the server stops is played when it starts again."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.browser.helpers import open_table, wait_until
from tests.live import fresh_database, server_processes


def test_a_robot_turn_left_pending_is_played_after_the_server_restarts(browser):
    with fresh_database() as db_env:
        env = {**db_env, "CHANNEL_PREFIX": f"t{uuid.uuid4().hex[:8]}", "ROBOT_DELAY": "0.1"}
        context = browser.new_context(locale="es-ES")
        page = context.new_page()
        # A server without task workers: the robot's turn stays queued.
        with server_processes({**env, "TASK_WORKERS": "0"}) as (url,):
            table_url = open_table(page, url, "Ana")
            page.click("text=AGREGAR ROBOT")
            expect(page.locator("#board .badge")).to_have_count(1)
            page.click("text=EMPEZAR LA PARTIDA")
            expect(page.locator("#panel .hand .card")).to_have_count(7)
            # The host deals the first round, so the robot plays first (classic rules: no
            # opening card changes that).
            expect(page.locator("#board .player.seat-1")).to_have_class(re.compile("is-turn"))
            version = int(page.locator("#board").get_attribute("data-version"))
            path = table_url.removeprefix(url)
        with server_processes({**env, "TASK_WORKERS": "1"}) as (url,):
            page.goto(url + path)
            wait_until(
                page, "v => parseInt(document.querySelector('#board').dataset.version) > v",
                arg=version,
            )
            expect(page.locator("#board .last-moves")).to_contain_text("Robotina")
        context.close()
