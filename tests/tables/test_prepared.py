"""`tables.prepared`: the reads of every move, compiled once and run like their querysets."""

from __future__ import annotations

import pytest
from django.db.models import Q

from tables.models import Seat, Table
from tables.prepared import Prepared

from .helpers import lobby, started

pytestmark = pytest.mark.django_db


def test_a_prepared_query_gives_what_its_queryset_gives_and_is_built_once():
    first, _ = lobby("Ana", "Beto")
    second, _ = lobby("Caro", "Dani", "Eva")
    built = []

    def seats_of(table_id):
        return Seat.objects.filter(table_id=table_id).order_by("number")

    prepared = Prepared(lambda table_id: built.append(table_id) or seats_of(table_id))

    for table in (first, second, first):
        assert list(prepared(table.pk)) == list(seats_of(table.pk))
    assert built == [first.pk]  # built once, on its first run


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_a_prepared_query_makes_its_models_as_the_queryset_does_every_field_converted():
    table, _ = started("Ana", "Beto")  # a table in play: times, JSON, the game's state
    whole = Prepared(lambda table_id: Table.objects.filter(pk=table_id))

    (found,) = whole(table.pk)

    expected = Table.objects.get(pk=table.pk)
    assert expected.round_state and expected.created_at  # things to convert, both
    assert fields(found) == fields(expected)
    assert found._state.db == "default" and not found._state.adding


def test_a_prepared_query_leaves_out_what_its_queryset_leaves_out():
    table, _ = lobby("Ana", "Beto")
    by_code = Prepared(
        lambda code: Table.objects.filter(Q(code=code) | Q(player_code=code))
        .only("id", "version")[:1]
    )

    for code in (table.code, table.player_code):
        (found,) = by_code(code)
        assert (found.pk, found.version) == (table.pk, table.version)
        assert found.get_deferred_fields() >= {"round_state", "match_state"}
    assert list(by_code("no-such-code")) == []


def test_a_query_with_a_value_of_its_own_is_refused():
    table, _ = lobby("Ana", "Beto")
    prepared = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id, name="Ana"))

    with pytest.raises(ValueError):
        list(prepared(table.pk))
