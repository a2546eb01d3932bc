"""Browser tests: Debian's Chromium driven by Playwright against a real server.

The browser itself (`browser`, `new_page`) is shared by every test folder: tests/conftest.py.
"""

from __future__ import annotations

import pytest

from tests.live import Servers, live_servers


@pytest.fixture(scope="session")
def servers() -> Servers:
    with live_servers(1, ROBOT_DELAY="0.15") as running:
        yield running


@pytest.fixture(scope="session")
def server_url(servers: Servers) -> str:
    return servers[0]
