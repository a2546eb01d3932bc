"""Fixtures for the chat tests: people and tables come from tests/tables/helpers.py.

Robots never play by themselves here, and on Redis each test gets a channel prefix of its own
(as in tests/tables/conftest.py).
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("moderadora", password="x-not-used-x")
