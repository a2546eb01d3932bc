"""What every change reads and writes (`tables.changes.unit_of_work`,
`tables.state.lookup.table_ref_or_404`, `tables.state.snapshot`): the table under its lock and
its seats as the ORM gives them, only the columns a change changed written, its events logged
with their ids."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError
from django.http import Http404

from tables.changes import unit_of_work as changing_module
from tables.changes.unit_of_work import changing
from tables.models import Seat, Table, TableEvent
from tables.state import clock
from tables.state.lookup import table_ref_or_404, tables_of_browser
from tables.state.turn_clock import tables_awaiting_turn

from .helpers import lobby, started

pytestmark = pytest.mark.django_db


def stored(instance) -> dict:
    """Every column of the row, as the instance holds it (a relation: the related row's id)."""
    fields = [f for f in type(instance)._meta.get_fields() if f.concrete]
    return {
        f.name: getattr(instance, f.name).pk if f.is_relation else getattr(instance, f.name)
        for f in fields
    }


@pytest.fixture
def played() -> Table:
    """Ana and Beto in play, with a last move and a turn deadline: JSON, times, NULLs to read."""
    table, _ = started("Ana", "Beto")
    Table.objects.filter(pk=table.pk).update(
        last_move_at=clock.now(), turn_deadline=clock.now() + timedelta(minutes=1)
    )
    return Table.objects.get(pk=table.pk)


def test_the_table_under_its_lock_and_its_seats_are_what_the_querysets_give(
    played, django_assert_num_queries
):
    expected = Table.objects.get(pk=played.pk)
    expected_seats = list(Seat.objects.filter(table=played).order_by("number"))
    assert expected.round_state and expected.turn_deadline and expected.closed_reason == ""

    with changing(played.pk) as change:
        assert change.table.get_deferred_fields() == set()  # read whole, not on demand
        assert stored(change.table) == stored(expected)
        seats = list(change.seats.values())
        assert [stored(s) for s in seats] == [stored(s) for s in expected_seats]
        with django_assert_num_queries(0):
            assert all(seat.table is change.table for seat in seats)


def test_a_change_writes_only_the_columns_it_changed(played):
    with changing(played.pk) as change:
        # Another column written meanwhile (as by hand): the change must not write it back.
        Table.objects.filter(pk=played.pk).update(closed_reason="escrito aparte")
        change.table.host_seat = 1
        change.table.match_state = {**change.table.match_state, "dealer": 1}
        change.log("host_changed", 1)

    after = Table.objects.get(pk=played.pk)
    assert after.closed_reason == "escrito aparte"
    assert after.host_seat == 1 and after.match_state["dealer"] == 1
    assert after.version == played.version + 1
    assert after.updated_at > played.updated_at  # auto_now, as save() would set it
    assert after.turn_deadline == played.turn_deadline  # the same turn: its time runs on
    change.table.closed_reason = "escrito aparte"
    assert stored(change.table) == stored(after)  # the instance as it was stored


def test_a_change_without_events_writes_nothing(played):
    with changing(played.pk) as change:
        change.table.host_seat = 1

    assert stored(Table.objects.get(pk=played.pk)) == stored(played)


def test_a_change_whose_row_is_gone_fails_and_leaves_everything_as_it_was(played):
    logged = TableEvent.objects.filter(table=played).count()

    with pytest.raises(DatabaseError), changing(played.pk) as change:
        Table.objects.filter(pk=played.pk).delete()
        change.log("link_renewed")

    assert stored(Table.objects.get(pk=played.pk)) == stored(played)
    assert TableEvent.objects.filter(table=played).count() == logged


def test_the_events_of_a_change_are_logged_in_order_and_handed_on_with_their_ids(
    played, monkeypatch: pytest.MonkeyPatch
):
    handed = []
    monkeypatch.setattr(changing_module, "table_changed", handed.append)

    with changing(played.pk) as change:
        change.log("move", 0, move="draw", events=[])
        change.log("round_over", None, points={"0": 3})

    (applied,) = handed
    events = applied.events
    assert [e.kind for e in events] == ["move", "round_over"]
    assert all(e.pk is not None for e in events) and events[0].pk < events[1].pk
    for event in events:
        assert stored(TableEvent.objects.get(pk=event.pk)) == stored(event)
        assert event.version == played.version + 1 and event.created_at is not None
    assert applied.table is change.table and applied.version == played.version + 1


def test_a_post_reads_only_the_id_version_and_links_of_the_table_its_code_names():
    table, _ = lobby("Ana", "Beto")

    for code in (table.code, table.player_code):
        ref = table_ref_or_404(code)
        assert (ref.pk, ref.code, ref.player_code, ref.version) == (
            table.pk, table.code, table.player_code, table.version
        )
        assert ref.get_deferred_fields() >= {"round_state", "match_state", "status"}
    with pytest.raises(Http404):
        table_ref_or_404("no-such-code")


def test_tables_read_together_read_their_seats_together(django_assert_num_queries):
    first, (ana, _) = started("Ana", "Beto")
    second, (_, dani, _) = started("Caro", "Dani", "Eva")
    secrets = {str(first.pk): ana.secret(first), str(second.pk): dani.secret(second)}

    with django_assert_num_queries(2):  # the tables, then all their seats
        rows = tables_of_browser(secrets)
    with django_assert_num_queries(2):
        tables_awaiting_turn()

    assert sorted([p["name"] for p in row["players"]] for row in rows) == [
        ["Ana", "Beto"], ["Caro", "Dani", "Eva"]
    ]
