"""Fixtures for the chat tests: people and tables come from tests/tables/helpers.py.

Robots never play by themselves here, and on Redis each test gets a channel prefix of its own
(as in tests/tables/conftest.py). The browser fixtures come from tests/conftest.py.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def robots_by_hand(settings: Any) -> None:
    settings.ROBOTS_IN_PROCESS = False
    layer = settings.CHANNEL_LAYERS["default"]
    if "redis" in layer["BACKEND"]:
        config = {**layer.get("CONFIG", {}), "prefix": f"test-{uuid.uuid4().hex[:12]}"}
        settings.CHANNEL_LAYERS = {"default": {**layer, "CONFIG": config}}


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("moderadora", password="x-not-used-x")
