"""Scale-out: two server processes on one PostgreSQL database and one Redis share tables."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import board_version, join_table, open_table, wait_until
from tests.live import live_servers

pytestmark = [
    pytest.mark.scale,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres")
        or not os.environ.get("REDIS_URL"),
        reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL",
    ),
]


def test_a_viewer_on_one_process_sees_a_move_made_on_the_other(new_page):
    with live_servers(2, ROBOT_DELAY="0.2") as (first, second):
        host = new_page()
        url = open_table(host, first, "Ana")
        guest = new_page()
        join_table(guest, url.replace(first, second), "Beto")
        # Beto sat down through the second process; Ana's page on the first sees it.
        expect(host.locator("#board")).to_contain_text("Beto")

        before = board_version(guest)
        host.click("text=EMPEZAR LA PARTIDA")
        wait_until(
            guest, "v => parseInt(document.querySelector('#board').dataset.version) > v",
            arg=before,
        )
        expect(guest.locator("#panel .hand .card")).to_have_count(7)
