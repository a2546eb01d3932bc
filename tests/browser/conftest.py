"""Browser tests: Debian's Chromium driven by Playwright against a real server."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.browser.chromium import CHROMIUM_ARGS, DESKTOP, WAIT_MS
from tests.live import Servers, live_servers

# Every page keeps a short log of what htmx did (requests and their answers, fragments swapped,
# the socket), which a failing wait prints (helpers.page_report): what happened, not a guess.
EVENT_LOG = Path(__file__).with_name("event_log.js")


@pytest.fixture(scope="session")
def browser() -> Browser:
    """One Chromium for the whole run (Playwright's sync API allows one at a time)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Browser):
    """Pages in separate browser contexts: separate cookies, as separate people."""
    contexts = []

    def make(viewport: dict | None = None, **kwargs):
        context = browser.new_context(viewport=viewport or DESKTOP, **kwargs)
        context.set_default_timeout(WAIT_MS)
        context.add_init_script(path=EVENT_LOG)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def servers() -> Servers:
    with live_servers(1, ROBOT_DELAY="0.15") as running:
        yield running


@pytest.fixture(scope="session")
def server_url(servers: Servers) -> str:
    return servers[0]
