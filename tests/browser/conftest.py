"""Browser tests: Debian's Chromium driven by Playwright against a real server."""

from __future__ import annotations

import re
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


# What Chromium writes to the console when an answer is an error status or a connection fails:
# the network's doing, which the tests of refusals and restarts cause on purpose (the page
# shows its own notice). Any other console error (a script's, a Content-Security-Policy
# violation, an exception) fails the test.
# htmx says the same of its requests (a send that failed, a timeout, an error status), in its
# own words.
NETWORK_ERRORS = re.compile(
    r"^(Failed to load resource: |WebSocket connection to '[^']+' failed"
    r"|htmx:(sendError|sendAbort|timeout|responseError|afterRequest), )"
)
# htmx's socket extension logs a socket's failure (a server that stopped while a page was open,
# as when a test's own servers stop before its pages close) as the bare event it got.
SOCKET_FAILED = "[object Event]"


def network_error(message) -> bool:
    """Whether a console message is the network's doing (see NETWORK_ERRORS)."""
    if message.text == SOCKET_FAILED:
        return message.location.get("url", "").endswith("/django_htmx/htmx-2.min.js")
    return bool(NETWORK_ERRORS.match(message.text))


@pytest.fixture
def new_page(browser: Browser, request: pytest.FixtureRequest):
    """Pages in separate browser contexts: separate cookies, as separate people. A test fails
    on any error its pages write to the console or throw (but the network's answers)."""
    contexts = []
    errors: list[str] = []

    def make(viewport: dict | None = None, **kwargs):
        # A Spanish browser unless the test says otherwise (`locale="en-US"`): the site
        # offers three languages and follows the browser's.
        kwargs.setdefault("locale", "es-ES")
        context = browser.new_context(viewport=viewport or DESKTOP, **kwargs)
        context.set_default_timeout(WAIT_MS)
        context.add_init_script(path=EVENT_LOG)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda message: errors.append(
            f"{page.url}: {message.text} (at {message.location})"
        ) if message.type == "error" and not network_error(message) else None)
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        return page

    yield make
    for context in contexts:
        context.close()
    allowed = [re.compile(p) for m in request.node.iter_markers("console_allows") for p in m.args]
    errors = [e for e in errors if not any(p.search(e) for p in allowed)]
    failed = request.node.stash.get(FAILED, False)
    if errors and not failed:
        pytest.fail("console errors:\n" + "\n".join(errors[:20]), pytrace=False)


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Whether the test itself failed (its console errors are then part of that story)."""
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture(scope="session")
def servers() -> Servers:
    with live_servers(1, ROBOT_DELAY="0.15") as running:
        yield running


@pytest.fixture(scope="session")
def server_url(servers: Servers) -> str:
    return servers[0]
