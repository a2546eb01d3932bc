"""Fixtures for the table tests.

Robots never play by themselves here (ROBOTS_IN_PROCESS is off): a test plays a robot's turn
by calling `tables.services.robot_play`, so nothing depends on a thread or the clock.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tables import publish
from tables.models import Table

from .helpers import ANA_HAND, BETO_HAND, Person, deal, started


@pytest.fixture(autouse=True)
def robots_by_hand(settings: Any) -> None:
    settings.ROBOTS_IN_PROCESS = False
    layer = settings.CHANNEL_LAYERS["default"]
    if "redis" in layer["BACKEND"]:
        # A channel prefix of this test's own: another test run on the same Redis, or a group
        # of a table with the same id from an earlier test, is never heard here.
        config = {**layer.get("CONFIG", {}), "prefix": f"test-{uuid.uuid4().hex[:12]}"}
        settings.CHANNEL_LAYERS = {"default": {**layer, "CONFIG": config}}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """Every (group, html) the publisher sends over the channel layer, instead of sending it."""
    record: list[tuple[str, str]] = []
    monkeypatch.setattr(publish, "_send", lambda group, html: record.append((group, html)))
    yield record


@pytest.fixture
def game() -> tuple[Table, Person, Person]:
    """Ana and Beto in play from the scripted deal (helpers.ANA_HAND, helpers.BETO_HAND)."""
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], top="9H", stock=("4D", "KC"))
    return table, ana, beto
