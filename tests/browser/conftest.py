"""Browser tests: Debian's Chromium driven by Playwright against a real daphne server."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from tests.live import daphne_servers

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
PHONE = {"width": 390, "height": 844}
# Two cores are shared by the server, Chromium and the tests: give the page time.
expect.set_options(timeout=10_000)
DESKTOP = {"width": 1440, "height": 900}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def server_url() -> str:
    with daphne_servers(1, ROBOT_DELAY="0.15") as urls:
        yield urls[0]


@pytest.fixture(scope="session")
def browser() -> Browser:
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
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
