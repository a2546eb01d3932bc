"""A deploy nobody at the table notices, in Chromium: the server goes and comes back (its
port taken again, as a proxy's address stays), the page reconnects by itself and, when the
server runs a later release, reloads into it once, at a calm moment, keeping the chat line
being written; a server of an earlier release (one not yet replaced) never makes it reload."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import uuid

from playwright.sync_api import Route, expect

from tests.browser.chromium import RECONNECT_MS
from tests.browser.helpers import open_table, page_time_passes
from tests.browser.test_optimistic import PLAY, _ana_to_move, _tap_twice
from tests.live import ROOT, free_port, fresh_database, server_env, server_processes

EARLIER = "20261205T100000Z-aaaaaaa"
LATER = "20261205T110000Z-bbbbbbb"
# A page due to reload into a later release waits a random time below 60 s (static/js/socket.js's
# SPREAD), then looks for a calm moment every second (CALM_EVERY): all of it within this long.
CALM_RELOAD_MS = 61_000


def test_a_page_reloads_into_a_later_release_once_at_a_calm_moment_keeping_its_draft(browser):
    with fresh_database() as db_env:
        prefix = f"t{uuid.uuid4().hex[:8]}"
        env = {**db_env, "CHANNEL_PREFIX": prefix, "CACHE_PREFIX": prefix}
        port = free_port()
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
        page = context.new_page()
        loads: list[str] = []
        page.on("load", lambda: loads.append(page.url))
        table = page.locator("#table-page")
        draft = page.locator("#chat-form textarea")
        release = page.locator("#release")
        # The page's clock is Playwright's (before its first load): it runs as ever, and the
        # test moves it on where the page waits by its own timers (a socket's next try, a
        # reload's spread), never further than the test would have waited for it
        # (helpers.page_time_passes).
        context.clock.install()

        with server_processes({**env, "RELEASE": EARLIER}, ports=[port]) as (url,):
            open_table(page, url, "Ana")
            expect(table).to_have_attribute("data-release", EARLIER)
            draft.fill("¿otra partida después?")  # being typed: the focus stays in the box
        loads.clear()

        with server_processes({**env, "RELEASE": LATER}, ports=[port]) as (url,):
            # Reconnected (the page's next try comes within RECONNECT_MS of its time): the
            # greeting says the later release; while the line is being typed the page stays
            # as it is, its reload's whole spread and more.
            page_time_passes(
                page, lambda: release.get_attribute("data-release") == LATER, RECONNECT_MS
            )
            expect(release).to_have_attribute("data-release", LATER)
            expect(table).to_have_attribute("data-ws", "open")
            page.clock.run_for(CALM_RELOAD_MS)
            assert table.get_attribute("data-release") == EARLIER
            assert loads == []
            # A calm moment: the player leaves the box; the page reloads into the release.
            page.locator("#board").click()
            expect(table).to_have_attribute("data-release", LATER)
            expect(draft).to_have_value("¿otra partida después?")
            expect(table).to_have_attribute("data-ws", "open")
            assert len(loads) == 1

            # A process of the earlier release beside it (a rolling deploy) leaves a page
            # reloading into the later release to it (the proxy passes it on), and serves
            # any other.
            with server_processes({**env, "RELEASE": EARLIER}) as (earlier,):
                wanted = {"Cookie": f"ocholoco_release={LATER}"}
                refused = page.request.get(earlier + "/", headers=wanted, max_redirects=0)
                assert refused.status == 503
                assert "reiniciando" in refused.text()
                assert page.request.get(url + "/", headers=wanted).status == 200
            # The page's reload has let its cookie go.
            assert "ocholoco_release" not in page.evaluate("document.cookie")

        with server_processes({**env, "RELEASE": EARLIER}, ports=[port]):
            # Only the earlier release is left (a process not yet replaced): it serves the
            # page, which stays on its release (no reload into an earlier one), its reload's
            # whole spread and more.
            page_time_passes(
                page, lambda: release.get_attribute("data-release") == EARLIER, RECONNECT_MS
            )
            expect(release).to_have_attribute("data-release", EARLIER)
            expect(table).to_have_attribute("data-ws", "open")
            page.clock.run_for(CALM_RELOAD_MS)
            assert table.get_attribute("data-release") == LATER
            assert len(loads) == 1
        context.close()


# A page its draining server closed (1012) tries again within 50 ms of its time (socket.js's
# MOVED): the server spread its closes, so the page loses no time with its socket closed.
MOVED_MS = 60


def test_a_page_its_draining_server_closed_tries_again_at_once(browser):
    """(A page whose socket is lost any other way waits up to 0.5 s first, at random: were
    that wait drawn here, this test would fail nine times in ten.)"""
    with fresh_database() as db_env:
        env = {**db_env, "CHANNEL_PREFIX": f"t{uuid.uuid4().hex[:8]}"}
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
        page = context.new_page()
        table = page.locator("#table-page")
        context.clock.install()
        with server_processes(env) as servers:
            open_table(page, servers[0], "Ana")
            # The page's time stands still from here: its timers fire only as the test moves
            # it on.
            page.clock.pause_at(page.evaluate("Date.now()") + 1000)
            servers.processes[0].send_signal(signal.SIGTERM)  # it drains: pages closed, 1012
            expect(table).to_have_attribute("data-ws", "closed")
            with page.expect_websocket() as attempt:
                page.clock.run_for(MOVED_MS)
            assert "/ws/mesa/" in attempt.value.url
        context.close()


def test_a_move_that_meets_a_restart_is_sent_again_and_made_once(new_page, servers):
    """The proxy answers 502 while the process that had the move goes away: the page says so,
    sends the move again once its socket is open, and the table makes it once."""
    page = _ana_to_move(new_page(), servers)
    version = int(page.locator("#board").get_attribute("data-version"))
    answers: list[int] = []

    def restart_once(route: Route) -> None:
        if not answers:
            answers.append(502)
            route.fulfill(status=502, body="<html><body>502 Bad Gateway</body></html>")
        else:
            answers.append(200)
            route.continue_()

    page.route(PLAY, restart_once)
    _tap_twice(page, "5H")
    expect(page.locator("#notice")).to_contain_text("se está reiniciando")
    expect(page.locator("#board .pile > .card").first).to_have_attribute("data-card", "5H")
    expect(page.locator("#panel .hand [data-card='5H']")).to_have_count(0)
    assert answers == [502, 200]
    # One move made, at the version it was made against.
    assert _moves_logged(servers, page.url, "5H") == [version + 1]


def _moves_logged(servers, url: str, move: str) -> list[int]:
    """The versions at which the table's log has `move` by a person, read by the servers'
    own settings."""
    code = url.rstrip("/").split("/")[-1]
    script = (
        "from tables.models import TableEvent; from tables.state.lookup import table_by_code\n"
        f"events = TableEvent.objects.filter(table=table_by_code({code!r}), kind='move')\n"
        f"print([e.version for e in events if e.data.get('move') == {move!r}])"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
        env=server_env(servers.env), check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])
