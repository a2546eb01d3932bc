"""`tables.prepared`: the reads and writes of every move, their SQL written once, and run like
the querysets and saves they stand for."""

from __future__ import annotations

import pytest
from django.db import DatabaseError
from django.db.models import F, Q

from tables import clock
from tables.models import Seat, Table, TableEvent
from tables.prepared import Prepared, column_by_id, insert_rows, update_fields

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


def test_updating_fields_writes_what_save_writes_none_and_json_and_times_included():
    table, _ = started("Ana", "Beto")
    other, _ = started("Caro", "Dani")
    before = fields(Table.objects.get(pk=other.pk))
    for deadline in (clock.now(), None):  # a value, then NULL: the same statement serves both
        table.turn_deadline, table.version = deadline, table.version + 1
        table.round_state = {**table.round_state, "turn": 1}
        updated_before = table.updated_at

        update_fields(table, ["turn_deadline", "version", "round_state", "updated_at"])

        stored = Table.objects.get(pk=table.pk)
        assert fields(stored) == fields(table)  # every field as the instance has it
        assert stored.turn_deadline == deadline and stored.round_state["turn"] == 1
        assert stored.updated_at > updated_before  # auto_now, as save() sets it
    assert fields(Table.objects.get(pk=other.pk)) == before  # only its own row


def test_updating_fields_of_a_row_that_is_gone_or_with_an_expression_is_refused():
    table, _ = lobby("Ana", "Beto")
    gone = Table.objects.get(pk=table.pk)
    Table.objects.filter(pk=table.pk).delete()
    with pytest.raises(DatabaseError):
        update_fields(gone, ["version"])

    kept, _ = lobby("Caro", "Dani")
    kept.version = F("version") + 1
    with pytest.raises(TypeError):
        update_fields(kept, ["version"])
    with pytest.raises(ValueError):
        update_fields(kept, ["id"])
    update_fields(kept, [])  # as save(update_fields=[]): nothing written, nothing refused


def test_inserted_rows_get_their_ids_and_read_back_as_bulk_create_writes_them():
    table, _ = started("Ana", "Beto")
    rows = [
        TableEvent(table=table, version=90, kind="move", seat=0, data={"move": "5H", "events": []}),
        TableEvent(table=table, version=90, kind="round_over", seat=None, data={"points": {}}),
    ]
    twins = [
        TableEvent(table=table, version=91, kind=row.kind, seat=row.seat, data=row.data)
        for row in rows
    ]

    inserted = insert_rows(rows)
    TableEvent.objects.bulk_create(twins)

    assert inserted == rows and all(row.pk and not row._state.adding for row in rows)
    assert rows[0].pk < rows[1].pk  # in order, as a change logs them
    for row, twin in zip(rows, twins, strict=True):
        stored = TableEvent.objects.get(pk=row.pk)
        assert fields(stored) == fields(row)
        assert (stored.kind, stored.seat, stored.data) == (twin.kind, twin.seat, twin.data)
        assert stored.created_at is not None
    assert insert_rows([]) == []


def test_a_database_that_returns_no_ids_from_an_insert_is_refused_and_nothing_written(
    monkeypatch: pytest.MonkeyPatch,
):
    from django.db import connection

    table, _ = started("Ana", "Beto")
    logged = TableEvent.objects.filter(table=table).count()
    monkeypatch.setattr(connection.features, "can_return_columns_from_insert", False)
    rows = [TableEvent(table=table, version=92, kind="move", seat=1, data={"move": "draw"})]

    with pytest.raises(DatabaseError):
        insert_rows(rows)
    assert rows[0].pk is None and TableEvent.objects.filter(table=table).count() == logged


def test_a_column_by_id_is_what_values_list_gives_for_the_rows_asked_for():
    tables = [started("Ana", "Beto")[0], started("Caro", "Dani")[0], lobby("Eva")[0]]
    Table.objects.filter(pk=tables[1].pk).update(version=41)
    asked = [tables[0].pk, tables[1].pk, 10**9]

    assert column_by_id(Table, "version", asked) == dict(
        Table.objects.filter(pk__in=asked).values_list("pk", "version")
    ) == {tables[0].pk: Table.objects.get(pk=tables[0].pk).version, tables[1].pk: 41}
    assert column_by_id(Seat, "number", [s.pk for s in tables[2].seats.all()]) == {
        s.pk: s.number for s in tables[2].seats.all()
    }
    assert column_by_id(Table, "version", []) == {}
