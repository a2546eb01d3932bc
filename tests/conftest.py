"""The tiers of the suite: the engine and the robots (tests/engine, tests/bots: pure Python, no
Django, no browser; `make test-fast`), the server (Django, its database, real websockets:
tests/server_tier.py's fixtures) and the browser (tests/browser: real Chromium)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.has_plugin("django"):
        config.pluginmanager.import_plugin("tests.server_tier")
    # WhiteNoise warns on every request when `collectstatic` has not been run (STATIC_ROOT).
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")
    # Django 5.2's own {% csrf_token %} calls format_html("") for the "NOTPROVIDED" token that
    # pushed fragments use (tables.audiences.render): Django's deprecation, not this project's call.
    config.addinivalue_line(
        "filterwarnings", "ignore:Calling format_html\\(\\) without passing args:DeprecationWarning"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that drives Chromium is a browser test (`-m "not browser"` skips them)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
