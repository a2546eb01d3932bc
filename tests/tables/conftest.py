"""Fixtures for the table tests.

Robots never play by themselves here (no task worker runs in a test process): a test plays a
robot's turn by running its task (`helpers.robot_play`), so nothing depends on a thread or the
clock.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tables.live import broadcast
from tables.models import Table

from .helpers import ANA_HAND, BETO_HAND, Person, deal, started


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """Every (group, html) the publisher sends over the channel layer, instead of sending it."""
    record: list[tuple[str, str]] = []

    def send_fragments(messages, version: int = 0) -> None:
        record.extend(messages)

    monkeypatch.setattr(broadcast, "send_fragments", send_fragments)
    yield record


@pytest.fixture
def game() -> tuple[Table, Person, Person]:
    """Ana and Beto in play from the scripted deal (helpers.ANA_HAND, helpers.BETO_HAND)."""
    table, (ana, beto) = started("Ana", "Beto")
    deal(table, [ANA_HAND, BETO_HAND], top="9H", stock=("4D", "KC"))
    return table, ana, beto
