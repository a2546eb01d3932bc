"""`tables.live.catch_up`: the look at the open pages' tables reads each one's version."""

from __future__ import annotations

import pytest

from tables.live.catch_up import _versions
from tables.models import Table

from .helpers import started

pytestmark = pytest.mark.django_db


def test_the_look_reads_the_version_of_each_table_asked_for_and_only_those():
    first, _ = started("Ana", "Beto")
    second, _ = started("Carla", "Dani")
    third, _ = started("Eva", "Fede")
    Table.objects.filter(pk=second.pk).update(version=41)

    assert _versions([first.pk, second.pk, 10**9]) == {
        first.pk: Table.objects.get(pk=first.pk).version,
        second.pk: 41,
    }
    assert _versions([third.pk]) == {third.pk: Table.objects.get(pk=third.pk).version}
    assert _versions([]) == {}
